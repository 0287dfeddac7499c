package main

import (
	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/tests"
)

func init() {
	// Potrf (n^3/3) and n right-hand sides of 2 n^2 flops each.
	registry["posv"] = opSpec{flops: func(n int) float64 { return 7 * float64(n) * float64(n) * float64(n) / 3 },
		make: makers(newPosv[float32], newPosv[float64], newPosv[complex64], newPosv[complex128])}
}

// posvBench solves A X = B (uplo Lower) with n right-hand sides for random SPD matrices: the
// lower triangle of A is overwritten by its Cholesky factor, B by X. The strict upper
// triangle holds NaN, so an arm that reads it fails verification.
type posvBench[T batchlas.Scalar] struct {
	square[T]
	info *batchlas.Vector[int32]
	rhs  rhs[T]
}

func newPosv[T batchlas.Scalar](q *batchlas.Queue, n, batch int) (bench, error) {
	rng := newRand(n, batch)
	s, err := newSquare[T](q, rng, n, batch, tests.RandSPD[T])
	if err != nil {
		return nil, err
	}
	b := &posvBench[T]{square: s}
	b.poisonUpper()
	if b.info, err = batchlas.NewVector[int32](q, batch); err != nil {
		return nil, err
	}
	b.rhs, err = newRHS[T](q, rng, n, batch)
	return b, err
}

func (b *posvBench[T]) reset() error {
	if err := b.square.reset(); err != nil {
		return err
	}
	return b.rhs.reset()
}
func (b *posvBench[T]) run() error {
	return batchlas.Posv(b.q, batchlas.Lower, b.a, b.rhs.m, b.info)
}

// bytes: the triangle and B read and written, info written.
func (b *posvBench[T]) bytes() float64 {
	n := float64(b.n)
	return ((n*(n+1)+2*n*n)*sizeOf[T]() + 4) * float64(b.a.Batch())
}
func (b *posvBench[T]) free() { b.a.Free(); b.info.Free(); b.rhs.m.Free() }

// verify checks info and ||A X - B|| / (n eps ||A|| ||X||).
func (b *posvBench[T]) verify() (float64, error) { return b.solved(b.rhs, b.info) }
