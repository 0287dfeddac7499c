package main

import (
	"testing"

	selection "github.com/batchlas/batchlas/select"
)

func TestReport(t *testing.T) {
	rows := []selection.CoverageRow{
		{Kind: "reached", Op: "potrf", DType: "f64", Device: "sm_90", Key: "n=8", Count: 5},
		{Kind: "miss", Op: "gesvd", DType: "c64", Device: "sm_90", Key: "m=300 n=300", Count: 2},
		{Kind: "miss", Op: "gesvd", DType: "c64", Device: "sm_90", Key: "m=3 n=3", Count: 1},
		{Kind: "miss", Op: "gesvd", DType: "c64", Device: "sm_90", Key: "m=3 n=3", Count: 4},
	}
	if n := report(rows); n != 7 {
		t.Errorf("report counted %d misses, want 7", n)
	}
	if n := report(rows[:1]); n != 0 {
		t.Errorf("report counted %d misses, want 0", n)
	}
}
