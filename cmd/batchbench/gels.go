package main

import (
	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/tests"
)

func init() {
	// The QR factorization of a 2n-by-n matrix (2 m n^2 - 2 n^3 / 3 = 10 n^3 / 3), Q^H b
	// (about 6 n^2) and the triangular solve (n^2).
	registry["gels"] = opSpec{flops: func(n int) float64 {
		x := float64(n)
		return 10*x*x*x/3 + 7*x*x
	}, make: makers(newGels[float32], newGels[float64], newGels[complex64], newGels[complex128])}
}

// gelsBench solves least squares problems min ||b - A x|| for random tall 2n-by-n A and one
// right-hand side each: A is overwritten by its QR factorization, b by x (its first n rows).
type gelsBench[T batchlas.Scalar] struct {
	q        *batchlas.Queue
	n        int
	a, b     *batchlas.Matrix[T]
	info     *batchlas.Vector[int32]
	inA, inB []T
	sample   []int
}

func newGels[T batchlas.Scalar](q *batchlas.Queue, n, batch int) (bench, error) {
	rng := newRand(n, batch)
	g := &gelsBench[T]{q: q, n: n, inA: tests.Rand[T](rng, 2*n*n*batch), inB: tests.Rand[T](rng, 2*n*batch), sample: tests.Sample(batch)}
	var err error
	if g.a, err = batchlas.NewMatrix[T](q, 2*n, n, batch); err != nil {
		return nil, err
	}
	if g.b, err = batchlas.NewMatrix[T](q, 2*n, 1, batch); err != nil {
		return nil, err
	}
	g.info, err = batchlas.NewVector[int32](q, batch)
	return g, err
}

func (g *gelsBench[T]) reset() error {
	if err := g.a.Upload(g.inA); err != nil {
		return err
	}
	return g.b.Upload(g.inB)
}
func (g *gelsBench[T]) run() error {
	return batchlas.Gels(g.q, batchlas.NoTrans, g.a, g.b, g.info)
}

// bytes: A and b read and written, info written.
func (g *gelsBench[T]) bytes() float64 {
	n := float64(g.n)
	return (2*(2*n*n+2*n)*sizeOf[T]() + 4) * float64(g.a.Batch())
}
func (g *gelsBench[T]) free() { g.a.Free(); g.b.Free(); g.info.Free() }

// verify checks info and the least squares condition A^H (A x - b) = 0, as
// ||A^H (A x - b)|| / (m eps ||A|| (||A|| ||x|| + ||b||)).
func (g *gelsBench[T]) verify() (float64, error) {
	var d downloads
	x := fetch(&d, g.b)
	codes := fetch(&d, g.info)
	if d.err != nil {
		return 0, d.err
	}
	m, n, worst := 2*g.n, g.n, 0.0
	for _, k := range g.sample {
		if codes[k] != 0 {
			return inf(), nil
		}
		a, b, xk := tests.NewDense(m, n), tests.NewDense(m, 1), tests.NewDense(n, 1)
		for i := range a.D {
			a.D[i] = tests.C128(g.inA[k*m*n+i])
		}
		for i := range b.D {
			b.D[i] = tests.C128(g.inB[k*m+i])
		}
		for i := range xk.D {
			xk.D[i] = tests.C128(x[k*m+i])
		}
		res := tests.Mul(tests.Adjoint(a), tests.Sub(tests.Mul(a, xk), b))
		scale := tests.NormF(a) * (tests.NormF(a)*tests.NormF(xk) + tests.NormF(b))
		worst = max(worst, tests.Scaled(res, scale, m, tests.Eps[T]()))
	}
	return worst, nil
}
