package tests

import (
	"errors"
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/batchlas/batchlas"
)

func TestOrgqr(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testOrgqr[float32], testOrgqr[float64], testOrgqr[complex64], testOrgqr[complex128])
	})
}

func testOrgqr[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	type tc struct {
		l Layout
		k int
	}
	cases := []tc{
		{Layout{Rows: 0, Cols: 0, Batch: 3}, 0}, {Layout{Rows: 4, Cols: 0, Batch: 2}, 0},
		{Layout{Rows: 4, Cols: 3, Batch: 0}, 3}, {Layout{Rows: 5, Cols: 3, LDPad: 1, Batch: 2}, 0},
	}
	for _, s := range [][3]int{{1, 1, 1}, {4, 1, 1}, {2, 2, 2}, {5, 3, 3}, {5, 3, 1}, {7, 7, 7}, {7, 7, 4}, {16, 16, 16}, {33, 17, 17}, {33, 17, 9}, {100, 100, 60}} {
		for _, l := range RectLayouts(5, [2]int{s[0], s[1]}) {
			cases = append(cases, tc{l, s[2]})
		}
	}
	// Batches that leave the last block part empty: "cta" packs 16-by-16 matrices four a block.
	cases = append(cases, tc{Layout{Rows: 16, Cols: 16, Batch: 3}, 16}, tc{Layout{Rows: 16, Cols: 16, LDPad: 1, Batch: 1029}, 16})
	for _, c := range cases {
		t.Run(fmt.Sprintf("%v_k%d", c.l, c.k), func(t *testing.T) { checkOrgqr[T](t, q, c.l, c.k, RandDense[T], nil) })
	}
	// More than 128 reflectors take gonum's blocked Dorglq for float64. Past what "cta"
	// holds for complex128 the "blocked" family runs panels of 32 columns: two panels
	// (n = 33), and k < n, with panels that have fewer reflectors than columns, or none.
	for _, s := range [][3]int{{150, 140, 140}, {150, 140, 100}, {70, 65, 20}, {40, 33, 33}} {
		l := Layout{Rows: s[0], Cols: s[1], LDPad: 1, StridePad: 3, Batch: 2}
		t.Run(fmt.Sprintf("blocked_%v_k%d", l, s[2]), func(t *testing.T) { checkOrgqr[T](t, q, l, s[2], RandDense[T], nil) })
	}
	t.Run("limit", func(t *testing.T) {
		n := limitOrder(t, func(n int) error {
			a, tau := probeMatrix[T](q, n, n, 1), probeVector[T](q, n)
			defer a.Free()
			defer tau.Free()
			_, err := batchlas.OrgqrBufferSize(q, n, a, tau)
			return err
		})
		checkOrgqr[T](t, q, Layout{Rows: n, Cols: n, LDPad: 1, StridePad: 3, Batch: 2}, n, RandDense[T], nil)
	})
	t.Run("tall", func(t *testing.T) { // more rows than "cta" holds in registers
		checkOrgqr[T](t, q, Layout{Rows: 520, Cols: 3, LDPad: 1, Batch: 2}, 3, RandDense[T], nil)
	})
	t.Run("saturating_nan", func(t *testing.T) {
		checkOrgqr[T](t, q, Layout{Rows: 6, Cols: 4, LDPad: 2, Batch: 1024}, 4, RandDense[T], map[int]bool{300: true, 1023: true})
	})
	t.Run("zero", func(t *testing.T) {
		checkOrgqr[T](t, q, Layout{Rows: 9, Cols: 6, Batch: 3}, 6, func(_ *rand.Rand, m, n int) Dense { return NewDense(m, n) }, nil)
	})
	t.Run("rank_deficient", func(t *testing.T) {
		checkOrgqr[T](t, q, Layout{Rows: 9, Cols: 6, LDPad: 1, Batch: 3}, 6, func(rng *rand.Rand, m, n int) Dense {
			return Mul(RandDense[T](rng, m, 2), RandDense[T](rng, 2, n))
		}, nil)
	})
}

// qrOf makes batch m-by-n matrices with gen, factors them with Geqrf and returns them (as T
// holds them), their factors and their tau.
func qrOf[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, gen func(*rand.Rand, int, int) Dense, m, n, batch int) (a, f []Dense, tau [][]complex128) {
	t.Helper()
	rng := NewRand(t)
	l := Layout{Rows: m, Cols: n, Batch: batch}
	in := NewStored[T](l)
	for b := 0; b < batch; b++ {
		in.SetDense(b, gen(rng, m, n))
		a = append(a, in.Dense(b))
	}
	k := min(m, n)
	am := Upload(t, q, in)
	tv := UploadVector(t, q, Fill(k*batch, NaN[T]()))
	var noRoute *batchlas.NoRouteError
	if err := batchlas.Geqrf(q, am, tv); routeRefused(err) || errors.As(err, &noRoute) {
		// geqrf pinned (BATCHLAS_GEQRF_ROUTE) to a family that refuses the shape, or no
		// family can run it here (the CPU emulator has no vendor library).
		t.Skipf("no geqrf for %dx%d: %v", m, n, err)
	} else if err != nil {
		t.Fatalf("Geqrf: %v", err)
	}
	out := Download(t, q, am, l)
	tauT := DownloadVector(t, q, tv)
	for b := 0; b < batch; b++ {
		f = append(f, out.Dense(b))
		tau = append(tau, toC128(tauT[b*k:(b+1)*k]))
	}
	return a, f, tau
}

// checkOrgqr forms Q from the first k reflectors of the QR factorization of matrices made by
// gen. Everything that Orgqr may not read (the diagonal and above, the columns from k on, every
// gap) is NaN. nanAt marks matrices whose first tau is NaN: their Q must hold NaN.
func checkOrgqr[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, l Layout, k int, gen func(*rand.Rand, int, int) Dense, nanAt map[int]bool) {
	m, n := l.Rows, l.Cols
	full, f, tau := qrOf[T](t, q, gen, m, n, l.Batch)
	in := NewStored[T](l)
	tauK := make([]T, 0, k*l.Batch+3)
	for b := 0; b < l.Batch; b++ {
		for j := 0; j < k; j++ {
			for i := j + 1; i < m; i++ {
				in.Set(b, i, j, From[T](f[b].At(i, j)))
			}
			tauK = append(tauK, From[T](tau[b][j]))
		}
		if nanAt[b] {
			tauK[b*k] = NaN[T]()
		}
	}
	tauK = append(tauK, NaN[T](), NaN[T](), NaN[T]())
	a := Upload(t, q, in)
	tv := UploadVector(t, q, tauK)
	if err := batchlas.Orgqr(q, k, a, tv); routeRefused(err) {
		t.Skipf("pinned family refuses %v: %v", l, err) // a family limited in size
	} else if err != nil {
		t.Fatalf("Orgqr: %v", err)
	}
	out := Download(t, q, a, l)
	Untouched(t, in, out, nil)
	if got := DownloadVector(t, q, tv); fmt.Sprint(got) != fmt.Sprint(tauK) {
		t.Errorf("tau was written")
	}
	check := Sample(l.Batch)
	for b := range nanAt {
		if !hasNaN(out, b) {
			t.Errorf("matrix %d has a NaN tau: no NaN in its Q", b)
		}
		check = append(check, b-1, b+1)
	}
	eps := Eps[T]()
	for _, b := range check {
		if b < 0 || b >= l.Batch || nanAt[b] {
			continue
		}
		got := out.Dense(b)
		qm := QFromReflectors(f[b], tau[b][:k])
		want := *firstCols(&qm, n)
		if r := Scaled(Sub(got, want), NormF(want), m, eps); r > Tol {
			t.Fatalf("matrix %d: ||Q - Q_ref|| / (m eps ||Q_ref||) = %.3g > %d", b, r, Tol)
		}
		if r := Scaled(Sub(Mul(Adjoint(got), got), Identity(n)), 1, m, eps); r > Tol {
			t.Fatalf("matrix %d: ||Q^H Q - I|| / (m eps) = %.3g > %d", b, r, Tol)
		}
		if k == n {
			r := Triangle(firstRows(f[b], n), false, false)
			if res := Scaled(Sub(full[b], Mul(got, r)), NormF(full[b]), m, eps); res > Tol {
				t.Fatalf("matrix %d: ||A - QR|| / (m eps ||A||) = %.3g > %d", b, res, Tol)
			}
		}
		for i := range got.D {
			if cmplx.IsNaN(got.D[i]) {
				t.Fatalf("matrix %d: NaN in Q", b)
			}
		}
	}
}

// firstRows is the first r rows of d.
func firstRows(d Dense, r int) Dense {
	s := NewDense(r, d.C)
	for j := 0; j < d.C; j++ {
		for i := 0; i < r; i++ {
			s.Set(i, j, d.At(i, j))
		}
	}
	return s
}
