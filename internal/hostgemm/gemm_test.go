package hostgemm

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

var transes = []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans}

// refGemm is the textbook triple loop in complex128.
func refGemm[T float32 | float64 | complex64 | complex128](tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) []complex128 {
	op := func(t blas.Transpose, x []T, ld, i, j int) complex128 {
		switch t {
		case blas.NoTrans:
			return complex128(toC(x[i+j*ld]))
		case blas.Trans:
			return toC(x[j+i*ld])
		}
		v := toC(x[j+i*ld])
		if isCplx[T]() {
			v = cmplx.Conj(v)
		}
		return v
	}
	out := make([]complex128, len(c))
	for i := range c {
		out[i] = toC(c[i])
	}
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			var s complex128
			for p := 0; p < k; p++ {
				s += op(tA, a, lda, i, p) * op(tB, b, ldb, p, j)
			}
			cij := complex128(0)
			if beta != 0 {
				cij = toC(beta) * out[i+j*ldc]
			}
			if alpha != 0 {
				cij += toC(alpha) * s
			}
			out[i+j*ldc] = cij
		}
	}
	return out
}

func toC[T float32 | float64 | complex64 | complex128](v T) complex128 {
	switch v := any(v).(type) {
	case float32:
		return complex(float64(v), 0)
	case float64:
		return complex(v, 0)
	case complex64:
		return complex128(v)
	}
	return any(v).(complex128)
}

func isCplx[T float32 | float64 | complex64 | complex128]() bool {
	switch any(*new(T)).(type) {
	case complex64, complex128:
		return true
	}
	return false
}

func fromC[T float32 | float64 | complex64 | complex128](v complex128) T {
	var x any
	switch any(*new(T)).(type) {
	case float32:
		x = float32(real(v))
	case float64:
		x = real(v)
	case complex64:
		x = complex64(v)
	case complex128:
		x = v
	}
	return x.(T)
}

func random[T float32 | float64 | complex64 | complex128](rng *rand.Rand, n int) []T {
	x := make([]T, n)
	for i := range x {
		x[i] = fromC[T](complex(rng.Float64()*2-1, rng.Float64()*2-1))
	}
	return x
}

// checkGemm runs Gemm on one shape and compares it with refGemm, element by element,
// within k*eps of the sizes involved; the padding of C (rows m..ldc) must stay untouched,
// NaN in C must not leak when beta is 0, and NaN in A and B must not leak when alpha is 0.
func checkGemm[T float32 | float64 | complex64 | complex128](t *testing.T, rng *rand.Rand, tA, tB blas.Transpose, m, n, k, pad int, alpha, beta T, eps float64) {
	t.Helper()
	ar, ac := m, k
	if tA != blas.NoTrans {
		ar, ac = k, m
	}
	br, bc := k, n
	if tB != blas.NoTrans {
		br, bc = n, k
	}
	lda, ldb, ldc := max(1, ar)+pad, max(1, br)+pad, max(1, m)+pad
	a, b, c := random[T](rng, lda*ac), random[T](rng, ldb*bc), random[T](rng, ldc*n)
	nan := fromC[T](complex(math.NaN(), math.NaN()))
	if alpha == 0 {
		for i := range a {
			a[i] = nan
		}
		for i := range b {
			b[i] = nan
		}
	}
	for j := 0; j < n; j++ {
		for i := m; i < ldc; i++ {
			c[i+j*ldc] = nan // padding: must stay NaN
		}
		if beta == 0 {
			for i := 0; i < m; i++ {
				c[i+j*ldc] = nan
			}
		}
	}
	want := refGemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	Gemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	tol := eps * float64(k+2) * 4
	for j := 0; j < n; j++ {
		for i := 0; i < ldc; i++ {
			got := toC(c[i+j*ldc])
			if i >= m {
				if !cmplx.IsNaN(got) {
					t.Fatalf("%c%c m=%d n=%d k=%d: padding C[%d,%d] overwritten with %v", tA, tB, m, n, k, i, j, got)
				}
				continue
			}
			if d := cmplx.Abs(got - want[i+j*ldc]); !(d <= tol*(1+cmplx.Abs(want[i+j*ldc]))) {
				t.Fatalf("%c%c m=%d n=%d k=%d pad=%d alpha=%v beta=%v: C[%d,%d] = %v, want %v", tA, tB, m, n, k, pad, alpha, beta, i, j, got, want[i+j*ldc])
			}
		}
	}
}

// sizes straddle the tiles (8, 12, 16, 32 rows; 6, 12 columns) and the blocks (mc 96 and
// 192, kc 192 and 256, twice that for the 1m method's doubled real sizes).
var sizes = []int{1, 2, 3, 5, 7, 8, 9, 11, 12, 13, 15, 16, 17, 31, 33, 47, 64, 70}

var edges = [][3]int{{95, 7, 191}, {97, 13, 193}, {191, 5, 257}, {193, 25, 255}, {100, 100, 130}, {7, 2050, 3}}

func eachKernel(t *testing.T, f func(t *testing.T)) {
	d, s := kernels64(), kernels32()
	if len(d) == 0 {
		t.Skip("no microkernel on this CPU")
	}
	defer func(d *kernel[float64], s *kernel[float32]) { k64, k32 = d, s }(k64, k32)
	for i := range d {
		k64, k32 = d[i], s[i]
		t.Run(d[i].name, f)
	}
}

func testType[T float32 | float64 | complex64 | complex128](t *testing.T, eps float64, one T) {
	rng := rand.New(rand.NewPCG(1, 2))
	scalars := [][2]T{{one, 0}, {0, one}, {fromC[T](complex(0.7, -0.3)), fromC[T](complex(-1.3, 0.4))}, {0, 0}, {one, one}}
	for _, tA := range transes {
		for _, tB := range transes {
			for _, m := range sizes {
				for _, n := range []int{1, 4, 6, 7, 12, 13, 25} {
					k := sizes[(m+n)%len(sizes)]
					sc := scalars[(m+n)%len(scalars)]
					checkGemm(t, rng, tA, tB, m, n, k, (m+n)%3, sc[0], sc[1], eps)
				}
			}
			for _, k := range sizes {
				checkGemm(t, rng, tA, tB, 9, 7, k, 1, scalars[2][0], scalars[2][1], eps)
			}
			checkGemm(t, rng, tA, tB, 5, 4, 0, 0, one, scalars[2][1], eps)
		}
	}
	for _, e := range edges {
		checkGemm(t, rng, blas.NoTrans, blas.NoTrans, e[0], e[1], e[2], 3, scalars[2][0], scalars[2][1], eps)
		checkGemm(t, rng, blas.Trans, blas.ConjTrans, e[0], e[1], e[2], 0, scalars[2][0], 0, eps)
	}
}

func TestGemm(t *testing.T) {
	eachKernel(t, func(t *testing.T) {
		t.Run("f64", func(t *testing.T) { testType[float64](t, 0x1p-52, 1) })
		t.Run("f32", func(t *testing.T) { testType[float32](t, 0x1p-23, 1) })
		t.Run("c128", func(t *testing.T) { testType[complex128](t, 0x1p-52, 1) })
		t.Run("c64", func(t *testing.T) { testType[complex64](t, 0x1p-23, 1) })
	})
}

// BenchmarkGemm times every kernel of this CPU on square NoTrans products.
func BenchmarkGemm(b *testing.B) {
	d, s := kernels64(), kernels32()
	defer func(d *kernel[float64], s *kernel[float32]) { k64, k32 = d, s }(k64, k32)
	for _, n := range []int{8, 16, 64, 128, 512} {
		for i := range d {
			k64, k32 = d[i], s[i]
			b.Run(fmt.Sprintf("f64/n=%d/%s", n, d[i].name), func(b *testing.B) { benchGemm[float64](b, n) })
			b.Run(fmt.Sprintf("f32/n=%d/%s", n, d[i].name), func(b *testing.B) { benchGemm[float32](b, n) })
			b.Run(fmt.Sprintf("c128/n=%d/%s", n, d[i].name), func(b *testing.B) { benchGemm[complex128](b, n) })
		}
	}
}

func benchGemm[T float32 | float64 | complex64 | complex128](b *testing.B, n int) {
	rng := rand.New(rand.NewPCG(1, 2))
	a, bb, c := random[T](rng, n*n), random[T](rng, n*n), make([]T, n*n)
	for range b.N {
		Gemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, bb, n, 0, c, n)
	}
	flops := 2 * float64(n*n*n)
	if isCplx[T]() {
		flops *= 4
	}
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
}

// TestSyrk checks each triangle of Syrk against a plain triple loop, on orders and depths
// that straddle the tiles and blocks (the packs of 192 rows, the kc of 192 and 256), with
// NaN in the other triangle, which must stay untouched.
func TestSyrk(t *testing.T) {
	eachKernel(t, func(t *testing.T) {
		t.Run("f64", func(t *testing.T) { testSyrk[float64](t, 0x1p-52) })
		t.Run("f32", func(t *testing.T) { testSyrk[float32](t, 0x1p-23) })
	})
}

func testSyrk[F float32 | float64](t *testing.T, eps float64) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 5, 12, 16, 17, 33, 100, 200} {
		for _, k := range []int{1, 8, 31, 193, 260} {
			for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				for _, lower := range []bool{true, false} {
					lda := n + 1
					if tA != blas.NoTrans {
						lda = k + 2
					}
					a := random[F](rng, lda*max(n, k))
					at := func(i, p int) float64 {
						if tA == blas.NoTrans {
							return float64(a[i+p*lda])
						}
						return float64(a[p+i*lda])
					}
					ldc := n + 3
					c := random[F](rng, ldc*n)
					want := make([]float64, len(c))
					for j := 0; j < n; j++ {
						for i := 0; i < n; i++ {
							if (i >= j) != lower && i != j {
								c[i+j*ldc] = F(math.NaN())
								continue
							}
							s := float64(c[i+j*ldc])
							for p := 0; p < k; p++ {
								s -= 0.5 * at(i, p) * at(j, p)
							}
							want[i+j*ldc] = s
						}
					}
					Syrk(lower, tA, n, k, -0.5, a, lda, c, ldc)
					for j := 0; j < n; j++ {
						for i := 0; i < n; i++ {
							got := float64(c[i+j*ldc])
							if (i >= j) != lower && i != j {
								if !math.IsNaN(got) {
									t.Fatalf("n=%d k=%d %v lower=%v: (%d,%d) of the other triangle written", n, k, tA, lower, i, j)
								}
								continue
							}
							if d := math.Abs(got - want[i+j*ldc]); d > 4*float64(k)*eps*(1+math.Abs(want[i+j*ldc])) {
								t.Fatalf("n=%d k=%d %v lower=%v: (%d,%d) = %g, want %g", n, k, tA, lower, i, j, got, want[i+j*ldc])
							}
						}
					}
				}
			}
		}
	}
}
