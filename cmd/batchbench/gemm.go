package main

import (
	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/tests"
)

func init() {
	registry["gemm"] = opSpec{flops: func(n int) float64 { return 2 * float64(n) * float64(n) * float64(n) },
		make: makers(newGemm[float32], newGemm[float64], newGemm[complex64], newGemm[complex128])}
}

// gemmBench multiplies random square matrices: C = A B, with beta = 0 so that C is only
// written.
type gemmBench[T batchlas.Scalar] struct {
	q       *batchlas.Queue
	n       int
	a, b, c *batchlas.Matrix[T]
	sample  []int
}

func newGemm[T batchlas.Scalar](q *batchlas.Queue, n, batch int) (bench, error) {
	g := &gemmBench[T]{q: q, n: n, sample: tests.Sample(batch)}
	rng := newRand(n, batch)
	for _, m := range []**batchlas.Matrix[T]{&g.a, &g.b, &g.c} {
		var err error
		if *m, err = batchlas.NewMatrix[T](q, n, n, batch); err != nil {
			return nil, err
		}
		if err := (*m).Upload(tests.Rand[T](rng, n*n*batch)); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// reset has nothing to restore: the inputs are not written.
func (g *gemmBench[T]) reset() error { return nil }
func (g *gemmBench[T]) run() error {
	return batchlas.Gemm(g.q, batchlas.NoTrans, batchlas.NoTrans, 1, g.a, g.b, 0, g.c)
}
func (g *gemmBench[T]) bytes() float64 {
	return 3 * float64(g.n*g.n*g.a.Batch()) * sizeOf[T]()
}
func (g *gemmBench[T]) free() { g.a.Free(); g.b.Free(); g.c.Free() }

// verify checks ||C - A B|| / (n eps ||A|| ||B||).
func (g *gemmBench[T]) verify() (float64, error) {
	var m [3][]T
	for i, x := range []*batchlas.Matrix[T]{g.a, g.b, g.c} {
		var err error
		if m[i], err = x.Download(nil); err != nil {
			return 0, err
		}
	}
	n, worst := g.n, 0.0
	for _, k := range g.sample {
		var d [3]tests.Dense
		for i := range d {
			d[i] = tests.NewDense(n, n)
			for e := range d[i].D {
				d[i].D[e] = tests.C128(m[i][k*n*n+e])
			}
		}
		r := tests.Sub(d[2], tests.Mul(d[0], d[1]))
		worst = max(worst, tests.Scaled(r, tests.NormF(d[0])*tests.NormF(d[1]), n, tests.Eps[T]()))
	}
	return worst, nil
}
