package main

import (
	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/tests"
)

func init() {
	// n right-hand sides: 2 n^2 flops each.
	registry["potrs"] = opSpec{flops: func(n int) float64 { return 2 * float64(n) * float64(n) * float64(n) },
		make: makers(newPotrs[float32], newPotrs[float64], newPotrs[complex64], newPotrs[complex128])}
}

// potrsBench solves A X = B in place of B (uplo Lower) with n right-hand sides, from the
// Cholesky factors of random SPD matrices, factored once with Potrf at construction; the
// strict upper triangle holds NaN, so an arm that reads it fails verification.
type potrsBench[T batchlas.Scalar] struct {
	square[T] // a: the factors, not written; dense: the sampled matrices before factoring
	rhs       rhs[T]
}

func newPotrs[T batchlas.Scalar](q *batchlas.Queue, n, batch int) (bench, error) {
	rng := newRand(n, batch)
	s, err := newSquare[T](q, rng, n, batch, tests.RandSPD[T])
	if err != nil {
		return nil, err
	}
	b := &potrsBench[T]{square: s}
	b.poisonUpper()
	if err = b.factorCholesky(); err != nil {
		return nil, err
	}
	b.rhs, err = newRHS[T](q, rng, n, batch)
	return b, err
}

func (b *potrsBench[T]) reset() error { return b.rhs.reset() }
func (b *potrsBench[T]) run() error   { return batchlas.Potrs(b.q, batchlas.Lower, b.a, b.rhs.m) }

// bytes: the triangle read once, B read and written.
func (b *potrsBench[T]) bytes() float64 {
	n := float64(b.n)
	return (n*(n+1)/2 + 2*n*n) * float64(b.a.Batch()) * sizeOf[T]()
}
func (b *potrsBench[T]) free() { b.a.Free(); b.rhs.m.Free() }

// verify checks ||A X - B|| / (n eps ||A|| ||X||).
func (b *potrsBench[T]) verify() (float64, error) { return b.solved(b.rhs, nil) }
