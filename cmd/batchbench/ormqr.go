package main

import (
	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/tests"
)

func init() {
	// LAPACK's count for side Left, m = n = k: 4 m n k - 2 n k^2.
	registry["ormqr"] = opSpec{flops: func(n int) float64 { return 2 * float64(n) * float64(n) * float64(n) },
		make: makers(newOrmqr[float32], newOrmqr[float64], newOrmqr[complex64], newOrmqr[complex128])}
}

// ormqrBench overwrites random n-by-n C by Q^H C (side Left, trans ConjTrans, as in a least
// squares solve), Q from the k = n reflectors and tau of random square matrices, factored
// once with Geqrf at construction.
type ormqrBench[T batchlas.Scalar] struct {
	square[T] // a and input: Geqrf's factors, not written
	tau       *batchlas.Vector[T]
	taus      []T
	rhs       rhs[T] // C
}

func newOrmqr[T batchlas.Scalar](q *batchlas.Queue, n, batch int) (bench, error) {
	rng := newRand(n, batch)
	s, err := newSquare[T](q, rng, n, batch, randGeneral[T])
	if err != nil {
		return nil, err
	}
	b := &ormqrBench[T]{square: s}
	if b.tau, b.taus, err = b.factorQR(); err != nil {
		return nil, err
	}
	b.rhs, err = newRHS[T](q, rng, n, batch)
	return b, err
}

func (b *ormqrBench[T]) reset() error { return b.rhs.reset() }
func (b *ormqrBench[T]) run() error {
	return batchlas.Ormqr(b.q, batchlas.Left, batchlas.ConjTrans, b.n, b.a, b.tau, b.rhs.m)
}

// bytes: the reflectors (below the diagonal) and tau read, C read and written.
func (b *ormqrBench[T]) bytes() float64 {
	n := float64(b.n)
	return (n*(n-1)/2 + n + 2*n*n) * float64(b.a.Batch()) * sizeOf[T]()
}
func (b *ormqrBench[T]) free() { b.a.Free(); b.tau.Free(); b.rhs.m.Free() }

// verify checks ||Q^H C - X|| / (n eps ||C||), Q formed from the reflectors in complex128.
func (b *ormqrBench[T]) verify() (float64, error) {
	out, err := b.rhs.m.Download(nil)
	if err != nil {
		return 0, err
	}
	n, worst := b.n, 0.0
	for _, k := range b.sample {
		t := make([]complex128, n)
		for i := range t {
			t[i] = tests.C128(b.taus[k*n+i])
		}
		c := b.matrix(b.rhs.input, k)
		qhc := tests.Mul(tests.Adjoint(tests.QFromReflectors(b.matrix(b.input, k), t)), c)
		worst = max(worst, tests.Scaled(tests.Sub(qhc, b.matrix(out, k)), tests.NormF(c), n, tests.Eps[T]()))
	}
	return worst, nil
}
