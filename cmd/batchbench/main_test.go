package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
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

// TestHelpIsNotAnError: -h prints the usage and main exits 0 on flag.ErrHelp.
func TestHelpIsNotAnError(t *testing.T) {
	if _, err := parseFlags([]string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v, want flag.ErrHelp", err)
	}
	if _, err := parseFlags([]string{"-from", "x.jsonl"}); err == nil {
		t.Errorf("-from without -plot was accepted")
	}
}

// TestTableExplainsItself runs one small job on the host: the output must start with the
// device line, name the backend as -backend does, and end with a legend of every column.
func TestTableExplainsItself(t *testing.T) {
	cfg, err := parseFlags([]string{"-backend", "host", "-op", "potrf", "-n", "4", "-batch", "3", "-reps", "1",
		"-plot", filepath.Join(t.TempDir(), "p.svg")})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(cfg, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	if !strings.HasPrefix(lines[0], "device: cpu (cpu), backend host") {
		t.Errorf("first line %q, want the device line", lines[0])
	}
	if f := strings.Fields(lines[2]); len(f) < 7 || f[4] != "host" || f[6] != "-" {
		t.Errorf("row %q: want backend host and order - for one arm", lines[2])
	}
	for _, col := range strings.Fields(lines[1]) {
		if col == "GB/s" { // explained beside GFLOP/s
			continue
		}
		if !strings.Contains(out.String(), "\n  "+col) && !strings.Contains(out.String(), ", "+col) && !strings.Contains(out.String(), "  "+col+",") {
			t.Errorf("column %q has no legend entry", col)
		}
	}
	if !strings.Contains(out.String(), "residual <= 30") || !strings.Contains(out.String(), "n*eps*||A||") {
		t.Errorf("the legend does not give the residual's scaling and threshold:\n%s", out.String())
	}
}

// TestPlot draws committed-style JSON lines: every arm and the roof get a legend entry.
func TestPlot(t *testing.T) {
	var buf bytes.Buffer
	for _, r := range []result{
		{job: job{op: "potrf", dtype: "f32", n: 8, batch: 64}, arm: "vendor", order: "AB", median: 2, bytes: 1e6},
		{job: job{op: "potrf", dtype: "f32", n: 16, batch: 64}, arm: "vendor", order: "AB", median: 3, bytes: 4e6},
		{job: job{op: "potrf", dtype: "f32", n: 8, batch: 64}, arm: "tiny", order: "AB", median: 1, bytes: 1e6},
		{job: job{op: "potrf", dtype: "f32", n: 16, batch: 64}, arm: "tiny", order: "AB", median: 1.5, bytes: 4e6},
	} {
		if err := writeJSON(&buf, meta{device: "NVIDIA H200 (sm_90)"}, r); err != nil {
			t.Fatal(err)
		}
	}
	ps, err := readPoints(&buf)
	if err != nil || len(ps) != 4 || ps[0].Roof <= 0 {
		t.Fatalf("readPoints: %v, %v", ps, err)
	}
	keys, lines := panels(ps)
	if len(keys) != 1 || len(lines[keys[0]]) != 3 {
		t.Fatalf("panels %v: want one panel with vendor, roof and tiny", keys)
	}
	file := filepath.Join(t.TempDir(), "p.svg")
	if err := writePlot(file, ps); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "vendor", "tiny", "roof", "ns per matrix"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("plot has no %q", want)
		}
	}
}
