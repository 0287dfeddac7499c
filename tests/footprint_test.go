package tests

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/route"
)

// The footprint test: for every op, dtype and family (each pinned), every element the op may
// not write comes back bit for bit, and every element it may not read does not matter.
//
// Each case runs twice on fresh operands. In the poison run every element outside the
// footprint (the other triangle, a unit diagonal, the imaginary parts of a Hermitian diagonal
// that are taken as zero, the gaps between rows and ld and between matrices, the matrices
// beside the batch's view, vector elements past what the call uses) and every output that is
// written without being read holds a signalling NaN; in the control run they hold ordinary
// numbers. Everything the op reads holds the same values in both runs. So: what may not be
// written must come back bit for bit in both runs (a signalling NaN comes back quiet from any
// arithmetic or conversion), and every output must be bitwise the same in both runs (what
// may not be read cannot have mattered, and every output was written). The residuals of the
// same calls are the business of the ops' own tests.

// fpClass is what an op may do with an element of an operand.
type fpClass uint8

const (
	fpOff    fpClass = iota // neither read nor written
	fpIn                    // read, not written
	fpInRe                  // read, not written, its imaginary part taken as zero (not read)
	fpOut                   // read and written (overwritten by the result)
	fpOutRe                 // read, except its imaginary part, and written
	fpLost                  // read, and destroyed: its value on return is not specified
	fpLostRe                // read, except its imaginary part, and destroyed
	fpSet                   // written, never read
)

// written says that the element may be written; kept, that it then holds a result.
func (c fpClass) written() bool { return c >= fpOut }
func (c fpClass) kept() bool    { return c != fpLost && c != fpLostRe }

// re is the class of a Hermitian diagonal element whose imaginary part is taken as zero.
func (c fpClass) re() bool { return c == fpInRe || c == fpOutRe || c == fpLostRe }

// fpRun is one run of a case: its queue, whether it poisons, its generators and the operands
// it made.
type fpRun struct {
	t      *testing.T
	q      *batchlas.Queue
	poison bool
	rng    *rand.Rand // the values the op reads: the same sequence in both runs
	junk   *rand.Rand // the control run's values where the poison run has NaN
	ops    []fpOperand
}

// fpOperand is one operand as stored: its elements' bytes before the call and a download of
// them after it.
type fpOperand struct {
	name   string
	size   int // bytes per element
	class  []fpClass
	before []byte
	after  func() ([]byte, error)
}

// fpCase is one call of an op; run makes its operands through fpMat and fpVec and calls it.
type fpCase struct {
	name string
	run  func(f *fpRun) error
}

func TestFootprint(t *testing.T) {
	ops := map[string][4][]fpCase{}
	for i, tab := range [4]map[string][]fpCase{fpOps[float32, float32](), fpOps[float64, float64](), fpOps[complex64, float32](), fpOps[complex128, float64]()} {
		for op, cs := range tab {
			o := ops[op]
			o[i] = cs
			ops[op] = o
		}
	}
	for _, op := range route.Ops() {
		if _, ok := ops[op]; !ok {
			t.Errorf("%s has no footprint cases (tests/footprint_test.go)", op)
		}
	}
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		for _, op := range route.Ops() {
			cases, ok := ops[op]
			if !ok {
				continue
			}
			forEachFamily(t, op, func(t *testing.T, fam string) {
				if chosen, err := traced(t, func() error { return pinnedSuites[op].probe(q) }); routeRefused(err) {
					t.Skipf("%s cannot run on %s: %v", fam, q.Device().Key, err)
				} else if SkipMiss(t, q, op, err); err != nil {
					t.Fatalf("probe: %v", err)
				} else if !bytes.Contains([]byte(chosen), []byte("-> "+fam+" ")) {
					t.Skipf("%s does not run on %s: %s", fam, q.Device().Key, chosen)
				}
				for i, dt := range dtypes {
					t.Run(dt, func(t *testing.T) {
						for _, c := range cases[i] {
							t.Run(c.name, func(t *testing.T) { checkFootprint(t, q, c) })
						}
					})
				}
			})
		}
	})
}

// checkFootprint runs c poisoned and in control, and compares.
func checkFootprint(t *testing.T, q *batchlas.Queue, c fpCase) {
	var outs [2][][]byte
	var names []string
	for r, poison := range []bool{true, false} {
		f := &fpRun{t: t, q: q, poison: poison, rng: NewRand(t), junk: rand.New(rand.NewPCG(uint64(r)+7, 11))}
		if err := c.run(f); routeRefused(err) {
			t.Skipf("pinned family refuses the case: %v", err)
		} else if err != nil {
			t.Fatal(err)
		}
		if err := q.Wait(); err != nil {
			t.Fatalf("Wait: %v", err)
		}
		for _, o := range f.ops {
			got, err := o.after()
			if err != nil {
				t.Fatalf("%s: download: %v", o.name, err)
			}
			bad := 0
			out := make([]byte, 0, len(got))
			for k, cl := range o.class {
				g, b := got[k*o.size:(k+1)*o.size], o.before[k*o.size:(k+1)*o.size]
				if cl.written() {
					if cl.kept() {
						out = append(out, g...)
					}
				} else if !bytes.Equal(g, b) {
					if bad++; bad <= 3 {
						t.Errorf("poison=%v: %s: element %d (class %d) may not be written: %x became %x", poison, o.name, k, cl, b, g)
					}
				}
			}
			if bad > 3 {
				t.Errorf("poison=%v: %s: %d elements written outside the footprint", poison, o.name, bad)
			}
			outs[r] = append(outs[r], out)
			names = append(names[:min(len(names), len(f.ops)-1)], o.name)
		}
	}
	for i := range outs[0] {
		if x, y := outs[0][i], outs[1][i]; !bytes.Equal(x, y) {
			k := 0
			for x[k] == y[k] {
				k++
			}
			t.Errorf("%s: the outputs depend on elements the op may not read, or hold elements it did not write: "+
				"byte %d of the written elements is %#x with NaN outside the footprint, %#x without", names[i], k, x[k], y[k])
		}
	}
}

// fpBytes is the memory of s.
func fpBytes[E batchlas.Element](s []E) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

// fpSNaN writes signalling NaNs of the real type of size bytes over p (float32 for 4,
// float64 for 8); an int32 gets the float32 pattern.
func fpSNaN(p []byte, size int) {
	for k := 0; k < len(p); k += size {
		if size == 4 {
			*(*uint32)(unsafe.Pointer(&p[k])) = 0x7fa00001
		} else {
			*(*uint64)(unsafe.Pointer(&p[k])) = 0x7ff4000000000001
		}
	}
}

// fpPart is the size of one real part of E: 4 for float32, complex64 and int32, 8 otherwise.
func fpPart[E batchlas.Element]() int {
	switch any(*new(E)).(type) {
	case float64, complex128:
		return 8
	}
	return 4
}

// fpValue is z as E (an int32 takes the real part).
func fpValue[E batchlas.Element](z complex128) E {
	var v any
	switch any(*new(E)).(type) {
	case int32:
		v = int32(real(z))
	case float32:
		v = float32(real(z))
	case float64:
		v = real(z)
	case complex64:
		v = complex64(z)
	case complex128:
		v = z
	}
	return v.(E)
}

// fpPlace stores element k of the operand: val where the op reads it, NaN (poison) or junk
// (control) where it may not.
func fpPlace[E batchlas.Element](f *fpRun, x []E, k int, cl fpClass, val complex128) {
	size, part := int(unsafe.Sizeof(x[0])), fpPart[E]()
	p := fpBytes(x[k : k+1])
	junk := complex(1e3*(2*f.junk.Float64()-1), 1e3*(2*f.junk.Float64()-1))
	switch {
	case cl == fpOff || cl == fpSet:
		if x[k] = fpValue[E](junk); f.poison {
			fpSNaN(p, part)
		}
	case cl.re() && size == 2*part:
		x[k] = fpValue[E](complex(real(val), imag(junk)))
		if f.poison {
			fpSNaN(p[part:], part)
		}
	default:
		x[k] = fpValue[E](val)
	}
}

// fpMat makes a matrix operand of layout l (ld and stride padding as l says) with one more
// matrix on each side of the batch, and returns the view of the batch. class and val say,
// for element (i, j) of matrix b of the view, what the op may do with it and what it holds.
func fpMat[T batchlas.Scalar](f *fpRun, name string, l Layout, class func(i, j int) fpClass, val func(b, i, j int) complex128) *batchlas.Matrix[T] {
	f.t.Helper()
	full := l
	full.Batch += 2
	s := make([]T, full.Span())
	cls := make([]fpClass, len(s))
	for b := 0; b < full.Batch; b++ {
		for j := 0; j < l.Cols; j++ {
			for i := 0; i < l.Rows; i++ {
				k := full.Index(b, i, j)
				if b >= 1 && b <= l.Batch {
					cls[k] = class(i, j)
				}
			}
		}
	}
	for k := range s {
		var v complex128
		if cls[k] != fpOff && cls[k] != fpSet {
			// The element's position: the span is walked in order, so val draws the same
			// random numbers in both runs.
			b := k / full.Stride()
			j, i := (k-b*full.Stride())/full.LD(), (k-b*full.Stride())%full.LD()
			v = val(b-1, i, j)
		}
		fpPlace(f, s, k, cls[k], v)
	}
	m := Upload(f.t, f.q, Stored[T]{Layout: full, S: s})
	f.ops = append(f.ops, fpOperand{name: name, size: int(unsafe.Sizeof(s[0])), class: cls,
		before: bytes.Clone(fpBytes(s)), after: func() ([]byte, error) {
			got, err := m.DownloadRaw(nil)
			return fpBytes(got), err
		}})
	v, err := m.Slice(1, l.Batch+1)
	if err != nil {
		f.t.Fatal(err)
	}
	return v
}

// fpVec makes a vector operand of n elements of class cl, and three more past them that
// the op may not touch.
func fpVec[E batchlas.Element](f *fpRun, name string, n int, cl fpClass, val func(i int) complex128) *batchlas.Vector[E] {
	f.t.Helper()
	s, cls := make([]E, n+3), make([]fpClass, n+3)
	for k := range s {
		var v complex128
		if k < n {
			cls[k] = cl
			if cl != fpSet {
				v = val(k)
			}
		}
		fpPlace(f, s, k, cls[k], v)
	}
	x := UploadVector(f.t, f.q, s)
	f.ops = append(f.ops, fpOperand{name: name, size: int(unsafe.Sizeof(s[0])), class: cls,
		before: bytes.Clone(fpBytes(s)), after: func() ([]byte, error) {
			got, err := x.Download(nil)
			return fpBytes(got), err
		}})
	v, err := x.Slice(0, n)
	if err != nil {
		f.t.Fatal(err)
	}
	return v
}

// Footprints of the operands, for element (i, j).

func fpAll(cl fpClass) func(i, j int) fpClass { return func(int, int) fpClass { return cl } }

// fpTri is cl in the uplo triangle (its diagonal diag) and fpOff elsewhere.
func fpTri(lower bool, cl, diag fpClass) func(i, j int) fpClass {
	return func(i, j int) fpClass {
		switch {
		case i == j:
			return diag
		case (i > j) == lower:
			return cl
		}
		return fpOff
	}
}

// Values of the operands.

// fpRand is uniform in [-1, 1) in both parts.
func fpRand(f *fpRun) func(b, i, j int) complex128 {
	return func(b, i, j int) complex128 { return complex(2*f.rng.Float64()-1, 2*f.rng.Float64()-1) }
}

// fpDominant is a random matrix with a dominant diagonal (a well-conditioned triangle or LU
// factor), of order n.
func fpDominant(f *fpRun, n int) func(b, i, j int) complex128 {
	r := fpRand(f)
	return func(b, i, j int) complex128 {
		if i == j {
			return r(b, i, j)/2 + 2.5
		}
		return r(b, i, j) / complex(float64(n), 0)
	}
}

// fpSPD is a batch of random Hermitian positive definite matrices of order n.
func fpSPD[T batchlas.Scalar](f *fpRun, n, batch int) func(b, i, j int) complex128 {
	a := make([]Dense, batch)
	for b := range a {
		a[b] = RandSPD[T](f.rng, n)
	}
	return func(b, i, j int) complex128 { return a[b].At(i, j) }
}

// fpPivots are random valid LAPACK pivots (1-based, ipiv[i] in [i+1, n]) for matrices of
// order n.
func fpPivots(f *fpRun, n int) func(k int) complex128 {
	return func(k int) complex128 {
		i := k % n
		return complex(float64(i+1+f.rng.IntN(n-i)), 0)
	}
}

// fpSquare is an n-by-n layout of the footprint tests: ld and stride padded, batch 3.
func fpSquare(n int) Layout { return Layout{Rows: n, Cols: n, LDPad: 2, StridePad: 3, Batch: 3} }

func fpRect(r, c int) Layout { return Layout{Rows: r, Cols: c, LDPad: 1, StridePad: 2, Batch: 3} }

var (
	fpUplos  = []batchlas.Uplo{batchlas.Lower, batchlas.Upper}
	fpSides  = []batchlas.Side{batchlas.Left, batchlas.Right}
	fpDiags  = []batchlas.Diag{batchlas.NonUnit, batchlas.Unit}
	fpOrders = []int{1, 5, 17}
)

// fpOps lists the footprint cases of every op for T (R its real type).
func fpOps[T batchlas.Scalar, R batchlas.Real]() map[string][]fpCase {
	// re is the class cl of a Hermitian diagonal whose imaginary parts are taken as zero:
	// fpIn becomes fpInRe, fpOut fpOutRe, fpLost fpLostRe (for complex types).
	re := func(cl fpClass, hermitian bool) fpClass {
		if hermitian && IsComplex[T]() {
			return cl + 1
		}
		return cl
	}
	alpha, beta := From[T](Alpha), From[T](Beta)
	ops := map[string][]fpCase{}
	add := func(op, name string, run func(f *fpRun) error) {
		ops[op] = append(ops[op], fpCase{name: name, run: run})
	}
	for _, n := range fpOrders {
		for _, uplo := range fpUplos {
			lower := uplo == batchlas.Lower
			l := fpSquare(n)
			name := fmt.Sprintf("%v_n%d", uplo, n)
			add("potrf", name, func(f *fpRun) error {
				a := fpMat[T](f, "a", l, fpTri(lower, fpOut, re(fpOut, true)), fpSPD[T](f, n, l.Batch))
				return batchlas.Potrf(f.q, uplo, a, fpVec[int32](f, "info", l.Batch, fpSet, nil))
			})
			add("posv", name, func(f *fpRun) error {
				a := fpMat[T](f, "a", l, fpTri(lower, fpOut, re(fpOut, true)), fpSPD[T](f, n, l.Batch))
				b := fpMat[T](f, "b", fpRect(n, 2), fpAll(fpOut), fpRand(f))
				return batchlas.Posv(f.q, uplo, a, b, fpVec[int32](f, "info", l.Batch, fpSet, nil))
			})
			add("potrs", name, func(f *fpRun) error {
				a := fpMat[T](f, "a", l, fpTri(lower, fpIn, fpIn), fpDominant(f, n))
				b := fpMat[T](f, "b", fpRect(n, 2), fpAll(fpOut), fpRand(f))
				return batchlas.Potrs(f.q, uplo, a, b)
			})
			for _, jobz := range []batchlas.Job{batchlas.NoVectors, batchlas.Vectors} {
				// NoVectors destroys the uplo triangle; Vectors overwrites all of A.
				tri, other := fpLost, fpOff
				if jobz == batchlas.Vectors {
					tri, other = fpOut, fpSet
				}
				// Packed too: the tiny family copies a packed batch whole, the other triangle with it.
				for _, pl := range []struct {
					suffix string
					l      Layout
				}{{"", l}, {"_packed", Layout{Rows: n, Cols: n, Batch: l.Batch}}} {
					add("syev", fmt.Sprintf("%v_%v%s", jobz, name, pl.suffix), func(f *fpRun) error {
						cl := fpTri(lower, tri, re(tri, true))
						a := fpMat[T](f, "a", pl.l, func(i, j int) fpClass {
							if c := cl(i, j); c != fpOff {
								return c
							}
							return other
						}, fpRand(f))
						w := fpVec[R](f, "w", n*pl.l.Batch, fpSet, nil)
						return batchlas.Syev(f.q, jobz, uplo, a, w, fpVec[int32](f, "info", pl.l.Batch, fpSet, nil))
					})
				}
			}
			for _, side := range fpSides {
				m, nn := n, 3
				if side == batchlas.Right {
					m, nn = 3, n
				}
				for _, diag := range fpDiags {
					for _, trans := range Transposes {
						name := fmt.Sprintf("%v%v%v%v_n%d", side, uplo, trans, diag, n)
						dcl := fpIn
						if diag == batchlas.Unit {
							dcl = fpOff
						}
						for _, op := range []string{"trsm", "trmm"} {
							add(op, name, func(f *fpRun) error {
								a := fpMat[T](f, "a", l, fpTri(lower, fpIn, dcl), fpDominant(f, n))
								b := fpMat[T](f, "b", fpRect(m, nn), fpAll(fpOut), fpRand(f))
								if op == "trsm" {
									return batchlas.Trsm(f.q, side, uplo, trans, diag, alpha, a, b)
								}
								return batchlas.Trmm(f.q, side, uplo, trans, diag, alpha, a, b)
							})
						}
					}
				}
				name := fmt.Sprintf("%v%v_n%d", side, uplo, n)
				for _, op := range []string{"symm", "hemm"} {
					add(op, name, func(f *fpRun) error {
						a := fpMat[T](f, "a", l, fpTri(lower, fpIn, re(fpIn, op == "hemm")), fpRand(f))
						b := fpMat[T](f, "b", fpRect(m, nn), fpAll(fpIn), fpRand(f))
						c := fpMat[T](f, "c", fpRect(m, nn), fpAll(fpOut), fpRand(f))
						if op == "symm" {
							return batchlas.Symm(f.q, side, uplo, alpha, a, b, beta, c)
						}
						return batchlas.Hemm(f.q, side, uplo, alpha, a, b, beta, c)
					})
				}
			}
			for _, trans := range []bool{false, true} {
				name := fmt.Sprintf("%v_t%v_n%d", uplo, trans, n)
				al := fpRect(n, 4)
				if trans {
					al = fpRect(4, n)
				}
				for _, op := range []string{"syrk", "herk", "syr2k", "her2k"} {
					h := op[0] == 'h'
					tr := batchlas.NoTrans
					if trans && h {
						tr = batchlas.ConjTrans
					} else if trans {
						tr = batchlas.Trans
					}
					add(op, name, func(f *fpRun) error {
						a := fpMat[T](f, "a", al, fpAll(fpIn), fpRand(f))
						var b *batchlas.Matrix[T]
						if op[len(op)-2] == '2' {
							b = fpMat[T](f, "b", al, fpAll(fpIn), fpRand(f))
						}
						c := fpMat[T](f, "c", l, fpTri(lower, fpOut, re(fpOut, h)), fpRand(f))
						switch op {
						case "syrk":
							return batchlas.Syrk(f.q, uplo, tr, alpha, a, beta, c)
						case "herk":
							return batchlas.Herk(f.q, uplo, tr, real(Alpha), a, real(Beta), c)
						case "syr2k":
							return batchlas.Syr2k(f.q, uplo, tr, alpha, a, b, beta, c)
						}
						return batchlas.Her2k(f.q, uplo, tr, alpha, a, b, real(Beta), c)
					})
				}
			}
		}
		l := fpSquare(n)
		name := fmt.Sprintf("n%d", n)
		add("getrf", name, func(f *fpRun) error {
			a := fpMat[T](f, "a", l, fpAll(fpOut), fpRand(f))
			return batchlas.Getrf(f.q, a, fpVec[int32](f, "ipiv", n*l.Batch, fpSet, nil), fpVec[int32](f, "info", l.Batch, fpSet, nil))
		})
		add("gesv", name, func(f *fpRun) error {
			a := fpMat[T](f, "a", l, fpAll(fpOut), fpRand(f))
			b := fpMat[T](f, "b", fpRect(n, 2), fpAll(fpOut), fpRand(f))
			return batchlas.Gesv(f.q, a, fpVec[int32](f, "ipiv", n*l.Batch, fpSet, nil), b, fpVec[int32](f, "info", l.Batch, fpSet, nil))
		})
		for _, trans := range Transposes {
			add("getrs", fmt.Sprintf("%v_n%d", trans, n), func(f *fpRun) error {
				a := fpMat[T](f, "a", l, fpAll(fpIn), fpDominant(f, n))
				ipiv := fpVec[int32](f, "ipiv", n*l.Batch, fpIn, fpPivots(f, n))
				b := fpMat[T](f, "b", fpRect(n, 2), fpAll(fpOut), fpRand(f))
				return batchlas.Getrs(f.q, trans, a, ipiv, b)
			})
		}
		add("getri", name, func(f *fpRun) error {
			a := fpMat[T](f, "a", l, fpAll(fpOut), fpDominant(f, n))
			ipiv := fpVec[int32](f, "ipiv", n*l.Batch, fpIn, fpPivots(f, n))
			return batchlas.Getri(f.q, a, ipiv, fpVec[int32](f, "info", l.Batch, fpSet, nil))
		})
	}
	for _, s := range [][2]int{{1, 1}, {6, 4}, {4, 6}, {17, 17}} {
		m, n := s[0], s[1]
		k := min(m, n)
		l := fpRect(m, n)
		name := fmt.Sprintf("%dx%d", m, n)
		add("getrf", name, func(f *fpRun) error {
			a := fpMat[T](f, "a", l, fpAll(fpOut), fpRand(f))
			return batchlas.Getrf(f.q, a, fpVec[int32](f, "ipiv", k*l.Batch, fpSet, nil), fpVec[int32](f, "info", l.Batch, fpSet, nil))
		})
		add("geqrf", name, func(f *fpRun) error {
			a := fpMat[T](f, "a", l, fpAll(fpOut), fpRand(f))
			return batchlas.Geqrf(f.q, a, fpVec[T](f, "tau", k*l.Batch, fpSet, nil))
		})
		for _, job := range []batchlas.SVDJob{batchlas.SVDNone, batchlas.SVDThin, batchlas.SVDAll} {
			add("gesvd", fmt.Sprintf("%v_%s", job, name), func(f *fpRun) error {
				a := fpMat[T](f, "a", l, fpAll(fpOut), fpRand(f))
				sv := fpVec[R](f, "s", k*l.Batch, fpSet, nil)
				var u, vt *batchlas.Matrix[T]
				switch job {
				case batchlas.SVDThin:
					u, vt = fpMat[T](f, "u", fpRect(m, k), fpAll(fpSet), nil), fpMat[T](f, "vt", fpRect(k, n), fpAll(fpSet), nil)
				case batchlas.SVDAll:
					u, vt = fpMat[T](f, "u", fpRect(m, m), fpAll(fpSet), nil), fpMat[T](f, "vt", fpRect(n, n), fpAll(fpSet), nil)
				}
				return batchlas.Gesvd(f.q, job, job, a, sv, u, vt, fpVec[int32](f, "info", l.Batch, fpSet, nil))
			})
		}
		if m >= n {
			// Orgqr reads the part of the first k columns below the diagonal and writes all.
			k := max(n-1, 0)
			add("orgqr", name, func(f *fpRun) error {
				a := fpMat[T](f, "a", l, func(i, j int) fpClass {
					if j < k && i > j {
						return fpOut
					}
					return fpSet
				}, fpRand(f))
				return batchlas.Orgqr(f.q, k, a, fpVec[T](f, "tau", k*l.Batch, fpIn, fpTau(f)))
			})
		}
	}
	for _, side := range fpSides {
		for _, trans := range []batchlas.Transpose{batchlas.NoTrans, batchlas.ConjTrans} {
			m, n, k := 6, 4, 3
			nq := m
			if side == batchlas.Right {
				nq = n
			}
			add("ormqr", fmt.Sprintf("%v%v", side, trans), func(f *fpRun) error {
				// a has a column more than the k reflectors, and only the part of the
				// first k columns below the diagonal is read.
				a := fpMat[T](f, "a", fpRect(nq, k+1), func(i, j int) fpClass {
					if j < k && i > j {
						return fpIn
					}
					return fpOff
				}, fpRand(f))
				tau := fpVec[T](f, "tau", k*3, fpIn, fpTau(f))
				c := fpMat[T](f, "c", fpRect(m, n), fpAll(fpOut), fpRand(f))
				return batchlas.Ormqr(f.q, side, trans, k, a, tau, c)
			})
		}
	}
	for _, ta := range Transposes {
		for _, tb := range []batchlas.Transpose{batchlas.NoTrans, batchlas.ConjTrans} {
			m, n, k := 5, 4, 3
			add("gemm", fmt.Sprintf("%v%v", ta, tb), func(f *fpRun) error {
				la, lb := fpRect(m, k), fpRect(k, n)
				if ta != batchlas.NoTrans {
					la = fpRect(k, m)
				}
				if tb != batchlas.NoTrans {
					lb = fpRect(n, k)
				}
				a, b := fpMat[T](f, "a", la, fpAll(fpIn), fpRand(f)), fpMat[T](f, "b", lb, fpAll(fpIn), fpRand(f))
				c := fpMat[T](f, "c", fpRect(m, n), fpAll(fpOut), fpRand(f))
				return batchlas.Gemm(f.q, ta, tb, alpha, a, b, beta, c)
			})
		}
		add("gemv", fmt.Sprint(ta), func(f *fpRun) error {
			m, n := 5, 3
			nx, ny := n, m
			if ta != batchlas.NoTrans {
				nx, ny = m, n
			}
			r := fpRand(f)
			a := fpMat[T](f, "a", fpRect(m, n), fpAll(fpIn), r)
			x := fpVec[T](f, "x", nx*3, fpIn, func(int) complex128 { return r(0, 0, 0) })
			y := fpVec[T](f, "y", ny*3, fpOut, func(int) complex128 { return r(0, 0, 0) })
			return batchlas.Gemv(f.q, ta, alpha, a, x, beta, y)
		})
	}
	// Gels overwrites A with its factorization and B with the solution (and, for m > n, the
	// residual's coordinates below it); the gaps of both stay untouched.
	for _, mn := range [][2]int{{5, 3}, {3, 5}} {
		m, n := mn[0], mn[1]
		add("gels", fmt.Sprintf("%dx%d", m, n), func(f *fpRun) error {
			a := fpMat[T](f, "a", fpRect(m, n), fpAll(fpOut), fpRand(f))
			b := fpMat[T](f, "b", fpRect(max(m, n), 2), fpAll(fpOut), fpRand(f))
			return batchlas.Gels(f.q, batchlas.NoTrans, a, b, fpVec[int32](f, "info", 3, fpSet, nil))
		})
	}
	// Spmm reads B and C (beta != 0) and writes C; the sparse A is not a strided operand.
	for _, tr := range []batchlas.Transpose{batchlas.NoTrans, batchlas.ConjTrans} {
		add("spmm", fmt.Sprintf("%v", tr), func(f *fpRun) error {
			const m, k, batch = 4, 3, 3
			dense := make([]T, m*k*batch)
			for i := range dense {
				if f.rng.IntN(2) == 0 {
					dense[i] = fpValue[T](complex(2*f.rng.Float64()-1, 2*f.rng.Float64()-1))
				}
			}
			rows, cols := m, k
			if tr != batchlas.NoTrans {
				rows, cols = k, m
			}
			a, err := batchlas.CSRFromDense(f.q, rows, cols, batch, dense)
			if err != nil {
				return err
			}
			defer a.Free()
			b := fpMat[T](f, "b", fpRect(k, 2), fpAll(fpIn), fpRand(f))
			c := fpMat[T](f, "c", fpRect(m, 2), fpAll(fpOut), fpRand(f))
			return batchlas.Spmm(f.q, tr, batchlas.NoTrans, alpha, a, b, beta, c)
		})
	}
	return ops
}

// fpTau are reflector scalars as Geqrf gives them: 1 <= re(tau) <= 2, |tau - 1| <= 1.
func fpTau(f *fpRun) func(int) complex128 {
	return func(int) complex128 {
		t := 2 * math.Pi * f.rng.Float64()
		return complex(1+math.Abs(math.Cos(t)), math.Sin(t)/2)
	}
}
