package batchlas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkSmallHost times the small-matrix host kernels (the straight-line potrfUnrolled,
// getrfUnrolled and geqrfUnrolled, and the loops getrfSmall and geqrfSmall) against the
// library kernels they replace at n <= smallMax (dpotrf, getf2, gonum's Dgelqf; syevSmall's
// Jacobi and syevSmallQL against dsyev, with vectors), on one goroutine over a batch of float64 matrices, side by side in one
// process: go test -run - -bench SmallHost -count 5. A pass copies the batch from pristine
// input and factors every matrix; min-ns/matrix is the fastest pass (the least disturbed on
// a shared machine), and includes the copy, the same for both arms.
func BenchmarkSmallHost(b *testing.B) {
	const batch = 1024
	for _, n := range []int{2, 3, 4, 8} {
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		spd, gen := make([]float64, batch*n*n), make([]float64, batch*n*n)
		for i := 0; i < batch; i++ {
			a, s := gen[i*n*n:(i+1)*n*n], spd[i*n*n:(i+1)*n*n]
			for j := range a {
				a[j] = rng.Float64()*2 - 1
			}
			// S = A^T A + n I, symmetric positive definite.
			for c := 0; c < n; c++ {
				for r := 0; r < n; r++ {
					for k := 0; k < n; k++ {
						s[c*n+r] += a[r*n+k] * a[c*n+k]
					}
				}
				s[c*n+c] += float64(n)
			}
		}
		work, ipiv, tau := make([]float64, batch*n*n), make([]int32, batch*n), make([]float64, batch*n)
		var dsyev dsyevWork
		dgeqrf := newDgeqrf()
		potrf, getrf, geqrf := potrfUnrolled[float64](n), getrfUnrolled[float64](n), geqrfUnrolled[float64](n)
		syev := syevUnrolled[float64](min(n, syevHostJacobiMax))
		arms := []struct {
			op, arm string
			in      []float64
			f       func(a []float64, i int)
		}{
			{"potrf", "dpotrf", spd, func(a []float64, _ int) { dpotrf(true, n, a, n) }},
			{"potrf", "unrolled", spd, func(a []float64, _ int) { potrf(true, a, n) }},
			{"getrf", "getf2", gen, func(a []float64, i int) { getf2(n, n, a, n, ipiv[i*n:(i+1)*n]) }},
			{"getrf", "loops", gen, func(a []float64, i int) { getrfSmall(n, n, a, n, ipiv[i*n:(i+1)*n]) }},
			{"getrf", "unrolled", gen, func(a []float64, i int) { getrf(a, n, ipiv[i*n:(i+1)*n]) }},
			{"geqrf", "dgelqf", gen, func(a []float64, i int) { dgeqrf(n, n, a, n, tau[i*n:(i+1)*n]) }},
			{"geqrf", "loops", gen, func(a []float64, i int) { geqrfSmall(n, n, a, n, tau[i*n:(i+1)*n]) }},
			{"geqrf", "unrolled", gen, func(a []float64, i int) { geqrf(a, n, tau[i*n:(i+1)*n]) }},
			{"syev", "dsyev", spd, func(a []float64, i int) {
				dsyev.dsyev(true, true, n, a, n, tau[i*n:(i+1)*n])
				transposeSquare(n, a, n)
			}},
			{"syev", "jacobi", spd, func(a []float64, i int) {
				if n <= syevHostJacobiMax {
					syev(true, true, a, n, tau[i*n:(i+1)*n])
				}
			}},
			{"syev", "ql", spd, func(a []float64, i int) { syevSmallQL(true, true, n, a, n, tau[i*n:(i+1)*n]) }},
		}
		for _, a := range arms {
			b.Run(fmt.Sprintf("%s/n=%d/%s", a.op, n, a.arm), func(b *testing.B) {
				best := time.Duration(math.MaxInt64)
				for range b.N {
					t0 := time.Now()
					copy(work, a.in)
					for i := 0; i < batch; i++ {
						a.f(work[i*n*n:(i+1)*n*n], i)
					}
					best = min(best, time.Since(t0))
				}
				b.ReportMetric(float64(best.Nanoseconds())/batch, "min-ns/matrix")
			})
		}
	}
}
