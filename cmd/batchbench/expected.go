package main

import (
	"sync"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/tests"
)

// expected holds, for each sampled matrix of a bench whose inputs the op does not write, the
// output it must produce and the scale of its residual. They are made once, on every core,
// from the inputs as generated, so that checking a repetition costs one comparison and not
// one product (at n = 256 the products took most of a line's time).
type expected struct {
	products []tests.Dense
	scales   []float64
}

// newExpected evaluates ref(k), the product and residual scale of matrix k, for every k in
// sample, in parallel.
func newExpected(sample []int, ref func(k int) (tests.Dense, float64)) expected {
	e := expected{products: make([]tests.Dense, len(sample)), scales: make([]float64, len(sample))}
	var wg sync.WaitGroup
	for i, k := range sample {
		wg.Go(func() { e.products[i], e.scales[i] = ref(k) })
	}
	wg.Wait()
	return e
}

// worstResidual is the largest ||C_k - want_k|| / (n eps scale_k) over the sample, C the
// batch of n-by-n outputs as downloaded.
func worstResidual[T batchlas.Scalar](e expected, got []T, n int, sample []int) float64 {
	worst := 0.0
	for i, k := range sample {
		r := denseOf(got[k*n*n:], n)
		for j, w := range e.products[i].D {
			r.D[j] -= w
		}
		worst = max(worst, tests.Scaled(r, e.scales[i], n, tests.Eps[T]()))
	}
	return worst
}

// denseOf copies the n-by-n column-major matrix at the start of x.
func denseOf[T batchlas.Scalar](x []T, n int) tests.Dense {
	d := tests.NewDense(n, n)
	for e := range d.D {
		d.D[e] = tests.C128(x[e])
	}
	return d
}
