package tests

import (
	"fmt"
	"math"
	"testing"

	"github.com/batchlas/batchlas"
)

func TestGesvd(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testGesvd[float32, float32], testGesvd[float64, float64],
			testGesvd[complex64, float32], testGesvd[complex128, float64])
	})
}

var svdJobs = []batchlas.SVDJob{batchlas.SVDNone, batchlas.SVDThin, batchlas.SVDAll}

// svdLayouts lists the empty shapes, and tall, square and wide ones, each packed, with
// ld > rows, with stride > ld*cols, and alone.
func svdLayouts() []Layout {
	ls := []Layout{{Rows: 0, Cols: 0, Batch: 3}, {Rows: 4, Cols: 3, Batch: 0}, {Rows: 0, Cols: 3, Batch: 2}, {Rows: 3, Cols: 0, Batch: 2}}
	for _, mn := range [][2]int{{1, 1}, {1, 5}, {5, 1}, {2, 2}, {3, 3}, {7, 4}, {4, 7}, {16, 16}, {33, 17}, {17, 33}} {
		m, n := mn[0], mn[1]
		ls = append(ls, Layout{Rows: m, Cols: n, Batch: 4}, Layout{Rows: m, Cols: n, LDPad: 3, Batch: 3},
			Layout{Rows: m, Cols: n, LDPad: 1, StridePad: 5, Batch: 3}, Layout{Rows: m, Cols: n, Batch: 1})
	}
	return ls
}

func testGesvd[T batchlas.Scalar, R batchlas.Real](t *testing.T, q *batchlas.Queue) {
	// Every job pair on the same data: the singular values must agree across jobs.
	for _, l := range svdLayouts() {
		t.Run(l.String(), func(t *testing.T) {
			in := randStored[T](t, l, nil)
			var ref []float64
			for _, ju := range svdJobs {
				for _, jv := range svdJobs {
					s := checkGesvd[T, R](t, q, ju, jv, in, nil)
					if ref == nil {
						ref = s
						continue
					}
					sameSingular(t, in, ref, s, fmt.Sprintf("jobs %v%v against NN", ju, jv))
				}
			}
		})
	}
	special := []struct {
		name string
		make func(b int, d Dense) Dense
	}{
		{"zero", func(_ int, d Dense) Dense { return NewDense(d.R, d.C) }},
		{"rank-deficient", lowRank},
	}
	for _, l := range []Layout{{Rows: 9, Cols: 6, LDPad: 2, Batch: 3}, {Rows: 6, Cols: 9, Batch: 3}, {Rows: 8, Cols: 8, StridePad: 3, Batch: 2}} {
		for _, sp := range special {
			t.Run(sp.name+"_"+l.String(), func(t *testing.T) {
				in := randStored[T](t, l, sp.make)
				for _, jobs := range [][2]batchlas.SVDJob{{batchlas.SVDAll, batchlas.SVDAll}, {batchlas.SVDThin, batchlas.SVDThin}, {batchlas.SVDNone, batchlas.SVDNone}} {
					s := checkGesvd[T, R](t, q, jobs[0], jobs[1], in, nil)
					checkSmallSingular(t, in, s, sp.name == "zero")
				}
			})
		}
		// Nearly diagonal with a positive diagonal: each Householder vector's head nearly
		// equals the column's norm, so the reflector must take beta of the sign opposite to
		// it, or v's scaling cancels catastrophically.
		t.Run("near-diagonal_"+l.String(), func(t *testing.T) {
			in := randStored[T](t, l, func(_ int, d Dense) Dense {
				for i := range d.D {
					d.D[i] *= 1e-6
				}
				for i := 0; i < min(d.R, d.C); i++ {
					d.Set(i, i, d.At(i, i)+complex(float64(1+i), 0))
				}
				return d
			})
			for _, jobs := range [][2]batchlas.SVDJob{{batchlas.SVDAll, batchlas.SVDAll}, {batchlas.SVDThin, batchlas.SVDThin}} {
				checkGesvd[T, R](t, q, jobs[0], jobs[1], in, nil)
			}
		})
		// Near overflow and underflow: the singular values scale with the matrix.
		t.Run("scaled_"+l.String(), func(t *testing.T) {
			in := randStored[T](t, l, nil)
			ref := checkGesvd[T, R](t, q, batchlas.SVDNone, batchlas.SVDNone, in, nil)
			big := 1e30
			if Eps[T]() > 1e-10 {
				big = 1e15
			}
			for _, c := range []float64{big, 1 / big} {
				sc := randStored[T](t, l, func(b int, _ Dense) Dense {
					d := in.Dense(b)
					for i := range d.D {
						d.D[i] *= complex(c, 0)
					}
					return d
				})
				for _, jobs := range [][2]batchlas.SVDJob{{batchlas.SVDAll, batchlas.SVDThin}, {batchlas.SVDNone, batchlas.SVDNone}} {
					s := checkGesvd[T, R](t, q, jobs[0], jobs[1], sc, nil)
					sameSingular(t, sc, scaleAll(ref, c), s, fmt.Sprintf("A scaled by %g", c))
				}
			}
		})
	}
	// A saturating batch of small matrices, with a NaN and an Inf matrix planted in the
	// middle; tall and wide, so that both paths meet them.
	for _, l := range []Layout{{Rows: 5, Cols: 3, LDPad: 1, Batch: 1024}, {Rows: 3, Cols: 4, Batch: 1024}} {
		t.Run("planted_"+l.String(), func(t *testing.T) {
			plant := map[int]bool{517: true, 518: true}
			in := randStored[T](t, l, func(b int, d Dense) Dense {
				switch b {
				case 517:
					d.Set(d.R-1, d.C/2, complex(math.NaN(), 0))
				case 518:
					d.Set(0, d.C-1, complex(math.Inf(-1), 0))
				}
				return d
			})
			for _, jobs := range [][2]batchlas.SVDJob{{batchlas.SVDThin, batchlas.SVDAll}, {batchlas.SVDAll, batchlas.SVDNone}, {batchlas.SVDNone, batchlas.SVDNone}} {
				checkGesvd[T, R](t, q, jobs[0], jobs[1], in, plant)
			}
		})
	}
}

// randStored returns a batch of layout l with NaN in every gap and, inside, random values,
// or what f makes of them.
func randStored[T batchlas.Scalar](t *testing.T, l Layout, f func(b int, d Dense) Dense) Stored[T] {
	rng := NewRand(t)
	in := NewStored[T](l)
	for b := 0; b < l.Batch; b++ {
		d := RandDense[T](rng, l.Rows, l.Cols)
		if f != nil {
			d = f(b, d)
		}
		in.SetDense(b, d)
	}
	return in
}

// lowRank replaces d by a matrix of rank min(m, n) - 2 (at least 1).
func lowRank(b int, d Dense) Dense {
	r := max(1, min(d.R, d.C)-2)
	x, y := NewDense(d.R, r), NewDense(r, d.C)
	copy(x.D, d.D[:d.R*r])
	for j := 0; j < d.C; j++ {
		for i := 0; i < r; i++ {
			y.Set(i, j, d.At((i+j+b)%d.R, j))
		}
	}
	return Mul(x, y)
}

// svdDim is the free dimension of a factor: all for SVDAll, k for SVDThin, 0 for SVDNone.
func svdDim(job batchlas.SVDJob, all, k int) int {
	switch job {
	case batchlas.SVDAll:
		return all
	case batchlas.SVDThin:
		return k
	}
	return 0
}

// checkGesvd decomposes the batch in with the given jobs, every output poisoned, and checks
// the results of the sampled matrices, of every planted one (it must give a nonzero info or
// NaN singular values) and of their neighbours. It returns the singular values.
func checkGesvd[T batchlas.Scalar, R batchlas.Real](t *testing.T, q *batchlas.Queue, ju, jv batchlas.SVDJob, in Stored[T], plant map[int]bool) []float64 {
	t.Helper()
	l := in.Layout
	m, n, k := l.Rows, l.Cols, min(l.Rows, l.Cols)
	a := Upload(t, q, in)
	u0 := NewStored[T](Layout{Rows: m, Cols: svdDim(ju, m, k), LDPad: l.LDPad, StridePad: l.StridePad, Batch: l.Batch})
	v0 := NewStored[T](Layout{Rows: svdDim(jv, n, k), Cols: n, LDPad: l.LDPad, StridePad: l.StridePad, Batch: l.Batch})
	// An unreferenced factor is nil, or for an odd batch a poisoned matrix that must stay
	// as it is.
	spare := NewStored[T](Layout{Rows: 2, Cols: 2, Batch: 1})
	factor := func(job batchlas.SVDJob, s Stored[T]) *batchlas.Matrix[T] {
		switch {
		case job != batchlas.SVDNone:
			return Upload(t, q, s)
		case l.Batch%2 == 1:
			return Upload(t, q, spare)
		}
		return nil
	}
	u, vt := factor(ju, u0), factor(jv, v0)
	s := UploadVector(t, q, Fill(k*l.Batch+2, R(math.NaN())))
	info := PoisonedInfo(t, q, l.Batch+1)
	if err := batchlas.Gesvd(q, ju, jv, a, s, u, vt, info); routeRefused(err) {
		// Only under a pin (TestRouteEveryFamilyPinned): jacobi:qr=0 refuses what its shared
		// memory cannot hold, jacobi:qr=1 square matrices.
		t.Skipf("pinned family refuses %v%v %v: %v", ju, jv, l, err)
	} else if err != nil {
		t.Fatalf("Gesvd(%v, %v, %v): %v", ju, jv, l, err)
	}
	Untouched(t, in, Download(t, q, a, l), func(b, i, j int) bool { return true })
	sv, iv := DownloadVector(t, q, s), DownloadVector(t, q, info)
	if !math.IsNaN(float64(sv[k*l.Batch])) || !math.IsNaN(float64(sv[k*l.Batch+1])) || iv[l.Batch] != Poison {
		t.Errorf("Gesvd wrote past the ends of s or info")
	}
	outs := map[string]Stored[T]{}
	for name, f := range map[string]struct {
		job batchlas.SVDJob
		m   *batchlas.Matrix[T]
		s0  Stored[T]
	}{"u": {ju, u, u0}, "vt": {jv, vt, v0}} {
		switch {
		case f.job != batchlas.SVDNone:
			out := Download(t, q, f.m, f.s0.Layout)
			Untouched(t, f.s0, out, func(b, i, j int) bool { return true })
			outs[name] = out
		case f.m != nil:
			Untouched(t, spare, Download(t, q, f.m, spare.Layout), nil)
		}
	}
	check := map[int]bool{}
	for _, b := range Sample(l.Batch) {
		check[b] = true
	}
	for b := range plant {
		check[b-1], check[b], check[b+1] = true, true, true
	}
	for b, v := range iv[:l.Batch] {
		if v != 0 && !plant[b] {
			t.Errorf("%v%v %v: matrix %d: info %d, want 0", ju, jv, l, b, v)
		}
	}
	sf := make([]float64, k*l.Batch)
	for i, v := range sv[:len(sf)] {
		sf[i] = float64(v)
	}
	for b := range check {
		if b < 0 || b >= l.Batch {
			continue
		}
		sb := sf[b*k : (b+1)*k]
		if plant[b] {
			if iv[b] == 0 && !anyNaN(sb) {
				t.Errorf("%v%v %v: matrix %d holds NaN or Inf: info 0 and finite singular values %v", ju, jv, l, b, sb)
			}
			continue
		}
		checkSVD(t, fmt.Sprintf("%v%v %v matrix %d", ju, jv, l, b), in.Dense(b), sb, denseOf(outs, "u", b), denseOf(outs, "vt", b), Eps[T]())
	}
	return sf
}

func denseOf[T batchlas.Scalar](outs map[string]Stored[T], name string, b int) *Dense {
	s, ok := outs[name]
	if !ok {
		return nil
	}
	d := s.Dense(b)
	return &d
}

func anyNaN(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) {
			return true
		}
	}
	return false
}

// checkSVD checks one decomposition A = U S V^H, u and vt nil when not computed: s
// descending and nonnegative, U and V^H orthonormal, the residual when both are there, and
// otherwise ||U_i^H A|| = s_i and ||A V_i|| = s_i for each computed vector.
func checkSVD(t *testing.T, what string, a Dense, s []float64, u, vt *Dense, eps float64) {
	t.Helper()
	m, n, k := a.R, a.C, len(s)
	mn := max(m, n)
	na := NormF(a)
	for i, v := range s {
		if !(v >= 0) || (i > 0 && v > s[i-1]) {
			t.Fatalf("%s: singular values %v not descending and nonnegative", what, s)
		}
	}
	if u != nil {
		if r := Scaled(Sub(Mul(Adjoint(*u), *u), Identity(u.C)), 1, mn, eps); r > Tol {
			t.Fatalf("%s: ||U^H U - I|| / (n eps) = %.3g > %d", what, r, Tol)
		}
	}
	if vt != nil {
		if r := Scaled(Sub(Mul(*vt, Adjoint(*vt)), Identity(vt.R)), 1, mn, eps); r > Tol {
			t.Fatalf("%s: ||V^H V - I|| / (n eps) = %.3g > %d", what, r, Tol)
		}
	}
	uk, vk := firstCols(u, k), firstCols(ptrAdjoint(vt), k)
	if uk != nil && vk != nil {
		us := NewDense(m, k)
		for j := 0; j < k; j++ {
			for i := 0; i < m; i++ {
				us.Set(i, j, uk.At(i, j)*complex(s[j], 0))
			}
		}
		if r := Scaled(Sub(a, Mul(us, Adjoint(*vk))), na, mn, eps); r > Tol {
			t.Fatalf("%s: ||A - U S V^H|| / (max(m,n) eps ||A||) = %.3g > %d", what, r, Tol)
		}
		return
	}
	// One factor: each computed singular vector must carry its singular value.
	var norms []float64
	if uk != nil {
		norms = colNorms(Mul(Adjoint(a), *uk))
	} else if vk != nil {
		norms = colNorms(Mul(a, *vk))
	}
	for i, v := range norms {
		if d := math.Abs(v - s[i]); d > Tol*float64(mn)*eps*na {
			t.Fatalf("%s: singular vector %d carries %g, singular value %g", what, i, v, s[i])
		}
	}
}

func ptrAdjoint(d *Dense) *Dense {
	if d == nil {
		return nil
	}
	a := Adjoint(*d)
	return &a
}

// firstCols is the first c columns of d, or nil.
func firstCols(d *Dense, c int) *Dense {
	if d == nil {
		return nil
	}
	f := Dense{R: d.R, C: c, D: d.D[:d.R*c]}
	return &f
}

func colNorms(d Dense) []float64 {
	x := make([]float64, d.C)
	for j := range x {
		x[j] = NormF(Dense{R: d.R, C: 1, D: d.D[j*d.R : (j+1)*d.R]})
	}
	return x
}

// sameSingular checks that got matches want, computed for the same matrices, within
// max(m,n) eps ||A|| per matrix.
func sameSingular[T batchlas.Scalar](t *testing.T, in Stored[T], want, got []float64, what string) {
	t.Helper()
	k := min(in.Rows, in.Cols)
	for b := 0; b < in.Batch; b++ {
		tol := Tol * float64(max(in.Rows, in.Cols)) * Eps[T]() * NormF(in.Dense(b))
		for i := b * k; i < (b+1)*k; i++ {
			if d := math.Abs(want[i] - got[i]); !(d <= tol) {
				t.Fatalf("%s: matrix %d: singular value %d is %g, want %g", what, b, i-b*k, got[i], want[i])
			}
		}
	}
}

// checkSmallSingular checks the singular values that must vanish: all of them for the zero
// matrix (exactly), the trailing two (see lowRank) otherwise.
func checkSmallSingular[T batchlas.Scalar](t *testing.T, in Stored[T], s []float64, zero bool) {
	t.Helper()
	k := min(in.Rows, in.Cols)
	for b := 0; b < in.Batch; b++ {
		sb := s[b*k : (b+1)*k]
		from := max(1, k-2)
		if zero {
			from = 0
		}
		tol := Tol * float64(max(in.Rows, in.Cols)) * Eps[T]() * NormF(in.Dense(b))
		for i := from; i < k; i++ {
			if sb[i] > tol || (zero && sb[i] != 0) {
				t.Fatalf("matrix %d: singular value %d is %g; the matrix has rank %d", b, i, sb[i], from)
			}
		}
	}
}

func scaleAll(x []float64, c float64) []float64 {
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = v * c
	}
	return y
}
