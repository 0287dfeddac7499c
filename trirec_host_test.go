package batchlas

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchlas/batchlas/internal/hostgemm"
)

// TestTriRecMatchesLeaf checks triRec's recursion against gonum's trsm and trmm on the whole
// matrix, for every side, triangle, transpose and diagonal, orders that split unevenly, one
// column, and padded leading dimensions. A's other triangle (and its diagonal when unit) holds
// NaN, which the recursion must not read.
func TestTriRecMatchesLeaf(t *testing.T) {
	if !hostgemm.Enabled() {
		t.Skip("no assembly gemm on this CPU: triHost does not recurse")
	}
	testTriRec[float64](t, 0.7)
	testTriRec[complex128](t, complex(0.7, -0.4))
	testTriRec[float32](t, 0.7)
}

func testTriRec[T Scalar](t *testing.T, alpha T) {
	rng := rand.New(rand.NewPCG(3, 4))
	rnd := func() T { return scalarOf[T](2*rng.Float64()-1, 2*rng.Float64()-1) }
	eps := 0x1p-52
	if _, ok := any(alpha).(float32); ok {
		eps = 0x1p-23
	}
	for _, sz := range []struct{ order, other, pad int }{{17, 1, 0}, {33, 5, 2}, {64, 17, 3}, {101, 70, 1}} {
		for _, side := range []Side{Left, Right} {
			for _, uplo := range []Uplo{Lower, Upper} {
				for _, trans := range []Transpose{NoTrans, Trans, ConjTrans} {
					for _, diag := range []Diag{NonUnit, Unit} {
						for _, solve := range []bool{true, false} {
							n := sz.order
							m, cols := n, sz.other
							if side == Right {
								m, cols = sz.other, n
							}
							lda, ldb := n+sz.pad, m+sz.pad
							a := make([]T, lda*n)
							for j := 0; j < n; j++ {
								for i := 0; i < n; i++ {
									switch {
									case i == j && diag == Unit, (i < j) == (uplo == Lower) && i != j:
										a[i+j*lda] = scalarOf[T](math.NaN(), 0)
									case i == j:
										a[i+j*lda] = 1 + scalarOf[T](rng.Float64(), 0)
									default:
										a[i+j*lda] = rnd() / scalarOf[T](float64(n), 0)
									}
								}
							}
							b := make([]T, ldb*cols)
							for i := range b {
								b[i] = rnd()
							}
							_, trsm := triFuncs[T]()
							leaf, _ := triFuncs[T]()
							if solve {
								leaf = trsm
							}
							c := &triCall[T]{side: side, uplo: uplo, trans: trans, diag: diag, alpha: alpha,
								a: &Matrix[T]{rows: n, cols: n}, b: &Matrix[T]{rows: m, cols: cols}}
							r := newTriRec(c, solve, leaf)
							want, got := slices.Clone(b), slices.Clone(b)
							r.leafCall(m, cols, alpha, a, lda, want, ldb)
							r.run(m, cols, alpha, a, lda, got, ldb)
							name := fmt.Sprintf("%T %v%v%v%v solve=%v %dx%d", alpha, side, uplo, trans, diag, solve, m, cols)
							var diff, norm float64
							for j := 0; j < cols; j++ {
								for i := 0; i < ldb; i++ {
									g, w := complex128(complexOf(got[i+j*ldb])), complex128(complexOf(want[i+j*ldb]))
									if i >= m {
										if g != w {
											t.Fatalf("%s: padding (%d, %d) written", name, i, j)
										}
										continue
									}
									diff = max(diff, cmplx.Abs(g-w))
									norm = max(norm, cmplx.Abs(w))
								}
							}
							if !(diff <= 4*float64(n)*eps*norm) {
								t.Errorf("%s: max |rec - gonum| = %.3g, %.3g n eps |gonum|", name, diff, diff/(float64(n)*eps*norm))
							}
						}
					}
				}
			}
		}
	}
}

// complexOf is x as complex128.
func complexOf[T Scalar](x T) complex128 { return complex(reS(x), imS(x)) }

// imS is the imaginary part of x (0 for real types).
func imS[T Scalar](x T) float64 {
	switch x := any(x).(type) {
	case complex128:
		return imag(x)
	case complex64:
		return float64(imag(x))
	}
	return 0
}

// BenchmarkTriHost times triHost's recursion against gonum's trsm and trmm on one float64
// matrix of order n with n right-hand sides, Left Lower NoTrans. Run: go test -run x -bench
// TriHost -cpu 1 .
func BenchmarkTriHost(b *testing.B) {
	if !hostgemm.Enabled() {
		b.Skip("no assembly gemm on this CPU")
	}
	for _, n := range []int{32, 64, 128, 256} {
		rng := rand.New(rand.NewPCG(5, 6))
		a, x := make([]float64, n*n), make([]float64, n*n)
		for i := range a {
			a[i] = (2*rng.Float64() - 1) / float64(n)
			x[i] = 2*rng.Float64() - 1
		}
		for i := 0; i < n; i++ {
			a[i*n+i] = 1
		}
		trmm, trsm := triFuncs[float64]()
		for _, op := range []struct {
			name  string
			solve bool
			f     triBLAS[float64]
		}{{"trsm", true, trsm}, {"trmm", false, trmm}} {
			r := &triRec[float64]{side: Left, uplo: Lower, trans: NoTrans, diag: NonUnit, solve: op.solve, leaf: op.f,
				gemm: gemmKernel[float64](), lowerOp: true}
			w := make([]float64, n*n)
			for _, arm := range []string{"gonum", "rec"} {
				b.Run(fmt.Sprintf("%s/n=%d/%s", op.name, n, arm), func(b *testing.B) {
					for b.Loop() {
						copy(w, x)
						if arm == "rec" {
							r.run(n, n, 1, a, n, w, n)
						} else {
							r.leafCall(n, n, 1, a, n, w, n)
						}
					}
				})
			}
		}
	}
}
