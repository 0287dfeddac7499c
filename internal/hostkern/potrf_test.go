package hostkern

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLower32 checks L L^T = A to n eps in float64 for every order, with lda > n, that the
// upper triangle and the rows past n keep their poison, and that a planted non-positive or
// NaN pivot is reported at its column with the later columns untouched.
func TestLower32(t *testing.T) {
	if !Enabled() {
		t.Skip("no AVX2 on this CPU: the kernel cannot run, and the root package's fallback is tested there")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const poison = float32(-7.25)
	if info := Lower32(0, nil, 1); info != 0 {
		t.Errorf("n=0: info %d", info)
	}
	for n := 1; n <= MaxN; n++ {
		lda := n + 3
		a, spd := make([]float32, lda*n+5), spdMatrix(rng, n)
		for i := range a {
			a[i] = poison
		}
		for j := 0; j < n; j++ {
			for i := j; i < n; i++ {
				a[i+j*lda] = float32(spd[i+j*n])
			}
		}
		if info := Lower32(n, a, lda); info != 0 {
			t.Fatalf("n=%d: info %d for a positive definite matrix", n, info)
		}
		worst := 0.0
		for j := 0; j < n; j++ {
			for i := 0; i < lda; i++ {
				if (i < j || i >= n) && a[i+j*lda] != poison {
					t.Fatalf("n=%d: a[%d,%d] = %v, outside the lower triangle", n, i, j, a[i+j*lda])
				}
			}
			for i := j; i < n; i++ {
				var s float64
				for k := 0; k <= j; k++ {
					s += float64(a[i+k*lda]) * float64(a[j+k*lda])
				}
				worst = max(worst, math.Abs(s-spd[i+j*n]))
			}
		}
		if r := worst / (float64(n) * 0x1p-23 * norm(spd)); r > 30 || math.IsNaN(r) {
			t.Errorf("n=%d: ||L L^T - A|| = %.1f n eps ||A||", n, r)
		}
		for _, bad := range []float32{-1, float32(math.NaN())} {
			j := n / 2
			for i := range spd {
				a[i%n+i/n*lda] = float32(spd[i])
			}
			a[j+j*lda] = bad
			after := append([]float32(nil), a[(j+1)*lda:]...)
			if info := Lower32(n, a, lda); info != j+1 {
				t.Errorf("n=%d, pivot %d set to %v: info %d, want %d", n, j, bad, info, j+1)
			}
			if d := a[j+j*lda]; d > 0 {
				t.Errorf("n=%d: the failed pivot is stored as %v", n, d)
			}
			for i, v := range a[(j+1)*lda:] {
				if math.Float32bits(v) != math.Float32bits(after[i]) {
					t.Fatalf("n=%d: the columns past the failed pivot changed", n)
				}
			}
		}
	}
}

// spdMatrix is a random symmetric positive definite n-by-n matrix (column-major, both
// triangles), B B^T / n + I.
func spdMatrix(rng *rand.Rand, n int) []float64 {
	b := make([]float64, n*n)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	a := make([]float64, n*n)
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			s := 0.0
			for k := 0; k < n; k++ {
				s += b[i+k*n] * b[j+k*n]
			}
			a[i+j*n] = s/float64(n) + float64(boolInt(i == j))
		}
	}
	return a
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func norm(a []float64) float64 {
	s := 0.0
	for _, v := range a {
		s += v * v
	}
	return math.Sqrt(s)
}
