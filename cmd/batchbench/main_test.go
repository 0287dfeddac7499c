package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/internal/vendorref"
)

// TestWriteJSONNonFinite records a failed verification (residual +Inf) and a call too fast
// to time (median 0): the line must still be written, with nulls.
func TestWriteJSONNonFinite(t *testing.T) {
	var buf bytes.Buffer
	r := result{job: job{op: "potrf", dtype: "f64", n: 0, batch: 7}, arm: "auto", order: "AB",
		median: 0, spread: math.NaN(), resid: math.Inf(1), bytes: 8, flops: 1}
	if err := writeJSON(&buf, meta{device: "cpu (cpu)"}, r); err != nil {
		t.Fatalf("writeJSON: %v", err)
	}
	var got map[string]any
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("line %q: %v", buf.String(), err)
	}
	if got["verify_err"] != nil || got["verified"] != false {
		t.Errorf("verify_err %v, verified %v; want null, false", got["verify_err"], got["verified"])
	}
}

// TestRegistryVerifies runs every op of the registry in every dtype once on the host: the
// output must verify, and the restored, unrun inputs must not, so that verify checks what the
// op computes.
func TestRegistryVerifies(t *testing.T) {
	q, err := batchlas.NewQueue(batchlas.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	for _, op := range opNames() {
		for dtype, i := range dtypeIndex {
			t.Run(op+"/"+dtype, func(t *testing.T) {
				b, err := registry[op].make[i](q, 4, 3)
				if err != nil {
					t.Fatal(err)
				}
				defer b.free()
				for _, run := range []bool{false, true} {
					if err := b.reset(); err != nil {
						t.Fatal(err)
					}
					if run {
						if err := b.run(); err != nil {
							t.Fatal(err)
						}
					}
					r, err := b.verify()
					if err != nil {
						t.Fatal(err)
					}
					if (r <= verifyTol) != run {
						t.Errorf("run %v: residual %.3g", run, r)
					}
				}
			})
		}
	}
}

// TestRefArmAbsent: on the host, a ref arm is a failed result that says why, with no timing
// and not verified: potrf has no reference routine; geqrf's cublas one is missing from a
// build without CUDA and, in the cuda build, refuses a host queue.
func TestRefArmAbsent(t *testing.T) {
	q, err := batchlas.NewQueue(batchlas.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	geqrfWant := `no reference routine "cublas"`
	if vendorref.GeqrfBatched != nil {
		geqrfWant = "needs a CUDA queue"
	}
	for op, want := range map[string]string{"potrf": `no reference routine "cublas"`, "geqrf": geqrfWant} {
		rs, err := measure(q, job{op: op, dtype: "f64", n: 4, batch: 3}, []string{"ref:cublas"}, 1)
		if err != nil || len(rs) != 1 || rs[0].err == nil || !strings.Contains(rs[0].err.Error(), want) ||
			rs[0].verified || rs[0].median != 0 {
			t.Errorf("%s with ref:cublas on the host: results %v, error %v; want one failed result saying %q", op, rs, err, want)
		}
	}
}
