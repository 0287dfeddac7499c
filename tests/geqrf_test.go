package tests

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/batchlas/batchlas"
	lapack "gonum.org/v1/gonum/lapack/gonum"
)

func TestGeqrf(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testGeqrf[float32], testGeqrf[float64], testGeqrf[complex64], testGeqrf[complex128])
	})
}

func testGeqrf[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	layouts := append(Empty(), Layout{Rows: 5, Cols: 0, Batch: 2}, Layout{Rows: 0, Cols: 4, Batch: 2})
	layouts = append(layouts, RectLayouts(5, [2]int{1, 1}, [2]int{1, 4}, [2]int{4, 1}, [2]int{2, 2},
		[2]int{7, 3}, [2]int{3, 7}, [2]int{7, 7}, [2]int{16, 16}, [2]int{33, 17}, [2]int{17, 33}, [2]int{40, 40})...)
	// The host's blocked QR (from min(m, n) = 128): panels of 32 with inner panels of 8, a
	// ragged last one, tall and wide, and either side of the threshold.
	layouts = append(layouts, Layout{Rows: 230, Cols: 170, LDPad: 1, Batch: 2}, Layout{Rows: 163, Cols: 250, StridePad: 2, Batch: 2},
		Layout{Rows: 128, Cols: 128, Batch: 2}, Layout{Rows: 140, Cols: 127, Batch: 1})
	// Very wide and very tall: "cta" cycles more columns than its block has lane groups, and
	// holds more rows than fit in registers.
	layouts = append(layouts, Layout{Rows: 8, Cols: 600, LDPad: 1, StridePad: 2, Batch: 2}, Layout{Rows: 520, Cols: 3, LDPad: 2, Batch: 2})
	layouts = append(layouts, Layout{Rows: 3, Cols: 2, Batch: 70000}) // past grid y and z's 65535
	// Batches that leave the last block part empty: "cta" packs 16-by-16 matrices four a block.
	layouts = append(layouts, Layout{Rows: 16, Cols: 16, Batch: 3}, Layout{Rows: 16, Cols: 16, LDPad: 1, Batch: 1029})
	for _, l := range layouts {
		t.Run(l.String(), func(t *testing.T) { checkGeqrf[T](t, q, l, RandDense[T], 1, nil) })
	}
	// The largest order the pinned family accepts runs right; the next one is refused.
	t.Run("limit", func(t *testing.T) {
		n := limitOrder(t, func(n int) error {
			a, tau := probeMatrix[T](q, n, n, 1), probeVector[T](q, n)
			defer a.Free()
			defer tau.Free()
			_, err := batchlas.GeqrfBufferSize(q, a, tau)
			return err
		})
		checkGeqrf[T](t, q, Layout{Rows: n, Cols: n, LDPad: 1, StridePad: 3, Batch: 2}, RandDense[T], 1, nil)
	})
	// A saturating batch of one matrix: every factor and tau the same, bit for bit.
	t.Run("identical_1024", func(t *testing.T) {
		l := Layout{Rows: 33, Cols: 17, LDPad: 1, Batch: 1024}
		d := RandDense[T](NewRand(t), l.Rows, l.Cols)
		in := NewStored[T](l)
		for b := 0; b < l.Batch; b++ {
			in.SetDense(b, d)
		}
		k := l.Cols
		a, tv := Upload(t, q, in), UploadVector(t, q, Fill(k*l.Batch, NaN[T]()))
		if err := batchlas.Geqrf(q, a, tv); routeRefused(err) {
			t.Skipf("pinned family refuses %v: %v", l, err)
		} else if err != nil {
			t.Fatalf("Geqrf: %v", err)
		}
		out, tau := Download(t, q, a, l), DownloadVector(t, q, tv)
		first := fmt.Sprint(out.Dense(0).D, tau[:k])
		for b := 1; b < l.Batch; b++ {
			if got := fmt.Sprint(out.Dense(b).D, tau[b*k:(b+1)*k]); got != first {
				t.Fatalf("matrix %d's factor or tau differs from matrix 0's", b)
			}
		}
	})
	// NaN and Inf in a saturating batch: those matrices give NaN, the others are right.
	t.Run("saturating_nan_inf", func(t *testing.T) {
		checkGeqrf[T](t, q, Layout{Rows: 6, Cols: 4, LDPad: 1, Batch: 1024}, RandDense[T], 1,
			map[int]complex128{517: cmplx.NaN(), 700: complex(math.Inf(1), 0), 1023: cmplx.NaN()})
		checkGeqrf[T](t, q, Layout{Rows: 5, Cols: 5, Batch: 64}, RandDense[T], 1,
			map[int]complex128{17: cmplx.NaN(), 40: complex(math.Inf(-1), 0), 63: cmplx.NaN()})
	})
	rankDeficient := func(rng *rand.Rand, m, n int) Dense {
		return Mul(RandDense[T](rng, m, 2), RandDense[T](rng, 2, n))
	}
	zero := func(_ *rand.Rand, m, n int) Dense { return NewDense(m, n) }
	// A subnormal first column: without LAPACK's rescaling its reflector overflows.
	subnormal := 1e-310
	if Eps[T]() > 1e-10 {
		subnormal = 1e-40
	}
	subnormalColumn := func(rng *rand.Rand, m, n int) Dense {
		d := RandDense[T](rng, m, n)
		for i := range d.D[:m] {
			d.D[i] *= complex(subnormal, 0)
		}
		return d
	}
	// Scales near overflow and underflow; the smallest makes column norms fall below
	// LAPACK's safmin/eps, where the reflector generation rescales.
	scales := []float64{1e30, 1e-30, 1e300, 1e-300}
	if Eps[T]() > 1e-10 {
		scales = []float64{1e15, 1e-15, 1e36, 1e-36}
	}
	// 6-by-6 runs the host's straight-line kernel, which hands such columns to its loops.
	for _, l := range RectLayouts(3, [2]int{9, 6}, [2]int{5, 8}, [2]int{6, 6}) {
		t.Run(fmt.Sprintf("zero_%v", l), func(t *testing.T) { checkGeqrf[T](t, q, l, zero, 1, nil) })
		t.Run(fmt.Sprintf("rank_deficient_%v", l), func(t *testing.T) { checkGeqrf[T](t, q, l, rankDeficient, 1, nil) })
		t.Run(fmt.Sprintf("subnormal_column_%v", l), func(t *testing.T) { checkGeqrf[T](t, q, l, subnormalColumn, 1, nil) })
		for _, s := range scales {
			t.Run(fmt.Sprintf("scaled%g_%v", s, l), func(t *testing.T) { checkGeqrf[T](t, q, l, RandDense[T], s, nil) })
		}
	}
}

// checkGeqrf factors matrices of layout l made by gen and multiplied by scale (the residuals
// are checked on the data and R scaled back), with every gap poisoned and tau
// poisoned (with 3 elements past the batch's part that must stay untouched). plant maps
// matrices to a NaN or Inf put in them: each must come back with a NaN in its factor or tau.
func checkGeqrf[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, l Layout, gen func(*rand.Rand, int, int) Dense, scale float64, plant map[int]complex128) {
	rng := NewRand(t)
	m, n, k := l.Rows, l.Cols, min(l.Rows, l.Cols)
	in := NewStored[T](l)
	full := make([]Dense, l.Batch)
	for b := range full {
		d := gen(rng, m, n)
		if v, ok := plant[b]; ok {
			d.Set(m/2, n-1, v)
		}
		in.SetDense(b, scaleBy(d, scale, false))
		full[b] = scaleBy(in.Dense(b), 1/scale, false) // as T holds it
	}
	a := Upload(t, q, in)
	tv := UploadVector(t, q, Fill(k*l.Batch+3, NaN[T]()))
	if err := batchlas.Geqrf(q, a, tv); routeRefused(err) {
		// Only under a pin (TestRouteEveryFamilyPinned): a family limited in size, such as
		// "cta" (the matrix in shared memory), refuses the larger shapes.
		t.Skipf("pinned family refuses %v: %v", l, err)
	} else if err != nil {
		t.Fatalf("Geqrf: %v", err)
	}
	out := Download(t, q, a, l)
	tau := DownloadVector(t, q, tv)
	Untouched(t, in, out, nil)
	for i, v := range tau[k*l.Batch:] {
		if !IsNaN(v) {
			t.Errorf("tau[%d] past the batch's part was written: %v", k*l.Batch+i, v)
		}
	}
	for b := 0; b < l.Batch; b++ {
		if _, ok := plant[b]; ok {
			if !hasNaN(out, b) && !hasNaN(Stored[T]{Layout: Layout{Rows: k, Cols: 1, Batch: 1}, S: tau[b*k : (b+1)*k]}, 0) {
				t.Errorf("matrix %d holds NaN: no NaN in its factor or tau", b)
			}
			continue
		}
		for i, v := range tau[b*k : (b+1)*k] {
			if IsNaN(v) {
				t.Fatalf("matrix %d: tau[%d] is NaN: not written, or lost to overflow", b, i)
			}
		}
	}
	check := Sample(l.Batch)
	for b := range plant {
		check = append(check, b-1, b+1)
	}
	for _, b := range check {
		if _, ok := plant[b]; ok || b < 0 || b >= l.Batch {
			continue
		}
		checkQR[T](t, b, full[b], scaleBy(out.Dense(b), 1/scale, true), toC128(tau[b*k:(b+1)*k]))
	}
}

// limitOrder is, under a pin whose family is limited in size, the largest order n up to 512
// whose call accepts answers without the pin's refusal, n+1 being refused (a bisection); it
// skips the test when the family accepts order 512.
func limitOrder(t *testing.T, accepts func(n int) error) int {
	t.Helper()
	lo, hi := 1, 512
	if err := accepts(hi); !routeRefused(err) {
		t.Skipf("order %d accepted (%v): no size limit to straddle", hi, err)
	}
	if err := accepts(lo); routeRefused(err) {
		t.Skipf("order %d refused: %v", lo, err)
	}
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; routeRefused(accepts(mid)) {
			hi = mid
		} else {
			lo = mid
		}
	}
	t.Logf("largest order accepted: %d", lo)
	return lo
}

// scaleBy returns d times s, or only its upper trapezoid times s (upper: the R of a QR
// factor, leaving the reflectors below).
func scaleBy(d Dense, s float64, upper bool) Dense {
	r := NewDense(d.R, d.C)
	for j := 0; j < d.C; j++ {
		for i := 0; i < d.R; i++ {
			v := d.At(i, j)
			if !upper || i <= j {
				v = complex(real(v)*s, imag(v)*s) // not v*s: Inf*(s+0i) has a NaN part
			}
			r.Set(i, j, v)
		}
	}
	return r
}

// checkQR checks one factorization f, tau of a: LAPACK's tau range and real diagonal of R,
// ||A - Q R|| and ||Q^H Q - I||.
func checkQR[T batchlas.Scalar](t *testing.T, b int, a, f Dense, tau []complex128) {
	t.Helper()
	m, n := a.R, a.C
	eps := Eps[T]()
	for i, v := range tau {
		if v != 0 && (real(v) < 1-4*eps || real(v) > 2+4*eps || cmplx.Abs(v-1) > 1+4*eps) {
			t.Errorf("matrix %d: tau[%d] = %v outside LAPACK's range", b, i, v)
		}
		if imag(f.At(i, i)) != 0 {
			t.Errorf("matrix %d: R(%d, %d) = %v is not real", b, i, i, f.At(i, i))
		}
	}
	qm := QFromReflectors(f, tau)
	r := Triangle(f, false, false)
	if res := Scaled(Sub(a, Mul(qm, r)), NormF(a), max(m, n), eps); res > Tol {
		t.Fatalf("matrix %d: ||A - QR|| / (n eps ||A||) = %.3g > %d", b, res, Tol)
	}
	if res := Scaled(Sub(Mul(Adjoint(qm), qm), Identity(m)), 1, m, eps); res > Tol {
		t.Fatalf("matrix %d: ||Q^H Q - I|| / (n eps) = %.3g > %d", b, res, Tol)
	}
}

func toC128[T batchlas.Scalar](x []T) []complex128 {
	z := make([]complex128, len(x))
	for i, v := range x {
		z[i] = C128(v)
	}
	return z
}

// TestGeqrfMatchesLAPACK checks LAPACK's exact convention (signs of R, reflectors and tau) on
// real data against gonum's Dgeqrf, for every dtype: zgeqrf of real data is dgeqrf's.
func TestGeqrfMatchesLAPACK(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testGeqrfLAPACK[float32], testGeqrfLAPACK[float64], testGeqrfLAPACK[complex64], testGeqrfLAPACK[complex128])
	})
}

func testGeqrfLAPACK[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	for _, s := range [][2]int{{7, 4}, {4, 7}, {50, 40}, {150, 140}, {140, 150}} {
		m, n, k := s[0], s[1], min(s[0], s[1])
		rng := NewRand(t)
		x := make([]float64, m*n) // row-major for gonum
		in := NewStored[T](Layout{Rows: m, Cols: n, Batch: 1})
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				v := From[T](complex(2*rng.Float64()-1, 0))
				in.Set(0, i, j, v)
				x[i*n+j] = real(C128(v))
			}
		}
		want := make([]float64, k)
		work := make([]float64, n*64)
		lapack.Implementation{}.Dgeqrf(m, n, x, n, want, work, len(work))
		a := Upload(t, q, in)
		tv := UploadVector(t, q, Fill(k, NaN[T]()))
		if err := batchlas.Geqrf(q, a, tv); err != nil {
			t.Fatal(err)
		}
		out := Download(t, q, a, in.Layout)
		tau := DownloadVector(t, q, tv)
		tol := Tol * float64(max(m, n)) * Eps[T]()
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				if d := cmplx.Abs(C128(out.At(0, i, j)) - complex(x[i*n+j], 0)); d > tol*math.Sqrt(float64(n)) {
					t.Fatalf("%dx%d: factor (%d, %d) = %v, Dgeqrf gives %v", m, n, i, j, out.At(0, i, j), x[i*n+j])
				}
			}
		}
		for i := range tau {
			if d := cmplx.Abs(C128(tau[i]) - complex(want[i], 0)); d > tol {
				t.Fatalf("%dx%d: tau[%d] = %v, Dgeqrf gives %v", m, n, i, tau[i], want[i])
			}
		}
	}
}
