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
	"getrf": {flops: func(n int) float64 { return 2 * float64(n) * float64(n) * float64(n) / 3 },
		make: makers(newGetrf[float32], newGetrf[float64], newGetrf[complex64], newGetrf[complex128])},
	// About 9 n^3 for the eigenvalues and vectors of a symmetric matrix (tridiagonal
	// reduction 4/3 n^3, forming Q 4/3 n^3, the implicit QL/QR on the vectors about 6 n^3);
	// the figure is for GFLOP/s only.
	"syev": {flops: func(n int) float64 { return 9 * float64(n) * float64(n) * float64(n) },
		make: makers(newSyev[float32, float32], newSyev[float64, float64], newSyev[complex64, float32], newSyev[complex128, float64])},
	// LAPACK's count for the thin SVD of a square matrix with both factors is about 22 n^3
	// (bidiagonalization 8/3 n^3, forming U and V^T 8/3 n^3, the QR iteration on the vectors
	// about 16 n^3); the figure is for GFLOP/s only.
	"gesvd": {flops: func(n int) float64 { return 22 * float64(n) * float64(n) * float64(n) },
		make: makers(newGesvd[float32, float32], newGesvd[float64, float64], newGesvd[complex64, float32], newGesvd[complex128, float64])},
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
	var d downloads
	out := fetch(&d, b.a)
	info := fetch(&d, b.info)
	if d.err != nil {
		return 0, d.err
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

// square is a batch of n-by-n inputs on the queue with their pristine copy on the host, and
// the matrices that verification samples, in complex128.
type square[T batchlas.Scalar] struct {
	q      *batchlas.Queue
	n      int
	a      *batchlas.Matrix[T]
	input  []T
	sample []int
	dense  []tests.Dense // the sampled inputs
}

func newSquare[T batchlas.Scalar](q *batchlas.Queue, n, batch int, gen func(*rand.Rand, int) tests.Dense) (square[T], error) {
	rng := newRand(n, batch)
	s := square[T]{q: q, n: n, input: make([]T, n*n*batch), sample: tests.Sample(batch)}
	for k := 0; k < batch; k++ {
		for i, v := range gen(rng, n).D {
			s.input[k*n*n+i] = tests.From[T](v)
		}
	}
	for _, k := range s.sample {
		s.dense = append(s.dense, s.matrix(s.input, k))
	}
	var err error
	s.a, err = batchlas.NewMatrix[T](q, n, n, batch)
	return s, err
}

// matrix is matrix k of the packed batch x, in complex128.
func (s *square[T]) matrix(x []T, k int) tests.Dense {
	d := tests.NewDense(s.n, s.n)
	for i := range d.D {
		d.D[i] = tests.C128(x[k*s.n*s.n+i])
	}
	return d
}

func (s *square[T]) reset() error { return s.a.Upload(s.input) }

// bytes is the batch read and written once.
func (s *square[T]) bytes() float64 {
	return 2 * float64(s.n*s.n*s.a.Batch()) * sizeOf[T]()
}

func randGeneral[T batchlas.Scalar](rng *rand.Rand, n int) tests.Dense {
	return tests.RandDense[T](rng, n, n)
}

// getrfBench factors random general matrices in place with partial pivoting.
type getrfBench[T batchlas.Scalar] struct {
	square[T]
	ipiv, info *batchlas.Vector[int32]
}

func newGetrf[T batchlas.Scalar](q *batchlas.Queue, n, batch int) (bench, error) {
	s, err := newSquare[T](q, n, batch, randGeneral[T])
	if err != nil {
		return nil, err
	}
	b := &getrfBench[T]{square: s}
	if b.ipiv, err = batchlas.NewVector[int32](q, n*batch); err != nil {
		return nil, err
	}
	b.info, err = batchlas.NewVector[int32](q, batch)
	return b, err
}

func (b *getrfBench[T]) run() error { return batchlas.Getrf(b.q, b.a, b.ipiv, b.info) }
func (b *getrfBench[T]) free()      { b.a.Free(); b.ipiv.Free(); b.info.Free() }

// verify checks ||P^T A - L U|| / (n eps ||A||) on the sampled matrices.
func (b *getrfBench[T]) verify() (float64, error) {
	var d downloads
	out := fetch(&d, b.a)
	ipiv := fetch(&d, b.ipiv)
	info := fetch(&d, b.info)
	if d.err != nil {
		return 0, d.err
	}
	n, worst := b.n, 0.0
	for s, k := range b.sample {
		if info[k] != 0 {
			return inf(), nil
		}
		f := b.matrix(out, k)
		l, u := tests.NewDense(n, n), tests.NewDense(n, n)
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				switch {
				case i > j:
					l.Set(i, j, f.At(i, j))
				case i == j:
					l.Set(i, i, 1)
					u.Set(i, j, f.At(i, j))
				default:
					u.Set(i, j, f.At(i, j))
				}
			}
		}
		pa := tests.NewDense(n, n)
		copy(pa.D, b.dense[s].D)
		for j, p := range ipiv[k*n : (k+1)*n] {
			if p < 1 || int(p) > n {
				return inf(), nil
			}
			for c := 0; c < n; c++ {
				x, y := pa.At(j, c), pa.At(int(p)-1, c)
				pa.Set(j, c, y)
				pa.Set(int(p)-1, c, x)
			}
		}
		r := tests.Sub(pa, tests.Mul(l, u))
		worst = max(worst, tests.Scaled(r, tests.NormF(b.dense[s]), n, tests.Eps[T]()))
	}
	return worst, nil
}

// gesvdBench computes the thin SVD (jobu = jobvt = SVDThin) of random general matrices.
type gesvdBench[T batchlas.Scalar, R batchlas.Real] struct {
	square[T]
	s     *batchlas.Vector[R]
	u, vt *batchlas.Matrix[T]
	info  *batchlas.Vector[int32]
}

func newGesvd[T batchlas.Scalar, R batchlas.Real](q *batchlas.Queue, n, batch int) (bench, error) {
	sq, err := newSquare[T](q, n, batch, randGeneral[T])
	if err != nil {
		return nil, err
	}
	b := &gesvdBench[T, R]{square: sq}
	if b.s, err = batchlas.NewVector[R](q, n*batch); err != nil {
		return nil, err
	}
	if b.u, err = batchlas.NewMatrix[T](q, n, n, batch); err != nil {
		return nil, err
	}
	if b.vt, err = batchlas.NewMatrix[T](q, n, n, batch); err != nil {
		return nil, err
	}
	b.info, err = batchlas.NewVector[int32](q, batch)
	return b, err
}

func (b *gesvdBench[T, R]) run() error {
	return batchlas.Gesvd(b.q, batchlas.SVDThin, batchlas.SVDThin, b.a, b.s, b.u, b.vt, b.info)
}
func (b *gesvdBench[T, R]) free() { b.a.Free(); b.s.Free(); b.u.Free(); b.vt.Free(); b.info.Free() }

// bytes adds the two factors written to the input read.
func (b *gesvdBench[T, R]) bytes() float64 { return 1.5 * b.square.bytes() }

// verify checks ||A - U S V^H|| / (n eps ||A||) and ||U^H U - I|| / (n eps), likewise for
// V, on the sampled matrices.
func (b *gesvdBench[T, R]) verify() (float64, error) {
	var d downloads
	u := fetch(&d, b.u)
	vt := fetch(&d, b.vt)
	sv := fetch(&d, b.s)
	info := fetch(&d, b.info)
	if d.err != nil {
		return 0, d.err
	}
	n, eps, worst := b.n, tests.Eps[T](), 0.0
	id := tests.Identity(n)
	for s, k := range b.sample {
		if info[k] != 0 {
			return inf(), nil
		}
		uk, vk := b.matrix(u, k), b.matrix(vt, k)
		us := tests.NewDense(n, n)
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				us.Set(i, j, uk.At(i, j)*complex(float64(sv[k*n+j]), 0))
			}
		}
		a := b.dense[s]
		worst = max(worst,
			tests.Scaled(tests.Sub(a, tests.Mul(us, vk)), tests.NormF(a), n, eps),
			tests.Scaled(tests.Sub(tests.Mul(tests.Adjoint(uk), uk), id), 1, n, eps),
			tests.Scaled(tests.Sub(tests.Mul(vk, tests.Adjoint(vk)), id), 1, n, eps))
	}
	return worst, nil
}

// syevBench computes the eigenvalues and eigenvectors (jobz Vectors, uplo Lower) of random
// Hermitian matrices.
type syevBench[T batchlas.Scalar, R batchlas.Real] struct {
	square[T]
	w    *batchlas.Vector[R]
	info *batchlas.Vector[int32]
}

func randHermitian[T batchlas.Scalar](rng *rand.Rand, n int) tests.Dense {
	return tests.Hermitian(tests.RandDense[T](rng, n, n), true)
}

func newSyev[T batchlas.Scalar, R batchlas.Real](q *batchlas.Queue, n, batch int) (bench, error) {
	sq, err := newSquare[T](q, n, batch, randHermitian[T])
	if err != nil {
		return nil, err
	}
	b := &syevBench[T, R]{square: sq}
	if b.w, err = batchlas.NewVector[R](q, n*batch); err != nil {
		return nil, err
	}
	b.info, err = batchlas.NewVector[int32](q, batch)
	return b, err
}

func (b *syevBench[T, R]) run() error {
	return batchlas.Syev(b.q, batchlas.Vectors, batchlas.Lower, b.a, b.w, b.info)
}
func (b *syevBench[T, R]) free() { b.a.Free(); b.w.Free(); b.info.Free() }

// verify checks ||A V - V W|| / (n eps ||A||) and ||V^H V - I|| / (n eps) on the sampled
// matrices.
func (b *syevBench[T, R]) verify() (float64, error) {
	var d downloads
	v := fetch(&d, b.a)
	w := fetch(&d, b.w)
	info := fetch(&d, b.info)
	if d.err != nil {
		return 0, d.err
	}
	n, eps, worst := b.n, tests.Eps[T](), 0.0
	for s, k := range b.sample {
		if info[k] != 0 {
			return inf(), nil
		}
		vk := b.matrix(v, k)
		vw := tests.NewDense(n, n)
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				vw.Set(i, j, vk.At(i, j)*complex(float64(w[k*n+j]), 0))
			}
		}
		a := b.dense[s]
		worst = max(worst,
			tests.Scaled(tests.Sub(tests.Mul(a, vk), vw), tests.NormF(a), n, eps),
			tests.Scaled(tests.Sub(tests.Mul(tests.Adjoint(vk), vk), tests.Identity(n)), 1, n, eps))
	}
	return worst, nil
}

// downloads keeps the first error of a series of downloads, so that a verify reads every
// output it needs and checks once.
type downloads struct{ err error }

// fetch downloads x unless an earlier download failed.
func fetch[E any](d *downloads, x interface{ Download([]E) ([]E, error) }) []E {
	if d.err != nil {
		return nil
	}
	v, err := x.Download(nil)
	d.err = err
	return v
}
