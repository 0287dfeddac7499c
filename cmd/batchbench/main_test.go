package main

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
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
