package batchlas

import "math"

// syevQLMin is the order from which the host's real solvers take syevSmallQL instead of the
// straight-line Jacobi of syevUnrolled; syevSmallQL runs up to smallMax, dsyev from there.
const syevQLMin = syevHostJacobiMax + 1

// syevSmallQL computes the eigenvalues and optionally the eigenvectors of one finite real
// symmetric matrix A of order 1 <= n <= smallMax, held in the lower or upper triangle of the
// column-major a, in float64 on stack arrays (no allocation, no call into gonum), steps 1 and 2
// in the straight-line code of qlReduceUnrolled:
//
//  1. A is copied, both triangles, and scaled by a power of two as scaleExp says.
//  2. Householder reflectors reduce it to tridiagonal form T = Q^T A Q (dsytd2's
//     reflectors, H_k = I - tau_k v_k v_k^T annihilating column k below the subdiagonal,
//     Q = H_0 H_1 ... H_{n-3}); with vectors Q is formed explicitly by backward accumulation.
//  3. Implicit QL with Wilkinson-like shifts (EISPACK's tql2) diagonalizes T = Z diag(w) Z^T,
//     each rotation also applied to the columns of Q, so that they end as V = Q Z.
//  4. The eigenvalues are scaled back and sorted ascending, with their vectors (syevStore).
//
// An off-diagonal element of T is negligible when it is at most the unit roundoff times the
// sum of the two diagonal elements beside it, or below 2^-500 (the scaled A has max norm at
// least 2^-16, so this is far below eps ||A||); every rotation's radius is computed as a plain
// square root of squares in the range where that is exact to rounding, by math.Hypot outside
// it. It returns 0, or, when an eigenvalue took more than syevSweeps QL iterations, the
// number of off-diagonal elements of T that had not converged (LAPACK's info), the values
// and vectors then being those reached. w[:n] receives the eigenvalues; a is written only
// with vectors (its n-by-n columns become the eigenvectors).
func syevSmallQL[F float32 | float64](vectors, lower bool, n int, a []F, lda int, w []F) int {
	var q [smallMax * smallMax]float64 // column-major, leading dimension smallMax
	var d, e [smallMax]float64
	k := qlReduceUnrolled(n, vectors, lower, a, lda, &d, &e, &q)
	info := tql2Small(vectors, n, &d, &e, &q)
	if k != 0 {
		for i := 0; i < n; i++ {
			d[i] = math.Ldexp(d[i], -k)
		}
	}
	syevStore(vectors, n, &d, &q, a, lda, w)
	return info
}

// tql2Small diagonalizes the symmetric tridiagonal T of order n <= smallMax, diagonal d[:n]
// and off-diagonal e[:n-1] (e[i] couples rows i and i+1), by implicit QL with shifts
// (EISPACK's tql2, as Numerical Recipes' tqli writes it), and with vectors applies every
// rotation to the columns of z (column-major, leading dimension smallMax), so that z ends as
// z Z for T = Z diag(d) Z^T. d is overwritten with the eigenvalues, unsorted; e is destroyed.
// It returns 0, or the number of nonzero elements of e when one eigenvalue took more than
// syevSweeps iterations.
func tql2Small(vectors bool, n int, d, e *[smallMax]float64, z *[smallMax * smallMax]float64) int {
	const ld, ulp, tiny = smallMax, 0x1p-53, 0x1p-500
	e[n-1] = 0
	for l := 0; l < n; l++ {
		for iter := 0; ; iter++ {
			m := l
			for ; m < n-1; m++ {
				if ae := math.Abs(e[m]); ae <= ulp*(math.Abs(d[m])+math.Abs(d[m+1])) || ae < tiny {
					e[m] = 0
					break
				}
			}
			if m == l {
				break
			}
			if iter == syevSweeps {
				info := 0
				for _, x := range e[:n-1] {
					if x != 0 {
						info++
					}
				}
				return info
			}
			g := (d[l+1] - d[l]) / (2 * e[l])
			r := radius(g, 1)
			g = d[m] - d[l] + e[l]/(g+math.Copysign(r, g))
			s, c, p := 1.0, 1.0, 0.0
			i := m - 1
			for ; i >= l; i-- {
				f, b := s*e[i], c*e[i]
				var sr, cr float64
				r, sr, cr = rotor(f, g)
				e[i+1] = r
				if r == 0 {
					// f and g both zero: T splits here; undo the shift and start again.
					d[i+1] -= p
					e[m] = 0
					break
				}
				s, c = sr, cr
				g = d[i+1] - p
				r = (d[i]-g)*s + 2*c*b
				p = s * r
				d[i+1] = g + p
				g = c*r - b
				if vectors {
					zi, zj := z[i*ld:i*ld+n], z[(i+1)*ld:(i+1)*ld+n]
					zj = zj[:len(zi)]
					for k, x := range zi {
						y := zj[k]
						zj[k] = s*x + c*y
						zi[k] = c*x - s*y
					}
				}
			}
			if r == 0 && i >= l {
				continue
			}
			d[l] -= p
			e[l] = g
			e[m] = 0
		}
	}
	return 0
}

// rotor is the plane rotation that takes (f, g) to (r, 0): r = sqrt(f^2 + g^2), s = f/r,
// c = g/r, with r's reciprocal as sqrt(r^2) * (1/r^2) where the plain formula is exact to
// rounding (r^2 between 2^-900 and 2^900), so that the division runs beside the square root
// and not after it: it is the QL sweep's chain. Elsewhere r is math.Hypot's, and s = c = 0
// when r = 0 (the callers then split T).
func rotor(f, g float64) (r, s, c float64) {
	if r2 := f*f + g*g; r2 > 0x1p-900 && r2 < 0x1p900 {
		ri := 1 / r2
		r = math.Sqrt(r2)
		ri *= r
		return r, f * ri, g * ri
	}
	return rotorHypot(f, g)
}

func rotorHypot(f, g float64) (r, s, c float64) {
	if r = math.Hypot(f, g); r == 0 {
		return 0, 0, 0
	}
	return r, f / r, g / r
}

// radius is sqrt(x^2 + y^2): the plain formula where neither square can overflow or lose
// precision to underflow (the sum of squares between 2^-900 and 2^900), math.Hypot
// otherwise.
func radius(x, y float64) float64 {
	s := x*x + y*y
	if s > 0x1p-900 && s < 0x1p900 {
		return math.Sqrt(s)
	}
	return math.Hypot(x, y)
}

// syevSmallQLPair is syevSmallQL on two matrices of the same order at once: both are reduced,
// then their QL iterations run interleaved (tql2Pair), and each gets exactly what
// syevSmallQL would give it alone.
func syevSmallQLPair[F float32 | float64](vectors, lower bool, n int, a0, a1 []F, lda int, w0, w1 []F) (int, int) {
	var q0, q1 [smallMax * smallMax]float64
	var d0, e0, d1, e1 [smallMax]float64
	k0 := qlReduceUnrolled(n, vectors, lower, a0, lda, &d0, &e0, &q0)
	k1 := qlReduceUnrolled(n, vectors, lower, a1, lda, &d1, &e1, &q1)
	info0, info1 := tql2Pair(vectors, n, &d0, &e0, &q0, &d1, &e1, &q1)
	for i := 0; i < n; i++ {
		if k0 != 0 {
			d0[i] = math.Ldexp(d0[i], -k0)
		}
		if k1 != 0 {
			d1[i] = math.Ldexp(d1[i], -k1)
		}
	}
	syevStore(vectors, n, &d0, &q0, a0, lda, w0)
	syevStore(vectors, n, &d1, &q1, a1, lda, w1)
	return info0, info1
}

// qlSetup is tql2Small between two sweeps: from row l, whose eigenvalue has had iter sweeps,
// it passes over the converged eigenvalues (setting iter to 0 at each) and returns the
// unreduced block l..m with its shift g and iter counting the sweep about to run, or done
// (with info, the count of nonzero off-diagonal elements, when an eigenvalue had syevSweeps
// sweeps).
func qlSetup(n int, d, e *[smallMax]float64, l, iter int) (int, int, int, float64, bool, int) {
	const ulp, tiny = 0x1p-53, 0x1p-500
	for l < n {
		m := l
		for ; m < n-1; m++ {
			if ae := math.Abs(e[m]); ae <= ulp*(math.Abs(d[m])+math.Abs(d[m+1])) || ae < tiny {
				e[m] = 0
				break
			}
		}
		if m == l {
			l, iter = l+1, 0
			continue
		}
		if iter == syevSweeps {
			info := 0
			for _, x := range e[:n-1] {
				if x != 0 {
					info++
				}
			}
			return l, m, iter, 0, true, info
		}
		g := (d[l+1] - d[l]) / (2 * e[l])
		r := radius(g, 1)
		g = d[m] - d[l] + e[l]/(g+math.Copysign(r, g))
		return l, m, iter + 1, g, false, 0
	}
	return l, l, iter, 0, true, 0
}

// tql2Pair is tql2Small on two tridiagonal matrices of order n at once: a rotation of one
// beside a rotation of the other while both are sweeping, so that the processor overlaps
// their two chains of dependent square roots and divisions, with the same arithmetic in the
// same order as tql2Small on each (the rotation written out once per matrix).
func tql2Pair(vectors bool, n int, d0, e0 *[smallMax]float64, z0 *[smallMax * smallMax]float64, d1, e1 *[smallMax]float64, z1 *[smallMax * smallMax]float64) (int, int) {
	const ld = smallMax
	e0[n-1], e1[n-1] = 0, 0
	var l0, m0, i0, it0, info0, l1, m1, i1, it1, info1 int
	var s0, c0, p0, g0, s1, c1, p1, g1 float64
	var sw0, done0, sw1, done1 bool
	for {
		if !done0 && !sw0 {
			l0, m0, it0, g0, done0, info0 = qlSetup(n, d0, e0, l0, it0)
			if !done0 {
				s0, c0, p0, i0, sw0 = 1, 1, 0, m0-1, true
			}
		}
		if !done1 && !sw1 {
			l1, m1, it1, g1, done1, info1 = qlSetup(n, d1, e1, l1, it1)
			if !done1 {
				s1, c1, p1, i1, sw1 = 1, 1, 0, m1-1, true
			}
		}
		if done0 && done1 {
			return info0, info1
		}
		for {
			if sw0 {
				f, b := s0*e0[i0], c0*e0[i0]
				r, sr, cr := rotor(f, g0)
				e0[i0+1] = r
				if r == 0 {
					d0[i0+1] -= p0
					e0[m0] = 0
					sw0 = false
				} else {
					s0, c0 = sr, cr
					g0 = d0[i0+1] - p0
					r = (d0[i0]-g0)*s0 + 2*c0*b
					p0 = s0 * r
					d0[i0+1] = g0 + p0
					g0 = c0*r - b
					if vectors {
						zi, zj := z0[i0*ld:i0*ld+n], z0[(i0+1)*ld:(i0+1)*ld+n]
						zj = zj[:len(zi)]
						for k, x := range zi {
							y := zj[k]
							zj[k] = s0*x + c0*y
							zi[k] = c0*x - s0*y
						}
					}
					i0--
					if i0 < l0 {
						d0[l0] -= p0
						e0[l0] = g0
						e0[m0] = 0
						sw0 = false
					}
				}
			}
			if sw1 {
				f, b := s1*e1[i1], c1*e1[i1]
				r, sr, cr := rotor(f, g1)
				e1[i1+1] = r
				if r == 0 {
					d1[i1+1] -= p1
					e1[m1] = 0
					sw1 = false
				} else {
					s1, c1 = sr, cr
					g1 = d1[i1+1] - p1
					r = (d1[i1]-g1)*s1 + 2*c1*b
					p1 = s1 * r
					d1[i1+1] = g1 + p1
					g1 = c1*r - b
					if vectors {
						zi, zj := z1[i1*ld:i1*ld+n], z1[(i1+1)*ld:(i1+1)*ld+n]
						zj = zj[:len(zi)]
						for k, x := range zi {
							y := zj[k]
							zj[k] = s1*x + c1*y
							zi[k] = c1*x - s1*y
						}
					}
					i1--
					if i1 < l1 {
						d1[l1] -= p1
						e1[l1] = g1
						e1[m1] = 0
						sw1 = false
					}
				}
			}
			if !(sw0 && sw1) {
				break
			}
		}
	}
}
