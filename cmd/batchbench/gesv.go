package main

import "github.com/batchlas/batchlas"

func init() {
	// Getrf (2/3 n^3) and n right-hand sides of 2 n^2 flops each.
	registry["gesv"] = opSpec{flops: func(n int) float64 { return 8 * float64(n) * float64(n) * float64(n) / 3 },
		make: makers(newGesv[float32], newGesv[float64], newGesv[complex64], newGesv[complex128])}
}

// gesvBench solves A X = B with n right-hand sides for random well-conditioned matrices that
// pivot (randDominant): A is overwritten by its LU factors, B by X.
type gesvBench[T batchlas.Scalar] struct {
	square[T]
	ipiv, info *batchlas.Vector[int32]
	rhs        rhs[T]
}

func newGesv[T batchlas.Scalar](q *batchlas.Queue, n, batch int) (bench, error) {
	rng := newRand(n, batch)
	s, err := newSquare[T](q, rng, n, batch, randDominant[T])
	if err != nil {
		return nil, err
	}
	b := &gesvBench[T]{square: s}
	if b.ipiv, err = batchlas.NewVector[int32](q, n*batch); err != nil {
		return nil, err
	}
	if b.info, err = batchlas.NewVector[int32](q, batch); err != nil {
		return nil, err
	}
	b.rhs, err = newRHS[T](q, rng, n, batch)
	return b, err
}

func (b *gesvBench[T]) reset() error {
	if err := b.square.reset(); err != nil {
		return err
	}
	return b.rhs.reset()
}
func (b *gesvBench[T]) run() error { return batchlas.Gesv(b.q, b.a, b.ipiv, b.rhs.m, b.info) }

// bytes: A and B read and written, the pivots and info written.
func (b *gesvBench[T]) bytes() float64 {
	n := float64(b.n)
	return (4*n*n*sizeOf[T]() + 4*n + 4) * float64(b.a.Batch())
}
func (b *gesvBench[T]) free() { b.a.Free(); b.ipiv.Free(); b.info.Free(); b.rhs.m.Free() }

// verify checks info and ||A X - B|| / (n eps ||A|| ||X||).
func (b *gesvBench[T]) verify() (float64, error) { return b.solved(b.rhs, b.info) }
