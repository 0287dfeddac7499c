package main

import (
	"math"
	"slices"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/tests"
)

func init() {
	// 2 flops per stored entry of A and column of B.
	registry["spmm"] = opSpec{flops: func(n int) float64 { return 2 * float64(spmmRowNNZ(n)) * float64(n) * float64(n) },
		make: makers(newSpmm[float32], newSpmm[float64], newSpmm[complex64], newSpmm[complex128])}
}

// spmmRowNNZ is the entries of each row of the benchmark's A: 10% of n, at least one.
func spmmRowNNZ(n int) int { return max(1, n/10) }

// spmmBench multiplies a random sparse n-by-n A (spmmRowNNZ entries in each row, at random
// columns, sorted, so every matrix has the same nnz and cuSPARSE's batched form applies) by
// a random dense n-by-n B: C = A B, with beta = 0 so that C is only written.
type spmmBench[T batchlas.Scalar] struct {
	q      *batchlas.Queue
	n      int
	a      *batchlas.CSR[T]
	b, c   *batchlas.Matrix[T]
	sample []int
	// The inputs as uploaded, for the reference products.
	rowPtr, colIdx [][]int32
	values         [][]T
	bIn            []T
	want           expected
}

func newSpmm[T batchlas.Scalar](q *batchlas.Queue, n, batch int) (bench, error) {
	rng := newRand(n, batch)
	per := spmmRowNNZ(n)
	rowPtr, colIdx, values := make([][]int32, batch), make([][]int32, batch), make([][]T, batch)
	for k := range batch {
		rowPtr[k] = make([]int32, n+1)
		for i := range n {
			cols := rng.Perm(n)[:per]
			slices.Sort(cols)
			for _, j := range cols {
				colIdx[k] = append(colIdx[k], int32(j))
			}
			rowPtr[k][i+1] = int32(len(colIdx[k]))
		}
		values[k] = tests.Rand[T](rng, len(colIdx[k]))
	}
	s := &spmmBench[T]{q: q, n: n, sample: tests.Sample(batch), rowPtr: rowPtr, colIdx: colIdx, values: values}
	var err error
	if s.a, err = batchlas.NewCSR(q, n, n, rowPtr, colIdx, values); err != nil {
		return nil, err
	}
	for i, m := range []**batchlas.Matrix[T]{&s.b, &s.c} {
		if *m, err = batchlas.NewMatrix[T](q, n, n, batch); err != nil {
			return nil, err
		}
		data := tests.Rand[T](rng, n*n*batch)
		if i == 0 {
			s.bIn = data
		}
		if err := (*m).Upload(data); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// reset has nothing to restore: the inputs are not written.
func (s *spmmBench[T]) reset() error { return nil }
func (s *spmmBench[T]) run() error {
	return batchlas.Spmm(s.q, batchlas.NoTrans, batchlas.NoTrans, 1, s.a, s.b, 0, s.c)
}

// bytes: A's entries (column index and value) and row pointers, B read, C written.
func (s *spmmBench[T]) bytes() float64 {
	n, batch := float64(s.n), float64(s.b.Batch())
	return batch * (n*float64(spmmRowNNZ(s.n))*(4+sizeOf[T]()) + 8*(n+1) + 2*n*n*sizeOf[T]())
}
func (s *spmmBench[T]) free() { s.a.Free(); s.b.Free(); s.c.Free() }

// verify checks ||C - A B|| / (n eps ||A|| ||B||), against products made once from the inputs
// (A applied entry by entry, as a dense product of its expansion would).
func (s *spmmBench[T]) verify() (float64, error) {
	got, err := s.c.Download(nil)
	if err != nil {
		return 0, err
	}
	if s.want.products == nil {
		s.want = newExpected(s.sample, s.product)
	}
	return worstResidual(s.want, got, s.n, s.sample), nil
}

// product is A_k B_k and ||A_k||_F ||B_k||_F.
func (s *spmmBench[T]) product(k int) (tests.Dense, float64) {
	n := s.n
	b, c := denseOf(s.bIn[k*n*n:], n), tests.NewDense(n, n)
	var normA float64
	for i := range n {
		for p := s.rowPtr[k][i]; p < s.rowPtr[k][i+1]; p++ {
			v, col := tests.C128(s.values[k][p]), int(s.colIdx[k][p])
			normA += real(v)*real(v) + imag(v)*imag(v)
			for j := range n {
				c.D[j*n+i] += v * b.D[j*n+col]
			}
		}
	}
	return c, math.Sqrt(normA) * tests.NormF(b)
}
