package tests

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/batchlas/batchlas"
)

// TestNewCSRArgs: every malformed batch is refused on every queue with an error naming the
// argument, the matrix and the position.
func TestNewCSRArgs(t *testing.T) {
	// Two 3x4 matrices; the second is the one spoiled.
	good := func() ([][]int32, [][]int32, [][]float64) {
		return [][]int32{{0, 1, 1, 3}, {0, 2, 3, 4}}, [][]int32{{2, 0, 3}, {0, 3, 1, 2}}, [][]float64{{1, 2, 3}, {4, 5, 6, 7}}
	}
	cases := []struct {
		name, arg, where string
		spoil            func(rp, ci [][]int32, vs [][]float64) ([][]int32, [][]int32, [][]float64)
	}{
		{"row pointer past nnz", "rowPtr", "rowPtr[1][2] = 5 is past nnz", func(rp, ci [][]int32, vs [][]float64) ([][]int32, [][]int32, [][]float64) {
			rp[1][2] = 5
			return rp, ci, vs
		}},
		{"decreasing row pointers", "rowPtr", "rowPtr[1][2] = 1 < rowPtr[1][1] = 2", func(rp, ci [][]int32, vs [][]float64) ([][]int32, [][]int32, [][]float64) {
			rp[1][2] = 1
			return rp, ci, vs
		}},
		{"first row pointer not 0", "rowPtr", "rowPtr[1][0] = 1, want 0", func(rp, ci [][]int32, vs [][]float64) ([][]int32, [][]int32, [][]float64) {
			rp[1][0] = 1
			return rp, ci, vs
		}},
		{"last row pointer short of nnz", "rowPtr", "rowPtr[1][3] = 3, want nnz", func(rp, ci [][]int32, vs [][]float64) ([][]int32, [][]int32, [][]float64) {
			rp[1][3] = 3
			return rp, ci, vs
		}},
		{"row pointers of the wrong length", "rowPtr", "rowPtr[1] has length 3", func(rp, ci [][]int32, vs [][]float64) ([][]int32, [][]int32, [][]float64) {
			rp[1] = rp[1][:3]
			return rp, ci, vs
		}},
		{"column index out of range", "colIdx", "colIdx[1][3] = 4 is out of range [0, 4)", func(rp, ci [][]int32, vs [][]float64) ([][]int32, [][]int32, [][]float64) {
			ci[1][3] = 4
			return rp, ci, vs
		}},
		{"negative column index", "colIdx", "colIdx[1][0] = -1 is out of range [0, 4)", func(rp, ci [][]int32, vs [][]float64) ([][]int32, [][]int32, [][]float64) {
			ci[1][0] = -1
			return rp, ci, vs
		}},
		{"values of the wrong length", "values", "values[1] has length 3", func(rp, ci [][]int32, vs [][]float64) ([][]int32, [][]int32, [][]float64) {
			vs[1] = vs[1][:3]
			return rp, ci, vs
		}},
		{"colIdx batch", "colIdx", "batch 1 != batch of rowPtr 2", func(rp, ci [][]int32, vs [][]float64) ([][]int32, [][]int32, [][]float64) {
			return rp, ci[:1], vs
		}},
		{"values batch", "values", "batch 3 != batch of rowPtr 2", func(rp, ci [][]int32, vs [][]float64) ([][]int32, [][]int32, [][]float64) {
			return rp, ci, append(vs, nil)
		}},
	}
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		rp, ci, vs := good()
		a, err := batchlas.NewCSR(q, 3, 4, rp, ci, vs)
		if err != nil {
			t.Fatalf("the unspoiled batch: %v", err)
		}
		a.Free()
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				rp, ci, vs := c.spoil(good())
				a, err := batchlas.NewCSR(q, 3, 4, rp, ci, vs)
				WantArgErr(t, err, c.arg)
				if a != nil {
					t.Errorf("a refused batch returned a CSR")
				}
				if err != nil && !strings.Contains(err.Error(), c.where) {
					t.Errorf("error %q does not say %q", err, c.where)
				}
			})
		}
		t.Run("sizes", func(t *testing.T) {
			_, err := batchlas.NewCSR[float32](q, -1, 4, nil, nil, nil)
			WantArgErr(t, err, "rows, cols")
			_, err = batchlas.NewCSR[float32](nil, 1, 4, nil, nil, nil)
			WantArgErr(t, err, "q")
			_, err = batchlas.CSRFromDense(q, 2, 2, 2, make([]float32, 7))
			WantArgErr(t, err, "dense")
			_, err = batchlas.CSRFromDense(q, 2, 2, -1, []float32{})
			WantArgErr(t, err, "batch")
			_, err = batchlas.CSRFromDense(q, 1<<31, 1, 1, []float32{})
			WantArgErr(t, err, "rows, cols")
		})
	})
}

func TestSpmmArgs(t *testing.T) {
	q, other := ArgQueues(t)
	const N, T = batchlas.NoTrans, batchlas.Trans
	// C (4x5) = A (4x3, sparse) B (3x5), batch 2.
	sparse := func(q *batchlas.Queue, batch int) *batchlas.CSR[float64] {
		a, err := batchlas.CSRFromDense(q, 4, 3, batch, Rand[float64](NewRand(t), 12*batch))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	a, foreign, freed, a3 := sparse(q, 2), sparse(other, 2), sparse(q, 2), sparse(q, 3)
	if err := freed.Free(); err != nil {
		t.Fatal(err)
	}
	b := ArgMatrix[float64](t, q, 3, 5, 2)
	c := ArgMatrix[float64](t, q, 4, 5, 2)
	bTall := ArgMatrix[float64](t, q, 4, 5, 2)
	cWide := ArgMatrix[float64](t, q, 4, 6, 2)
	cTall := ArgMatrix[float64](t, q, 5, 5, 2)
	b3 := ArgMatrix[float64](t, q, 3, 5, 3)
	spmm := func(q *batchlas.Queue, tA, tB batchlas.Transpose, a *batchlas.CSR[float64], b, c *batchlas.Matrix[float64]) func() error {
		return func() error { return batchlas.Spmm(q, tA, tB, 2, a, b, 0.5, c) }
	}
	cases := []ArgCase{
		{"nil queue", "q", spmm(nil, N, N, a, b, c)},
		{"bad transA", "transA", spmm(q, 'X', N, a, b, c)},
		{"bad transB", "transB", spmm(q, N, 0, a, b, c)},
		{"nil a", "a", spmm(q, N, N, nil, b, c)},
		{"zero a", "a", spmm(q, N, N, &batchlas.CSR[float64]{}, b, c)},
		{"freed a", "a", spmm(q, N, N, freed, b, c)},
		{"foreign a", "a", spmm(q, N, N, foreign, b, c)},
		{"inner sizes differ", "b", spmm(q, N, N, a, bTall, c)},
		{"inner sizes differ after transA", "b", spmm(q, T, N, a, b, c)},
		{"inner sizes differ after transB", "b", spmm(q, N, T, a, b, c)},
		{"c has too many columns", "c", spmm(q, N, N, a, b, cWide)},
		{"c has too many rows", "c", spmm(q, N, N, a, b, cTall)},
		{"batch of b", "b", spmm(q, N, N, a, b3, c)},
		{"batch of c", "c", spmm(q, N, N, a3, b3, c)},
		{"buffer size, bad transA", "transA", func() error {
			_, err := batchlas.SpmmBufferSize(q, 'X', N, 2, a, b, 0.5, c)
			return err
		}},
	}
	cases = append(cases, MatrixCases(t, q, other, "b", 3, 5, 2, func(m *batchlas.Matrix[float64]) error { return spmm(q, N, N, a, m, c)() })...)
	cases = append(cases, MatrixCases(t, q, other, "c", 4, 5, 2, func(m *batchlas.Matrix[float64]) error { return spmm(q, N, N, a, b, m)() })...)
	RunArgCases(t, q, cases, Watch(b), Watch(c))
	if n, err := batchlas.SpmmBufferSize(q, N, N, 2, a, b, 0.5, c); n != 0 || err != nil {
		t.Errorf("SpmmBufferSize on the host = %d, %v; want 0, nil", n, err)
	}
}

// FuzzNewCSR: any arrays are refused with an invalid-argument error or taken as given
// (Download returns them), never a panic.
func FuzzNewCSR(f *testing.F) {
	f.Add(3, 4, []byte{0, 1, 1, 3}, []byte{2, 0, 3})
	f.Add(2, 2, []byte{0, 3, 1}, []byte{9, 0, 1})
	f.Add(0, 5, []byte{0}, []byte{})
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, rows, cols int, ptr, idx []byte) {
		rp, ci := make([]int32, len(ptr)), make([]int32, len(idx))
		for i, p := range ptr {
			rp[i] = int32(int8(p))
		}
		for i, c := range idx {
			ci[i] = int32(int8(c))
		}
		vs := Rand[float64](NewRand(t), len(ci))
		a, err := batchlas.NewCSR(q, Small(rows), Small(cols), [][]int32{rp}, [][]int32{ci}, [][]float64{vs})
		if err != nil {
			if !errors.Is(err, batchlas.ErrInvalidArgument) {
				t.Errorf("error %q does not wrap ErrInvalidArgument", err)
			}
			return
		}
		defer a.Free()
		gp, gc, gv, err := a.Download()
		if err != nil || fmt.Sprint(gp, gc, gv) != fmt.Sprint([][]int32{rp}, [][]int32{ci}, [][]float64{vs}) {
			t.Errorf("Download = %v %v %v, %v; want what NewCSR took", gp, gc, gv, err)
		}
	})
}
