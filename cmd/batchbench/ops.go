package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/internal/vendorref"
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

// refBench is a bench with reference routines (the arms ref:<name>): ref returns the one
// named, or nil.
type refBench interface {
	ref(name string) func() error
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

func newSquare[T batchlas.Scalar](q *batchlas.Queue, rng *rand.Rand, n, batch int, gen func(*rand.Rand, int) tests.Dense) (square[T], error) {
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

// randDominant is a well-conditioned general matrix on which partial pivoting swaps rows: a
// random matrix plus 2n on the diagonal, strictly diagonally dominant by rows and columns
// (every entry is at most sqrt(2) in modulus), with its rows randomly permuted. The
// elimination then picks the dominant entries as pivots, so the pivots undo the permutation
// and a solve that ignores them fails verification.
func randDominant[T batchlas.Scalar](rng *rand.Rand, n int) tests.Dense {
	d := tests.RandDense[T](rng, n, n)
	a := tests.NewDense(n, n)
	for i, p := range rng.Perm(n) {
		d.Set(i, i, d.At(i, i)+complex(2*float64(n), 0))
		for j := 0; j < n; j++ {
			a.Set(p, j, d.At(i, j))
		}
	}
	return a
}

// poisonUpper sets the strict upper triangle of the inputs (not of the sampled copies) to NaN,
// so that an arm that reads it where only the lower triangle may be read fails verification.
func (s *square[T]) poisonUpper() {
	nan := tests.NaN[T]()
	for k := 0; k < s.a.Batch(); k++ {
		for j := 0; j < s.n; j++ {
			for i := 0; i < j; i++ {
				s.input[k*s.n*s.n+j*s.n+i] = nan
			}
		}
	}
}

// factorLU replaces the inputs in s.a and s.input by their LU factors, computed once with
// Getrf, and returns the pivots on s's queue; s.dense keeps the matrices before.
func (s *square[T]) factorLU() (*batchlas.Vector[int32], error) {
	ipiv, _, err := factor(s, "Getrf", s.n, func(q *batchlas.Queue, a *batchlas.Matrix[T], ipiv, info *batchlas.Vector[int32]) error {
		return batchlas.Getrf(q, a, ipiv, info)
	})
	return ipiv, err
}

// factorCholesky replaces the lower triangle of the inputs in s.a and s.input by its Cholesky
// factor, computed once with Potrf; s.dense keeps the matrices before.
func (s *square[T]) factorCholesky() error {
	none, _, err := factor(s, "Potrf", 0, func(q *batchlas.Queue, a *batchlas.Matrix[T], _, info *batchlas.Vector[int32]) error {
		return batchlas.Potrf(q, batchlas.Lower, a, info)
	})
	if err == nil {
		none.Free()
	}
	return err
}

// factorQR replaces the inputs in s.a and s.input by their QR factorization as Geqrf leaves
// it (R on and above the diagonal, the reflectors below), computed once, and returns tau on
// s's queue and on the host; s.dense keeps the matrices before.
func (s *square[T]) factorQR() (*batchlas.Vector[T], []T, error) {
	return factor(s, "Geqrf", s.n, func(q *batchlas.Queue, a *batchlas.Matrix[T], tau *batchlas.Vector[T], _ *batchlas.Vector[int32]) error {
		return batchlas.Geqrf(q, a, tau)
	})
}

// factorization factors a in place on q, writing the pivots or tau into out, and info.
type factorization[T batchlas.Scalar, E batchlas.Element] func(q *batchlas.Queue, a *batchlas.Matrix[T], out *batchlas.Vector[E], info *batchlas.Vector[int32]) error

// factor runs f, with perMatrix elements of out per matrix, once over the inputs of s on s's
// queue, keeps the factors as the new inputs (in s.a and s.input) and returns out on s's queue
// and on the host.
// Where s's queue has no route for f (the CPU emulator has no vendor libraries, and a native
// family may exist for the op timed but not for its factorization), f runs on a host queue
// instead and its outputs are uploaded.
func factor[T batchlas.Scalar, E batchlas.Element](s *square[T], op string, perMatrix int, f factorization[T, E]) (*batchlas.Vector[E], []E, error) {
	out, factors, host, err := factorOn(s.q, s.a, s.input, op, perMatrix, f)
	var noRoute *batchlas.NoRouteError
	if errors.As(err, &noRoute) {
		out, factors, host, err = factorOnHost(s, op, perMatrix, f)
	}
	if err != nil {
		return nil, nil, err
	}
	s.input = factors
	return out, host, nil
}

// factorOnHost runs f as factor does on a host queue and uploads the factors to s.a.
func factorOnHost[T batchlas.Scalar, E batchlas.Element](s *square[T], op string, perMatrix int, f factorization[T, E]) (*batchlas.Vector[E], []T, []E, error) {
	hq, err := batchlas.NewQueue(batchlas.Host)
	if err != nil {
		return nil, nil, nil, err
	}
	defer hq.Close()
	a, err := batchlas.NewMatrix[T](hq, s.n, s.n, s.a.Batch())
	if err != nil {
		return nil, nil, nil, err
	}
	defer a.Free()
	hout, factors, host, err := factorOn(hq, a, s.input, op, perMatrix, f)
	if err != nil {
		return nil, nil, nil, err
	}
	hout.Free()
	if err := s.a.Upload(factors); err != nil {
		return nil, nil, nil, err
	}
	out, err := batchlas.NewVector[E](s.q, len(host))
	if err == nil {
		err = out.Upload(host)
	}
	return out, factors, host, err
}

// factorOn uploads input to a on q and runs f there once. The inputs are well-conditioned, so
// a nonzero info is the library's fault and is reported before anything is timed.
func factorOn[T batchlas.Scalar, E batchlas.Element](q *batchlas.Queue, a *batchlas.Matrix[T], input []T, op string, perMatrix int, f factorization[T, E]) (*batchlas.Vector[E], []T, []E, error) {
	if err := a.Upload(input); err != nil {
		return nil, nil, nil, err
	}
	info, err := batchlas.NewVector[int32](q, a.Batch())
	if err != nil {
		return nil, nil, nil, err
	}
	defer info.Free()
	// Zeros, for a factorization without info (Geqrf); device memory starts undefined.
	if err := info.Upload(make([]int32, a.Batch())); err != nil {
		return nil, nil, nil, err
	}
	out, err := batchlas.NewVector[E](q, perMatrix*a.Batch())
	if err != nil {
		return nil, nil, nil, err
	}
	fail := func(err error) (*batchlas.Vector[E], []T, []E, error) {
		out.Free()
		return nil, nil, nil, err
	}
	if err := f(q, a, out, info); err != nil {
		return fail(err)
	}
	var d downloads
	codes := fetch(&d, info)
	factors := fetch(&d, a)
	host := fetch(&d, out)
	if d.err != nil {
		return fail(d.err)
	}
	for k, x := range codes {
		if x != 0 {
			return fail(fmt.Errorf("%s of the inputs: info[%d] = %d", op, k, x))
		}
	}
	return out, factors, host, nil
}

// rhs is a batch of n random right-hand sides (or, for ormqr, n columns of C) per matrix, on
// the queue, with their pristine copy on the host.
type rhs[T batchlas.Scalar] struct {
	m     *batchlas.Matrix[T]
	input []T
}

func newRHS[T batchlas.Scalar](q *batchlas.Queue, rng *rand.Rand, n, batch int) (rhs[T], error) {
	r := rhs[T]{input: tests.Rand[T](rng, n*n*batch)}
	var err error
	r.m, err = batchlas.NewMatrix[T](q, n, n, batch)
	return r, err
}

func (r *rhs[T]) reset() error { return r.m.Upload(r.input) }

// solved checks ||A X - B|| / (n eps ||A|| ||X||) on the sampled matrices, A from s.dense, B
// from r.input and X from r.m; info (nil for a solve without one) must be 0 for each of them.
func (s *square[T]) solved(r rhs[T], info *batchlas.Vector[int32]) (float64, error) {
	var d downloads
	x := fetch(&d, r.m)
	var codes []int32
	if info != nil {
		codes = fetch(&d, info)
	}
	if d.err != nil {
		return 0, d.err
	}
	worst := 0.0
	for i, k := range s.sample {
		if codes != nil && codes[k] != 0 {
			return inf(), nil
		}
		a, xk := s.dense[i], s.matrix(x, k)
		res := tests.Sub(tests.Mul(a, xk), s.matrix(r.input, k))
		worst = max(worst, tests.Scaled(res, tests.NormF(a)*tests.NormF(xk), s.n, tests.Eps[T]()))
	}
	return worst, nil
}

// luBench is the state of the getrf and getri benchmarks: the matrices, the pivots and info.
type luBench[T batchlas.Scalar] struct {
	square[T]
	ipiv, info *batchlas.Vector[int32]
}

// newLU samples the matrices with gen; factored replaces them by their LU factors and pivots
// (factorLU), else the pivots are left to the call.
func newLU[T batchlas.Scalar](q *batchlas.Queue, n, batch int, gen func(*rand.Rand, int) tests.Dense, factored bool) (luBench[T], error) {
	s, err := newSquare[T](q, newRand(n, batch), n, batch, gen)
	if err != nil {
		return luBench[T]{}, err
	}
	b := luBench[T]{square: s}
	if factored {
		b.ipiv, err = b.factorLU()
	} else {
		b.ipiv, err = batchlas.NewVector[int32](q, n*batch)
	}
	if err != nil {
		return b, err
	}
	b.info, err = batchlas.NewVector[int32](q, batch)
	return b, err
}

func (b *luBench[T]) free() { b.a.Free(); b.ipiv.Free(); b.info.Free() }

// getrfBench factors random general matrices in place with partial pivoting.
type getrfBench[T batchlas.Scalar] struct{ luBench[T] }

func newGetrf[T batchlas.Scalar](q *batchlas.Queue, n, batch int) (bench, error) {
	lu, err := newLU[T](q, n, batch, randGeneral[T], false)
	if err != nil {
		return nil, err
	}
	return &getrfBench[T]{lu}, nil
}

func (b *getrfBench[T]) run() error { return batchlas.Getrf(b.q, b.a, b.ipiv, b.info) }

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
	sq, err := newSquare[T](q, newRand(n, batch), n, batch, randGeneral[T])
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
	jobz batchlas.Job
}

// jobzBench is a bench that takes the -jobz flag (syev).
type jobzBench interface{ setJobz(batchlas.Job) }

func (b *syevBench[T, R]) setJobz(j batchlas.Job) { b.jobz = j }

// ref: "syevj", "xsyev" and "loop" are cuSOLVER's three syev routes, each forced
// (vendorref.Syev), where the build has them; "gonum" is gonumSyev.
func (b *syevBench[T, R]) ref(name string) func() error {
	if name == "gonum" {
		return b.gonumSyev()
	}
	if vendorref.Syev == nil {
		return nil
	}
	return func() error { return vendorref.Syev(name, b.q, b.jobz, batchlas.Lower, b.a, b.w, b.info) }
}

func randHermitian[T batchlas.Scalar](rng *rand.Rand, n int) tests.Dense {
	return tests.Hermitian(tests.RandDense[T](rng, n, n), true)
}

func newSyev[T batchlas.Scalar, R batchlas.Real](q *batchlas.Queue, n, batch int) (bench, error) {
	sq, err := newSquare[T](q, newRand(n, batch), n, batch, randHermitian[T])
	if err != nil {
		return nil, err
	}
	b := &syevBench[T, R]{square: sq, jobz: batchlas.Vectors}
	if b.w, err = batchlas.NewVector[R](q, n*batch); err != nil {
		return nil, err
	}
	b.info, err = batchlas.NewVector[int32](q, batch)
	return b, err
}

func (b *syevBench[T, R]) run() error {
	return batchlas.Syev(b.q, b.jobz, batchlas.Lower, b.a, b.w, b.info)
}
func (b *syevBench[T, R]) free() { b.a.Free(); b.w.Free(); b.info.Free() }

// verify checks ||A V - V W|| / (n eps ||A||) and ||V^H V - I|| / (n eps) on the sampled
// matrices; with NoVectors, the eigenvalues against gonum's (eigenvalueError).
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
		if b.jobz == batchlas.NoVectors {
			worst = max(worst, eigenvalueError(b.dense[s], w[k*n:(k+1)*n], eps))
			continue
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

// eigenvalueError is max_i |w_i - lambda_i| / (n eps ||A||_F), lambda the ascending eigenvalues
// of the Hermitian a by gonum's EigenSym on its real symmetric embedding [Re -Im; Im Re],
// whose spectrum is a's with every eigenvalue twice.
func eigenvalueError[R batchlas.Real](a tests.Dense, w []R, eps float64) float64 {
	n := a.R
	e := mat.NewSymDense(2*n, nil)
	for j := 0; j < n; j++ {
		for i := 0; i <= j; i++ {
			x := a.At(i, j)
			e.SetSym(i, j, real(x))
			e.SetSym(i+n, j+n, real(x))
			e.SetSym(i, j+n, -imag(x))
			e.SetSym(j, i+n, imag(x))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(e, false) {
		return inf()
	}
	ref := es.Values(nil) // ascending
	worst := 0.0
	for i := range w {
		worst = max(worst, math.Abs(float64(w[i])-ref[2*i]))
	}
	return worst / (float64(n) * eps * tests.NormF(a))
}
