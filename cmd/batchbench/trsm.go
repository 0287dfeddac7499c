package main

import (
	"math"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/tests"
)

func init() {
	// n right-hand sides: n^2 multiply-adds per right-hand side.
	registry["trsm"] = opSpec{flops: func(n int) float64 { return float64(n) * float64(n) * float64(n) },
		make: makers(newTrsm[float32], newTrsm[float64], newTrsm[complex64], newTrsm[complex128])}
}

// trsmBench solves L X = B in place of B (side Left, Lower, NoTrans, NonUnit, alpha 1) with n
// right-hand sides; L is a well-conditioned random triangle whose other triangle holds NaN,
// so an arm that reads it fails verification.
type trsmBench[T batchlas.Scalar] struct {
	q        *batchlas.Queue
	n        int
	a, b     *batchlas.Matrix[T]
	tri, rhs []T
	sample   []int
}

func newTrsm[T batchlas.Scalar](q *batchlas.Queue, n, batch int) (bench, error) {
	rng := newRand(n, batch)
	b := &trsmBench[T]{q: q, n: n, tri: make([]T, n*n*batch), rhs: tests.Rand[T](rng, n*n*batch), sample: tests.Sample(batch)}
	nan := tests.From[T](complex(math.NaN(), math.NaN()))
	for k := 0; k < batch; k++ {
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				z := complex(2*rng.Float64()-1, 2*rng.Float64()-1)
				v := nan
				switch {
				case i == j:
					v = tests.From[T](z/2 + 2.5)
				case i > j:
					v = tests.From[T](z / complex(float64(n), 0))
				}
				b.tri[k*n*n+j*n+i] = v
			}
		}
	}
	var err error
	if b.a, err = batchlas.NewMatrix[T](q, n, n, batch); err != nil {
		return nil, err
	}
	if err = b.a.Upload(b.tri); err != nil {
		return nil, err
	}
	if b.b, err = batchlas.NewMatrix[T](q, n, n, batch); err != nil {
		return nil, err
	}
	return b, nil
}

func (b *trsmBench[T]) reset() error { return b.b.Upload(b.rhs) }
func (b *trsmBench[T]) run() error {
	return batchlas.Trsm(b.q, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, tests.From[T](1), b.a, b.b)
}

// bytes: the triangle read once, B read and written.
func (b *trsmBench[T]) bytes() float64 {
	n := float64(b.n)
	return (n*(n+1)/2 + 2*n*n) * float64(b.a.Batch()) * sizeOf[T]()
}
func (b *trsmBench[T]) free() { b.a.Free(); b.b.Free() }

// verify checks ||L X - B|| / (n eps ||L|| ||X||).
func (b *trsmBench[T]) verify() (float64, error) {
	var d downloads
	out := fetch(&d, b.b)
	if d.err != nil {
		return 0, d.err
	}
	n, worst := b.n, 0.0
	for _, k := range b.sample {
		l, x, rhs := tests.NewDense(n, n), tests.NewDense(n, n), tests.NewDense(n, n)
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				if i >= j {
					l.Set(i, j, tests.C128(b.tri[k*n*n+j*n+i]))
				}
				x.Set(i, j, tests.C128(out[k*n*n+j*n+i]))
				rhs.Set(i, j, tests.C128(b.rhs[k*n*n+j*n+i]))
			}
		}
		r := tests.Sub(tests.Mul(l, x), rhs)
		worst = max(worst, tests.Scaled(r, tests.NormF(l)*tests.NormF(x), n, tests.Eps[T]()))
	}
	return worst, nil
}
