package batchlas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// smallSpectra are the test matrices of the small real eigensolvers, column-major of order n:
// random, structured, clustered, rank-deficient, graded and far-scaled ones.
func smallSpectra(rng *rand.Rand, n int) map[string][]float64 {
	sym := func(f func(i, j int) float64) []float64 {
		a := make([]float64, n*n)
		for j := 0; j < n; j++ {
			for i := 0; i <= j; i++ {
				a[j*n+i] = f(i, j)
				a[i*n+j] = a[j*n+i]
			}
		}
		return a
	}
	random := func() []float64 { return sym(func(_, _ int) float64 { return rng.Float64()*2 - 1 }) }
	// withSpectrum is Q diag(lam) Q^T for an orthogonal Q from Gram-Schmidt on random columns.
	withSpectrum := func(lam func(i int) float64) []float64 {
		q := make([]float64, n*n)
		for j := 0; j < n; j++ {
			c := q[j*n : j*n+n]
			for i := range c {
				c[i] = rng.NormFloat64()
			}
			for pass := 0; pass < 2; pass++ {
				for k := 0; k < j; k++ {
					dot := 0.0
					for i := range c {
						dot += c[i] * q[k*n+i]
					}
					for i := range c {
						c[i] -= dot * q[k*n+i]
					}
				}
			}
			nrm := 0.0
			for _, x := range c {
				nrm += x * x
			}
			for i := range c {
				c[i] /= math.Sqrt(nrm)
			}
		}
		return sym(func(i, j int) float64 {
			s := 0.0
			for k := 0; k < n; k++ {
				s += q[k*n+i] * lam(k) * q[k*n+j]
			}
			return s
		})
	}
	scaled := func(a []float64, s float64) []float64 {
		for i := range a {
			a[i] *= s
		}
		return a
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.Float64()*2 - 1
	}
	return map[string][]float64{
		"random":    random(),
		"identity":  sym(func(i, j int) float64 { return float64(b2i(i == j)) }),
		"zero":      make([]float64, n*n),
		"repeated":  withSpectrum(func(i int) float64 { return float64(i%3 - 1) }),
		"clustered": withSpectrum(func(i int) float64 { return 1 + 1e-9*float64(i) }),
		"rank_one":  sym(func(i, j int) float64 { return x[i] * x[j] }),
		"diag_dups": sym(func(i, j int) float64 { return float64(b2i(i == j) * (2*i%3 - 1)) }),
		"tridiag": sym(func(i, j int) float64 {
			switch j - i {
			case 0:
				return 2
			case 1:
				return -1
			}
			return 0
		}),
		// 2-by-2 blocks of order 1 and 1e-200 alternately.
		"graded": sym(func(i, j int) float64 {
			if i/2 != j/2 {
				return 0
			}
			if i/2%2 == 1 {
				return 1e-200 * float64(1+i+j)
			}
			return float64(1 + i + j)
		}),
		// D B D with D from 1e-15 to 1e15.
		"graded_wide": func() []float64 {
			a := random()
			d := func(i int) float64 { return math.Pow(10, 30*(float64(i)/float64(max(n-1, 1))-0.5)) }
			for j := 0; j < n; j++ {
				for i := 0; i < n; i++ {
					a[j*n+i] *= d(i) * d(j)
				}
			}
			return a
		}(),
		"huge":     scaled(random(), 1e200),
		"tiny":     scaled(random(), 1e-200),
		"far_tiny": scaled(random(), 1e-300),
	}
}

// TestSyevSmallQL checks syevSmallQL against the eigenproblem's defining properties at every
// order it takes (n = 1 to smallMax), in both triangles, float64 and float32, on the matrices
// of smallSpectra: eigenvalues ascending and within 30 n eps ||A|| of dsyev's, and with
// vectors ||A V - V diag(w)|| <= 30 n eps ||A|| and ||V^T V - I|| <= 30 n eps (max norms);
// the triangle not named is poisoned with NaN and must be neither read nor written, and
// without vectors a must not be written at all.
func TestSyevSmallQL(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for n := 1; n <= smallMax; n++ {
		for name, a := range smallSpectra(rng, n) {
			for _, lower := range []bool{true, false} {
				t.Run(fmt.Sprintf("n%d_%s_lower=%v", n, name, lower), func(t *testing.T) {
					checkSmallSyev(t, n, a, lower, syevSmallQL[float64], 0x1p-53)
					checkSmallSyev(t, n, a, lower, syevSmallQL[float32], 0x1p-24)
				})
			}
		}
	}
}

// checkSmallSyev runs kernel k of element type F on the symmetric n-by-n a (whose elements
// are taken to F) and checks its results as TestSyevSmallQL says, eps being F's.
func checkSmallSyev[F float32 | float64](t *testing.T, n int, a []float64, lower bool, k func(vectors, lower bool, n int, a []F, lda int, w []F) int, eps float64) {
	t.Helper()
	const lda = smallMax + 1
	af := make([]float64, n*n) // A as F holds it
	for i, x := range a {
		af[i] = float64(F(x))
	}
	anrm := 0.0
	for _, x := range af {
		anrm = math.Max(anrm, math.Abs(x))
	}
	if math.IsInf(anrm, 0) {
		return // beyond F's range
	}
	load := func() []F {
		m := make([]F, lda*n)
		for j := 0; j < n; j++ {
			for i := 0; i < lda; i++ {
				if i < n && (lower && i >= j || !lower && i <= j) {
					m[j*lda+i] = F(af[j*n+i])
				} else {
					m[j*lda+i] = F(math.NaN())
				}
			}
		}
		return m
	}
	var ref dsyevWork
	rw, ra := make([]float64, n), append([]float64(nil), af...)
	if info := ref.dsyev(false, true, n, ra, n, rw); info != 0 {
		t.Fatalf("reference dsyev: info %d", info)
	}
	tol := 30 * float64(n) * eps
	for _, vectors := range []bool{false, true} {
		m, w := load(), make([]F, n)
		if info := k(vectors, lower, n, m, lda, w); info != 0 {
			t.Fatalf("vectors=%v: info %d", vectors, info)
		}
		for i := 0; i < n; i++ {
			if i > 0 && w[i] < w[i-1] {
				t.Fatalf("vectors=%v: w not ascending: %v", vectors, w)
			}
			if d := math.Abs(float64(w[i]) - rw[i]); !(d <= tol*anrm) {
				t.Fatalf("vectors=%v: w[%d] = %g, dsyev %g: |diff| / (n eps ||A||) = %g", vectors, i, w[i], rw[i], d/(float64(n)*eps*anrm))
			}
		}
		for j := 0; j < n; j++ {
			for i := 0; i < lda; i++ {
				x := m[j*lda+i]
				inside := i < n && (lower && i >= j || !lower && i <= j)
				switch {
				case !vectors && inside && float64(x) != float64(F(af[j*n+i])):
					t.Fatalf("no vectors: a(%d, %d) written", i, j)
				case !inside && !(vectors && i < n) && x == x:
					t.Fatalf("vectors=%v: a(%d, %d) outside the matrix or the triangle written: %g", vectors, i, j, x)
				}
			}
		}
		if !vectors {
			continue
		}
		res, orth := 0.0, 0.0
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				av, vv := 0.0, 0.0
				for p := 0; p < n; p++ {
					av += af[p*n+i] * float64(m[j*lda+p])
					vv += float64(m[i*lda+p]) * float64(m[j*lda+p])
				}
				res = math.Max(res, math.Abs(av-float64(m[j*lda+i])*float64(w[j])))
				orth = math.Max(orth, math.Abs(vv-float64(b2i(i == j))))
			}
		}
		if !(res <= tol*anrm) && !(anrm == 0 && res == 0) {
			t.Errorf("||A V - V W|| / (n eps ||A||) = %g", res/(float64(n)*eps*anrm))
		}
		if !(orth <= tol) {
			t.Errorf("||V^T V - I|| / (n eps) = %g", orth/(float64(n)*eps))
		}
	}
}

// TestSyevSmallQLPair checks that syevSmallQLPair gives each of its two matrices exactly
// (bit for bit: eigenvalues, vectors, info) what syevSmallQL gives it alone, for every pair
// of smallSpectra's matrices of orders 1 to smallMax, which take different numbers of sweeps
// and split at different places, with and without vectors.
func TestSyevSmallQLPair(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 3))
	same := func(x, y []float64) bool {
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				return false
			}
		}
		return true
	}
	for n := 1; n <= smallMax; n++ {
		sp := smallSpectra(rng, n)
		for n0, a0 := range sp {
			for n1, a1 := range sp {
				for _, vectors := range []bool{false, true} {
					want0, want1 := append([]float64(nil), a0...), append([]float64(nil), a1...)
					ww0, ww1 := make([]float64, n), make([]float64, n)
					wi0 := syevSmallQL(vectors, true, n, want0, n, ww0)
					wi1 := syevSmallQL(vectors, true, n, want1, n, ww1)
					got0, got1 := append([]float64(nil), a0...), append([]float64(nil), a1...)
					gw0, gw1 := make([]float64, n), make([]float64, n)
					gi0, gi1 := syevSmallQLPair(vectors, true, n, got0, got1, n, gw0, gw1)
					if gi0 != wi0 || gi1 != wi1 || !same(gw0, ww0) || !same(gw1, ww1) || !same(got0, want0) || !same(got1, want1) {
						t.Fatalf("n = %d, %s beside %s, vectors %v: the pair differs from syevSmallQL", n, n0, n1, vectors)
					}
				}
			}
		}
	}
}
