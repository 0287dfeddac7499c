package batchlas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestGesvdSmall checks gesvdSmall and gesvdSmallGR at every shape they take (m, n = 1 to smallMax), with
// every pair of jobs, in float64 and float32, on random, rank-deficient (rank 1 and zero),
// orthogonal (equal singular values), column-graded (1 beside 1e-200: the small columns fall
// under gesvdSmall's zeroing threshold), far-scaled matrices and one with a column of
// subnormal numbers: singular values descending,
// nonnegative, the same for every job and within 30 k eps ||A|| of gonum's Dgesvd, and
// ||A - U S V^T||, ||U^T U - I||, ||V^T V - I|| within 30 k eps (times ||A||) for the factors
// computed, including the completed columns of a full U or V and of a zero singular value.
// a and the parts of u and vt outside their shapes must not be written.
func TestGesvdSmall(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	jobs := []SVDJob{SVDNone, SVDThin, SVDAll}
	for m := 1; m <= smallMax; m++ {
		for n := 1; n <= smallMax; n++ {
			for name, a := range smallSVDInputs(rng, m, n) {
				t.Run(fmt.Sprintf("%dx%d_%s", m, n, name), func(t *testing.T) {
					for _, ju := range jobs {
						for _, jv := range jobs {
							checkSmallSVD(t, gesvdSmall[float64], m, n, a, ju, jv, 0x1p-53)
							checkSmallSVD(t, gesvdSmall[float32], m, n, a, ju, jv, 0x1p-24)
							checkSmallSVD(t, gesvdSmallGR[float64], m, n, a, ju, jv, 0x1p-53)
							checkSmallSVD(t, gesvdSmallGR[float32], m, n, a, ju, jv, 0x1p-24)
						}
					}
				})
			}
		}
	}
}

// smallSVDInputs are TestGesvdSmall's m-by-n column-major matrices.
func smallSVDInputs(rng *rand.Rand, m, n int) map[string][]float64 {
	random := func(s float64) []float64 {
		a := make([]float64, m*n)
		for i := range a {
			a[i] = (rng.Float64()*2 - 1) * s
		}
		return a
	}
	x, y := random(1)[:m], random(1)[:n]
	rankOne := make([]float64, m*n)
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			rankOne[j*m+i] = x[i] * y[j]
		}
	}
	// The first min(m, n) columns (rows) of a permuted identity with signs: all ones.
	orth := make([]float64, m*n)
	for i := 0; i < min(m, n); i++ {
		orth[((i+1)%n)*m+(i*3)%m] = float64(1 - 2*(i%2))
	}
	graded := random(1)
	for j := 1; j < n; j += 2 {
		for i := 0; i < m; i++ {
			graded[j*m+i] *= 1e-200
		}
	}
	// One column of subnormal numbers beside ones near 1.
	subnormal := random(1)
	for i := 0; i < m; i++ {
		subnormal[i] *= 0x1p-1040
	}
	return map[string][]float64{
		"random": random(1), "rank_one": rankOne, "zero": make([]float64, m*n), "orthogonal": orth,
		"graded": graded, "huge": random(1e300), "tiny": random(1e-300), "subnormal_column": subnormal,
	}
}

// checkSmallSVD runs kernel (gesvdSmall or gesvdSmallGR) with jobs ju, jv on a taken to F
// and checks it as TestGesvdSmall says.
func checkSmallSVD[F float32 | float64](t *testing.T, kernel gesvdFunc[F, F], m, n int, a []float64, ju, jv SVDJob, eps float64) {
	t.Helper()
	k := min(m, n)
	af := make([]float64, len(a))
	anrm := 0.0
	for i, x := range a {
		af[i] = float64(F(x))
		anrm = math.Max(anrm, math.Abs(af[i]))
	}
	if math.IsInf(anrm, 0) {
		return
	}
	ur, uc, vr, vc := svdShapes(ju, jv, m, n)
	lda, ldu, ldvt := m+1, max(1, ur)+2, max(1, vr)+1
	poison := func(l int) []F {
		x := make([]F, l)
		for i := range x {
			x[i] = F(math.NaN())
		}
		return x
	}
	in, u, vt, s := poison(lda*n), poison(ldu*max(1, uc)), poison(ldvt*max(1, vc)), make([]F, k)
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			in[j*lda+i] = F(af[j*m+i])
		}
	}
	if info := kernel(ju, jv, m, n, in, lda, s, u, ldu, vt, ldvt); info != 0 {
		t.Fatalf("jobs %c%c: info %d", ju, jv, info)
	}
	for j := 0; j < n; j++ {
		for i := 0; i < lda; i++ {
			if x := in[j*lda+i]; i < m && float64(x) != af[j*m+i] || i >= m && x == x {
				t.Fatalf("a(%d, %d) written", i, j)
			}
		}
	}
	tol := 30 * float64(k) * eps
	ra, rs := append([]float64(nil), af...), make([]float64, k)
	work := make([]float64, 1)
	// Row-major, the column-major m-by-n A is the n-by-m A^T: the same singular values.
	lapackImpl.Dgesvd('N', 'N', n, m, ra, m, rs, nil, 1, nil, 1, work, -1)
	work = make([]float64, int(work[0]))
	lapackImpl.Dgesvd('N', 'N', n, m, ra, m, rs, nil, 1, nil, 1, work, len(work))
	for i := 0; i < k; i++ {
		if !(s[i] >= 0) || i > 0 && s[i] > s[i-1] {
			t.Fatalf("jobs %c%c: s not descending and nonnegative: %v", ju, jv, s)
		}
		if d := math.Abs(float64(s[i]) - rs[i]); !(d <= tol*anrm) {
			t.Fatalf("jobs %c%c: s[%d] = %g, Dgesvd %g", ju, jv, i, s[i], rs[i])
		}
	}
	// Orthonormal columns of U (m-by-uc) and rows of V^T (vr-by-n), nothing written outside.
	checkOrth := func(name string, f []F, ld, r, c int, rows bool) {
		for j := 0; j < max(1, c); j++ {
			for i := r; i < ld; i++ {
				if x := f[j*ld+i]; x == x && ld > 1 {
					t.Fatalf("jobs %c%c: %s(%d, %d) outside the factor written", ju, jv, name, i, j)
				}
			}
		}
		at := func(i, j int) float64 { return float64(f[j*ld+i]) }
		if rows {
			at = func(i, j int) float64 { return float64(f[i*ld+j]) }
			r, c = c, r
		}
		for p := 0; p < c; p++ {
			for q := 0; q < c; q++ {
				d := 0.0
				for i := 0; i < r; i++ {
					d += at(i, p) * at(i, q)
				}
				if math.Abs(d-float64(b2i(p == q))) > tol {
					t.Fatalf("jobs %c%c: %s not orthonormal: (%d, %d) = %g", ju, jv, name, p, q, d)
				}
			}
		}
	}
	if ju != SVDNone {
		checkOrth("u", u, ldu, ur, uc, false)
	}
	if jv != SVDNone {
		checkOrth("vt", vt, ldvt, vr, vc, true)
	}
	if ju != SVDNone && jv != SVDNone {
		for j := 0; j < n; j++ {
			for i := 0; i < m; i++ {
				r := af[j*m+i]
				for p := 0; p < k; p++ {
					r -= float64(u[p*ldu+i]) * float64(s[p]) * float64(vt[j*ldvt+p])
				}
				if !(math.Abs(r) <= tol*anrm) && !(anrm == 0 && r == 0) {
					t.Fatalf("jobs %c%c: |A - U S V^T|(%d, %d) / (k eps ||A||) = %g", ju, jv, i, j, math.Abs(r)/(float64(k)*eps*anrm))
				}
			}
		}
	}
}
