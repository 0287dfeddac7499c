package batchlas

import "github.com/batchlas/batchlas/internal/hostgemm"

// rankBlock is the width of the column blocks of C in rankPacked: a diagonal block is
// computed in full into scratch (wasting at most half of its flops), every block below or
// above it by one gemm straight into C. 48 is three 16-row and four 12-column tiles of the
// AVX-512 kernel, and eight 6-column tiles of the AVX2 one.
const rankBlock = 48

// rankPackedMin is the order of C from which rankPacked runs: below it one matrix is a few
// microseconds either way and gonum's loops need no scratch.
const rankPackedMin = 16

// rankPacked runs syrk (herm and two false), herk (herm), syr2k (two) or her2k (herm and
// two) on every matrix with gemmKernel's packed gemm, and reports true; it reports false,
// doing nothing, when this CPU has no assembly gemm, C is of order below rankPackedMin, or
// alpha or k is 0 (the quick returns stay with gonum). The update of the uplo triangle is
// C = alpha A op(B) + beta C, plus alpha' B op(A) when two, with op Trans for the symmetric
// ops and ConjTrans for the Hermitian ones, alpha' = alpha or conj(alpha) (her2k), and A, B
// replaced by op(A), op(B) for trans != NoTrans. For the Hermitian ops beta is real and the
// diagonal's imaginary parts are set to zero, as herk and her2k take them.
func rankPacked[T Scalar](r *rankArgs[T], herm, two bool, alpha, beta T) bool {
	n, k := r.order()
	if !hostgemm.Enabled() || n < rankPackedMin || alpha == 0 || k == 0 {
		return false
	}
	tt, alpha2 := Trans, alpha
	if herm {
		tt, alpha2 = ConjTrans, conjS(alpha)
	}
	gemm := gemmKernel[T]()
	lower := r.uplo == Lower
	a, b, c := r.a, r.b, r.c
	// term adds alpha X op(Y) (or op(X) op(Y)^op for trans != NoTrans) to the rows i0..i0+mi
	// and columns j0..j0+nj of the matrix z (leading dimension ldz), times beta before.
	term := func(mi, nj, i0, j0 int, s T, x []T, ldx int, y []T, ldy int, bz T, z []T, ldz int) {
		if r.trans == NoTrans {
			gemm(NoTrans, tt, mi, nj, k, s, x[i0:], ldx, y[j0:], ldy, bz, z, ldz)
		} else {
			gemm(tt, NoTrans, mi, nj, k, s, x[i0*ldx:], ldx, y[j0*ldy:], ldy, bz, z, ldz)
		}
	}
	hostBatch(c.batch, func(lo, hi int) {
		w := make([]T, rankBlock*rankBlock)
		for i := lo; i < hi; i++ {
			ma, mb, mc := a.mat(i), b.mat(i), c.mat(i)
			for j0 := 0; j0 < n; j0 += rankBlock {
				jb := min(rankBlock, n-j0)
				// The diagonal block, in full into w, then its triangle into C.
				term(jb, jb, j0, j0, alpha, ma, a.ld, mb, b.ld, 0, w, jb)
				if two {
					term(jb, jb, j0, j0, alpha2, mb, b.ld, ma, a.ld, 1, w, jb)
				}
				rankMerge(herm, lower, jb, beta, w, mc[j0+j0*c.ld:], c.ld)
				// The block that shares its columns: below the diagonal block for lower, above it
				// for upper.
				r0, rn := j0+jb, n-j0-jb
				if !lower {
					r0, rn = 0, j0
				}
				if rn == 0 {
					continue
				}
				z := mc[r0+j0*c.ld:]
				term(rn, jb, r0, j0, alpha, ma, a.ld, mb, b.ld, beta, z, c.ld)
				if two {
					term(rn, jb, r0, j0, alpha2, mb, b.ld, ma, a.ld, 1, z, c.ld)
				}
			}
		}
	})
	return true
}

// rankMerge sets the lower (or upper) triangle of the order-n c to beta c + w, w full with
// leading dimension n; beta = 0 does not read c. herm keeps the diagonal real: its
// imaginary parts in c and w are dropped.
func rankMerge[T Scalar](herm, lower bool, n int, beta T, w, c []T, ldc int) {
	for j := 0; j < n; j++ {
		i0, i1 := j, n
		if !lower {
			i0, i1 = 0, j+1
		}
		// The diagonal of a Hermitian update in real arithmetic: a NaN imaginary part of C's
		// would reach the real part through a complex product.
		d := reS(w[j*n+j])
		if herm && beta != 0 {
			d += reS(beta) * reS(c[j*ldc+j])
		}
		cj, wj := c[j*ldc+i0:j*ldc+i1], w[j*n+i0:j*n+i1]
		if beta == 0 {
			copy(cj, wj)
		} else {
			for i, v := range wj {
				cj[i] = beta*cj[i] + v
			}
		}
		if herm {
			c[j*ldc+j] = scalarOf[T](d, 0)
		}
	}
}
