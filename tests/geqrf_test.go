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
	for _, l := range layouts {
		t.Run(l.String(), func(t *testing.T) { checkGeqrf[T](t, q, l, RandDense[T], nil) })
	}
	// NaN and Inf in a saturating batch: those matrices give NaN, the others are right.
	t.Run("saturating_nan_inf", func(t *testing.T) {
		checkGeqrf[T](t, q, Layout{Rows: 6, Cols: 4, LDPad: 1, Batch: 1024}, RandDense[T],
			map[int]complex128{517: cmplx.NaN(), 700: complex(math.Inf(1), 0), 1023: cmplx.NaN()})
	})
	big, tiny := 1e30, 1e-30
	if Eps[T]() > 1e-10 {
		big, tiny = 1e15, 1e-15
	}
	inputs := map[string]func(*rand.Rand, int, int) Dense{
		"zero": func(_ *rand.Rand, m, n int) Dense { return NewDense(m, n) },
		"rank_deficient": func(rng *rand.Rand, m, n int) Dense {
			return Mul(RandDense[T](rng, m, 2), RandDense[T](rng, 2, n))
		},
		"big":  scaledRand[T](big),
		"tiny": scaledRand[T](tiny),
	}
	for name, gen := range inputs {
		for _, l := range RectLayouts(3, [2]int{9, 6}, [2]int{5, 8}) {
			t.Run(fmt.Sprintf("%s_%v", name, l), func(t *testing.T) { checkGeqrf[T](t, q, l, gen, nil) })
		}
	}
}

// scaledRand makes random matrices scaled by s, to probe overflow and underflow.
func scaledRand[T batchlas.Scalar](s float64) func(*rand.Rand, int, int) Dense {
	return func(rng *rand.Rand, m, n int) Dense {
		d := RandDense[T](rng, m, n)
		for i := range d.D {
			d.D[i] *= complex(s, 0)
		}
		return d
	}
}

// checkGeqrf factors matrices of layout l made by gen, with every gap poisoned and tau
// poisoned (with 3 elements past the batch's part that must stay untouched). plant maps
// matrices to a NaN or Inf put in them: each must come back with a NaN in its factor or tau.
func checkGeqrf[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, l Layout, gen func(*rand.Rand, int, int) Dense, plant map[int]complex128) {
	rng := NewRand(t)
	m, n, k := l.Rows, l.Cols, min(l.Rows, l.Cols)
	in := NewStored[T](l)
	full := make([]Dense, l.Batch)
	for b := range full {
		d := gen(rng, m, n)
		if v, ok := plant[b]; ok {
			d.Set(m/2, n-1, v)
		}
		in.SetDense(b, d)
		full[b] = in.Dense(b) // as T holds it
	}
	a := Upload(t, q, in)
	tv := UploadVector(t, q, Fill(k*l.Batch+3, NaN[T]()))
	if err := batchlas.Geqrf(q, a, tv); err != nil {
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
				t.Fatalf("matrix %d: tau[%d] not written", b, i)
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
		checkQR[T](t, b, full[b], out.Dense(b), toC128(tau[b*k:(b+1)*k]))
	}
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

// QFromReflectors is the m-by-m Q = H_1 ... H_k, k = len(tau), of LAPACK's QR storage f
// (m rows): H_i = I - tau_i v_i v_i^H, v_i(i) = 1 and v_i(i+1:m) = f(i+1:m, i).
func QFromReflectors(f Dense, tau []complex128) Dense {
	m := f.R
	qm := Identity(m)
	for i := len(tau) - 1; i >= 0; i-- {
		v := make([]complex128, m)
		v[i] = 1
		for r := i + 1; r < m; r++ {
			v[r] = f.At(r, i)
		}
		for j := 0; j < m; j++ {
			col := qm.D[j*m : (j+1)*m]
			var w complex128
			for r := i; r < m; r++ {
				w += cmplx.Conj(v[r]) * col[r]
			}
			for r := i; r < m; r++ {
				col[r] -= tau[i] * v[r] * w
			}
		}
	}
	return qm
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
