package batchlas

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
)

// The host's tridiagonal eigensolver with vectors: the eigenvalues of each unreduced block by
// gonum's Dsterf (Pal-Walker-Kahan QL/QR without vectors, O(m^2)), and the eigenvectors by
// inverse iteration as LAPACK's dstein (the CUDA kernels' kernels/syev/bisect.cuh does the
// same, its eigenvalues by bisection). A well separated eigenvalue costs O(m) flops for its
// vector, where the rotations of Dsteqr cost O(n^2) per eigenvalue: at n = 512 Dsteqr took
// 680 ms of gonum's 840 ms for Dsytrd, Dorgtr and Dsteqr together. Vectors of eigenvalues
// closer than 1e-3 ||T_block||_1 (a cluster) are kept orthogonal by modified Gram-Schmidt
// against the cluster's earlier vectors in every step, as dstein does.

// steinWork is one goroutine's workspace for tridiagVectors.
type steinWork struct {
	lam, dd, ee []float64 // the eigenvalues block by block; a block's copy for Dsterf
	rank, pos   []int     // rank[k]: the place of lam[k] in the ascending spectrum; pos its inverse
	blk         []int     // the first row of each block, and n
	y           []float64 // the iterate
	ua, ub, ud  []float64 // U's diagonals (lagtf)
	ml          []float64 // L's multipliers
	piv         []bool    // whether rows k and k+1 were interchanged
	dots        []float64 // orthogonalize's products
}

// tridiagVectors solves the symmetric tridiagonal eigenproblem T = Z diag(w) Z^T for the
// diagonal d and off-diagonal e (n-1 elements; e may be longer, and is not kept) of a matrix
// scaled as scaleExp says. On return d holds the eigenvalues ascending and column j of the
// column-major n-by-n z (leading dimension ldz) the eigenvector of d[j]. It returns LAPACK's
// info: the count of off-diagonal elements that Dsterf left unconverged plus the count of
// vectors whose inverse iteration did not converge in 5 steps (dstein's).
func tridiagVectors(d, e, z []float64, ldz int, s *steinWork) int {
	n := len(d)
	e = e[:max(n-1, 0)]
	clearTinyBlocks(d, e)
	s.lam, s.rank, s.pos = grow(s.lam, n), grow(s.rank, n), grow(s.pos, n)
	s.blk = s.blk[:0]
	info := 0
	for l := 0; l < n; {
		m := l
		for m < n-1 && !steqrNegligible(d, e, m) {
			m++
		}
		s.blk = append(s.blk, l)
		if l == m {
			s.lam[l] = d[l]
		} else {
			s.dd, s.ee = grow(s.dd, m-l+1), grow(s.ee, m-l)
			copy(s.dd, d[l:m+1])
			copy(s.ee, e[l:m])
			if !lapackImpl.Dsterf(m-l+1, s.dd, s.ee) {
				info += unconverged(s.ee)
			}
			copy(s.lam[l:m+1], s.dd)
		}
		l = m + 1
	}
	s.blk = append(s.blk, n)
	for k := range s.pos {
		s.pos[k] = k
	}
	// Ascending, ties in block order, so that identical input gives identical output.
	slices.SortStableFunc(s.pos, func(i, j int) int {
		switch {
		case s.lam[i] < s.lam[j]:
			return -1
		case s.lam[i] > s.lam[j]:
			return 1
		}
		return 0
	})
	for p, k := range s.pos {
		s.rank[k] = p
	}
	for b := 0; b+1 < len(s.blk); b++ {
		info += s.blockVectors(d, e, s.blk[b], s.blk[b+1], z, ldz)
	}
	for k, v := range s.lam {
		d[s.rank[k]] = v
	}
	return info
}

// steqrNegligible is Dsteqr's splitting test for e[m].
func steqrNegligible(d, e []float64, m int) bool {
	const eps = 0x1p-53
	t := math.Abs(e[m])
	return t == 0 || t <= math.Sqrt(math.Abs(d[m]))*math.Sqrt(math.Abs(d[m+1]))*eps
}

// clearTinyBlocks sets to zero each unreduced block (by steqrNegligible) whose elements are
// all below sqrt(safmin)/eps^2 in magnitude (see tridiagEigen).
func clearTinyBlocks(d, e []float64) {
	const eps = 0x1p-53
	ssfmin := math.Sqrt(0x1p-1022) / (eps * eps)
	n := len(d)
	for l := 0; l < n; {
		m := l
		for ; m < n-1; m++ {
			if steqrNegligible(d, e, m) {
				break
			}
		}
		anorm := math.Abs(d[m])
		for i := l; i < m; i++ {
			anorm = max(anorm, math.Abs(d[i]), math.Abs(e[i]))
		}
		if anorm < ssfmin {
			clear(d[l : m+1])
			clear(e[l:m])
		}
		l = m + 1
	}
}

// blockVectors computes by inverse iteration the eigenvectors of the unreduced block of rows
// lo..hi-1 (its eigenvalues ascending in s.lam[lo:hi]) into the columns s.rank[k] of z,
// zero outside the block, and returns how many did not converge.
func (s *steinWork) blockVectors(d, e []float64, lo, hi int, z []float64, ldz int) int {
	const (
		ulp    = 0x1p-52 // dlamch('P'), dstein's eps
		maxits = 5
		extra  = 2
	)
	n, m := len(d), hi-lo
	if m == 1 {
		col := z[s.rank[lo]*ldz : s.rank[lo]*ldz+n]
		clear(col)
		col[lo] = 1
		return 0
	}
	d, e = d[lo:hi], e[lo:hi-1]
	onenrm := 0.0
	for i := range d {
		r := math.Abs(d[i])
		if i > 0 {
			r += math.Abs(e[i-1])
		}
		if i < m-1 {
			r += math.Abs(e[i])
		}
		onenrm = max(onenrm, r)
	}
	ortol := 1e-3 * onenrm
	dtpcrt := math.Sqrt(0.1 / float64(m))
	s.y, s.ua, s.ub, s.ud, s.ml = grow(s.y, m), grow(s.ua, m), grow(s.ub, m), grow(s.ud, m), grow(s.ml, m)
	s.piv = grow(s.piv, m)
	y := s.y
	failed := 0
	var xjm float64
	k0 := lo // the first eigenvalue of the current cluster
	for k := lo; k < hi; k++ {
		x := s.lam[k]
		if k > lo {
			// dstein moves a shift closer than 10 ulp |x| to the previous one to that
			// distance; here at least 0.1 ulp ||T_block||_1, about the eigenvalues'
			// absolute accuracy. Near zero dstein's distance vanishes: the shifts of a tight
			// cluster then fall among its eigenvalues, each closer to some earlier member's
			// than to the rest, and Gram-Schmidt cancels nearly all of the iterate
			// (||V^T V - I|| was 500 n eps at n = 300 with a hundred zero eigenvalues, 1
			// n eps with this floor; a floor of ulp ||T||_1 or more moves the shifts of a
			// graded matrix's many tiny eigenvalues past the next ones).
			if pertol := 10 * ulp * max(math.Abs(x), 0.01*onenrm); x-xjm < pertol {
				x = xjm + pertol
			}
			if math.Abs(x-xjm) > ortol {
				k0 = k
			}
		}
		xjm = x
		for i := range y {
			y[i] = steinRandom(k, i)
		}
		tol := s.factor(d, e, x)
		converged, nrmchk := false, 0
		for its := 0; its < maxits; its++ {
			var asum float64
			for _, v := range y {
				asum += math.Abs(v)
			}
			if asum > 0 {
				scl := float64(m) * onenrm * max(ulp, math.Abs(s.ua[m-1])) / asum
				for i := range y {
					y[i] *= scl
				}
			}
			s.solve(tol)
			s.orthogonalize(k0, k, lo, hi, z, ldz)
			var nrm float64
			for _, v := range y {
				nrm = max(nrm, math.Abs(v))
			}
			if nrm >= dtpcrt {
				if nrmchk++; nrmchk == extra+1 {
					converged = true
					break
				}
			}
		}
		if !converged {
			failed++
		}
		if k > k0 {
			// Once more: the last step's Gram-Schmidt cancels most of y when the cluster is
			// tight (many equal eigenvalues), and one pass then leaves y orthogonal to the
			// earlier vectors only to eps times the cancellation (twice is enough).
			s.orthogonalize(k0, k, lo, hi, z, ldz)
		}
		col := z[s.rank[k]*ldz : s.rank[k]*ldz+n]
		clear(col[:lo])
		clear(col[hi:])
		// Normalize, the largest component (the first of equal magnitudes) positive.
		var ymax float64
		for _, v := range y {
			if math.Abs(v) > math.Abs(ymax) {
				ymax = v
			}
		}
		if ymax == 0 {
			clear(col[lo:hi])
			continue
		}
		var ss float64
		for _, v := range y {
			t := v / ymax
			ss += t * t
		}
		scl := 1 / (ymax * math.Sqrt(ss))
		for i, v := range y {
			col[lo+i] = v * scl
		}
	}
	return failed
}

// steinRandom is the pseudo-random start of inverse iteration for vector k, row i, in
// [-1, 1): a hash, the same as the CUDA kernels' bis_random.
func steinRandom(k, i int) float64 {
	h := uint32(k)*0x9e3779b9 ^ (uint32(i)+0x7f4a7c15)*0x85ebca6b
	h ^= h >> 16
	h *= 0x7feb352d
	h ^= h >> 15
	h *= 0x846ca68b
	h ^= h >> 16
	return float64(int32(h>>8)-(1<<23)) * 0x1p-23
}

// factor factors T - x I = P L U for the block's d and e as LAPACK's dlagtf: U's diagonals go
// to ua, ub and ud, L's multipliers to ml and the interchanges to piv. It returns dlagts's
// tolerance for small pivots, eps max |U| (eps when U is zero).
func (s *steinWork) factor(d, e []float64, x float64) float64 {
	const eps = 0x1p-53
	m := len(d)
	ua, ub, ud, ml, piv := s.ua[:m], s.ub[:m], s.ud[:m], s.ml[:m], s.piv[:m]
	ak, bk := d[0]-x, e[0]
	scale1 := math.Abs(ak) + math.Abs(bk)
	big := 0.0
	for k := 0; k < m-1; k++ {
		a1, ck, bn := d[k+1]-x, e[k], 0.0
		if k < m-2 {
			bn = e[k+1]
		}
		scale2 := math.Abs(ck) + math.Abs(a1) + math.Abs(bn)
		// dlagtf interchanges rows k and k+1 when |c_k| / scale2 > |a_k| / scale1.
		if ak == 0 && ck != 0 || ak != 0 && math.Abs(ck)*scale1 > math.Abs(ak)*scale2 {
			mult := ak / ck
			ua[k], ub[k], ud[k], ml[k], piv[k] = ck, a1, bn, mult, true
			ak, bk = bk-mult*a1, -mult*bn
		} else {
			mult := 0.0
			if ck != 0 {
				mult = ck / ak
			}
			ua[k], ub[k], ud[k], ml[k], piv[k] = ak, bk, 0, mult, false
			ak, bk = a1-mult*bk, bn
			scale1 = scale2
		}
		big = max(big, math.Abs(ua[k]), math.Abs(ub[k]), math.Abs(ud[k]))
	}
	ua[m-1], ub[m-1], ud[m-1] = ak, 0, 0
	big = max(big, math.Abs(ak))
	if big == 0 {
		return eps
	}
	return big * eps
}

// solve overwrites y with (T - x I)^{-1} y from factor's P L U, as dlagts with job -1: a
// pivot too small for its quotient to fit is moved away from zero by tol, 2 tol, 4 tol, ...
func (s *steinWork) solve(tol float64) {
	const sfmin = 0x1p-1022
	const bignum = 1 / sfmin
	m := len(s.y)
	y, ua, ub, ud, ml, piv := s.y[:m], s.ua[:m], s.ub[:m], s.ud[:m], s.ml[:m], s.piv[:m]
	for k := 0; k < m-1; k++ {
		if piv[k] {
			y[k], y[k+1] = y[k+1], y[k]-ml[k]*y[k+1]
		} else {
			y[k+1] -= ml[k] * y[k]
		}
	}
	var y1, y2 float64
	for k := m - 1; k >= 0; k-- {
		t := y[k] - ub[k]*y1 - ud[k]*y2
		ak := ua[k]
		if absak := math.Abs(ak); absak < 1 && (absak < sfmin || math.Abs(t) > absak*bignum) {
			pert := math.Copysign(tol, ak)
			for {
				absak := math.Abs(ak)
				if absak < 1 {
					if absak < sfmin {
						if absak == 0 || math.Abs(t)*sfmin > absak {
							ak += pert
							pert *= 2
							continue
						}
						t *= bignum
						ak *= bignum
					} else if math.Abs(t) > absak*bignum {
						ak += pert
						pert *= 2
						continue
					}
				}
				break
			}
		}
		yk := t / ak
		y[k], y2, y1 = yk, y1, yk
	}
}

// orthogonalize subtracts from the iterate y its components along the vectors of the
// eigenvalues k0..k-1 (rows lo..hi-1 of their columns of z): by classical Gram-Schmidt in
// two matrix-vector products (gonum's assembly Dgemv) where those columns are adjacent, as
// they are in a block whose spectrum does not interleave another's, else by modified
// Gram-Schmidt. A large cluster (a matrix near a multiple of I: every eigenvalue within
// 1e-3 ||T||_1 of the next) costs O(n^3) here: at n = 512 (I + 1e-4 R, R random) the
// tridiagonal solve took 280 ms with modified Gram-Schmidt, 98 ms so. The extra pass that blockVectors
// runs after the last step makes the last one classical Gram-Schmidt twice, which is as
// orthogonal as the modified one.
func (s *steinWork) orthogonalize(k0, k, lo, hi int, z []float64, ldz int) {
	c, m := k-k0, hi-lo
	if c == 0 {
		return
	}
	y := s.y[:m]
	if c >= steinGemvMin && s.rank[k-1]-s.rank[k0] == c-1 {
		// Row-major, the columns are the c-by-m matrix r with leading dimension ldz.
		r := z[s.rank[k0]*ldz+lo:]
		s.dots = grow(s.dots, c)
		blasImpl.Dgemv(blas.NoTrans, c, m, 1, r, ldz, y, 1, 0, s.dots, 1)
		blasImpl.Dgemv(blas.Trans, c, m, -1, r, ldz, s.dots, 1, 1, y, 1)
		return
	}
	for p := k0; p < k; p++ {
		zp := z[s.rank[p]*ldz+lo : s.rank[p]*ldz+hi]
		var dot float64
		for i, v := range zp {
			dot += v * y[i]
		}
		for i, v := range zp {
			y[i] -= dot * v
		}
	}
}

// steinGemvMin is the size of a cluster's earlier part from which orthogonalize runs
// classical Gram-Schmidt on Dgemv.
const steinGemvMin = 8
