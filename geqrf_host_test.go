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
		newGeqrfBlocked()(m, n, b, m, tb)
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

// BenchmarkGeqrfBlocked times geqrfBlocked against gonum's Dgelqf path (newDgeqrf) on one
// float64 matrix, side by side; min-ms is the fastest run.
func BenchmarkGeqrfBlocked(b *testing.B) {
	for _, n := range []int{128, 256, 512} {
		src := randGeneral(n)
		a, tau := make([]float64, n*n), make([]float64, n)
		for _, arm := range []struct {
			name string
			f    func(m, n int, a []float64, lda int, tau []float64)
		}{{"dgelqf", newDgeqrf()}, {"blocked", newGeqrfBlocked()}} {
			b.Run(fmt.Sprintf("n=%d/%s", n, arm.name), func(b *testing.B) {
				best := time.Duration(math.MaxInt64)
				for range b.N {
					copy(a, src)
					t0 := time.Now()
					arm.f(n, n, a, n, tau)
					best = min(best, time.Since(t0))
				}
				b.ReportMetric(float64(best.Nanoseconds())/1e6, "min-ms")
			})
		}
	}
}
