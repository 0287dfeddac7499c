// Package tests is the conformance suite shared by every backend. Each test runs on every
// queue the build and the machine offer; the exported helpers here let a new backend reuse
// the suite unchanged.
//
// Reference math is done in complex128 whatever the type under test, so one set of helpers
// checks all four dtypes.
package tests

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/batchlas/batchlas"
)

// Tol is the largest accepted residual ratio ||residual|| / (n * eps * ||data||), LAPACK's
// test threshold.
const Tol = 30

var (
	queuesOnce sync.Once
	queues     []*batchlas.Queue
	missing    []string
)

// Queues opens, once per process, one queue for every backend this build and machine offer:
// the host always, CUDA and ROCm when built in and a device answers.
func Queues() []*batchlas.Queue {
	queuesOnce.Do(func() {
		for _, b := range []batchlas.Backend{batchlas.Host, batchlas.CUDA, batchlas.ROCm} {
			q, err := batchlas.NewQueue(b)
			if err != nil {
				missing = append(missing, fmt.Sprintf("%v: %v", b, err))
				continue
			}
			queues = append(queues, q)
		}
	})
	return queues
}

// ForEachQueue runs f as a subtest on every queue of Queues, named by the device key, and
// logs which backends are not tested and why.
func ForEachQueue(t *testing.T, f func(t *testing.T, q *batchlas.Queue)) {
	for _, q := range Queues() {
		t.Run(q.Device().Key, func(t *testing.T) { f(t, q) })
	}
	if testing.Verbose() && len(missing) > 0 {
		t.Logf("backends not tested here: %s", strings.Join(missing, "; "))
	}
}

// Misses are the ops that a backend has no route for by design, each with why: a call there
// returns *batchlas.NoRouteError, and the tests of the op skip saying so. This is the census
// of a backend's known gaps; the novendor build's is vendorfree's.
var Misses = map[batchlas.Backend]map[string]string{
	batchlas.ROCm: {"spmm": "no ROCm family (rocSPARSE is not bound)"},
}

// SkipMiss skips t when op is one of Misses for q's backend, once err, the result of the
// op's call on q, is shown to be the *NoRouteError the miss promises; otherwise it returns.
func SkipMiss(t *testing.T, q *batchlas.Queue, op string, err error) {
	t.Helper()
	why, ok := Misses[q.Backend()][op]
	if !ok {
		return
	}
	var noRoute *batchlas.NoRouteError
	if !errors.As(err, &noRoute) {
		t.Fatalf("%s on %s is listed in Misses (%s), but the call returned %v, not a *NoRouteError", op, q.Backend(), why, err)
	}
	t.Skipf("%s on %s: %s", op, q.Device().Key, why)
}

// ForEachDType runs the four instantiations of a generic test as subtests named by dtype.
func ForEachDType(t *testing.T, q *batchlas.Queue, f32, f64, c64, c128 func(*testing.T, *batchlas.Queue)) {
	t.Run("f32", func(t *testing.T) { f32(t, q) })
	t.Run("f64", func(t *testing.T) { f64(t, q) })
	t.Run("c64", func(t *testing.T) { c64(t, q) })
	t.Run("c128", func(t *testing.T) { c128(t, q) })
}

// Eps is the machine epsilon of T's real type.
func Eps[T batchlas.Scalar]() float64 {
	var z T
	switch any(z).(type) {
	case float32, complex64:
		return 0x1p-23
	}
	return 0x1p-52
}

// IsComplex reports whether T is a complex type.
func IsComplex[T batchlas.Scalar]() bool {
	var z T
	switch any(z).(type) {
	case complex64, complex128:
		return true
	}
	return false
}

// C128 converts x to complex128.
func C128[T batchlas.Scalar](x T) complex128 {
	switch v := any(x).(type) {
	case float32:
		return complex(float64(v), 0)
	case float64:
		return complex(v, 0)
	case complex64:
		return complex128(v)
	}
	return any(x).(complex128)
}

// From converts z to T, dropping the imaginary part for real types.
func From[T batchlas.Scalar](z complex128) T {
	var r any
	var zero T
	switch any(zero).(type) {
	case float32:
		r = float32(real(z))
	case float64:
		r = real(z)
	case complex64:
		r = complex64(z)
	case complex128:
		r = z
	}
	return r.(T)
}

// NaN is a NaN of type T (NaN real and imaginary parts for complex types).
func NaN[T batchlas.Scalar]() T { return From[T](complex(math.NaN(), math.NaN())) }

// IsNaN reports whether x has a NaN part.
func IsNaN[T batchlas.Scalar](x T) bool { return cmplx.IsNaN(C128(x)) }

// Rand returns n values with real and (for complex types) imaginary parts uniform in [-1, 1).
func Rand[T batchlas.Scalar](rng *rand.Rand, n int) []T {
	x := make([]T, n)
	for i := range x {
		x[i] = From[T](complex(2*rng.Float64()-1, 2*rng.Float64()-1))
	}
	return x
}

// NewRand returns a generator seeded from the test's name, so that a failure repeats.
func NewRand(t testing.TB) *rand.Rand {
	var h uint64 = 14695981039346656037
	for _, c := range t.Name() {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return rand.New(rand.NewPCG(h, 0x9e3779b97f4a7c15))
}

// Dense is a column-major complex128 matrix used for reference math.
type Dense struct {
	R, C int
	D    []complex128
}

// NewDense returns an r-by-c zero matrix.
func NewDense(r, c int) Dense { return Dense{R: r, C: c, D: make([]complex128, r*c)} }

// Identity returns the n-by-n identity.
func Identity(n int) Dense {
	d := NewDense(n, n)
	for i := 0; i < n; i++ {
		d.Set(i, i, 1)
	}
	return d
}

// At is element (i, j).
func (d Dense) At(i, j int) complex128 { return d.D[j*d.R+i] }

// Set sets element (i, j) to v.
func (d Dense) Set(i, j int, v complex128) { d.D[j*d.R+i] = v }

// Mul is a*b.
func Mul(a, b Dense) Dense {
	if a.C != b.R {
		panic(fmt.Sprintf("tests: Mul of %dx%d and %dx%d", a.R, a.C, b.R, b.C))
	}
	c := NewDense(a.R, b.C)
	for j := 0; j < b.C; j++ {
		for k := 0; k < a.C; k++ {
			bkj := b.D[j*b.R+k]
			if bkj == 0 {
				continue
			}
			col, ak := c.D[j*c.R:(j+1)*c.R], a.D[k*a.R:(k+1)*a.R]
			for i := range col {
				col[i] += ak[i] * bkj
			}
		}
	}
	return c
}

// Adjoint is a^H.
func Adjoint(a Dense) Dense {
	t := NewDense(a.C, a.R)
	for j := 0; j < a.C; j++ {
		for i := 0; i < a.R; i++ {
			t.Set(j, i, cmplx.Conj(a.At(i, j)))
		}
	}
	return t
}

// Transpose is a^T.
func Transpose(a Dense) Dense {
	t := NewDense(a.C, a.R)
	for j := 0; j < a.C; j++ {
		for i := 0; i < a.R; i++ {
			t.Set(j, i, a.At(i, j))
		}
	}
	return t
}

// Sub is a-b.
func Sub(a, b Dense) Dense {
	c := NewDense(a.R, a.C)
	for i := range c.D {
		c.D[i] = a.D[i] - b.D[i]
	}
	return c
}

// NormF is the Frobenius norm.
func NormF(a Dense) float64 {
	var s float64
	for _, v := range a.D {
		s += real(v)*real(v) + imag(v)*imag(v)
	}
	return math.Sqrt(s)
}

// Scaled is ||r|| / (n * eps * max(||ref||, tiny)) in the Frobenius norm, the ratio that
// Tol bounds; a NaN anywhere gives +Inf.
func Scaled(r Dense, ref float64, n int, eps float64) float64 {
	nr := NormF(r)
	switch {
	case math.IsNaN(nr) || math.IsNaN(ref):
		return math.Inf(1)
	case nr == 0:
		// Exact, also against a zero reference, whose scale below underflows to 0.
		return 0
	}
	return nr / (float64(max(n, 1)) * eps * max(ref, math.SmallestNonzeroFloat64))
}

// Layout is a batch of matrices as stored: rows-by-cols, ld = rows + LDPad, stride =
// ld*cols + StridePad.
type Layout struct {
	Rows, Cols, LDPad, StridePad, Batch int
}

// LD is the leading dimension, rows + LDPad (at least 1).
func (l Layout) LD() int { return max(1, l.Rows+l.LDPad) }

// Stride is the distance between consecutive matrices, ld*cols + StridePad.
func (l Layout) Stride() int { return l.LD()*l.Cols + l.StridePad }

// Span is the number of stored elements, gaps included.
func (l Layout) Span() int {
	if l.Rows == 0 || l.Cols == 0 || l.Batch == 0 {
		return 0
	}
	return (l.Batch-1)*l.Stride() + (l.Cols-1)*l.LD() + l.Rows
}

// String names the layout for subtest names: 4x4_ld+3_st+0_b5.
func (l Layout) String() string {
	return fmt.Sprintf("%dx%d_ld+%d_st+%d_b%d", l.Rows, l.Cols, l.LDPad, l.StridePad, l.Batch)
}

// Index is the position of element (i, j) of matrix b in the stored span.
func (l Layout) Index(b, i, j int) int { return b*l.Stride() + j*l.LD() + i }

// SquareLayouts lists, for each n, square layouts of the classes every op is tested on: a
// packed batch, ld > rows, stride > ld*cols, and a batch of one.
func SquareLayouts(batch int, ns ...int) []Layout {
	var ls []Layout
	for _, n := range ns {
		ls = append(ls,
			Layout{Rows: n, Cols: n, Batch: batch},
			Layout{Rows: n, Cols: n, LDPad: 3, Batch: batch},
			Layout{Rows: n, Cols: n, LDPad: 1, StridePad: 5, Batch: batch},
			Layout{Rows: n, Cols: n, Batch: 1})
	}
	return ls
}

// Empty lists the empty square layouts: n = 0 and batch = 0.
func Empty() []Layout {
	return []Layout{{Rows: 0, Cols: 0, Batch: 3}, {Rows: 4, Cols: 4, Batch: 0}, {Rows: 0, Cols: 0, Batch: 0}}
}

// Stored is a batch held in its stored layout on the host: the span of a Matrix as
// DownloadRaw returns it.
type Stored[T batchlas.Scalar] struct {
	Layout
	S []T
}

// NewStored returns a span of layout l with every element NaN.
func NewStored[T batchlas.Scalar](l Layout) Stored[T] {
	s := make([]T, l.Span())
	for i := range s {
		s[i] = NaN[T]()
	}
	return Stored[T]{Layout: l, S: s}
}

// At is element (i, j) of matrix b.
func (s Stored[T]) At(b, i, j int) T { return s.S[s.Index(b, i, j)] }

// Set sets element (i, j) of matrix b to v.
func (s Stored[T]) Set(b, i, j int, v T) { s.S[s.Index(b, i, j)] = v }

// Dense returns matrix b as a complex128 matrix.
func (s Stored[T]) Dense(b int) Dense {
	d := NewDense(s.Rows, s.Cols)
	for j := 0; j < s.Cols; j++ {
		for i := 0; i < s.Rows; i++ {
			d.Set(i, j, C128(s.At(b, i, j)))
		}
	}
	return d
}

// SetDense stores d as matrix b.
func (s Stored[T]) SetDense(b int, d Dense) {
	for j := 0; j < s.Cols; j++ {
		for i := 0; i < s.Rows; i++ {
			s.Set(b, i, j, From[T](d.At(i, j)))
		}
	}
}

// Upload makes a matrix of s's layout on q and copies s into it, gaps included.
func Upload[T batchlas.Scalar](t testing.TB, q *batchlas.Queue, s Stored[T]) *batchlas.Matrix[T] {
	t.Helper()
	m, err := batchlas.NewMatrixStrided[T](q, s.Rows, s.Cols, s.LD(), s.Stride(), s.Batch)
	if err != nil {
		t.Fatalf("NewMatrixStrided(%v): %v", s.Layout, err)
	}
	if err := m.UploadRaw(s.S); err != nil {
		t.Fatalf("UploadRaw: %v", err)
	}
	return m
}

// Download waits for q and returns m's span.
func Download[T batchlas.Scalar](t testing.TB, q *batchlas.Queue, m *batchlas.Matrix[T], l Layout) Stored[T] {
	t.Helper()
	if err := q.Wait(); err != nil {
		t.Fatalf("Wait: %v", err)
	}
	s, err := m.DownloadRaw(nil)
	if err != nil {
		t.Fatalf("DownloadRaw: %v", err)
	}
	return Stored[T]{Layout: l, S: s}
}

// emulated reports whether q runs on kernels/emu, the CPU emulator that stands in for libcuda
// (it names its one device so).
func emulated(q *batchlas.Queue) bool { return q.Device().Name == "BatchLAS CPU emulator" }

// Poison is the value every output vector is filled with before a call, to prove it is
// written.
const Poison = -77

// PoisonedInfo makes an int32 vector of n elements, each Poison.
func PoisonedInfo(t testing.TB, q *batchlas.Queue, n int) *batchlas.Vector[int32] {
	t.Helper()
	return UploadVector(t, q, Fill(n, int32(Poison)))
}

// Fill returns n copies of v.
func Fill[E any](n int, v E) []E {
	s := make([]E, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// UploadVector makes a vector on q holding x.
func UploadVector[E batchlas.Element](t testing.TB, q *batchlas.Queue, x []E) *batchlas.Vector[E] {
	t.Helper()
	v, err := batchlas.NewVector[E](q, len(x))
	if err != nil {
		t.Fatalf("NewVector(%d): %v", len(x), err)
	}
	if err := v.Upload(x); err != nil {
		t.Fatalf("Vector.Upload: %v", err)
	}
	return v
}

// DownloadVector waits for q and returns v's elements.
func DownloadVector[E batchlas.Element](t testing.TB, q *batchlas.Queue, v *batchlas.Vector[E]) []E {
	t.Helper()
	if err := q.Wait(); err != nil {
		t.Fatalf("Wait: %v", err)
	}
	x, err := v.Download(nil)
	if err != nil {
		t.Fatalf("Vector.Download: %v", err)
	}
	return x
}

// Untouched fails t for every element of got that differs from before where the call may not
// write: outside writable(b, i, j) (nil: nothing inside the matrices is checked), and in
// every gap between columns or matrices. NaNs compare equal to NaNs.
func Untouched[T batchlas.Scalar](t testing.TB, before, got Stored[T], writable func(b, i, j int) bool) {
	t.Helper()
	inside := make([]bool, len(got.S))
	for b := 0; b < got.Batch; b++ {
		for j := 0; j < got.Cols; j++ {
			for i := 0; i < got.Rows; i++ {
				k := got.Index(b, i, j)
				inside[k] = writable == nil || writable(b, i, j)
			}
		}
	}
	bad := 0
	for k := range got.S {
		if inside[k] {
			continue
		}
		x, y := before.S[k], got.S[k]
		if x != y && !(IsNaN(x) && IsNaN(y)) {
			if bad < 5 {
				t.Errorf("element %d of the span changed from %v to %v where nothing may be written", k, x, y)
			}
			bad++
		}
	}
	if bad > 5 {
		t.Errorf("... %d elements changed in all", bad)
	}
}

// Sample returns the matrices of a batch whose results get a full residual check: all of a
// small batch, and an even spread plus the first and last of a large one.
func Sample(batch int) []int {
	if batch <= 16 {
		s := make([]int, batch)
		for i := range s {
			s[i] = i
		}
		return s
	}
	s := []int{0, batch - 1}
	for k := 1; k < 14; k++ {
		s = append(s, k*batch/14)
	}
	return s
}

// RandSPD returns a random Hermitian positive definite n-by-n matrix, B B^H + n I, with
// condition number of order one.
func RandSPD[T batchlas.Scalar](rng *rand.Rand, n int) Dense {
	b := randDense[T](rng, n, n)
	a := Mul(b, Adjoint(b))
	for i := 0; i < n; i++ {
		a.Set(i, i, complex(real(a.At(i, i))+float64(n), 0))
	}
	return a
}

// RandDense returns an r-by-c matrix of Rand values, as T holds them.
func RandDense[T batchlas.Scalar](rng *rand.Rand, r, c int) Dense { return randDense[T](rng, r, c) }

func randDense[T batchlas.Scalar](rng *rand.Rand, r, c int) Dense {
	d := NewDense(r, c)
	for i, v := range Rand[T](rng, r*c) {
		d.D[i] = C128(v)
	}
	return d
}

// Hermitian fills the other triangle of a from the named one (lower: true for the lower),
// and zeroes the imaginary part of the diagonal.
func Hermitian(a Dense, lower bool) Dense {
	h := NewDense(a.R, a.C)
	for j := 0; j < a.C; j++ {
		for i := 0; i < a.R; i++ {
			switch {
			case i == j:
				h.Set(i, i, complex(real(a.At(i, i)), 0))
			case (i > j) == lower:
				h.Set(i, j, a.At(i, j))
			default:
				h.Set(i, j, cmplx.Conj(a.At(j, i)))
			}
		}
	}
	return h
}

// Triangle keeps the named triangle of a (with the diagonal; unit: the diagonal read as one)
// and zeroes the rest.
func Triangle(a Dense, lower, unit bool) Dense {
	t := NewDense(a.R, a.C)
	for j := 0; j < a.C; j++ {
		for i := 0; i < a.R; i++ {
			switch {
			case i == j && unit:
				t.Set(i, j, 1)
			case i == j || (i > j) == lower:
				t.Set(i, j, a.At(i, j))
			}
		}
	}
	return t
}

// InTriangle reports whether (i, j) is in the named triangle, diagonal included.
func InTriangle(lower bool, i, j int) bool { return i == j || (i > j) == lower }

// WantArgErr fails t unless err wraps ErrInvalidArgument and its message names arg.
func WantArgErr(t testing.TB, err error, arg string) {
	t.Helper()
	if err == nil {
		t.Errorf("no error; want an invalid-argument error naming %q", arg)
		return
	}
	if !errors.Is(err, batchlas.ErrInvalidArgument) && !errors.Is(err, batchlas.ErrClosed) {
		t.Errorf("error %q does not wrap ErrInvalidArgument", err)
		return
	}
	var ae *batchlas.ArgError
	if errors.As(err, &ae) && ae.Arg != arg {
		t.Errorf("error %q names argument %q; want %q", err, ae.Arg, arg)
	}
}

// Op is op(a) for a transpose flag: a, a^T or a^H.
func Op(t batchlas.Transpose, a Dense) Dense {
	switch t {
	case batchlas.Trans:
		return Transpose(a)
	case batchlas.ConjTrans:
		return Adjoint(a)
	}
	return a
}

// Axpby is alpha x + beta y; y is not read when beta is 0 (it may hold NaN), as in BLAS.
func Axpby(alpha complex128, x Dense, beta complex128, y Dense) Dense {
	z := NewDense(x.R, x.C)
	for i, v := range x.D {
		z.D[i] = alpha * v
		if beta != 0 {
			z.D[i] += beta * y.D[i]
		}
	}
	return z
}

// RandStored returns a span of layout l whose matrices hold Rand values and whose gaps hold
// NaN.
func RandStored[T batchlas.Scalar](rng *rand.Rand, l Layout) Stored[T] {
	s := NewStored[T](l)
	for b := 0; b < l.Batch; b++ {
		for j := 0; j < l.Cols; j++ {
			for i, v := range Rand[T](rng, l.Rows) {
				s.Set(b, i, j, v)
			}
		}
	}
	return s
}

// RandTriangular returns a span of square layout l whose matrices hold, in the named
// triangle, a well-conditioned random triangular matrix (strict triangle Rand/n, diagonal of
// modulus about 2.5), with NaN in the other triangle, in every gap, and on the diagonal when
// unit is set: a call that reads anything outside the triangle it may read gets NaN.
func RandTriangular[T batchlas.Scalar](rng *rand.Rand, l Layout, lower, unit bool) Stored[T] {
	s := NewStored[T](l)
	n := l.Rows
	for b := 0; b < l.Batch; b++ {
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				z := complex(2*rng.Float64()-1, 2*rng.Float64()-1)
				switch {
				case i == j && !unit:
					s.Set(b, i, j, From[T](z/2+2.5))
				case i != j && InTriangle(lower, i, j):
					s.Set(b, i, j, From[T](z/complex(float64(n), 0)))
				}
			}
		}
	}
	return s
}

// ReadOnly is a writable predicate for Untouched that allows no writes: the whole span of
// an input that a call only reads must be unchanged.
func ReadOnly(b, i, j int) bool { return false }

// Transposes lists every transpose flag.
var Transposes = []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans, batchlas.ConjTrans}

// Alpha and Beta are the scalars of the BLAS tests: not 0 or 1, with nonzero imaginary parts
// (real types take their real parts).
const (
	Alpha = complex(0.75, -0.5)
	Beta  = complex(-1.25, 0.5)
)

// WatchMatrix is Watch for a matrix of a type parameter, which Watch's type set cannot take.
func WatchMatrix[T batchlas.Scalar](m *batchlas.Matrix[T]) Watched { return watchedMatrix[T]{m} }

// RectLayouts lists, for each {rows, cols} shape, layouts of the classes of SquareLayouts: a
// packed batch, ld > rows, stride > ld*cols, and a batch of one.
func RectLayouts(batch int, shapes ...[2]int) []Layout {
	var ls []Layout
	for _, s := range shapes {
		r, c := s[0], s[1]
		ls = append(ls,
			Layout{Rows: r, Cols: c, Batch: batch},
			Layout{Rows: r, Cols: c, LDPad: 3, Batch: batch},
			Layout{Rows: r, Cols: c, LDPad: 1, StridePad: 5, Batch: batch},
			Layout{Rows: r, Cols: c, Batch: 1})
	}
	return ls
}

// QFromReflectors is the m-by-m Q = H_1 ... H_k, k = len(tau), of LAPACK's QR storage f
// (m rows): H_i = I - tau_i v_i v_i^H, v_i(i) = 1 and v_i(i+1:m) = f(i+1:m, i).
func QFromReflectors(f Dense, tau []complex128) Dense {
	m := f.R
	qm := Identity(m)
	for i := len(tau) - 1; i >= 0; i-- {
		v := make([]complex128, m)
		v[i] = 1
		for r := i + 1; r < m; r++ {
			v[r] = f.At(r, i)
		}
		for j := 0; j < m; j++ {
			col := qm.D[j*m : (j+1)*m]
			var w complex128
			for r := i; r < m; r++ {
				w += cmplx.Conj(v[r]) * col[r]
			}
			for r := i; r < m; r++ {
				col[r] -= tau[i] * v[r] * w
			}
		}
	}
	return qm
}
