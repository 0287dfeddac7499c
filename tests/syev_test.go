package tests

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

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

// syevCase is a test matrix family: gen makes the matrices, whose results are checked for
// A/scale (so that the reference math in complex128 cannot overflow); exact, when not nil,
// is the known spectrum of order n (ascending), checked in place of the reference's;
// identical says that every matrix of the batch is the same, so that every result must be
// the same to the bit.
type syevCase struct {
	name      string
	gen       spectrum
	scale     float64
	exact     func(n int) []float64
	identical bool
}

func testSyev[T batchlas.Scalar, R batchlas.Real](t *testing.T, q *batchlas.Queue) {
	// The native families end at n = 8, 6, 6, 4 (tiny: f32, f64, c64, c128), n = 64 (jacobi)
	// and n = 231, 161, 163, 112 (cta, on an H200): each limit and one above, where a pinned
	// family must refuse (cta's complex128 one); odd orders (jacobi pads them to even); the
	// blocked family runs them all.
	tiny := map[int]int{4: 8, 8: 6, 16: 4}[int(unsafe.Sizeof(*new(T)))]
	ns := []int{1, 2, 3, 5, 16, 33, tiny, tiny + 1}
	slices.Sort(ns)
	layouts := append(Empty(), SquareLayouts(3, slices.Compact(ns)...)...)
	layouts = append(layouts, Layout{Rows: 4, Cols: 4, LDPad: 1, StridePad: 2, Batch: 1024},
		Layout{Rows: 47, Cols: 47, LDPad: 3, StridePad: 1, Batch: 3},
		Layout{Rows: 64, Cols: 64, LDPad: 1, StridePad: 3, Batch: 2}, Layout{Rows: 65, Cols: 65, LDPad: 1, StridePad: 3, Batch: 2})
	// The blocked family's panel width is 32: n = 16 and 47 fall short of a panel boundary,
	// 32 and 64 end on one, 33 and 65 put a single column in the last panel.
	layouts = append(layouts, Layout{Rows: 32, Cols: 32, LDPad: 2, StridePad: 1, Batch: 2})
	// complex128 above the cta family's limit on an H200 (112), where blocked takes over.
	if _, ok := any(*new(T)).(complex128); ok {
		layouts = append(layouts, Layout{Rows: 116, Cols: 116, LDPad: 1, StridePad: 2, Batch: 2})
	}
	// Scales near overflow and underflow, and far out where the solvers must scale; the
	// grading of "graded_wide", 1e-30 to 1e30 (float64; float32 1e-10 to 1e10).
	big, far, grade := 1e30, 1e200, 30.0
	if Eps[T]() > 1e-10 {
		big, far, grade = 1e15, 1e30, 10
	}
	random := randomHermitian[T]
	cases := []syevCase{
		{name: "random", gen: random, scale: 1},
		{name: "identity", gen: func(_ *rand.Rand, _, n int) Dense { return Identity(n) }, scale: 1},
		// -1, 0 and 1, each several times.
		{name: "repeated", gen: withSpectrum[T](func(i, _ int) float64 { return float64(i%3 - 1) }), scale: 1},
		// A cluster of width 1e-9 and two outliers.
		{name: "clustered", gen: withSpectrum[T](func(i, n int) float64 {
			switch i {
			case 0:
				return -1
			case n - 1:
				return 3
			}
			return 1 + 1e-9*float64(i)
		}), scale: 1},
		// A cluster of width 1e-7 at 2 (its eigenvectors are ill-conditioned, the residuals
		// and the orthogonality must not be).
		{name: "cluster7", gen: withSpectrum[T](func(i, n int) float64 { return 2 + 1e-7*float64(i)/float64(n) }), scale: 1},
		{name: "diagonal", gen: func(rng *rand.Rand, _, n int) Dense {
			d := NewDense(n, n)
			for i, v := range Rand[float64](rng, n) {
				d.Set(i, i, complex(v, 0))
			}
			return d
		}, scale: 1},
		// -1, 0 and 1 on the diagonal out of order: no rotation, only the sort with vectors.
		{name: "diagonal_dups", gen: func(_ *rand.Rand, _, n int) Dense {
			d := NewDense(n, n)
			for i := 0; i < n; i++ {
				d.Set(i, i, complex(float64(2*i%3-1), 0))
			}
			return d
		}, scale: 1},
		{name: "zero", gen: func(_ *rand.Rand, _, n int) Dense { return NewDense(n, n) }, scale: 1},
		// x x^H: one eigenvalue ||x||^2, n - 1 zeros.
		{name: "rank_one", gen: func(rng *rand.Rand, _, n int) Dense {
			x := RandDense[T](rng, n, 1)
			return Hermitian(Mul(x, Adjoint(x)), true)
		}, scale: 1},
		// tridiag(-1, 2, -1): eigenvalues 2 - 2 cos(k pi / (n + 1)), k = 1..n.
		{name: "tridiag", gen: func(_ *rand.Rand, _, n int) Dense {
			d := NewDense(n, n)
			for i := 0; i < n; i++ {
				d.Set(i, i, 2)
				if i > 0 {
					d.Set(i, i-1, -1)
					d.Set(i-1, i, -1)
				}
			}
			return d
		}, scale: 1, exact: func(n int) []float64 {
			w := make([]float64, n)
			for k := range w {
				w[k] = 2 - 2*math.Cos(float64(k+1)*math.Pi/float64(n+1))
			}
			return w
		}},
		// 2-by-2 blocks alternately of order 1 and 1/far: the tridiagonal solver meets tiny
		// unreduced blocks that it must rescale.
		{name: "graded", gen: func(rng *rand.Rand, _, n int) Dense {
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
		}, scale: 1},
		// D B D for a random B and D from 10^-(grade/2) to 10^(grade/2): entries from
		// 10^-grade to 10^grade, checked for A / 10^grade.
		{name: "graded_wide", gen: func(rng *rand.Rand, _, n int) Dense {
			a := Hermitian(RandDense[T](rng, n, n), true)
			d := func(i int) float64 { return math.Pow(10, grade*(float64(i)/float64(max(n-1, 1))-0.5)) }
			for j := 0; j < n; j++ {
				for i := 0; i < n; i++ {
					a.Set(i, j, a.At(i, j)*complex(d(i)*d(j), 0))
				}
			}
			return a
		}, scale: math.Pow(10, grade)},
		{name: "huge", gen: scaledBy(random, big), scale: big},
		{name: "tiny", gen: scaledBy(random, 1/big), scale: 1 / big},
		{name: "far_huge", gen: scaledBy(random, far), scale: far},
		{name: "far_tiny", gen: scaledBy(random, 1/far), scale: 1 / far},
	}
	// One matrix, the same in every slot of a saturating batch.
	identical := syevCase{name: "identical", gen: func(_ *rand.Rand, _, n int) Dense {
		return Hermitian(RandDense[T](rand.New(rand.NewPCG(uint64(n), 7)), n, n), true)
	}, scale: 1, identical: true}
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
		checkSyev[T, R](t, q, batchlas.Upper, Layout{Rows: n, Cols: n, LDPad: 1, StridePad: 3, Batch: 2}, cases[0], nil)
	})
	for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
		for _, l := range layouts {
			t.Run(fmt.Sprintf("%v_%v", uplo, l), func(t *testing.T) {
				checkSyev[T, R](t, q, uplo, l, cases[0], nil)
			})
		}
		for _, c := range cases {
			for _, n := range []int{3, 4, 16, 17} {
				t.Run(fmt.Sprintf("%v_%s_n%d", uplo, c.name, n), func(t *testing.T) {
					checkSyev[T, R](t, q, uplo, Layout{Rows: n, Cols: n, LDPad: 2, StridePad: 1, Batch: 3}, c, nil)
				})
			}
		}
		// Saturating batches (kept modest for the emulator) at an order of each native family.
		for _, l := range []Layout{{Rows: 4, Cols: 4, LDPad: 1, Batch: 1024}, {Rows: 17, Cols: 17, LDPad: 1, Batch: 256}} {
			t.Run(fmt.Sprintf("%v_identical_%v", uplo, l), func(t *testing.T) {
				checkSyev[T, R](t, q, uplo, l, identical, nil)
			})
			// A NaN and an Inf in the middle of the batch: those matrices get info n-1 and
			// NaN results, and every other matrix must still be right.
			t.Run(fmt.Sprintf("%v_planted_%v", uplo, l), func(t *testing.T) {
				checkSyev[T, R](t, q, uplo, l, cases[0], map[int]float64{117: math.NaN(), 118: math.Inf(1)})
			})
		}
	}
}

// TestSyevLargeBatch runs a batch beyond the 65535 limit of a grid's y and z dimensions, on a
// CUDA queue with the tiny family pinned (a thread per matrix: the emulator runs it fast).
func TestSyevLargeBatch(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		if q.Backend() == batchlas.CUDA {
			pinFor(t, "syev", "tiny")
		}
		ForEachDType(t, q, largeBatch[float32, float32](batchlas.Lower), largeBatch[float64, float64](batchlas.Upper),
			largeBatch[complex64, float32](batchlas.Upper), largeBatch[complex128, float64](batchlas.Lower))
	})
}

// TestSyevFamilyLimits checks that each native family, pinned, runs its largest order and
// refuses one above with an error naming the route (the suite's shapes above a limit only
// skip under a pin).
func TestSyevFamilyLimits(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		if q.Backend() != batchlas.CUDA {
			t.Skip("the native syev families run on CUDA queues")
		}
		t.Run("tiny_f32", func(t *testing.T) { familyLimit[float32, float32](t, q, "tiny", 8) })
		t.Run("tiny_c128", func(t *testing.T) { familyLimit[complex128, float64](t, q, "tiny", 4) })
		t.Run("jacobi_c128", func(t *testing.T) { familyLimit[complex128, float64](t, q, "jacobi", 64) })
	})
}

// familyLimit checks that fam, pinned, runs order n and refuses n + 1.
func familyLimit[T batchlas.Scalar, R batchlas.Real](t *testing.T, q *batchlas.Queue, fam string, n int) {
	pinFor(t, "syev", fam)
	for _, k := range []int{n, n + 1} {
		a := ArgMatrix[T](t, q, k, k, 1)
		w, info := UploadVector(t, q, make([]R, k)), PoisonedInfo(t, q, 1)
		err := batchlas.Syev(q, batchlas.NoVectors, batchlas.Lower, a, w, info)
		switch {
		case k == n && err != nil:
			t.Errorf("n = %d: %v", k, err)
		case k > n:
			WantArgErr(t, err, "route")
		}
	}
}

func largeBatch[T batchlas.Scalar, R batchlas.Real](uplo batchlas.Uplo) func(*testing.T, *batchlas.Queue) {
	return func(t *testing.T, q *batchlas.Queue) {
		// Padded, and packed (ld = n, stride = n*n: the tiny family's contiguous copies).
		for _, pad := range []int{1, 0} {
			l := Layout{Rows: 2, Cols: 2, LDPad: pad, Batch: 70000}
			checkSyev[T, R](t, q, uplo, l, syevCase{gen: randomHermitian[T], scale: 1}, map[int]float64{69998: math.NaN()})
		}
	}
}

// nativeSyevFamilies are the native families of Syev, each pinned at an order it runs and
// its sub-calls' loops run more than once (blocked: two panels): the shapes of the large
// batch and large offset tests.
var nativeSyevFamilies = []struct {
	pin string
	n   int
}{{"tiny", 3}, {"jacobi", 16}, {"cta:tri=0", 40}, {"cta:tri=1", 40}, {"blocked:tri=0", 40}, {"blocked:tri=1", 40}}

// TestSyevLargeBatchFamilies runs every native family but tiny (TestSyevLargeBatch's) on a
// batch beyond the 65535 limit of a grid's y and z dimensions, with a planted NaN near the
// end, in float32 and complex128. Only on a GPU: the emulator would take minutes.
func TestSyevLargeBatchFamilies(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		if q.Backend() != batchlas.CUDA {
			t.Skip("the native families run on CUDA queues")
		}
		if emulated(q) {
			t.Skip("the emulator runs a kernel's blocks one after another: 70000 matrices take minutes")
		}
		for _, f := range nativeSyevFamilies[1:] {
			t.Run(f.pin, func(t *testing.T) {
				pinFor(t, "syev", f.pin)
				l := Layout{Rows: f.n, Cols: f.n, LDPad: 1, Batch: 70000}
				plant := map[int]float64{69990: math.NaN()}
				t.Run("f32", func(t *testing.T) {
					checkSyev[float32, float32](t, q, batchlas.Lower, l, syevCase{gen: randomHermitian[float32], scale: 1}, plant)
				})
				t.Run("c128", func(t *testing.T) {
					checkSyev[complex128, float64](t, q, batchlas.Upper, l, syevCase{gen: randomHermitian[complex128], scale: 1}, plant)
				})
			})
		}
	})
}

// TestSyevLargeOffsets runs every native family, pinned, on a batch of three float32 matrices
// 2^30 + 1 elements apart, so that the last one starts past element 2^31: an offset kept in
// 32 bits lands elsewhere. Each matrix is n+1 by n, poisoned in its last row, and Syev gets
// the n-by-n view above it: the poisoned row must stay so. It needs 8.6 GB of device memory
// and skips, saying so, where less is free.
func TestSyevLargeOffsets(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		if q.Backend() != batchlas.CUDA {
			t.Skip("the native families run on CUDA queues")
		}
		const stride, batch = 1<<30 + 1, 3
		need := int64(4 * (2*stride + 64*64))
		if free, _, err := q.MemInfo(); err != nil || free < need+1<<30 {
			t.Skipf("needs %d bytes of device memory and 1 GiB to spare; %d free (%v)", need, free, err)
		}
		for _, f := range nativeSyevFamilies {
			t.Run(f.pin, func(t *testing.T) {
				pinFor(t, "syev", f.pin)
				largeOffsets(t, q, f.n, stride, batch)
			})
		}
	})
}

func largeOffsets(t *testing.T, q *batchlas.Queue, n, stride, batch int) {
	rng := NewRand(t)
	big, err := batchlas.NewMatrixStrided[float32](q, n+1, n, n+1, stride, batch)
	if err != nil {
		t.Fatal(err)
	}
	defer big.Free()
	herm := make([]Dense, batch)
	for b := range herm {
		herm[b] = randomHermitian[float32](rng, b, n)
		src := Fill((n+1)*n, float32(Poison))
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				src[j*(n+1)+i] = float32(real(herm[b].At(i, j)))
			}
		}
		if err := big.UploadMatrix(b, batchlas.ColMajor, src, n+1); err != nil {
			t.Fatal(err)
		}
	}
	a, err := big.View(0, 0, n, n)
	if err != nil {
		t.Fatal(err)
	}
	w, info := UploadVector(t, q, Fill(n*batch, float32(Poison))), PoisonedInfo(t, q, batch)
	if err := batchlas.Syev(q, batchlas.Vectors, batchlas.Lower, a, w, info); err != nil {
		t.Fatal(err)
	}
	gw, gi := DownloadVector(t, q, w), DownloadVector(t, q, info)
	eps := Eps[float32]()
	for b := range herm {
		out, err := big.DownloadMatrix(b, batchlas.ColMajor, nil, n+1)
		if err != nil {
			t.Fatal(err)
		}
		v := NewDense(n, n)
		for j := 0; j < n; j++ {
			if out[j*(n+1)+n] != Poison {
				t.Errorf("matrix %d: the poisoned row written at column %d", b, j)
			}
			for i := 0; i < n; i++ {
				v.Set(i, j, complex(float64(out[j*(n+1)+i]), 0))
			}
		}
		wb := toF64(gw[b*n : (b+1)*n])
		if gi[b] != 0 || !ascending(wb) {
			t.Errorf("matrix %d: info %d, eigenvalues %v", b, gi[b], wb)
			continue
		}
		checkEigenpairs(t, b, herm[b], wb, v, eps)
	}
}

// checkEigenpairs checks ||AV - VW|| / (n eps ||A||) and ||V^H V - I|| / (n eps) for matrix
// b, whose eigenvalues are w and eigenvectors the columns of v.
func checkEigenpairs(t *testing.T, b int, a Dense, w []float64, v Dense, eps float64) {
	t.Helper()
	n := a.R
	vw := Dense{R: n, C: n, D: slices.Clone(v.D)}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			vw.D[k*n+i] *= complex(w[k], 0)
		}
	}
	if r := Scaled(Sub(Mul(a, v), vw), NormF(a), n, eps); r > Tol {
		t.Errorf("matrix %d: ||AV - VW|| / (n eps ||A||) = %.3g > %d", b, r, Tol)
	}
	if r := Scaled(Sub(Mul(Adjoint(v), v), Identity(n)), 1, n, eps); r > Tol {
		t.Errorf("matrix %d: ||V^H V - I|| / (n eps) = %.3g > %d", b, r, Tol)
	}
}

// randomHermitian is a random Hermitian matrix, uniform in [-1, 1).
func randomHermitian[T batchlas.Scalar](rng *rand.Rand, _, n int) Dense {
	return Hermitian(RandDense[T](rng, n, n), true)
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

// checkSyev runs Syev with both jobz on the same matrices of layout l, made by c.gen, with the
// other triangle, every gap and every output poisoned, and the imaginary parts of the
// diagonal nonzero. plant maps a matrix to a value (NaN or Inf) planted in its triangle: it
// must get info n-1 and NaN results, as the doc comment of Syev says.
func checkSyev[T batchlas.Scalar, R batchlas.Real](t *testing.T, q *batchlas.Queue, uplo batchlas.Uplo, l Layout, c syevCase, plant map[int]float64) {
	rng := NewRand(t)
	lower := uplo == batchlas.Lower
	n, eps := l.Rows, Eps[T]()
	in := NewStored[T](l)
	for b := 0; b < l.Batch; b++ {
		full := c.gen(rng, b, n)
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
			herm[b].D[i] /= complex(c.scale, 0)
		}
		if c.exact != nil {
			ref[b] = c.exact(n)
		} else {
			ref[b] = hermitianEigenvalues(herm[b])
		}
	}
	vecW := map[int][]float64{}
	for _, jobz := range []batchlas.Job{batchlas.Vectors, batchlas.NoVectors} {
		a := Upload(t, q, in)
		// Two spare elements beyond n*batch must stay poisoned.
		w := UploadVector(t, q, Fill(n*l.Batch+2, R(Poison)))
		info := PoisonedInfo(t, q, l.Batch)
		if err := batchlas.Syev(q, jobz, uplo, a, w, info); routeRefused(err) {
			// Only under a pin (TestRouteEveryFamilyPinned): a family limited in n refuses
			// the larger shapes.
			t.Skipf("pinned family refuses %v: %v", l, err)
		} else if err != nil {
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
			case planted && (v != int32(n-1) || slices.ContainsFunc(wb, func(x R) bool { return x == x })):
				msg = fmt.Sprintf("holds NaN or Inf: info %d (want %d), eigenvalues %v (want NaN)", v, n-1, wb)
			case planted && jobz == batchlas.Vectors && slices.ContainsFunc(out.Dense(b).D, func(x complex128) bool { return !cmplx.IsNaN(x) }):
				msg = "holds NaN or Inf: eigenvectors not all NaN"
			case planted:
			case c.identical && (!slices.Equal(wb, gw[:n]) || jobz == batchlas.Vectors && !slices.Equal(out.Dense(b).D, out.Dense(0).D)):
				msg = "results differ from matrix 0's, on the same matrix"
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
				wb[i] /= c.scale
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
			checkEigenpairs(t, b, a, wb, out.Dense(b), eps)
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
				// The rotation annihilates a_pq but for rounding: left in place, an a_pq at the
				// rounding level between two equal diagonal elements (the embedding doubles
				// every eigenvalue) was rotated by 45 degrees in every sweep, each rotation
				// moving the diagonal by an ulp (2e-14 after 50 sweeps).
				*at(p, q), *at(q, p) = 0, 0
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
