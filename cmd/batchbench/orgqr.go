package main

import (
	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/tests"
)

func init() {
	// LAPACK's count for m = n = k.
	registry["orgqr"] = opSpec{flops: func(n int) float64 { return 4 * float64(n) * float64(n) * float64(n) / 3 },
		make: makers(newOrgqr[float32], newOrgqr[float64], newOrgqr[complex64], newOrgqr[complex128])}
}

// orgqrBench forms, in place, Q of A = Q R from the k = n reflectors and tau of random square
// matrices, factored once with Geqrf at construction.
type orgqrBench[T batchlas.Scalar] struct {
	square[T] // input: Geqrf's factors; dense: the sampled matrices before factoring
	tau       *batchlas.Vector[T]
}

func newOrgqr[T batchlas.Scalar](q *batchlas.Queue, n, batch int) (bench, error) {
	s, err := newSquare[T](q, newRand(n, batch), n, batch, randGeneral[T])
	if err != nil {
		return nil, err
	}
	b := &orgqrBench[T]{square: s}
	b.tau, _, err = b.factorQR()
	return b, err
}

func (b *orgqrBench[T]) run() error { return batchlas.Orgqr(b.q, b.n, b.a, b.tau) }

// bytes: the reflectors (below the diagonal) and tau read, Q written.
func (b *orgqrBench[T]) bytes() float64 {
	n := float64(b.n)
	return (n*(n-1)/2 + n + n*n) * float64(b.a.Batch()) * sizeOf[T]()
}
func (b *orgqrBench[T]) free() { b.a.Free(); b.tau.Free() }

// verify checks ||A - Q R|| / (n eps ||A||), R from the factors, and ||Q^H Q - I|| / (n eps).
func (b *orgqrBench[T]) verify() (float64, error) {
	out, err := b.a.Download(nil)
	if err != nil {
		return 0, err
	}
	n, eps, worst := b.n, tests.Eps[T](), 0.0
	for s, k := range b.sample {
		a, qk := b.dense[s], b.matrix(out, k)
		r := tests.Triangle(b.matrix(b.input, k), false, false)
		worst = max(worst,
			tests.Scaled(tests.Sub(a, tests.Mul(qk, r)), tests.NormF(a), n, eps),
			tests.Scaled(tests.Sub(tests.Mul(tests.Adjoint(qk), qk), tests.Identity(n)), 1, n, eps))
	}
	return worst, nil
}
