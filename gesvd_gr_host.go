package batchlas

import "math"

// gesvdSmallGR computes the SVD A = U S V^T of one finite real m-by-n matrix with
// 1 <= min(m, n) and max(m, n) <= smallMax, as gesvdSmall does (the same arguments, results
// and info), by the Golub-Reinsch algorithm in float64 on stack arrays (EISPACK's svd, as
// Numerical Recipes' svdcmp writes it):
//
//  1. W = A (A^T when m < n), M-by-N with M >= N, is copied and scaled by a power of two as
//     scaleExp says.
//  2. Householder reflectors from the left and the right reduce W to an upper bidiagonal B
//     (each reflector's vector scaled by the 1-norm of the part it annihilates, so that no
//     sum of squares overflows or underflows); the left ones are accumulated into W's M-by-N
//     orthonormal U, the right ones into V.
//  3. Implicit QR sweeps with the shift of the trailing 2-by-2 of B^T B, each a chase of
//     rotations applied to U's and V's columns, diagonalize B; an off-diagonal element, or a
//     diagonal one, is negligible when adding it to ||B|| (the largest |d_i| + |e_i|) leaves
//     ||B|| unchanged, and a negligible diagonal element is removed by rotations from the
//     left that zero its row's off-diagonal. Negative values are made positive with their V
//     columns; the values are sorted descending with their vectors.
//  4. A full U's columns past N are completed to an orthonormal basis (completeBasis).
//
// Backward stable: residuals and orthogonality of order eps ||A||. It returns 0, or, when
// one singular value took more than syevSweeps sweeps, the number of nonzero off-diagonal
// elements of B left (LAPACK's info). a is not written.
func gesvdSmallGR[F float32 | float64](jobu, jobvt SVDJob, m, n int, a []F, lda int, s []F, u []F, ldu int, vt []F, ldvt int) int {
	const ld = smallMax
	if min(m, n) < 1 || max(m, n) > smallMax {
		panic("gesvdSmallGR: shape out of range")
	}
	wide := m < n
	M, N, jobl, jobr := m, n, jobu, jobvt
	if wide {
		M, N, jobl, jobr = n, m, jobvt, jobu
	}
	left, right := jobl != SVDNone, jobr != SVDNone
	var w, v [smallMax * smallMax]float64 // W (then U) and V, column-major, leading dimension smallMax
	var d, rv1 [smallMax]float64          // B's diagonal and off-diagonal (rv1[i] couples i-1 and i)
	// The reflectors' vectors stay in W as computed, divided by the 1-norm of the part they
	// annihilate (not multiplied back, as svdcmp does: a vector of subnormal size would lose
	// its precision), with their -+norms gl (left) and gr (right) on the same scale.
	var gl, gr [smallMax]float64
	ex := loadSmallW(m, n, a, lda, wide, &w)
	// Bidiagonalization.
	g, scale, bnorm := 0.0, 0.0, 0.0
	for i := 0; i < N; i++ {
		l := i + 1
		rv1[i] = scale * g
		g, scale = 0, 0
		ci := w[i*ld : i*ld+M]
		for _, x := range ci[i:] {
			scale += math.Abs(x)
		}
		if scale != 0 {
			sq := 0.0
			if scale >= 0x1p-1000 {
				rs := 1 / scale
				for k := i; k < M; k++ {
					ci[k] *= rs
				}
			} else { // 1/scale would overflow
				for k := i; k < M; k++ {
					ci[k] /= scale
				}
			}
			for k := i; k < M; k++ {
				sq += ci[k] * ci[k]
			}
			f := ci[i]
			g = -math.Copysign(math.Sqrt(sq), f)
			h := f*g - sq
			ci[i] = f - g
			for j := l; j < N; j++ {
				cj := w[j*ld : j*ld+M]
				t := 0.0
				for k := i; k < M; k++ {
					t += ci[k] * cj[k]
				}
				f := t / h
				for k := i; k < M; k++ {
					cj[k] += f * ci[k]
				}
			}
		}
		d[i], gl[i] = scale*g, g
		g, scale = 0, 0
		if i != N-1 {
			for k := l; k < N; k++ {
				scale += math.Abs(w[k*ld+i])
			}
			if scale != 0 {
				sq := 0.0
				for k := l; k < N; k++ {
					if scale >= 0x1p-1000 {
						w[k*ld+i] *= 1 / scale
					} else { // 1/scale would overflow
						w[k*ld+i] /= scale
					}
					sq += w[k*ld+i] * w[k*ld+i]
				}
				f := w[l*ld+i]
				g = -math.Copysign(math.Sqrt(sq), f)
				h := f*g - sq
				w[l*ld+i] = f - g
				rh := 1 / h
				for k := l; k < N; k++ {
					rv1[k] = w[k*ld+i] * rh
				}
				for j := l; j < M; j++ {
					t := 0.0
					for k := l; k < N; k++ {
						t += w[k*ld+j] * w[k*ld+i]
					}
					for k := l; k < N; k++ {
						w[k*ld+j] += t * rv1[k]
					}
				}
			}
		}
		gr[i] = g
		bnorm = max(bnorm, math.Abs(d[i])+math.Abs(rv1[i]))
	}
	// V: the right reflectors, accumulated from the last.
	if right {
		l := N
		for i := N - 1; i >= 0; i-- {
			if i < N-1 {
				if g := gr[i]; g != 0 {
					r := 1 / (w[l*ld+i] * g)
					for j := l; j < N; j++ {
						v[i*ld+j] = w[j*ld+i] * r
					}
					for j := l; j < N; j++ {
						t := 0.0
						for k := l; k < N; k++ {
							t += w[k*ld+i] * v[j*ld+k]
						}
						for k := l; k < N; k++ {
							v[j*ld+k] += t * v[i*ld+k]
						}
					}
				}
				for j := l; j < N; j++ {
					v[j*ld+i], v[i*ld+j] = 0, 0
				}
			}
			v[i*ld+i] = 1
			l = i
		}
	}
	// U: the left reflectors, accumulated from the last, over W.
	if left {
		for i := N - 1; i >= 0; i-- {
			l := i + 1
			ci := w[i*ld : i*ld+M]
			for j := l; j < N; j++ {
				w[j*ld+i] = 0
			}
			if gi := gl[i]; gi != 0 {
				for j := l; j < N; j++ {
					cj := w[j*ld : j*ld+M]
					t := 0.0
					for k := l; k < M; k++ {
						t += ci[k] * cj[k]
					}
					f := t / (ci[i] * gi)
					for k := i; k < M; k++ {
						cj[k] += f * ci[k]
					}
				}
				r := 1 / gi
				for k := i; k < M; k++ {
					ci[k] *= r
				}
			} else {
				clear(ci[i:])
			}
			ci[i]++
		}
	}
	// Diagonalization of B.
	negligible := func(x float64) bool { return math.Abs(x)+bnorm == bnorm }
	info := 0
	for k := N - 1; k >= 0 && info == 0; k-- {
		for its := 0; ; its++ {
			flag := true
			l, nm := k, 0
			for ; l >= 0; l-- {
				nm = l - 1
				if negligible(rv1[l]) { // rv1[0] is always 0
					flag = false
					break
				}
				if negligible(d[nm]) {
					break
				}
			}
			if flag {
				// d[nm] is negligible: zero rv1[l] by rotations of rows nm and l..k.
				c, sn := 0.0, 1.0
				for i := l; i <= k; i++ {
					f := sn * rv1[i]
					rv1[i] *= c
					if negligible(f) {
						break
					}
					gg := d[i]
					h := radius(f, gg)
					d[i] = h
					c, sn = gg/h, -f/h
					if left {
						rotateCols(&w, M, nm, i, c, -sn)
					}
				}
			}
			z := d[k]
			if l == k {
				if z < 0 {
					d[k] = -z
					if right {
						for j := 0; j < N; j++ {
							v[k*ld+j] = -v[k*ld+j]
						}
					}
				}
				break
			}
			if its == syevSweeps {
				for _, x := range rv1[1 : k+1] {
					if x != 0 {
						info++
					}
				}
				info = max(1, info)
				break
			}
			// The shift from the trailing 2-by-2, then one QR sweep over l..k.
			x := d[l]
			nm = k - 1
			y := d[nm]
			gg := rv1[nm]
			h := rv1[k]
			f := ((y-z)*(y+z) + (gg-h)*(gg+h)) / (2 * h * y)
			gg = radius(f, 1)
			f = ((x-z)*(x+z) + h*((y/(f+math.Copysign(gg, f)))-h)) / x
			c, sn := 1.0, 1.0
			for j := l; j <= nm; j++ {
				i := j + 1
				gg = rv1[i]
				y = d[i]
				h = sn * gg
				gg = c * gg
				z, c, sn = rotor(f, h)
				rv1[j] = z
				f = x*c + gg*sn
				gg = gg*c - x*sn
				h = y * sn
				y *= c
				if right {
					rotateCols(&v, N, j, i, c, -sn)
				}
				var cr, sr float64
				z, cr, sr = rotor(f, h)
				d[j] = z
				if z != 0 { // else the rotation may be any
					c, sn = cr, sr
				}
				f = c*gg + sn*y
				x = c*y - sn*gg
				if left {
					rotateCols(&w, M, j, i, c, -sn)
				}
			}
			rv1[l] = 0
			rv1[k] = f
			d[k] = x
		}
	}
	// Sort descending (ties in index order) and store.
	var perm [smallMax]int
	for j := 0; j < N; j++ {
		i := j
		for ; i > 0 && d[j] > d[perm[i-1]]; i-- {
			perm[i] = perm[i-1]
		}
		perm[i] = j
	}
	for j := 0; j < N; j++ {
		s[j] = F(math.Ldexp(d[perm[j]], -ex))
	}
	if left {
		var uw [smallMax * smallMax]float64
		for j := 0; j < N; j++ {
			copy(uw[j*ld:j*ld+M], w[perm[j]*ld:perm[j]*ld+M])
		}
		completeBasis(M, N, smallLeftCols(M, N, jobl), &uw)
		storeSmallLeft(M, smallLeftCols(M, N, jobl), wide, &uw, u, ldu, vt, ldvt)
	}
	if right {
		storeSmallRight(N, wide, &v, &perm, u, ldu, vt, ldvt)
	}
	return info
}

// rotateCols sets columns p and q (rows 0..rows-1) of the column-major z (leading dimension
// smallMax) to x c - y s and y c + x s, for x and y their old values.
func rotateCols(z *[smallMax * smallMax]float64, rows, p, q int, c, s float64) {
	const ld = smallMax
	zp, zq := z[p*ld:p*ld+rows], z[q*ld:q*ld+rows]
	zq = zq[:len(zp)]
	for i, x := range zp {
		y := zq[i]
		zp[i] = x*c - y*s
		zq[i] = y*c + x*s
	}
}
