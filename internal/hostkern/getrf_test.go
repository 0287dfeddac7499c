package hostkern

import (
	"math"
	"math/rand/v2"
	"testing"
)

// getf2 is the reference: partial pivoting on the first largest |a_ik| (a NaN below the
// diagonal never chosen), the column scaled by the pivot's reciprocal, the update as a
// rounded product then a subtraction. It reports false where Getrf4 must refuse.
func getf2(n int, a []float64, lda int, ipiv []int32) bool {
	for k := 0; k < n; k++ {
		p, big := k, math.Abs(a[k+k*lda])
		for i := k + 1; i < n; i++ {
			if x := math.Abs(a[i+k*lda]); x > big {
				p, big = i, x
			}
		}
		ipiv[k] = int32(p + 1)
		for c := 0; c < n; c++ {
			a[k+c*lda], a[p+c*lda] = a[p+c*lda], a[k+c*lda]
		}
		d := a[k+k*lda]
		if k == n-1 {
			return d != 0
		}
		if !(math.Abs(d) >= 0x1p-1022) {
			return false
		}
		r := 1 / d
		for i := k + 1; i < n; i++ {
			a[i+k*lda] *= r
		}
		for c := k + 1; c < n; c++ {
			u := a[k+c*lda]
			for i := k + 1; i < n; i++ {
				a[i+c*lda] -= float64(a[i+k*lda] * u)
			}
		}
	}
	return true
}

// TestGetrf4 checks every output bit against getf2 at lda > n with the rows past n
// poisoned, and that a planted zero column, NaN or tiny pivot in one lane makes Getrf4
// refuse with all four matrices and pivots untouched.
func TestGetrf4(t *testing.T) {
	if !Enabled() {
		t.Skip("no AVX2 on this CPU: the kernel cannot run, and the root package's fallback is tested there")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var s Getrf4Scratch
	for n := Getrf4MinN; n <= Getrf4MaxN; n++ {
		lda := n + 2
		for trial := 0; trial < 200; trial++ {
			var a, want [4][]float64
			var ipiv, wantPiv [4][]int32
			plant := trial % 5 // 0: none; 1: a zero column; 2: NaN; 3: a tiny last pivot's row; 4: ties
			lane := trial % 4
			ok := true
			for m := range a {
				a[m] = make([]float64, lda*n)
				for i := range a[m] {
					a[m][i] = rng.Float64()*2 - 1
					if i%lda >= n {
						a[m][i] = -99
					}
					if plant == 4 && i%lda < n {
						a[m][i] = float64(rng.IntN(3) - 1)
					}
				}
				if m == lane {
					switch plant {
					case 1:
						for i := 0; i < n; i++ {
							a[m][i+(n/2)*lda] = 0
						}
					case 2:
						a[m][n/2+(n/2)*lda] = math.NaN()
					case 3:
						for i := range a[m] {
							a[m][i] *= 0x1p-1020
						}
					}
				}
				want[m] = append([]float64(nil), a[m]...)
				ipiv[m], wantPiv[m] = make([]int32, n), make([]int32, n)
				for k := range ipiv[m] {
					ipiv[m][k] = -5
				}
				ok = getf2(n, want[m], lda, wantPiv[m]) && ok
			}
			before := a
			for m := range before {
				before[m] = append([]float64(nil), a[m]...)
			}
			got := Getrf4(n, &a, lda, &ipiv, &s)
			if got != ok {
				t.Fatalf("n=%d trial %d (plant %d): Getrf4 %v, the reference %v", n, trial, plant, got, ok)
			}
			for m := range a {
				for i, v := range a[m] {
					ref := want[m][i]
					if !ok {
						ref = before[m][i]
					}
					if math.Float64bits(v) != math.Float64bits(ref) {
						t.Fatalf("n=%d trial %d (plant %d, ok %v): matrix %d element %d = %v, want %v", n, trial, plant, ok, m, i, v, ref)
					}
				}
				for k, v := range ipiv[m] {
					ref := wantPiv[m][k]
					if !ok {
						ref = -5
					}
					if v != ref {
						t.Fatalf("n=%d trial %d: matrix %d pivot %d = %d, want %d", n, trial, m, k, v, ref)
					}
				}
			}
		}
	}
}
