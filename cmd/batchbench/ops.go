package main

import (
	"math/rand/v2"
	"sort"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/tests"
)

// bench is one prepared (op, dtype, shape): its inputs live on the queue, and a pristine copy
// on the host restores them before every timed run, outside the timing.
type bench interface {
	reset() error
	run() error
	verify() (float64, error) // the largest scaled residual over the sampled matrices
	bytes() float64           // the fewest bytes the call must move
	free()
}

type maker func(q *batchlas.Queue, n, batch int) (bench, error)

type opSpec struct {
	flops func(n int) float64 // real flops per matrix
	make  [4]maker            // by dtypeIndex
}

var dtypeIndex = map[string]int{"f32": 0, "f64": 1, "c64": 2, "c128": 3}

func makers(f32, f64, c64, c128 maker) [4]maker { return [4]maker{f32, f64, c64, c128} }

var registry = map[string]opSpec{
	"potrf": {flops: func(n int) float64 { return float64(n) * float64(n) * float64(n) / 3 },
		make: makers(newPotrf[float32], newPotrf[float64], newPotrf[complex64], newPotrf[complex128])},
}

func opNames() []string {
	var s []string
	for k := range registry {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

func newRand(n, batch int) *rand.Rand { return rand.New(rand.NewPCG(uint64(n), uint64(batch))) }

func sizeOf[T batchlas.Scalar]() float64 {
	var z T
	switch any(z).(type) {
	case float32:
		return 4
	case float64, complex64:
		return 8
	}
	return 16
}

// potrfBench factors random SPD matrices in place.
type potrfBench[T batchlas.Scalar] struct {
	q      *batchlas.Queue
	n      int
	a      *batchlas.Matrix[T]
	info   *batchlas.Vector[int32]
	input  []T
	dense  []tests.Dense
	sample []int
}

func newPotrf[T batchlas.Scalar](q *batchlas.Queue, n, batch int) (bench, error) {
	rng := newRand(n, batch)
	b := &potrfBench[T]{q: q, n: n, input: make([]T, n*n*batch), sample: tests.Sample(batch)}
	for k := 0; k < batch; k++ {
		d := tests.RandSPD[T](rng, n)
		for i, v := range d.D {
			b.input[k*n*n+i] = tests.From[T](v)
		}
	}
	for _, k := range b.sample {
		d := tests.NewDense(n, n)
		for i := range d.D {
			d.D[i] = tests.C128(b.input[k*n*n+i])
		}
		b.dense = append(b.dense, d)
	}
	var err error
	if b.a, err = batchlas.NewMatrix[T](q, n, n, batch); err != nil {
		return nil, err
	}
	if b.info, err = batchlas.NewVector[int32](q, batch); err != nil {
		return nil, err
	}
	return b, nil
}

func (b *potrfBench[T]) reset() error { return b.a.Upload(b.input) }
func (b *potrfBench[T]) run() error   { return batchlas.Potrf(b.q, batchlas.Lower, b.a, b.info) }
func (b *potrfBench[T]) bytes() float64 {
	return 2 * float64(b.n*b.n*b.a.Batch()) * sizeOf[T]()
}
func (b *potrfBench[T]) free() { b.a.Free(); b.info.Free() }

func (b *potrfBench[T]) verify() (float64, error) {
	out, err := b.a.Download(nil)
	if err != nil {
		return 0, err
	}
	info, err := b.info.Download(nil)
	if err != nil {
		return 0, err
	}
	worst := 0.0
	for s, k := range b.sample {
		if info[k] != 0 {
			return inf(), nil
		}
		l := tests.NewDense(b.n, b.n)
		for j := 0; j < b.n; j++ {
			for i := j; i < b.n; i++ {
				l.Set(i, j, tests.C128(out[k*b.n*b.n+j*b.n+i]))
			}
		}
		r := tests.Sub(b.dense[s], tests.Mul(l, tests.Adjoint(l)))
		worst = max(worst, tests.Scaled(r, tests.NormF(b.dense[s]), b.n, tests.Eps[T]()))
	}
	return worst, nil
}
