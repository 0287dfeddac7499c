package batchlas

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"
)

// TestGeqrfBlockedMatchesDgelqf checks that the blocked QR gives gonum's factors and tau (the
// same reflectors, to rounding) on a tall, a wide and a square matrix with a ragged last
// panel.
func TestGeqrfBlockedMatchesDgelqf(t *testing.T) {
	for _, s := range [][2]int{{150, 100}, {100, 150}, {131, 131}} {
		m, n := s[0], s[1]
		src := randGeneral(max(m, n))[:m*n]
		a, b := slices.Clone(src), slices.Clone(src)
		k := min(m, n)
		ta, tb := make([]float64, k), make([]float64, k)
		newDgeqrf()(m, n, a, m, ta)
		newGeqrfBlocked[float64]()(m, n, b, m, tb)
		for i := range a {
			if d := math.Abs(a[i] - b[i]); d > 1e-12*float64(k) {
				t.Fatalf("%dx%d: factor element %d differs by %g", m, n, i, d)
			}
		}
		for i := range ta {
			if d := math.Abs(ta[i] - tb[i]); d > 1e-12*float64(k) {
				t.Fatalf("%dx%d: tau[%d] differs by %g", m, n, i, d)
			}
		}
	}
}

// BenchmarkGeqrfBlocked times geqrfBlocked in float64 and float32 against gonum's Dgelqf
// path (newDgeqrf, and for float32 on a float64 copy as geqrfKernel runs it below
// geqrfBlockedMin) on one matrix, side by side; min-ms is the fastest run.
func BenchmarkGeqrfBlocked(b *testing.B) {
	for _, n := range []int{128, 256, 512} {
		src := randGeneral(n)
		a, tau := make([]float64, n*n), make([]float64, n)
		src32, a32, tau32 := make([]float32, n*n), make([]float32, n*n), make([]float32, n)
		for i, v := range src {
			src32[i] = float32(v)
		}
		f64 := func(f func(m, n int, a []float64, lda int, tau []float64)) func() {
			return func() { copy(a, src); f(n, n, a, n, tau) }
		}
		f32 := func(f func(m, n int, a []float32, lda int, tau []float32)) func() {
			return func() { copy(a32, src32); f(n, n, a32, n, tau32) }
		}
		for _, arm := range []struct {
			name string
			f    func()
		}{
			{"dgelqf", f64(newDgeqrf())},
			{"blocked", f64(newGeqrfBlocked[float64]())},
			{"f32/dgelqf", f32(qrWidened[float32](true, newDgeqrf)())},
			{"f32/blocked", f32(newGeqrfBlocked[float32]())},
		} {
			b.Run(fmt.Sprintf("n=%d/%s", n, arm.name), func(b *testing.B) {
				best := time.Duration(math.MaxInt64)
				for range b.N {
					t0 := time.Now()
					arm.f()
					best = min(best, time.Since(t0))
				}
				b.ReportMetric(float64(best.Nanoseconds())/1e6, "min-ms")
			})
		}
	}
}
