// Package hostpotrf is the host backend's Cholesky leaf: an AVX2 kernel that factors a
// float32 matrix of order up to 64 with every column in vector registers, the diagonal
// blocks of the recursive factorization (the root package's potrfRec). gonum has no float32
// Cholesky, and its float32 level-2 routines run at a third of the rate of a float64 leaf on
// a float64 copy, which this kernel replaces.
package hostpotrf

// MaxN is the largest order that Lower32 takes: eight vectors of eight rows.
const MaxN = 64

// Enabled reports whether Lower32 may be called: this CPU has AVX2 and FMA.
func Enabled() bool { return enabled }

// Lower32 factors the column-major order-n a (0 <= n <= MaxN, leading dimension lda >= n)
// in place as L L^T, reading and writing only its lower triangle, and returns LAPACK's info:
// 0, or j+1 when the pivot of column j is not positive (or is NaN), which is left in a[j, j]
// with the columns after it untouched. Only Enabled callers may call it.
func Lower32(n int, a []float32, lda int) int {
	if n < 0 || n > MaxN || lda < max(1, n) || len(a) < (n-1)*lda+n {
		panic("hostpotrf: bad Lower32 arguments")
	}
	if n == 0 {
		return 0
	}
	return lower32(n, &a[0], lda)
}
