package tests

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/batchlas/batchlas"
)

// TestCheckInfo plants a failure in one matrix of a Potrf batch and of a Getrf batch on every
// queue: CheckInfo must name exactly that matrix with LAPACK's meaning of its value and keep
// the raw values, and return nil for a batch that succeeded.
func TestCheckInfo(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		const n, batch = 4, 5
		rng := NewRand(t)
		l := Layout{Rows: n, Cols: n, Batch: batch}
		spd := NewStored[float64](l)
		for b := 0; b < batch; b++ {
			spd.SetDense(b, RandSPD[float64](rng, n))
		}
		good := Upload(t, q, spd)
		defer good.Free()
		info := PoisonedInfo(t, q, batch)
		if err := batchlas.Potrf(q, batchlas.Lower, good, info); err != nil {
			t.Fatal(err)
		}
		if err := batchlas.CheckInfo("potrf", info); err != nil {
			t.Fatalf("CheckInfo after a batch that succeeded: %v", err)
		}

		spd.Set(3, 2, 2, -100) // the leading minor of order 3 of matrix 3 is not positive definite
		bad := Upload(t, q, spd)
		defer bad.Free()
		if err := batchlas.Potrf(q, batchlas.Lower, bad, info); err != nil {
			t.Fatal(err)
		}
		wantInfoError(t, batchlas.CheckInfo("Potrf", info), "potrf", []int32{0, 0, 0, 3, 0}, "leading minor of order 3 is not positive definite")

		lu := NewStored[float64](l)
		copy(lu.S, Rand[float64](rng, len(lu.S)))
		for i := 0; i < n; i++ {
			lu.Set(1, i, 1, 0) // a zero column: U(2,2) of matrix 1 is exactly zero
		}
		a := Upload(t, q, lu)
		defer a.Free()
		ipiv := PoisonedInfo(t, q, n*batch)
		if err := batchlas.Getrf(q, a, ipiv, info); err != nil {
			t.Fatal(err)
		}
		wantInfoError(t, batchlas.CheckInfo("getrf", info), "getrf", []int32{0, 2, 0, 0, 0}, "U(2,2) is exactly zero")
	})
}

func wantInfoError(t *testing.T, err error, op string, info []int32, meaning string) {
	t.Helper()
	var ie *batchlas.InfoError
	if !errors.As(err, &ie) {
		t.Fatalf("CheckInfo: %v, want an *InfoError", err)
	}
	if ie.Op != op || !slices.Equal(ie.Info, info) {
		t.Fatalf("InfoError{Op: %q, Info: %v}, want %q and %v", ie.Op, ie.Info, op, info)
	}
	var want []int
	for b, k := range info {
		if k != 0 {
			want = append(want, b)
			if !strings.Contains(err.Error(), meaning) || ie.Meaning(b) == "" {
				t.Errorf("error %q or Meaning(%d) %q does not say %q", err, b, ie.Meaning(b), meaning)
			}
		} else if ie.Meaning(b) != "" {
			t.Errorf("Meaning(%d) of info 0 is %q", b, ie.Meaning(b))
		}
	}
	if !slices.Equal(ie.Failed, want) {
		t.Errorf("Failed %v, want %v", ie.Failed, want)
	}
}

// TestCheckInfoValues checks every op's wording, the count past the listed matrices, a
// negative value and the rejected op names.
func TestCheckInfoValues(t *testing.T) {
	for op, says := range map[string]string{
		"potrf": "leading minor of order 7", "posv": "B is not solved", "getrf": "U(7,7) is exactly zero",
		"gesv": "U(7,7) is exactly zero", "getri": "not inverted", "gels": "R(7,7) is exactly zero",
		"syev": "7 off-diagonal elements", "gesvd": "7 superdiagonals",
	} {
		if err := batchlas.CheckInfoValues(op, make([]int32, 3)); err != nil {
			t.Errorf("%s: all zero: %v", op, err)
		}
		err := batchlas.CheckInfoValues(op, []int32{0, 7})
		if err == nil || !strings.Contains(err.Error(), "matrix 1: ") || !strings.Contains(err.Error(), says) {
			t.Errorf("%s: %v, want matrix 1 and %q", op, err, says)
		}
	}
	many := Fill(20, int32(1))
	if err := batchlas.CheckInfoValues("syev", many); err == nil || !strings.Contains(err.Error(), "20 of 20 matrices failed") ||
		!strings.Contains(err.Error(), "and 12 more") || strings.Contains(err.Error(), "matrix 8:") {
		t.Errorf("20 failures: %v", err)
	}
	if err := batchlas.CheckInfoValues("potrf", []int32{Poison}); err == nil || !strings.Contains(err.Error(), "no op of this package writes a negative info") {
		t.Errorf("a poisoned (unwritten) info: %v", err)
	}
	q, _ := ArgQueues(t)
	info := UploadVector(t, q, []int32{0})
	RunArgCases(t, q, []ArgCase{
		{"unknown op", "op", func() error { return batchlas.CheckInfoValues("gemm", nil) }},
		{"unknown op vector", "op", func() error { return batchlas.CheckInfo("potrs", info) }},
		{"nil vector", "v", func() error { return batchlas.CheckInfo("potrf", nil) }},
	}, Watch(info))
}
