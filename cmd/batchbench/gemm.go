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
	in      [2][]T // A and B as uploaded, for the reference product
	want    expected
}

func newGemm[T batchlas.Scalar](q *batchlas.Queue, n, batch int) (bench, error) {
	g := &gemmBench[T]{q: q, n: n, sample: tests.Sample(batch)}
	rng := newRand(n, batch)
	for i, m := range []**batchlas.Matrix[T]{&g.a, &g.b, &g.c} {
		var err error
		if *m, err = batchlas.NewMatrix[T](q, n, n, batch); err != nil {
			return nil, err
		}
		data := tests.Rand[T](rng, n*n*batch)
		if i < 2 {
			g.in[i] = data
		}
		if err := (*m).Upload(data); err != nil {
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

// verify checks ||C - A B|| / (n eps ||A|| ||B||), against products made once from the inputs.
func (g *gemmBench[T]) verify() (float64, error) {
	got, err := g.c.Download(nil)
	if err != nil {
		return 0, err
	}
	if g.want.products == nil {
		n := g.n
		g.want = newExpected(g.sample, func(k int) (tests.Dense, float64) {
			a, b := denseOf(g.in[0][k*n*n:], n), denseOf(g.in[1][k*n*n:], n)
			return tests.Mul(a, b), tests.NormF(a) * tests.NormF(b)
		})
	}
	return worstResidual(g.want, got, g.n, g.sample), nil
}
