package tests

import (
	"fmt"
	"math"
	"math/cmplx"
	"strings"
	"testing"

	"github.com/batchlas/batchlas"
)

// The reference BLAS rules for alpha and beta, in every level-2 and level-3 op, dtype and
// family (each pinned): alpha = 0 reads neither A nor B (nor x), and C = beta C; beta = 0
// reads no C (a NaN there disappears); k = 0 gives C = beta C; beta = 1 with alpha = 0 or
// k = 0 leaves C exactly as it was; Trsm and Trmm with alpha = 0 set B to zero reading
// neither A nor B. Every operand that must not be read holds NaN.

// TestBLASRules runs the rules of every BLAS op on every queue, under each family's pin; a
// family that cannot run on the queue is skipped, as in TestRouteEveryFamilyPinned.
func TestBLASRules(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		for _, op := range []string{"gemm", "gemv", "trsm", "trmm", "symm", "hemm", "syrk", "herk", "syr2k", "her2k"} {
			forEachFamily(t, op, func(t *testing.T, fam string) {
				if chosen, err := traced(t, func() error { return pinnedSuites[op].probe(q) }); routeRefused(err) {
					t.Skipf("%s cannot run on %s: %v", fam, q.Device().Key, err)
				} else if err != nil {
					t.Fatalf("probe: %v", err)
				} else if !strings.Contains(chosen, "-> "+fam+" ") {
					t.Skipf("%s does not run on %s: %s", fam, q.Device().Key, chosen)
				}
				ForEachDType(t, q, blasRules[float32](op), blasRules[float64](op), blasRules[complex64](op), blasRules[complex128](op))
			})
		}
	})
}

// ruleOp is one call shape of a BLAS op for the rules: the layouts of the operands it only
// reads (A, B; for Gemv, A and x as one column), of the operand it updates (C, Trsm's and
// Trmm's B, Gemv's y), and the call.
type ruleOp[T batchlas.Scalar] struct {
	name  string
	in    []Layout
	out   Layout
	empty bool // the inner size k is 0
	// tri: Trsm or Trmm, which have no beta and update B in place: alpha = 0 gives B = 0.
	tri bool
	// writes reports the elements of the updated operand that the op may write; nil: all.
	writes func(i, j int) bool
	// realAlpha and realBeta: the op takes real scalars (Herk; Her2k's beta); herm: the
	// diagonal of C is Hermitian's, so beta C there is beta Re(C).
	realAlpha, realBeta, herm bool
	call                      func(q *batchlas.Queue, alpha, beta complex128, in []*batchlas.Matrix[T], out *batchlas.Matrix[T]) error
}

// blasRules checks every rule on every call shape of op.
func blasRules[T batchlas.Scalar](op string) func(*testing.T, *batchlas.Queue) {
	return func(t *testing.T, q *batchlas.Queue) {
		for _, r := range ruleOps[T](op) {
			t.Run(r.name, func(t *testing.T) { checkRules(t, q, r) })
		}
	}
}

// ruleBatch is the batch of every rule call; the layouts pad ld and stride.
const ruleBatch = 3

func ruleLayout(r, c int) Layout {
	return Layout{Rows: r, Cols: c, LDPad: 1, StridePad: 2, Batch: ruleBatch}
}

// ruleOps lists the call shapes of op: every transpose, side, triangle and diagonal it takes,
// with a nonzero and (where the op has one) an empty inner size.
func ruleOps[T batchlas.Scalar](op string) []ruleOp[T] {
	var rs []ruleOp[T]
	uplos := []batchlas.Uplo{batchlas.Lower, batchlas.Upper}
	sides := []batchlas.Side{batchlas.Left, batchlas.Right}
	switch op {
	case "gemm":
		const m, n = 4, 3
		for _, k := range []int{2, 0} {
			for _, ta := range Transposes {
				for _, tb := range Transposes {
					rs = append(rs, ruleOp[T]{
						name: fmt.Sprintf("%v%v_k%d", ta, tb, k), empty: k == 0,
						in:  []Layout{ruleOpLayout(ta, m, k), ruleOpLayout(tb, k, n)},
						out: ruleLayout(m, n),
						call: func(q *batchlas.Queue, al, be complex128, in []*batchlas.Matrix[T], c *batchlas.Matrix[T]) error {
							return batchlas.Gemm(q, ta, tb, From[T](al), in[0], in[1], From[T](be), c)
						},
					})
				}
			}
		}
	case "gemv":
		const m, n = 4, 3
		for _, empty := range []bool{false, true} {
			for _, tr := range Transposes {
				ar, ac := m, n
				if empty && tr == batchlas.NoTrans {
					ac = 0
				} else if empty {
					ar = 0
				}
				ny, nx := ar, ac
				if tr != batchlas.NoTrans {
					ny, nx = ac, ar
				}
				rs = append(rs, ruleOp[T]{
					name: fmt.Sprintf("%v_%dx%d", tr, ar, ac), empty: nx == 0,
					in:  []Layout{ruleLayout(ar, ac), {Rows: nx * ruleBatch, Cols: 1, Batch: 1}},
					out: Layout{Rows: ny * ruleBatch, Cols: 1, Batch: 1},
					call: func(q *batchlas.Queue, al, be complex128, in []*batchlas.Matrix[T], y *batchlas.Matrix[T]) error {
						xv, yv := columnVector(q, in[1]), columnVector(q, y)
						if err := batchlas.Gemv(q, tr, From[T](al), in[0], xv, From[T](be), yv); err != nil {
							return err
						}
						return vectorColumn(yv, y)
					},
				})
			}
		}
	case "trsm", "trmm":
		const m, n = 4, 3
		for _, side := range sides {
			for _, uplo := range uplos {
				for _, tr := range Transposes {
					for _, diag := range []batchlas.Diag{batchlas.NonUnit, batchlas.Unit} {
						order := m
						if side == batchlas.Right {
							order = n
						}
						rs = append(rs, ruleOp[T]{
							name: fmt.Sprintf("%v%v%v%v", side, uplo, tr, diag), tri: true,
							in: []Layout{ruleLayout(order, order)}, out: ruleLayout(m, n),
							call: func(q *batchlas.Queue, al, _ complex128, in []*batchlas.Matrix[T], b *batchlas.Matrix[T]) error {
								if op == "trsm" {
									return batchlas.Trsm(q, side, uplo, tr, diag, From[T](al), in[0], b)
								}
								return batchlas.Trmm(q, side, uplo, tr, diag, From[T](al), in[0], b)
							},
						})
					}
				}
			}
		}
	case "symm", "hemm":
		const m, n = 4, 3
		for _, side := range sides {
			for _, uplo := range uplos {
				order := m
				if side == batchlas.Right {
					order = n
				}
				rs = append(rs, ruleOp[T]{
					name: fmt.Sprintf("%v%v", side, uplo),
					in:   []Layout{ruleLayout(order, order), ruleLayout(m, n)}, out: ruleLayout(m, n),
					call: func(q *batchlas.Queue, al, be complex128, in []*batchlas.Matrix[T], c *batchlas.Matrix[T]) error {
						if op == "symm" {
							return batchlas.Symm(q, side, uplo, From[T](al), in[0], in[1], From[T](be), c)
						}
						return batchlas.Hemm(q, side, uplo, From[T](al), in[0], in[1], From[T](be), c)
					},
				})
			}
		}
	case "syrk", "herk", "syr2k", "her2k":
		const n = 4
		herm, two := op == "herk" || op == "her2k", op == "syr2k" || op == "her2k"
		trans := []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans, batchlas.ConjTrans}
		if IsComplex[T]() && herm {
			trans = []batchlas.Transpose{batchlas.NoTrans, batchlas.ConjTrans}
		} else if IsComplex[T]() {
			trans = []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans}
		}
		for _, k := range []int{3, 0} {
			for _, uplo := range uplos {
				for _, tr := range trans {
					in := []Layout{ruleOpLayout(tr, n, k)}
					if two {
						in = append(in, ruleOpLayout(tr, n, k))
					}
					rs = append(rs, ruleOp[T]{
						name: fmt.Sprintf("%v%v_k%d", uplo, tr, k), empty: k == 0, in: in, out: ruleLayout(n, n),
						writes:    func(i, j int) bool { return InTriangle(uplo == batchlas.Lower, i, j) },
						realAlpha: op == "herk", realBeta: herm, herm: herm && IsComplex[T](),
						call: func(q *batchlas.Queue, al, be complex128, in []*batchlas.Matrix[T], c *batchlas.Matrix[T]) error {
							switch op {
							case "syrk":
								return batchlas.Syrk(q, uplo, tr, From[T](al), in[0], From[T](be), c)
							case "herk":
								return batchlas.Herk(q, uplo, tr, real(al), in[0], real(be), c)
							case "syr2k":
								return batchlas.Syr2k(q, uplo, tr, From[T](al), in[0], in[1], From[T](be), c)
							}
							return batchlas.Her2k(q, uplo, tr, From[T](al), in[0], in[1], real(be), c)
						},
					})
				}
			}
		}
	}
	return rs
}

// ruleOpLayout is the layout of an operand x whose op(x) is r-by-c.
func ruleOpLayout(t batchlas.Transpose, r, c int) Layout {
	if t != batchlas.NoTrans {
		r, c = c, r
	}
	return ruleLayout(r, c)
}

// columnVector copies a one-column matrix into a new vector on q.
func columnVector[T batchlas.Scalar](q *batchlas.Queue, m *batchlas.Matrix[T]) *batchlas.Vector[T] {
	x, err := m.Download(nil)
	if err != nil {
		panic(err)
	}
	v, err := batchlas.NewVector[T](q, len(x))
	if err != nil {
		panic(err)
	}
	if err := v.Upload(x); err != nil {
		panic(err)
	}
	return v
}

// vectorColumn copies v back into the one-column matrix m.
func vectorColumn[T batchlas.Scalar](v *batchlas.Vector[T], m *batchlas.Matrix[T]) error {
	x, err := v.Download(nil)
	if err != nil {
		return err
	}
	return m.Upload(x)
}

// ruleRun uploads the operands, calls r, checks that the read-only operands are unchanged
// and returns the updated operand as stored.
func ruleRun[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, r ruleOp[T], alpha, beta complex128, in []Stored[T], out Stored[T]) Stored[T] {
	t.Helper()
	ms := make([]*batchlas.Matrix[T], len(in))
	for i := range in {
		ms[i] = Upload(t, q, in[i])
	}
	c := Upload(t, q, out)
	if err := r.call(q, alpha, beta, ms, c); err != nil {
		t.Fatalf("alpha %v, beta %v: %v", alpha, beta, err)
	}
	for i := range in {
		Untouched(t, in[i], Download(t, q, ms[i], in[i].Layout), ReadOnly)
	}
	got := Download(t, q, c, out.Layout)
	Untouched(t, out, got, func(_, i, j int) bool { return r.writes == nil || r.writes(i, j) })
	return got
}

// checkRules runs every rule that applies to r.
func checkRules[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, r ruleOp[T]) {
	rng := NewRand(t)
	nan := make([]Stored[T], len(r.in))
	rnd := make([]Stored[T], len(r.in))
	for i, l := range r.in {
		nan[i], rnd[i] = NewStored[T](l), RandStored[T](rng, l)
	}
	alpha, beta := Alpha, Beta
	if r.realAlpha {
		alpha = complex(real(alpha), 0)
	}
	if r.realBeta {
		beta = complex(real(beta), 0)
	}
	c, poisoned := RandStored[T](rng, r.out), NewStored[T](r.out)
	zero := func(T, bool) T { return 0 }
	if r.tri {
		// alpha = 0: B = 0, reading neither A nor B.
		r.compare(t, "alpha 0", ruleRun(t, q, r, 0, 0, nan, poisoned), poisoned, zero, exact)
		return
	}
	scaled := func(x T, diag bool) T {
		if diag && r.herm {
			return From[T](complex(real(beta)*real(C128(x)), 0))
		}
		return From[T](beta) * x
	}
	same := func(x T, _ bool) T { return x }
	// alpha = 0: C = beta C, reading neither A nor B; beta = 1 returns at once.
	r.compare(t, "alpha 0, beta", ruleRun(t, q, r, 0, beta, nan, c), c, scaled, close)
	r.compare(t, "alpha 0, beta 0", ruleRun(t, q, r, 0, 0, nan, poisoned), poisoned, zero, exact)
	r.compare(t, "alpha 0, beta 1", ruleRun(t, q, r, 0, 1, nan, c), c, same, bits)
	if r.empty {
		// k = 0: the same, whatever alpha.
		r.compare(t, "k 0, beta", ruleRun(t, q, r, alpha, beta, rnd, c), c, scaled, close)
		r.compare(t, "k 0, beta 0", ruleRun(t, q, r, alpha, 0, rnd, poisoned), poisoned, zero, exact)
		r.compare(t, "k 0, beta 1", ruleRun(t, q, r, alpha, 1, rnd, c), c, same, bits)
		return
	}
	// beta = 0: C is not read, so NaN in C gives what a random C gives, and no NaN.
	want := ruleRun(t, q, r, alpha, 0, rnd, c)
	got := ruleRun(t, q, r, alpha, 0, rnd, poisoned)
	r.compare(t, "beta 0, NaN in C", got, want, same, exact)
}

// Comparison modes: exact (==, so -0 equals 0), bits (bit for bit), close (exact for real
// types; within 4 eps |want| for complex ones, whose products round once per part).
const (
	exact = iota
	bits
	close
)

// compare fails t unless every element of got that r writes equals want(x, diag), where x
// is the element in before and diag says whether it is on the diagonal; a NaN always fails.
func (r ruleOp[T]) compare(t *testing.T, what string, got, before Stored[T], want func(x T, diag bool) T, mode int) {
	t.Helper()
	bad := 0
	for b := 0; b < got.Batch; b++ {
		for j := 0; j < got.Cols; j++ {
			for i := 0; i < got.Rows; i++ {
				if r.writes != nil && !r.writes(i, j) {
					continue
				}
				g, w := got.At(b, i, j), want(before.At(b, i, j), i == j)
				if !ruleEqual(g, w, mode) {
					if bad < 5 {
						t.Errorf("%s: element (%d, %d) of matrix %d is %v, want %v", what, i, j, b, g, w)
					}
					bad++
				}
			}
		}
	}
}

func ruleEqual[T batchlas.Scalar](g, w T, mode int) bool {
	gc, wc := C128(g), C128(w)
	switch {
	case cmplx.IsNaN(gc) || cmplx.IsNaN(wc):
		return false
	case mode == bits:
		return math.Float64bits(real(gc)) == math.Float64bits(real(wc)) && math.Float64bits(imag(gc)) == math.Float64bits(imag(wc))
	case mode == exact || !IsComplex[T]():
		return g == w
	}
	return cmplx.Abs(gc-wc) <= 4*Eps[T]()*cmplx.Abs(wc)
}
