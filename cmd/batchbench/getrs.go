package main

import "github.com/batchlas/batchlas"

func init() {
	// n right-hand sides: 2 n^2 flops each.
	registry["getrs"] = opSpec{flops: func(n int) float64 { return 2 * float64(n) * float64(n) * float64(n) },
		make: makers(newGetrs[float32], newGetrs[float64], newGetrs[complex64], newGetrs[complex128])}
}

// getrsBench solves A X = B in place of B (trans NoTrans) with n right-hand sides, from the
// LU factors and pivots of random well-conditioned matrices that pivot (randDominant),
// factored once with Getrf at construction.
type getrsBench[T batchlas.Scalar] struct {
	square[T] // a: the LU factors, not written; dense: the sampled matrices before factoring
	ipiv      *batchlas.Vector[int32]
	rhs       rhs[T]
}

func newGetrs[T batchlas.Scalar](q *batchlas.Queue, n, batch int) (bench, error) {
	rng := newRand(n, batch)
	s, err := newSquare[T](q, rng, n, batch, randDominant[T])
	if err != nil {
		return nil, err
	}
	b := &getrsBench[T]{square: s}
	if b.ipiv, err = b.factorLU(); err != nil {
		return nil, err
	}
	b.rhs, err = newRHS[T](q, rng, n, batch)
	return b, err
}

func (b *getrsBench[T]) reset() error { return b.rhs.reset() }
func (b *getrsBench[T]) run() error {
	return batchlas.Getrs(b.q, batchlas.NoTrans, b.a, b.ipiv, b.rhs.m)
}

// bytes: the factors and the pivots read once, B read and written.
func (b *getrsBench[T]) bytes() float64 {
	n := float64(b.n)
	return (3*n*n*sizeOf[T]() + 4*n) * float64(b.a.Batch())
}
func (b *getrsBench[T]) free() { b.a.Free(); b.ipiv.Free(); b.rhs.m.Free() }

// verify checks ||A X - B|| / (n eps ||A|| ||X||).
func (b *getrsBench[T]) verify() (float64, error) { return b.solved(b.rhs, nil) }
