package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/batchlas/batchlas"
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

// TestRefArmAbsent: a ref arm that the build lacks (the host build registers no vendor
// reference) is an error naming it, and an op without reference routines says so too; no
// timing is reported for either.
func TestRefArmAbsent(t *testing.T) {
	q, err := batchlas.NewQueue(batchlas.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	for _, op := range []string{"geqrf", "potrf"} {
		rs, err := measure(q, job{op: op, dtype: "f64", n: 4, batch: 3}, []string{"ref:cublas"}, 1)
		if err == nil || !strings.Contains(err.Error(), `no reference routine "cublas"`) {
			t.Errorf("%s with ref:cublas on the host: results %v, error %v; want the missing routine named", op, rs, err)
		}
	}
}
