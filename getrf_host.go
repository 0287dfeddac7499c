package batchlas

import (
	"math"

	"github.com/batchlas/batchlas/internal/hostkern"
)

// getrfHost factors every matrix with getf2, the project's column-major LU for all four
// types, whose rank-one updates run in gonum's BLAS (assembly kernels for every type); with
// more than getrfRecMin rows and columns, with getrfRec, the recursive LU whose updates run in
// gemmKernel's packed gemm; and real matrices of at most smallMax rows and columns with
// smallGetrf's kernels, square ones of order 7 and 8 two at a time (getrfPairUnrolled), and
// float64 ones of order getrfQuadMin to 8 four at a time where the CPU has AVX2 (getrfQuads).
//
// Why not gonum's Dgetrf for float64: it is row-major, and a column-major A read row-major
// is A^T, whose LU would pivot columns of A, not rows as LAPACK's getrf (and cuBLAS's
// getrfBatched) do; it would need A transposed into scratch and back. Measured on one core,
// the two alternating on the same float64 data, best of many runs (BenchmarkGetrfHost in
// getrf_host_test.go runs both): at n = 64 getf2 takes 24 us per matrix, the transposing
// scheme 28 us. Their factors are identical: Dgetrf runs the same unblocked algorithm at
// this size (gonum's block size is 64), so the difference is the two transposes. Where
// Dgetrf blocks, getf2 still wins: 0.21 against 0.29 ms at n = 128, 1.7 against 2.1 ms at
// n = 256. getf2 also serves float32 and complex without copies.
func getrfHost[T Scalar](_ *Queue, c *getrfCall[T]) error {
	a, ipiv, info := c.a, c.ipiv.host(), c.info.host()
	m, n, k := a.rows, a.cols, min(a.rows, a.cols)
	factor := getf2[T]
	if k > getrfRecMin {
		gemm := gemmKernel[T]()
		factor = func(m, n int, a []T, lda int, ipiv []int32) int { return getrfRec(gemm, m, n, a, lda, ipiv) }
	}
	var pair func(a0, a1 []T, lda int, ipiv0, ipiv1 []int32) (int, int)
	if m <= smallMax && n <= smallMax {
		switch any(*new(T)).(type) {
		case float64:
			factor = any(smallGetrf[float64](m, n)).(func(int, int, []T, int, []int32) int)
			if f := getrfPairUnrolled[float64](n); m == n && f != nil {
				pair = any(f).(func([]T, []T, int, []int32, []int32) (int, int))
			}
		case float32:
			factor = any(smallGetrf[float32](m, n)).(func(int, int, []T, int, []int32) int)
			if f := getrfPairUnrolled[float32](n); m == n && f != nil {
				pair = any(f).(func([]T, []T, int, []int32, []int32) (int, int))
			}
		}
	}
	_, real64 := any(*new(T)).(float64)
	quad := real64 && m == n && getrfQuadMin <= n && n <= hostkern.Getrf4MaxN && hostkern.Enabled()
	hostBatch(a.batch, func(lo, hi int) {
		b := lo
		if quad {
			b = getrfQuads(a, ipiv, info, lo, hi, factor)
		}
		if pair != nil {
			// Two matrices at a time (getrfPair): their dependency chains overlap.
			for ; b+1 < hi; b += 2 {
				i0, i1 := pair(a.mat(b), a.mat(b+1), a.ld, ipiv[b*k:(b+1)*k], ipiv[(b+1)*k:(b+2)*k])
				info[b], info[b+1] = int32(i0), int32(i1)
			}
		}
		for ; b < hi; b++ {
			info[b] = int32(factor(m, n, a.mat(b), a.ld, ipiv[b*k:(b+1)*k]))
		}
	})
	return nil
}

// getrfQuadMin is the smallest order at which getrfQuads beats the scalar kernels
// (batchbench, f64, batch 32768, 2 cores, the medians of four runs against 2ee1ac8's scalar
// kernels: n = 2 0.92x, 3 1.24x, 5 2.37x, 6 2.77x, 7 2.14x; 4 and 8 5.8x and 3.4x against
// 81c6e42).
const getrfQuadMin = 3

// getrfQuads factors matrices lo, lo+1, ... of the float64 a four at a time with hostkern's
// batch-interleaved kernel, and returns the first matrix it left, fewer than four before hi;
// a group with a pivot the kernel leaves to getf2's careful path goes to factor matrix by
// matrix. Its factors and pivots are the scalar kernels' to the bit.
func getrfQuads[T Scalar](a *Matrix[T], ipiv, info []int32, lo, hi int, factor func(m, n int, a []T, lda int, ipiv []int32) int) int {
	n := a.rows
	var s hostkern.Getrf4Scratch
	var mats [4][]float64
	var pivs [4][]int32
	b := lo
	for ; b+3 < hi; b += 4 {
		for m := range mats {
			mats[m], pivs[m] = any(a.mat(b+m)).([]float64), ipiv[(b+m)*n:(b+m+1)*n]
			info[b+m] = 0
		}
		if !hostkern.Getrf4(n, &mats, a.ld, &pivs, &s) {
			for m := range mats {
				info[b+m] = int32(factor(n, n, a.mat(b+m), a.ld, pivs[m]))
			}
		}
	}
	return b
}

// getrfLeaf is the width up to which getrfRec factors a panel with getf2, and solves with
// gonum's trsm; getrfRecMin the order up to which getf2 alone is faster (BenchmarkGetrfRecursive:
// at n = 64 getf2 takes 20 us, getrfRec 26; at 128, 256 and 512 getrfRec is 1.5, 2.1 and 3.3
// times faster).
const getrfLeaf, getrfRecMin = 16, 64

// getrfRec is getf2's factorization (the same pivots, ipiv and info) by Toledo's recursion:
// the left half of the columns is factored, its row swaps applied to the right half, which
// is solved with the unit lower triangle (trsmLowerUnit) and updated with one gemm, then the
// trailing rows of the right half are factored and their swaps applied back to the left.
func getrfRec[T Scalar](gemm gemmFunc[T], m, n int, a []T, lda int, ipiv []int32) int {
	k := min(m, n)
	if k <= getrfLeaf {
		return getf2(m, n, a, lda, ipiv)
	}
	n1 := half(k)
	n2 := n - n1
	info := getrfRec(gemm, m, n1, a, lda, ipiv[:n1])
	right := a[n1*lda:]
	laswp(right, lda, n2, ipiv[:n1], true)
	trsmLowerUnit(gemm, n1, n2, a, lda, right, lda)
	if m == n1 {
		return info
	}
	gemm(NoTrans, NoTrans, m-n1, n2, n1, -1, a[n1:], lda, right, lda, 1, right[n1:], lda)
	info2 := getrfRec(gemm, m-n1, n2, right[n1:], lda, ipiv[n1:k])
	if info == 0 && info2 > 0 {
		info = n1 + info2
	}
	// The trailing factorization's swaps, relative to row n1, on the left columns.
	laswp(a[n1:], lda, n1, ipiv[n1:k], true)
	for i := n1; i < k; i++ {
		ipiv[i] += int32(n1)
	}
	return info
}

// trsmLowerUnit overwrites the m-by-n b by L^-1 b for the order-m unit lower triangular l,
// recursively: the trailing rows are updated with one gemm between the two half solves.
func trsmLowerUnit[T Scalar](gemm gemmFunc[T], m, n int, l []T, ldl int, b []T, ldb int) {
	if m <= getrfLeaf {
		if isComplex[T]() {
			cmTrsm(Lower, NoTrans, true, m, n, l, ldl, b, ldb)
			return
		}
		// Forward substitution down four columns of b at a time, axpys with each column of
		// l: gonum's trsm, which solves row-major from the right, took 29% of getrfRec's
		// time at n = 512 in float32, and getrfRec ran 1.7x faster with this loop
		// (BenchmarkGetrfRecursive, recursive-f32: 2.65 ms against 1.54).
		c := 0
		for ; c+4 <= n; c += 4 {
			x0, x1 := b[c*ldb:c*ldb+m], b[(c+1)*ldb:(c+1)*ldb+m]
			x2, x3 := b[(c+2)*ldb:(c+2)*ldb+m], b[(c+3)*ldb:(c+3)*ldb+m]
			for j := range x0 {
				v0, v1, v2, v3 := x0[j], x1[j], x2[j], x3[j]
				lj := l[j*ldl+j+1 : j*ldl+m]
				y0, y1, y2, y3 := x0[j+1:], x1[j+1:], x2[j+1:], x3[j+1:]
				y0, y1, y2, y3 = y0[:len(lj)], y1[:len(lj)], y2[:len(lj)], y3[:len(lj)]
				for i, lij := range lj {
					y0[i] -= v0 * lij
					y1[i] -= v1 * lij
					y2[i] -= v2 * lij
					y3[i] -= v3 * lij
				}
			}
		}
		for ; c < n; c++ {
			x := b[c*ldb : c*ldb+m]
			for j, v := range x {
				xs := x[j+1:]
				for i, lij := range l[j*ldl+j+1 : j*ldl+m] {
					xs[i] -= v * lij
				}
			}
		}
		return
	}
	m1 := half(m)
	trsmLowerUnit(gemm, m1, n, l, ldl, b, ldb)
	gemm(NoTrans, NoTrans, m-m1, n, m1, -1, l[m1:], ldl, b, ldb, 1, b[m1:], ldb)
	trsmLowerUnit(gemm, m-m1, n, l[m1*ldl+m1:], ldl, b[m1:], ldb)
}

// smallGetrf is getf2 for real m-by-n matrices of at most smallMax rows and columns:
// getrfUnrolled's straight-line kernel for square ones, getrfSmall for the others.
func smallGetrf[F float32 | float64](m, n int) func(m, n int, a []F, lda int, ipiv []int32) int {
	if m != n || n == 0 {
		return getrfSmall[F]
	}
	f := getrfUnrolled[F](n)
	return func(_, _ int, a []F, lda int, ipiv []int32) int { return f(a, lda, ipiv) }
}

// safeMin is LAPACK's safe minimum of F, the smallest x whose 1/x does not overflow.
func safeMin[F float32 | float64]() float64 {
	if _, ok := any(F(0)).(float32); ok {
		return 0x1p-126
	}
	return 0x1p-1022
}

// getrfSmall is getf2 for real matrices of at most smallMax rows and columns, in place with
// the pivot search, the row swaps and the rank-one updates written out: the same arithmetic
// in the same order, without a library call per column.
func getrfSmall[F float32 | float64](m, n int, a []F, lda int, ipiv []int32) int {
	info := 0
	sfmin := safeMin[F]()
	for j := 0; j < min(m, n); j++ {
		col := a[j*lda : j*lda+m]
		p, big := j, math.Abs(float64(col[j]))
		for i := j + 1; i < m; i++ {
			if v := math.Abs(float64(col[i])); v > big {
				p, big = i, v
			}
		}
		ipiv[j] = int32(p + 1)
		if col[p] == 0 {
			if info == 0 {
				info = j + 1
			}
			continue
		}
		if p != j {
			for c := 0; c < n; c++ {
				x := a[c*lda : c*lda+m]
				x[j], x[p] = x[p], x[j]
			}
		}
		l := col[j+1:]
		if d := col[j]; math.Abs(float64(d)) >= sfmin {
			r := 1 / d
			for i := range l {
				l[i] *= r
			}
		} else {
			for i := range l {
				l[i] /= d
			}
		}
		for c := j + 1; c < n; c++ {
			x := a[c*lda+j : c*lda+m]
			u, x := x[0], x[1:]
			l := l[:len(x)]
			for i := range x {
				x[i] -= l[i] * u
			}
		}
	}
	return info
}

// getf2 factors the m-by-n column-major a as P A = L U with partial pivoting, right-looking
// and unblocked as LAPACK's getf2: ipiv[j] is the 1-based row swapped with row j+1. It
// returns LAPACK's info: k > 0 when U(k,k) is exactly zero (the factorization is completed).
func getf2[T Scalar](m, n int, a []T, lda int, ipiv []int32) int {
	info := 0
	for j := 0; j < min(m, n); j++ {
		col := a[j*lda : j*lda+m]
		p := j + iamax(col[j:])
		ipiv[j] = int32(p + 1)
		if col[p] == 0 {
			// Column j is zero from row j down: there is nothing to eliminate.
			if info == 0 {
				info = j + 1
			}
			continue
		}
		if p != j {
			swapRows(a, lda, n, j, p)
		}
		scaleByInverse(col[j+1:], col[j])
		if j+1 < m && j+1 < n {
			// A[j+1:, j+1:] -= L[j+1:, j] U[j, j+1:].
			cmGeru(m-j-1, n-j-1, -1, col[j+1:], 1, a[(j+1)*lda+j:], lda, a[(j+1)*lda+j+1:], lda)
		}
	}
	return info
}

// swapRows swaps rows i and p of the first n columns of the column-major a.
func swapRows[T Scalar](a []T, lda, n, i, p int) {
	for k := 0; k < n; k++ {
		c := a[k*lda:]
		c[i], c[p] = c[p], c[i]
	}
}

// scaleByInverse is x /= d, as a multiplication by 1/d when 1/d does not overflow, that is
// when |d| is at least LAPACK's safe minimum of T's real type.
func scaleByInverse[T Scalar](x []T, d T) {
	sfmin := 0x1p-1022
	if isSingle[T]() {
		sfmin = 0x1p-126
	}
	if absS(d) >= sfmin {
		scal(x, 1/d)
		return
	}
	for i := range x {
		x[i] /= d
	}
}

// magBits is |x| as the bits of a float64 (float32 widened, exactly): unsigned integers in
// the order of the magnitudes, +Inf above every finite value and NaN above +Inf.
func magBits[F float32 | float64](x F) uint64 { return math.Float64bits(float64(x)) &^ (1 << 63) }

// pivotBits is magBits(x) for a pivot candidate below the diagonal, 0 for a NaN: getf2's
// search (a candidate wins when |x| > the largest so far) never picks a NaN there, and a
// NaN on the diagonal, whose magBits is above every candidate's, is never displaced.
func pivotBits[F float32 | float64](x F) uint64 {
	b := magBits(x)
	if b > 0x7ff0000000000000 {
		b = 0
	}
	return b
}
