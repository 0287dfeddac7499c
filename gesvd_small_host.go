package batchlas

import "math"

// gesvdSmall computes the SVD A = U S V^T of one finite real m-by-n matrix with
// 1 <= min(m, n) and max(m, n) <= smallMax, as Gesvd documents for one matrix (jobs, the
// shapes and leading dimensions of u and vt, singular values descending in s[:min(m, n)]),
// by one-sided Jacobi (Hestenes) in float64 on stack arrays, with no allocation and no call
// into gonum:
//
//  1. W = A (A^T when m < n), M-by-N with M >= N, is copied and scaled by a power of two as
//     scaleExp says.
//  2. Sweeps of plane rotations W <- W J(p, q), the pairs (p, q) in round-robin order, each
//     making columns p and q orthogonal (the symmetric Schur rotation of their Gram matrix
//     [alpha gamma; gamma beta]), until a sweep finds every pair orthogonal to working
//     precision, |gamma| <= sqrt(M) eps sqrt(alpha beta) (LAPACK dgesvj's tolerance), or
//     syevSweeps sweeps have run. The
//     rotations are accumulated into V (W = U S V^T's right factor) where that factor is
//     asked for. The squared column norms are recomputed at the start of each sweep and
//     updated by the rotations within it (alpha - t gamma, beta + t gamma); a column whose
//     squared norm is below 2^-600 (2^-300 times the scaled A's largest entry, which is at
//     least 2^-16) is set to zero, a perturbation far below eps ||A||.
//  3. The singular values are the column norms of the final W, sorted descending; U's
//     columns are W's normalized, and the columns of a zero singular value and those past N
//     of a full U are completed to an orthonormal basis (completeBasis).
//
// The pairs' convergence test makes U orthogonal to working precision, V is a product of
// rotations, and W = A V is computed by rotations: residuals and orthogonality are of order
// eps ||A||. It returns 0, or, when the last sweep still rotated, the number of rotations it
// made, at most min(m, n) (the CUDA Jacobi families' info). a is not written.
func gesvdSmall[F float32 | float64](jobu, jobvt SVDJob, m, n int, a []F, lda int, s []F, u []F, ldu int, vt []F, ldvt int) int {
	const ld, ulp2, tinyCol = smallMax, 0x1p-106, 0x1p-600
	if min(m, n) < 1 || max(m, n) > smallMax {
		panic("gesvdSmall: shape out of range")
	}
	wide := m < n
	M, N, jobl, jobr := m, n, jobu, jobvt // W's shape and the jobs of its left and right factors
	if wide {
		M, N, jobl, jobr = n, m, jobvt, jobu
	}
	var w, v [smallMax * smallMax]float64 // column-major, leading dimension smallMax
	e := loadSmallW(m, n, a, lda, wide, &w)
	right := jobr != SVDNone
	if right {
		for j := 0; j < N; j++ {
			v[j*ld+j] = 1
		}
	}
	var nrm [smallMax]float64
	pairs := svdPairs[N]
	tol2 := float64(M) * ulp2 // dgesvj's tolerance, sqrt(M) eps, squared
	info := 0
	for sweep := 0; sweep < syevSweeps; sweep++ {
		for j := 0; j < N; j++ {
			col := w[j*ld : j*ld+M]
			t := 0.0
			for _, x := range col {
				t += x * x
			}
			if t < tinyCol {
				clear(col)
				t = 0
			}
			nrm[j] = t
		}
		rotations := 0
		for _, pq := range pairs {
			p, q := int(pq[0]), int(pq[1])
			wp, wq := w[p*ld:p*ld+M], w[q*ld:q*ld+M]
			wq = wq[:len(wp)]
			g := 0.0
			for i, x := range wp {
				g += x * wq[i]
			}
			alpha, beta := nrm[p], nrm[q]
			// The pair counts as rotated when |g| > tol sqrt(alpha beta), tested as
			// g (g / alpha) > tol^2 beta (g != 0 means alpha, beta > 0, and neither side can
			// overflow or underflow); but every pair is rotated, without a branch, which
			// keeps the processor's pipeline full: an unneeded rotation is one by an angle
			// below tol, as accurate as any.
			if g != 0 && g*(g/alpha) > tol2*beta {
				rotations++
			}
			// The symmetric Schur rotation of [alpha g; g beta], d = beta - alpha,
			// r = sqrt(d^2 + 4 g^2), h = |d| + r: t = tan = sign(d) 2g / h,
			// cos = h / sqrt(2 r h), sin = sign(d) 2g / sqrt(2 r h).
			d := beta - alpha
			g2 := 2 * g * math.Copysign(1, d)
			var c, sn, t float64
			if r2 := d*d + g2*g2; r2 > 0x1p-900 {
				r := math.Sqrt(r2)
				h := math.Abs(d) + r
				qq := math.Sqrt(2 * r * h)
				c, sn, t = h/qq, g2/qq, g2/h
			} else {
				c, sn, t = smallRotation(d, g2)
			}
			for i, x := range wp {
				y := wq[i]
				wp[i] = c*x - sn*y
				wq[i] = sn*x + c*y
			}
			nrm[p], nrm[q] = alpha-t*g, beta+t*g
			if right {
				vp, vq := v[p*ld:p*ld+N], v[q*ld:q*ld+N]
				vq = vq[:len(vp)]
				for i, x := range vp {
					y := vq[i]
					vp[i] = c*x - sn*y
					vq[i] = sn*x + c*y
				}
			}
		}
		if rotations == 0 {
			info = 0
			break
		}
		info = min(rotations, N)
	}
	// The singular values, W's exact column norms, sorted descending (ties in index order).
	var sv [smallMax]float64
	var perm [smallMax]int
	for j := 0; j < N; j++ {
		t := 0.0
		for _, x := range w[j*ld : j*ld+M] {
			t += x * x
		}
		sv[j] = math.Sqrt(t)
		i := j
		for ; i > 0 && sv[j] > sv[perm[i-1]]; i-- {
			perm[i] = perm[i-1]
		}
		perm[i] = j
	}
	for j := 0; j < N; j++ {
		s[j] = F(math.Ldexp(sv[perm[j]], -e))
	}
	if jobl != SVDNone {
		// U's columns in order, then the completion of the zero ones and of a full U.
		var uw [smallMax * smallMax]float64
		nz := 0
		for ; nz < N && sv[perm[nz]] > 0; nz++ {
			r, src := 1/sv[perm[nz]], w[perm[nz]*ld:perm[nz]*ld+M]
			for i, x := range src {
				uw[nz*ld+i] = x * r
			}
		}
		completeBasis(M, nz, smallLeftCols(M, N, jobl), &uw)
		storeSmallLeft(M, smallLeftCols(M, N, jobl), wide, &uw, u, ldu, vt, ldvt)
	}
	if right {
		storeSmallRight(N, wide, &v, &perm, u, ldu, vt, ldvt)
	}
	return info
}

// loadSmallW copies the m-by-n a into w in float64 (column-major, leading dimension
// smallMax), transposed when wide, so that w holds the M-by-N problem (M >= N), and scales it
// by 2^e (scaleExp of its largest magnitude, so that no square in the sweeps over- or
// underflows); it returns e.
func loadSmallW[F float32 | float64](m, n int, a []F, lda int, wide bool, w *[smallMax * smallMax]float64) int {
	const ld = smallMax
	anrm := 0.0
	for j := 0; j < n; j++ {
		for i, x := range a[j*lda : j*lda+m] {
			y := float64(x)
			if wide {
				w[i*ld+j] = y
			} else {
				w[j*ld+i] = y
			}
			if ay := math.Abs(y); ay > anrm {
				anrm = ay
			}
		}
	}
	e := scaleExp(anrm)
	if e != 0 {
		for i := range w {
			w[i] = math.Ldexp(w[i], e)
		}
	}
	return e
}

// smallLeftCols is how many left singular vectors of the M-by-N problem the job asks for:
// M with SVDAll, else N.
func smallLeftCols(M, N int, jobl SVDJob) int {
	if jobl == SVDAll {
		return M
	}
	return N
}

// storeSmallLeft writes the first cols columns of uw (the left singular vectors of the
// M-by-N problem, in order, leading dimension smallMax) in F: to u, or, for a wide matrix
// (the problem is A^T's), to the rows of vt.
func storeSmallLeft[F float32 | float64](M, cols int, wide bool, uw *[smallMax * smallMax]float64, u []F, ldu int, vt []F, ldvt int) {
	const ld = smallMax
	for j := 0; j < cols; j++ {
		src := uw[j*ld : j*ld+M]
		if wide { // rows of vt
			for i, x := range src {
				vt[i*ldvt+j] = F(x)
			}
		} else {
			dst := u[j*ldu : j*ldu+M]
			for i, x := range src {
				dst[i] = F(x)
			}
		}
	}
}

// storeSmallRight writes the columns perm[0..N-1] of v (the right singular vectors of the
// problem, leading dimension smallMax) in F: to the rows of vt, or, for a wide matrix, to u.
func storeSmallRight[F float32 | float64](N int, wide bool, v *[smallMax * smallMax]float64, perm *[smallMax]int, u []F, ldu int, vt []F, ldvt int) {
	const ld = smallMax
	for j := 0; j < N; j++ {
		src := v[perm[j]*ld : perm[j]*ld+N]
		if wide { // columns of u
			dst := u[j*ldu : j*ldu+N]
			for i, x := range src {
				dst[i] = F(x)
			}
		} else { // rows of vt
			for i, x := range src {
				vt[i*ldvt+j] = F(x)
			}
		}
	}
}

// smallRotation is gesvdSmall's rotation (cos, sin, tan) for d and g2 = sign(d) 2g whose
// squares are too small for its formula: the identity for g2 = 0, else the formula on d and
// g2 scaled by a power of two to near 1.
func smallRotation(d, g2 float64) (c, s, t float64) {
	if g2 == 0 {
		return 1, 0, 0
	}
	_, e := math.Frexp(max(math.Abs(d), math.Abs(g2)))
	d, g2 = math.Ldexp(d, -e), math.Ldexp(g2, -e)
	r := math.Sqrt(d*d + g2*g2)
	h := math.Abs(d) + r
	q := math.Sqrt(2 * r * h)
	return h / q, g2 / q, g2 / h
}

// completeBasis extends the orthonormal columns 0..from-1 of the M-by-M column-major q
// (leading dimension smallMax) with columns from..to-1 so that all are orthonormal: each new
// column is the unit vector e_i, orthogonalized twice against the columns before it
// (classical Gram-Schmidt), whose remainder is the longest, normalized.
func completeBasis(M, from, to int, q *[smallMax * smallMax]float64) {
	const ld = smallMax
	for j := from; j < to; j++ {
		var best [smallMax]float64
		bestNorm := -1.0
		for i := 0; i < M; i++ {
			var x [smallMax]float64
			x[i] = 1
			for pass := 0; pass < 2; pass++ {
				for k := 0; k < j; k++ {
					qk := q[k*ld : k*ld+M]
					d := 0.0
					for r, y := range qk {
						d += y * x[r]
					}
					for r, y := range qk {
						x[r] -= d * y
					}
				}
			}
			t := 0.0
			for _, y := range x[:M] {
				t += y * y
			}
			if t > bestNorm {
				best, bestNorm = x, t
			}
		}
		r := 1 / math.Sqrt(bestNorm)
		for i := 0; i < M; i++ {
			q[j*ld+i] = best[i] * r
		}
	}
}

// svdPairs[n] is the round-robin order of the pairs (p, q), p < q < n, that gesvdSmall's
// sweeps visit: n-1 rounds (n rounded up to even) of disjoint pairs, whose rotations are
// independent of each other, every pair once.
var svdPairs = func() (out [smallMax + 1][][2]uint8) {
	for n := 2; n <= smallMax; n++ {
		m := n + n%2
		idx := make([]int, m)
		for i := range idx {
			idx[i] = i
		}
		for r := 0; r < m-1; r++ {
			for i := 0; i < m/2; i++ {
				p, q := idx[i], idx[m-1-i]
				if p > q {
					p, q = q, p
				}
				if q < n {
					out[n] = append(out[n], [2]uint8{uint8(p), uint8(q)})
				}
			}
			last := idx[m-1]
			copy(idx[2:], idx[1:m-1])
			idx[1] = last
		}
	}
	return out
}()
