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

// BenchmarkPotrfRecursive times newPotrf's kernels (the recursive factorization on
// gemmKernel above potrfRecMin) in float64 and float32 against gonum's Dpotrf (dpotrf) on one
// matrix, side by side, lower and upper; min-ms is the fastest run (the least disturbed on a
// shared machine). The input is restored outside the timing.
func BenchmarkPotrfRecursive(b *testing.B) {
	for _, n := range []int{48, 64, 96, 128, 256, 512} {
		input := spdBatch(n, 1)
		a := make([]float64, n*n)
		a32, input32 := make([]float32, n*n), make([]float32, n*n)
		for i, v := range input {
			input32[i] = float32(v)
		}
		for _, lower := range []bool{true, false} {
			f64, f32 := newPotrf[float64](), newPotrf[float32]()
			for _, arm := range []struct {
				name    string
				restore func()
				f       func() int
			}{
				{"dpotrf", func() { copy(a, input) }, func() int { return dpotrf(lower, n, a, n) }},
				{"f64", func() { copy(a, input) }, func() int { return f64(lower, n, a, n) }},
				{"f32", func() { copy(a32, input32) }, func() int { return f32(lower, n, a32, n) }},
			} {
				b.Run(fmt.Sprintf("n=%d/lower=%v/%s", n, lower, arm.name), func(b *testing.B) {
					best := time.Duration(math.MaxInt64)
					for range b.N {
						arm.restore()
						t0 := time.Now()
						if arm.f() != 0 {
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
