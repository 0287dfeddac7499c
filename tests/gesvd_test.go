package tests

import (
	"fmt"
	"math"
	"math/cmplx"
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
	for _, l := range []Layout{{Rows: 9, Cols: 6, LDPad: 2, Batch: 3}, {Rows: 6, Cols: 9, Batch: 3}, {Rows: 8, Cols: 8, StridePad: 3, Batch: 2}} {
		testGesvdSpecials[T, R](t, q, l)
	}
	// jacobi:qr=0's limit for an m-by-8 matrix with V (its W and V in the 227 KB of shared
	// memory a block of an H200, and of the emulator), and one row more, where jacobi:qr=1
	// takes over; V alone, so that no m-by-m U is formed.
	var lim int
	switch any(*new(T)).(type) {
	case float32:
		lim = 5271
	case float64:
		lim = 2631
	case complex64:
		lim = 2758
	case complex128:
		lim = 1375
	}
	for _, m := range []int{lim, lim + 1} {
		l := Layout{Rows: m, Cols: 8, LDPad: 1, Batch: 1}
		t.Run("limit_"+l.String(), func(t *testing.T) {
			checkGesvd[T, R](t, q, batchlas.SVDNone, batchlas.SVDAll, randStored[T](t, l, nil), nil)
		})
	}
	// One past jacobi:qr=0's square limit with U and V (84 in complex128), where the blocked
	// family takes over; one dtype alone, for the emulator's time.
	if _, ok := any(*new(T)).(complex128); ok {
		l := Layout{Rows: 85, Cols: 85, LDPad: 1, Batch: 1}
		t.Run("square-limit_"+l.String(), func(t *testing.T) {
			checkGesvd[T, R](t, q, batchlas.SVDAll, batchlas.SVDAll, randStored[T](t, l, nil), nil)
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

// testGesvdSpecials runs gesvd on matrices of layout l with known rank or singular values
// (zero, rank-deficient, rank n/2, rank one, identity, repeated, and in double precision
// columns graded from 1e-30 to 1e30), nearly diagonal ones, and ones scaled near overflow
// and underflow, on whatever family the queue picks or the test pins.
func testGesvdSpecials[T batchlas.Scalar, R batchlas.Real](t *testing.T, q *batchlas.Queue, l Layout) {
	// Matrices of known rank or known singular values: rank(k) is the rank (the singular
	// values past it must vanish, exactly for the zero matrix), want(k) the singular values.
	type special struct {
		name string
		make func(b int, d Dense) Dense
		rank func(k int) int
		want func(k int) []float64
	}
	specials := []special{
		{name: "zero", make: func(_ int, d Dense) Dense { return NewDense(d.R, d.C) }, rank: func(int) int { return 0 }},
		{name: "rank-deficient", make: lowRank(func(k int) int { return k - 2 }), rank: func(k int) int { return max(1, k-2) }},
		{name: "rank-half", make: lowRank(func(k int) int { return k / 2 }), rank: func(k int) int { return max(1, k/2) }},
		{name: "rank-one", make: lowRank(func(int) int { return 1 }), rank: func(int) int { return 1 }},
		{name: "identity", make: func(_ int, d Dense) Dense { return planted(d, nil, nil, ones(min(d.R, d.C))) }, want: ones},
		{name: "repeated", make: func(_ int, d Dense) Dense { return planted(d, d.D, d.D[1:], repeated(min(d.R, d.C))) }, want: repeated},
	}
	if Eps[T]() < 1e-10 {
		// Columns graded from 1e-30 to 1e30: the small ones must not be lost to the large.
		specials = append(specials, special{name: "graded", make: graded})
	}
	for _, sp := range specials {
		t.Run(sp.name+"_"+l.String(), func(t *testing.T) {
			in := randStored[T](t, l, sp.make)
			k := min(l.Rows, l.Cols)
			for _, jobs := range [][2]batchlas.SVDJob{{batchlas.SVDAll, batchlas.SVDAll}, {batchlas.SVDThin, batchlas.SVDThin}, {batchlas.SVDNone, batchlas.SVDNone}} {
				s := checkGesvd[T, R](t, q, jobs[0], jobs[1], in, nil)
				if sp.rank != nil {
					checkSmallSingular(t, in, s, sp.rank(k))
				}
				if sp.want != nil {
					sameSingular(t, in, tile(sp.want(k), l.Batch), s, "planted singular values")
				}
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

// lowRank returns a maker that replaces d by a matrix of rank max(1, rank(min(m, n))):
// the product of d's first columns and a matrix of rows of d.
func lowRank(rank func(k int) int) func(b int, d Dense) Dense {
	return func(b int, d Dense) Dense {
		r := max(1, rank(min(d.R, d.C)))
		x, y := NewDense(d.R, r), NewDense(r, d.C)
		copy(x.D, d.D[:d.R*r])
		for j := 0; j < d.C; j++ {
			for i := 0; i < r; i++ {
				y.Set(i, j, d.At((i+j+b)%d.R, j))
			}
		}
		return Mul(x, y)
	}
}

// planted is H_u S H_v, S of d's shape with the singular values sv on its diagonal and H_x
// the Householder reflector I - 2 x x^H / (x^H x) of x's first m (or n) entries, or the
// identity for nil: a matrix whose singular values are sv.
func planted(d Dense, u, v []complex128, sv []float64) Dense {
	s := NewDense(d.R, d.C)
	for i, x := range sv {
		s.Set(i, i, complex(x, 0))
	}
	return Mul(Mul(reflector(u, d.R), s), reflector(v, d.C))
}

func reflector(x []complex128, n int) Dense {
	h := Identity(n)
	if x == nil {
		return h
	}
	var xx float64
	for _, v := range x[:n] {
		xx += real(v)*real(v) + imag(v)*imag(v)
	}
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			h.Set(i, j, h.At(i, j)-complex(2/xx, 0)*x[i]*cmplx.Conj(x[j]))
		}
	}
	return h
}

func ones(k int) []float64 {
	s := make([]float64, k)
	for i := range s {
		s[i] = 1
	}
	return s
}

// repeated is k singular values in descending runs of three: ..., 2, 2, 2, 1, 1, 1.
func repeated(k int) []float64 {
	s := make([]float64, k)
	for i := range s {
		s[i] = float64((k+2)/3 - i/3)
	}
	return s
}

// graded scales column j of d by 10^(60 j/(n-1) - 30).
func graded(_ int, d Dense) Dense {
	for j := 0; j < d.C; j++ {
		c := complex(math.Pow(10, 60*float64(j)/float64(max(1, d.C-1))-30), 0)
		for i := 0; i < d.R; i++ {
			d.Set(i, j, d.At(i, j)*c)
		}
	}
	return d
}

// tile repeats x for each of batch matrices.
func tile(x []float64, batch int) []float64 {
	var y []float64
	for b := 0; b < batch; b++ {
		y = append(y, x...)
	}
	return y
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

// checkSmallSingular checks the singular values that must vanish for a matrix of the given
// rank: exactly for rank 0 (the zero matrix), else within max(m,n) eps ||A||.
func checkSmallSingular[T batchlas.Scalar](t *testing.T, in Stored[T], s []float64, rank int) {
	t.Helper()
	k := min(in.Rows, in.Cols)
	for b := 0; b < in.Batch; b++ {
		sb := s[b*k : (b+1)*k]
		tol := Tol * float64(max(in.Rows, in.Cols)) * Eps[T]() * NormF(in.Dense(b))
		for i := rank; i < k; i++ {
			if sb[i] > tol || (rank == 0 && sb[i] != 0) {
				t.Fatalf("matrix %d: singular value %d is %g; the matrix has rank %d", b, i, sb[i], rank)
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
