package batchlas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// getrfTransposed is the alternative to getf2 for float64 that getrfHost's comment weighs:
// transpose into row-major scratch, gonum's Dgetrf, transpose back, convert the pivots.
func getrfTransposed(m, n int, a []float64, lda int, ipiv []int32, w []float64, p []int) bool {
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			w[i*n+j] = a[j*lda+i]
		}
	}
	ok := lapackImpl.Dgetrf(m, n, w, max(1, n), p)
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			a[j*lda+i] = w[i*n+j]
		}
	}
	for i, v := range p {
		ipiv[i] = int32(v + 1)
	}
	return ok
}

func randGeneral(n int) []float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	a := make([]float64, n*n)
	for i := range a {
		a[i] = 2*rng.Float64() - 1
	}
	return a
}

// TestGetf2MatchesDgetrf checks that getf2 makes the same pivots and factors as gonum's
// Dgetrf on the transposed copy, so the measured choice between them is a fair one.
func TestGetf2MatchesDgetrf(t *testing.T) {
	const n = 64
	src := randGeneral(n)
	a, b := slices.Clone(src), slices.Clone(src)
	pa, pb := make([]int32, n), make([]int32, n)
	getf2(n, n, a, n, pa)
	getrfTransposed(n, n, b, n, pb, make([]float64, n*n), make([]int, n))
	if !slices.Equal(pa, pb) || !slices.Equal(a, b) {
		t.Fatal("getf2 and the transposed Dgetrf differ")
	}
	if allocs := testing.AllocsPerRun(10, func() { copy(a, src); getf2(n, n, a, n, pa) }); allocs != 0 {
		t.Errorf("getf2 allocates %v times per matrix", allocs)
	}
}

// BenchmarkGetrfHost compares, per float64 matrix of order 64 on one goroutine, getf2 with
// the transposing scheme. Run: go test -run x -bench GetrfHost -cpu 1 .
func BenchmarkGetrfHost(b *testing.B) {
	const n = 64
	src := randGeneral(n)
	a, ipiv := make([]float64, n*n), make([]int32, n)
	b.Run("getf2", func(b *testing.B) {
		for b.Loop() {
			copy(a, src)
			getf2(n, n, a, n, ipiv)
		}
	})
	b.Run("transposed_Dgetrf", func(b *testing.B) {
		w, p := make([]float64, n*n), make([]int, n)
		for b.Loop() {
			copy(a, src)
			getrfTransposed(n, n, a, n, ipiv, w, p)
		}
	})
}

// TestGetrfRecMatchesGetf2 checks that the recursive LU makes getf2's pivots, and factors
// equal to getf2's to rounding (the updates are summed in another order), on a tall, a wide
// and a square matrix.
func TestGetrfRecMatchesGetf2(t *testing.T) {
	gemm := gemmKernel[float64]()
	for _, s := range [][2]int{{150, 70}, {70, 150}, {131, 131}} {
		m, n := s[0], s[1]
		src := randGeneral(max(m, n))[:m*n]
		a, b := slices.Clone(src), slices.Clone(src)
		k := min(m, n)
		pa, pb := make([]int32, k), make([]int32, k)
		ia, ib := getf2(m, n, a, m, pa), getrfRec(gemm, m, n, b, m, pb)
		if ia != ib || !slices.Equal(pa, pb) {
			t.Fatalf("%dx%d: info %d and %d, pivots differ: %v", m, n, ia, ib, !slices.Equal(pa, pb))
		}
		for i := range a {
			if d := math.Abs(a[i] - b[i]); d > 1e-12*float64(k) {
				t.Fatalf("%dx%d: factor element %d differs by %g", m, n, i, d)
			}
		}
	}
}

// BenchmarkGetrfRecursive times getrfRec against getf2 on one float64 matrix, side by side,
// and getrfRec on the same matrix in float32; min-ms is the fastest run.
func BenchmarkGetrfRecursive(b *testing.B) {
	gemm, gemm32 := gemmKernel[float64](), gemmKernel[float32]()
	for _, n := range []int{32, 64, 128, 256, 512} {
		src := randGeneral(n)
		src32 := make([]float32, n*n)
		for i, v := range src {
			src32[i] = float32(v)
		}
		a, a32, ipiv := make([]float64, n*n), make([]float32, n*n), make([]int32, n)
		for _, arm := range []struct {
			name string
			f    func()
		}{
			{"getf2", func() { getf2(n, n, a, n, ipiv) }},
			{"recursive", func() { getrfRec(gemm, n, n, a, n, ipiv) }},
			{"recursive-f32", func() { getrfRec(gemm32, n, n, a32, n, ipiv) }},
		} {
			b.Run(fmt.Sprintf("n=%d/%s", n, arm.name), func(b *testing.B) {
				best := time.Duration(math.MaxInt64)
				for range b.N {
					copy(a, src)
					copy(a32, src32)
					t0 := time.Now()
					arm.f()
					best = min(best, time.Since(t0))
				}
				b.ReportMetric(float64(best.Nanoseconds())/1e6, "min-ms")
			})
		}
	}
}
