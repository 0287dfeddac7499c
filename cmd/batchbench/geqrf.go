package main

import (
	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/internal/vendorref"
	"github.com/batchlas/batchlas/tests"
)

func init() {
	registry["geqrf"] = opSpec{flops: func(n int) float64 { return 4 * float64(n) * float64(n) * float64(n) / 3 },
		make: makers(newGeqrf[float32], newGeqrf[float64], newGeqrf[complex64], newGeqrf[complex128])}
}

// geqrfBench factors random square matrices in place.
type geqrfBench[T batchlas.Scalar] struct {
	q      *batchlas.Queue
	n      int
	a      *batchlas.Matrix[T]
	tau    *batchlas.Vector[T]
	input  []T
	sample []int
}

func newGeqrf[T batchlas.Scalar](q *batchlas.Queue, n, batch int) (bench, error) {
	b := &geqrfBench[T]{q: q, n: n, input: tests.Rand[T](newRand(n, batch), n*n*batch), sample: tests.Sample(batch)}
	var err error
	if b.a, err = batchlas.NewMatrix[T](q, n, n, batch); err != nil {
		return nil, err
	}
	if b.tau, err = batchlas.NewVector[T](q, n*batch); err != nil {
		return nil, err
	}
	return b, nil
}

func (b *geqrfBench[T]) reset() error { return b.a.Upload(b.input) }
func (b *geqrfBench[T]) run() error   { return batchlas.Geqrf(b.q, b.a, b.tau) }
func (b *geqrfBench[T]) bytes() float64 {
	return 2 * float64(b.n*b.n*b.a.Batch()) * sizeOf[T]()
}
func (b *geqrfBench[T]) free() { b.a.Free(); b.tau.Free() }

// ref: "cublas" is cublas<t>geqrfBatched, where the build has it; "gonum" is gonumGeqrf.
func (b *geqrfBench[T]) ref(name string) func() error {
	if name == "gonum" {
		return b.gonumGeqrf()
	}
	if name != "cublas" || vendorref.GeqrfBatched == nil {
		return nil
	}
	return func() error { return vendorref.GeqrfBatched(b.q, b.a, b.tau) }
}

// verify checks ||A - Q R|| / (n eps ||A||) with Q formed from the reflectors.
func (b *geqrfBench[T]) verify() (float64, error) {
	var d downloads
	out := fetch(&d, b.a)
	tau := fetch(&d, b.tau)
	if d.err != nil {
		return 0, d.err
	}
	n, worst := b.n, 0.0
	for _, k := range b.sample {
		a, f := tests.NewDense(n, n), tests.NewDense(n, n)
		for i := range a.D {
			a.D[i] = tests.C128(b.input[k*n*n+i])
			f.D[i] = tests.C128(out[k*n*n+i])
		}
		t := make([]complex128, n)
		for i := range t {
			t[i] = tests.C128(tau[k*n+i])
		}
		qr := tests.Mul(tests.QFromReflectors(f, t), tests.Triangle(f, false, false))
		worst = max(worst, tests.Scaled(tests.Sub(a, qr), tests.NormF(a), n, tests.Eps[T]()))
	}
	return worst, nil
}
