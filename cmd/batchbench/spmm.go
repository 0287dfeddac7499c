package main

import (
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
	s := &spmmBench[T]{q: q, n: n, sample: tests.Sample(batch)}
	var err error
	if s.a, err = batchlas.NewCSR(q, n, n, rowPtr, colIdx, values); err != nil {
		return nil, err
	}
	for _, m := range []**batchlas.Matrix[T]{&s.b, &s.c} {
		if *m, err = batchlas.NewMatrix[T](q, n, n, batch); err != nil {
			return nil, err
		}
		if err := (*m).Upload(tests.Rand[T](rng, n*n*batch)); err != nil {
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

// verify checks ||C - A B|| / (n eps ||A|| ||B||), A expanded to dense.
func (s *spmmBench[T]) verify() (float64, error) {
	rowPtr, colIdx, values, err := s.a.Download()
	if err != nil {
		return 0, err
	}
	var m [2][]T
	for i, x := range []*batchlas.Matrix[T]{s.b, s.c} {
		if m[i], err = x.Download(nil); err != nil {
			return 0, err
		}
	}
	n, worst := s.n, 0.0
	for _, k := range s.sample {
		a, d := tests.NewDense(n, n), [2]tests.Dense{tests.NewDense(n, n), tests.NewDense(n, n)}
		for i := range n {
			for p := rowPtr[k][i]; p < rowPtr[k][i+1]; p++ {
				a.Set(i, int(colIdx[k][p]), a.At(i, int(colIdx[k][p]))+tests.C128(values[k][p]))
			}
		}
		for i := range d {
			for e := range d[i].D {
				d[i].D[e] = tests.C128(m[i][k*n*n+e])
			}
		}
		r := tests.Sub(d[1], tests.Mul(a, d[0]))
		worst = max(worst, tests.Scaled(r, tests.NormF(a)*tests.NormF(d[0]), n, tests.Eps[T]()))
	}
	return worst, nil
}
