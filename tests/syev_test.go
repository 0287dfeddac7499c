package tests

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchlas/batchlas"
)

func TestSyev(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testSyev[float32, float32], testSyev[float64, float64],
			testSyev[complex64, float32], testSyev[complex128, float64])
	})
}

// spectrum makes matrix b of order n for a test case.
type spectrum func(rng *rand.Rand, b, n int) Dense

func testSyev[T batchlas.Scalar, R batchlas.Real](t *testing.T, q *batchlas.Queue) {
	layouts := append(Empty(), SquareLayouts(3, 1, 2, 3, 5, 16, 33)...)
	layouts = append(layouts, Layout{Rows: 4, Cols: 4, LDPad: 1, StridePad: 2, Batch: 1024})
	// Scales near overflow and underflow, and far out where the solvers must scale.
	big, far := 1e30, 1e200
	if Eps[T]() > 1e-10 {
		big, far = 1e15, 1e30
	}
	random := func(rng *rand.Rand, _, n int) Dense { return Hermitian(RandDense[T](rng, n, n), true) }
	cases := []struct {
		name  string
		gen   spectrum
		scale float64
	}{
		// -1, 0 and 1, each several times.
		{"repeated", withSpectrum[T](func(i, _ int) float64 { return float64(i%3 - 1) }), 1},
		// A cluster of width 1e-9 and two outliers.
		{"clustered", withSpectrum[T](func(i, n int) float64 {
			switch i {
			case 0:
				return -1
			case n - 1:
				return 3
			}
			return 1 + 1e-9*float64(i)
		}), 1},
		{"diagonal", func(rng *rand.Rand, _, n int) Dense {
			d := NewDense(n, n)
			for i, v := range Rand[float64](rng, n) {
				d.Set(i, i, complex(v, 0))
			}
			return d
		}, 1},
		{"zero", func(_ *rand.Rand, _, n int) Dense { return NewDense(n, n) }, 1},
		// 2-by-2 blocks alternately of order 1 and 1/far: the tridiagonal solver meets tiny
		// unreduced blocks that it must rescale.
		{"graded", func(rng *rand.Rand, _, n int) Dense {
			a := NewDense(n, n)
			for k := 0; k+1 < n; k += 2 {
				blk, s := Hermitian(RandDense[T](rng, 2, 2), true), 1.0
				if k%4 == 2 {
					s = 1 / far
				}
				for j := 0; j < 2; j++ {
					for i := 0; i < 2; i++ {
						a.Set(k+i, k+j, blk.At(i, j)*complex(s, 0))
					}
				}
			}
			return a
		}, 1},
		{"huge", scaledBy(random, big), big},
		{"tiny", scaledBy(random, 1/big), 1 / big},
		{"far_huge", scaledBy(random, far), far},
		{"far_tiny", scaledBy(random, 1/far), 1 / far},
	}
	// The largest order the pinned family accepts runs right; the next one is refused.
	t.Run("limit", func(t *testing.T) {
		n := limitOrder(t, func(n int) error {
			a, w, info := probeMatrix[T](q, n, n, 1), probeVector[R](q, n), probeInfo(q, 1)
			defer a.Free()
			defer w.Free()
			defer info.Free()
			_, err := batchlas.SyevBufferSize(q, batchlas.Vectors, batchlas.Upper, a, w, info)
			return err
		})
		checkSyev[T, R](t, q, batchlas.Upper, Layout{Rows: n, Cols: n, LDPad: 1, StridePad: 3, Batch: 2}, random, 1, nil)
	})
	for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
		for _, l := range layouts {
			t.Run(fmt.Sprintf("%v_%v", uplo, l), func(t *testing.T) {
				checkSyev[T, R](t, q, uplo, l, random, 1, nil)
			})
		}
		for _, c := range cases {
			for _, n := range []int{5, 16} {
				t.Run(fmt.Sprintf("%v_%s_n%d", uplo, c.name, n), func(t *testing.T) {
					checkSyev[T, R](t, q, uplo, Layout{Rows: n, Cols: n, LDPad: 2, StridePad: 1, Batch: 3}, c.gen, c.scale, nil)
				})
			}
		}
		// A NaN and an Inf in the middle of a saturating batch: those matrices get a nonzero
		// info or NaN eigenvalues, and every other matrix must still be right.
		t.Run(fmt.Sprintf("%v_planted", uplo), func(t *testing.T) {
			checkSyev[T, R](t, q, uplo, Layout{Rows: 6, Cols: 6, LDPad: 1, Batch: 1024}, random, 1,
				map[int]float64{517: math.NaN(), 518: math.Inf(1)})
		})
	}
}

// withSpectrum returns a generator of Q diag(d) Q^H for a random unitary (orthogonal, for
// real T) Q and d[i] = f(i, n).
func withSpectrum[T batchlas.Scalar](f func(i, n int) float64) spectrum {
	return func(rng *rand.Rand, _, n int) Dense {
		u := orthonormalize(RandDense[T](rng, n, n))
		d := NewDense(n, n)
		for i := 0; i < n; i++ {
			d.Set(i, i, complex(f(i, n), 0))
		}
		return Hermitian(Mul(Mul(u, d), Adjoint(u)), true)
	}
}

func scaledBy(gen spectrum, s float64) spectrum {
	return func(rng *rand.Rand, b, n int) Dense {
		a := gen(rng, b, n)
		for i := range a.D {
			a.D[i] *= complex(s, 0)
		}
		return a
	}
}

// orthonormalize returns the Q of a's QR factorization by modified Gram-Schmidt, twice for
// orthogonality to working precision.
func orthonormalize(a Dense) Dense {
	q := Dense{R: a.R, C: a.C, D: slices.Clone(a.D)}
	for range 2 {
		for j := 0; j < q.C; j++ {
			cj := q.D[j*q.R : (j+1)*q.R]
			for k := 0; k < j; k++ {
				ck := q.D[k*q.R : (k+1)*q.R]
				var s complex128
				for i := range ck {
					s += complex(real(ck[i]), -imag(ck[i])) * cj[i]
				}
				for i := range ck {
					cj[i] -= s * ck[i]
				}
			}
			nrm := complex(NormF(Dense{R: q.R, C: 1, D: cj}), 0)
			for i := range cj {
				cj[i] /= nrm
			}
		}
	}
	return q
}

// checkSyev runs Syev with both jobz on the same matrices of layout l, made by gen, with the
// other triangle, every gap and every output poisoned. plant maps a matrix to a value (NaN or
// Inf) planted in its triangle: it must get a nonzero info or NaN eigenvalues. The results
// are checked for A/scale, so that the reference math in complex128 cannot overflow.
func checkSyev[T batchlas.Scalar, R batchlas.Real](t *testing.T, q *batchlas.Queue, uplo batchlas.Uplo, l Layout, gen spectrum, scale float64, plant map[int]float64) {
	rng := NewRand(t)
	lower := uplo == batchlas.Lower
	n, eps := l.Rows, Eps[T]()
	in := NewStored[T](l)
	for b := 0; b < l.Batch; b++ {
		full := gen(rng, b, n)
		if x, ok := plant[b]; ok {
			full.Set(n-1, n/2, complex(x, 0))
			full.Set(n/2, n-1, complex(x, 0))
		}
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				// The imaginary parts of the diagonal must be ignored.
				switch {
				case i == j:
					in.Set(b, i, i, From[T](full.At(i, i)+complex(0, 0.25)))
				case InTriangle(lower, i, j):
					in.Set(b, i, j, From[T](full.At(i, j)))
				}
			}
		}
	}
	// The matrices as Syev sees them, and their reference eigenvalues, for the checked ones.
	checked := slices.DeleteFunc(append(Sample(l.Batch), neighbours(plant, l.Batch)...), func(b int) bool {
		_, planted := plant[b]
		return planted
	})
	herm, ref := map[int]Dense{}, map[int][]float64{}
	for _, b := range checked {
		herm[b] = Hermitian(in.Dense(b), lower)
		for i := range herm[b].D {
			herm[b].D[i] /= complex(scale, 0)
		}
		ref[b] = hermitianEigenvalues(herm[b])
	}
	vecW := map[int][]float64{}
	for _, jobz := range []batchlas.Job{batchlas.Vectors, batchlas.NoVectors} {
		a := Upload(t, q, in)
		// Two spare elements beyond n*batch must stay poisoned.
		w := UploadVector(t, q, Fill(n*l.Batch+2, R(Poison)))
		info := PoisonedInfo(t, q, l.Batch)
		if err := batchlas.Syev(q, jobz, uplo, a, w, info); err != nil {
			t.Fatalf("Syev(%v): %v", jobz, err)
		}
		out := Download(t, q, a, l)
		gw, gi := DownloadVector(t, q, w), DownloadVector(t, q, info)
		Untouched(t, in, out, func(b, i, j int) bool { return jobz == batchlas.Vectors || InTriangle(lower, i, j) })
		if tail := gw[n*l.Batch:]; tail[0] != Poison || tail[1] != Poison {
			t.Errorf("jobz %v: w beyond n*batch written: %v", jobz, tail)
		}
		bad := 0
		for b, v := range gi {
			wb := gw[b*n : (b+1)*n]
			_, planted := plant[b]
			msg := ""
			switch {
			case planted && v == 0 && !slices.ContainsFunc(wb, func(x R) bool { return x != x }):
				msg = "holds NaN or Inf: info 0 and finite eigenvalues"
			case planted:
			case v != 0:
				msg = fmt.Sprintf("info %d, want 0", v)
			case !ascending(wb):
				msg = fmt.Sprintf("eigenvalues not ascending (or not written): %v", wb)
			}
			if msg != "" && bad < 5 {
				t.Errorf("jobz %v, matrix %d: %s", jobz, b, msg)
			}
			if msg != "" {
				bad++
			}
		}
		for _, b := range checked {
			a, wb := herm[b], toF64(gw[b*n:(b+1)*n])
			for i := range wb {
				wb[i] /= scale
			}
			anrm := NormF(a)
			if r := Scaled(diff(wb, ref[b]), anrm, n, eps); r > Tol {
				t.Errorf("jobz %v, matrix %d: eigenvalues %v differ from the reference %v: %.3g > %d", jobz, b, wb, ref[b], r, Tol)
			}
			if jobz == batchlas.NoVectors {
				if r := Scaled(diff(wb, vecW[b]), anrm, n, eps); r > Tol {
					t.Errorf("matrix %d: eigenvalues without vectors %v differ from those with %v: %.3g", b, wb, vecW[b], r)
				}
				continue
			}
			vecW[b] = slices.Clone(wb)
			v := out.Dense(b)
			vw := Dense{R: n, C: n, D: slices.Clone(v.D)}
			for k := 0; k < n; k++ {
				for i := 0; i < n; i++ {
					vw.D[k*n+i] *= complex(wb[k], 0)
				}
			}
			if r := Scaled(Sub(Mul(a, v), vw), anrm, n, eps); r > Tol {
				t.Errorf("matrix %d: ||AV - VW|| / (n eps ||A||) = %.3g > %d", b, r, Tol)
			}
			if r := Scaled(Sub(Mul(Adjoint(v), v), Identity(n)), 1, n, eps); r > Tol {
				t.Errorf("matrix %d: ||V^H V - I|| / (n eps) = %.3g > %d", b, r, Tol)
			}
		}
	}
}

// neighbours lists the matrices next to the planted ones.
func neighbours(plant map[int]float64, batch int) []int {
	var s []int
	for b := range plant {
		for _, nb := range []int{b - 1, b + 1} {
			if nb >= 0 && nb < batch {
				s = append(s, nb)
			}
		}
	}
	return s
}

func ascending[R batchlas.Real](w []R) bool {
	for i := range w {
		if w[i] != w[i] || w[i] == Poison || i > 0 && w[i] < w[i-1] {
			return false
		}
	}
	return true
}

func toF64[R batchlas.Real](w []R) []float64 {
	s := make([]float64, len(w))
	for i, v := range w {
		s[i] = float64(v)
	}
	return s
}

// diff is w - ref as a column.
func diff(w, ref []float64) Dense {
	d := NewDense(len(w), 1)
	for i, v := range w {
		d.D[i] = complex(v-ref[i], 0)
	}
	return d
}

// hermitianEigenvalues returns the eigenvalues of the Hermitian a in ascending order, by
// cyclic Jacobi on the real symmetric embedding [Re -Im; Im Re], whose spectrum is a's with
// every eigenvalue twice.
func hermitianEigenvalues(a Dense) []float64 {
	n := a.R
	m := 2 * n
	s := make([]float64, m*m)
	at := func(i, j int) *float64 { return &s[j*m+i] }
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			x := a.At(i, j)
			*at(i, j), *at(i+n, j+n) = real(x), real(x)
			*at(i+n, j), *at(i, j+n) = imag(x), -imag(x)
		}
	}
	// Rutishauser's cyclic Jacobi: an element negligible beside both diagonal elements is
	// set to zero, so that the iteration ends with an exactly diagonal matrix.
	for sweep := 0; sweep < 50; sweep++ {
		rotated := false
		for p := 0; p < m; p++ {
			for q := p + 1; q < m; q++ {
				apq, app, aqq := *at(p, q), *at(p, p), *at(q, q)
				if g := 100 * math.Abs(apq); math.Abs(app)+g == math.Abs(app) && math.Abs(aqq)+g == math.Abs(aqq) {
					*at(p, q), *at(q, p) = 0, 0
					continue
				}
				rotated = true
				theta := (aqq - app) / (2 * apq)
				t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				if math.Abs(theta) > 1e150 {
					t = 0.5 / math.Abs(theta)
				}
				if theta < 0 {
					t = -t
				}
				c := 1 / math.Sqrt(t*t+1)
				sn := t * c
				for k := 0; k < m; k++ {
					kp, kq := *at(k, p), *at(k, q)
					*at(k, p), *at(k, q) = c*kp-sn*kq, sn*kp+c*kq
				}
				for k := 0; k < m; k++ {
					pk, qk := *at(p, k), *at(q, k)
					*at(p, k), *at(q, k) = c*pk-sn*qk, sn*pk+c*qk
				}
			}
		}
		if !rotated {
			break
		}
	}
	d := make([]float64, m)
	for i := range d {
		d[i] = *at(i, i)
	}
	slices.Sort(d)
	w := make([]float64, n)
	for i := range w {
		w[i] = d[2*i]
	}
	return w
}
