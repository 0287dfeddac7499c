package batchlas

import (
	"math/rand/v2"
	"slices"
	"testing"
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
