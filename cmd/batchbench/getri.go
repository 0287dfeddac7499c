package main

import (
	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/tests"
)

func init() {
	registry["getri"] = opSpec{flops: func(n int) float64 { return 4 * float64(n) * float64(n) * float64(n) / 3 },
		make: makers(newGetri[float32], newGetri[float64], newGetri[complex64], newGetri[complex128])}
}

// getriBench inverts, in place, the LU factors and pivots of random well-conditioned matrices
// that pivot (randDominant), factored once with Getrf at construction.
type getriBench[T batchlas.Scalar] struct{ luBench[T] } // its dense keeps the matrices before factoring

func newGetri[T batchlas.Scalar](q *batchlas.Queue, n, batch int) (bench, error) {
	lu, err := newLU[T](q, n, batch, randDominant[T], true)
	if err != nil {
		return nil, err
	}
	return &getriBench[T]{lu}, nil
}

func (b *getriBench[T]) run() error { return batchlas.Getri(b.q, b.a, b.ipiv, b.info) }

// bytes: the factors read and the inverse written, the pivots read, info written.
func (b *getriBench[T]) bytes() float64 {
	n := float64(b.n)
	return b.square.bytes() + (4*n+4)*float64(b.a.Batch())
}

// verify checks info and ||A inv(A) - I|| / (n eps ||A|| ||inv(A)||).
func (b *getriBench[T]) verify() (float64, error) {
	var d downloads
	out := fetch(&d, b.a)
	info := fetch(&d, b.info)
	if d.err != nil {
		return 0, d.err
	}
	n, worst := b.n, 0.0
	for s, k := range b.sample {
		if info[k] != 0 {
			return inf(), nil
		}
		a, x := b.dense[s], b.matrix(out, k)
		r := tests.Sub(tests.Mul(a, x), tests.Identity(n))
		worst = max(worst, tests.Scaled(r, tests.NormF(a)*tests.NormF(x), n, tests.Eps[T]()))
	}
	return worst, nil
}
