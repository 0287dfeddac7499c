package tests

import (
	"math"
	"testing"
)

// TestScaled checks the residual ratio at its edges: an exact result is 0 even against a
// zero (or empty) reference, a nonzero residual against a zero reference fails, and NaN
// anywhere fails.
func TestScaled(t *testing.T) {
	zero, one := NewDense(2, 2), Identity(2)
	for _, c := range []struct {
		name string
		r    Dense
		ref  float64
		n    int
		want func(float64) bool
	}{
		{"exact against zero", zero, 0, 2, func(x float64) bool { return x == 0 }},
		{"empty", NewDense(0, 0), 0, 0, func(x float64) bool { return x == 0 }},
		{"residual against zero", one, 0, 2, func(x float64) bool { return x > Tol }},
		{"NaN residual", Dense{R: 1, C: 1, D: []complex128{complex(math.NaN(), 0)}}, 1, 1, func(x float64) bool { return x > Tol }},
		{"NaN reference", zero, math.NaN(), 2, func(x float64) bool { return x > Tol }},
		{"small", one, 1 / Eps[float64](), 2, func(x float64) bool { return x > 0 && x <= Tol }},
	} {
		if got := Scaled(c.r, c.ref, c.n, Eps[float64]()); !c.want(got) {
			t.Errorf("%s: Scaled = %v", c.name, got)
		}
	}
}
