package batchlas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
)

// The host backend's overhead and scaling: Potrf on a batch against a plain loop over gonum's
// Dpotrf on the same data. Both arms restore their input from a pristine copy before every
// iteration, outside the timing (the copy is serial and would hide the scaling). Run with
// -cpu 1,2.
const benchN, benchBatch = 64, 4096

func spdBatch(n, batch int) []float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	a := make([]float64, n*n*batch)
	for b := 0; b < batch; b++ {
		m := a[b*n*n : (b+1)*n*n]
		g := make([]float64, n*n)
		for i := range g {
			g[i] = 2*rng.Float64() - 1
		}
		blasImpl.Dgemm(blas.NoTrans, blas.Trans, n, n, n, 1, g, n, g, n, 0, m, n)
		for i := 0; i < n; i++ {
			m[i*n+i] += float64(n)
		}
	}
	return a
}

func BenchmarkPotrfBatch(b *testing.B) {
	input := spdBatch(benchN, benchBatch)
	q, _ := NewQueue(Host)
	defer q.Close()
	a, _ := NewMatrix[float64](q, benchN, benchN, benchBatch)
	info, _ := NewVector[int32](q, benchBatch)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		copy(a.data, input)
		b.StartTimer()
		if err := Potrf(q, Lower, a, info); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchBatch), "ns/matrix")
}

func BenchmarkPotrfGonumLoop(b *testing.B) {
	input := spdBatch(benchN, benchBatch)
	a := make([]float64, len(input))
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		copy(a, input)
		b.StartTimer()
		for k := 0; k < benchBatch; k++ {
			if !lapackImpl.Dpotrf(blas.Upper, benchN, a[k*benchN*benchN:], benchN) {
				b.Fatal("not positive definite")
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchBatch), "ns/matrix")
}

// potrfRecursive is potrfRec at every order (newDpotrf runs it above potrfRecMin only).
func potrfRecursive(lower bool) func(bool, int, []float64, int) int {
	r := potrfRec{lower: lower, gemm: gemmKernel[float64]()}
	return func(_ bool, n int, a []float64, lda int) int { return r.potrf(n, a, lda) }
}

// BenchmarkPotrfRecursive times newDpotrf's recursive factorization on gemmKernel against
// gonum's Dpotrf (dpotrf) on one matrix, side by side, lower and upper; min-ms is the fastest
// run (the least disturbed on a shared machine). The input is restored outside the timing.
func BenchmarkPotrfRecursive(b *testing.B) {
	for _, n := range []int{48, 64, 96, 128, 256, 512} {
		input := spdBatch(n, 1)
		a := make([]float64, n*n)
		for _, lower := range []bool{true, false} {
			for _, arm := range []struct {
				name string
				f    func(bool, int, []float64, int) int
			}{{"dpotrf", dpotrf}, {"recursive", potrfRecursive(lower)}} {
				b.Run(fmt.Sprintf("n=%d/lower=%v/%s", n, lower, arm.name), func(b *testing.B) {
					best := time.Duration(math.MaxInt64)
					for range b.N {
						copy(a, input)
						t0 := time.Now()
						if arm.f(lower, n, a, n) != 0 {
							b.Fatal("not positive definite")
						}
						best = min(best, time.Since(t0))
					}
					b.ReportMetric(float64(best.Nanoseconds())/1e6, "min-ms")
				})
			}
		}
	}
}
