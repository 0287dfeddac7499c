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
type getriBench[T batchlas.Scalar] struct {
	square[T]  // input: the LU factors; dense: the sampled matrices before factoring
	ipiv, info *batchlas.Vector[int32]
}

func newGetri[T batchlas.Scalar](q *batchlas.Queue, n, batch int) (bench, error) {
	s, err := newSquare[T](q, newRand(n, batch), n, batch, randDominant[T])
	if err != nil {
		return nil, err
	}
	b := &getriBench[T]{square: s}
	if b.ipiv, err = b.factorLU(); err != nil {
		return nil, err
	}
	b.info, err = batchlas.NewVector[int32](q, batch)
	return b, err
}

func (b *getriBench[T]) run() error { return batchlas.Getri(b.q, b.a, b.ipiv, b.info) }

// bytes: the factors read and the inverse written, the pivots read, info written.
func (b *getriBench[T]) bytes() float64 {
	n := float64(b.n)
	return b.square.bytes() + (4*n+4)*float64(b.a.Batch())
}
func (b *getriBench[T]) free() { b.a.Free(); b.ipiv.Free(); b.info.Free() }

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
