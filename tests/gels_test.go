package tests

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/batchlas/batchlas"
	"gonum.org/v1/gonum/blas"
	golapack "gonum.org/v1/gonum/lapack"
	lapack "gonum.org/v1/gonum/lapack/gonum"
)

func TestGels(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testGels[float32], testGels[float64], testGels[complex64], testGels[complex128])
	})
}

// gelsTrans are the transpose flags Gels takes for T: NoTrans, and Trans for the real types or
// ConjTrans for the complex ones.
func gelsTrans[T batchlas.Scalar]() []batchlas.Transpose {
	if IsComplex[T]() {
		return []batchlas.Transpose{batchlas.NoTrans, batchlas.ConjTrans}
	}
	return []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans}
}

func testGels[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	empty := []Layout{{Rows: 0, Cols: 0, Batch: 3}, {Rows: 5, Cols: 0, Batch: 2}, {Rows: 0, Cols: 4, Batch: 2},
		{Rows: 5, Cols: 3, Batch: 0}}
	layouts := append(empty, RectLayouts(3, [2]int{1, 1}, [2]int{7, 3}, [2]int{3, 7}, [2]int{6, 6}, [2]int{33, 17}, [2]int{17, 33})...)
	for _, tr := range gelsTrans[T]() {
		for _, l := range layouts {
			for _, nrhs := range []int{0, 1, 3} {
				t.Run(fmt.Sprintf("%v_nrhs%d_%v", tr, nrhs, l), func(t *testing.T) { checkGels[T](t, q, tr, l, nrhs, nil) })
			}
		}
		// More right-hand sides than columns, and a tall matrix of many rows.
		for _, l := range []Layout{{Rows: 12, Cols: 5, LDPad: 2, StridePad: 1, Batch: 2}, {Rows: 80, Cols: 4, LDPad: 1, Batch: 2}} {
			t.Run(fmt.Sprintf("%v_nrhs9_%v", tr, l), func(t *testing.T) { checkGels[T](t, q, tr, l, 9, nil) })
		}
		// Rank-deficient matrices in the middle of a saturating batch: a zero column (m >= n) or
		// row (m < n) j gives info j+1, an all-zero matrix info 1; the others are solved.
		for _, l := range []Layout{{Rows: 10, Cols: 6, LDPad: 1, Batch: 1024}, {Rows: 6, Cols: 10, LDPad: 2, Batch: 1024}} {
			t.Run(fmt.Sprintf("%v_planted_%v", tr, l), func(t *testing.T) {
				checkGels[T](t, q, tr, l, 2, map[int]int{0: 2, 511: 0, 512: 3, 513: gelsZeroMatrix, 1023: 5})
			})
		}
	}
}

// gelsZeroMatrix plants an all-zero matrix.
const gelsZeroMatrix = -1

// gelsInputs returns the matrices of layout l: random, with the planted ones rank deficient
// (plant[b] = j: column j of a tall or square A, row j of a wide one, and j+2 too where there
// is one, are zero; gelsZeroMatrix: all of A), and the info each must give.
func gelsInputs[T batchlas.Scalar](rng *rand.Rand, l Layout, plant map[int]int) (full []Dense, want map[int]int) {
	m, n := l.Rows, l.Cols
	full, want = make([]Dense, l.Batch), map[int]int{}
	for b := range full {
		full[b] = RandDense[T](rng, m, n)
		j, ok := plant[b]
		if !ok {
			continue
		}
		want[b] = max(j, 0)
		for _, k := range []int{j, j + 2} {
			for i := 0; i < max(m, n) && k >= 0 && k < min(m, n); i++ {
				if m >= n && i < m {
					full[b].Set(i, k, 0)
				} else if m < n && i < n {
					full[b].Set(k, i, 0)
				}
			}
		}
		if j == gelsZeroMatrix {
			full[b] = NewDense(m, n)
		}
	}
	return full, want
}

// checkGels solves with Gels for matrices of layout l and nrhs right-hand sides (padded as l,
// with every gap poisoned, and the rows of b that the call may not read poisoned too), and
// checks info, the factor left in a, and the solutions: the least squares residual is
// orthogonal to the range of op(A); a minimum-norm solution solves op(A) X = B and lies in the
// range of op(A)^H. The planted matrices (see gelsInputs) must report their info.
func checkGels[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, trans batchlas.Transpose, l Layout, nrhs int, plant map[int]int) {
	rng := NewRand(t)
	m, n := l.Rows, l.Cols
	p, r := max(m, n), min(m, n)
	rowsIn, rowsOut := m, n // the rows of B and X
	if trans != batchlas.NoTrans {
		rowsIn, rowsOut = n, m
	}
	full, want := gelsInputs[T](rng, l, plant)
	inA := storeAll[T](l, full)
	lb := Layout{Rows: p, Cols: nrhs, LDPad: l.LDPad, StridePad: l.StridePad, Batch: l.Batch}
	inB := NewStored[T](lb)
	rhs := make([]Dense, l.Batch)
	for b := range rhs {
		rhs[b] = RandDense[T](rng, rowsIn, nrhs)
		for j := 0; j < nrhs; j++ {
			for i := 0; i < rowsIn; i++ {
				inB.Set(b, i, j, From[T](rhs[b].At(i, j)))
			}
		}
	}
	a, bm := Upload(t, q, inA), Upload(t, q, inB)
	info := PoisonedInfo(t, q, l.Batch)
	if err := batchlas.Gels(q, trans, a, bm, info); routeRefused(err) {
		// Only under a pin: "vendor" on CUDA (cublas<t>gelsBatched) takes NoTrans with m >= n
		// alone, and "qr" needs families of Geqrf, Ormqr and Trsm for the shape.
		t.Skipf("pinned family refuses %v %v: %v", trans, l, err)
	} else if err != nil {
		t.Fatalf("Gels: %v", err)
	}
	outA, x := Download(t, q, a, l), Download(t, q, bm, lb)
	checkInfo(t, DownloadVector(t, q, info), want)
	Untouched(t, inB, x, nil)
	if nrhs == 0 {
		Untouched(t, inA, outA, ReadOnly) // nothing is computed
		return
	}
	Untouched(t, inA, outA, nil)
	eps := Eps[T]()
	for _, k := range checked(l.Batch, plant) {
		if r > 0 {
			if res := gelsFactorResidual(full[k], outA.Dense(k), eps); res > Tol {
				t.Errorf("matrix %d: the factor left in a: residual %.3g > %d", k, res, Tol)
			}
		}
		if _, planted := plant[k]; planted {
			continue
		}
		opA := Op(trans, full[k])
		xk := firstRows(x.Dense(k), rowsOut)
		if r == 0 {
			if NormF(x.Dense(k)) != 0 {
				t.Errorf("matrix %d: A is empty, but the first %d rows of b are not zero", k, p)
			}
			continue
		}
		res := Sub(Mul(opA, xk), rhs[k])
		if rowsIn >= rowsOut { // least squares: op(A)^H (op(A) X - B) = 0
			if v := Scaled(Mul(Adjoint(opA), res), NormF(opA)*(NormF(opA)*NormF(xk)+NormF(rhs[k])), p, eps); v > Tol {
				t.Errorf("matrix %d: ||op(A)^H (op(A) X - B)|| / (p eps ||A|| (||A|| ||X|| + ||B||)) = %.3g > %d", k, v, Tol)
			}
			continue
		}
		if v := Scaled(res, NormF(opA)*NormF(xk), p, eps); v > Tol {
			t.Errorf("matrix %d: ||op(A) X - B|| / (p eps ||A|| ||X||) = %.3g > %d", k, v, Tol)
		}
		u := orthonormalBasis(Adjoint(opA))
		if v := Scaled(Sub(xk, Mul(u, Mul(Adjoint(u), xk))), NormF(xk), p, eps); v > Tol {
			t.Errorf("matrix %d: X is not in the range of op(A)^H: ||X - U U^H X|| / (p eps ||X||) = %.3g > %d", k, v, Tol)
		}
	}
}

// gelsFactorResidual checks the triangular factor Gels leaves in f for a: for m >= n, R on
// and above the diagonal of the first n rows with R^H R = A^H A; for m < n, L on and below
// the diagonal of the first m columns with L L^H = A A^H. It returns the residual over
// (p eps ||A||^2).
func gelsFactorResidual(a, f Dense, eps float64) float64 {
	m, n := a.R, a.C
	if m >= n {
		rt := Triangle(firstRows(f, n), false, false)
		return Scaled(Sub(Mul(Adjoint(a), a), Mul(Adjoint(rt), rt)), NormF(a)*NormF(a), m, eps)
	}
	l := Triangle(*firstCols(&f, m), true, false)
	return Scaled(Sub(Mul(a, Adjoint(a)), Mul(l, Adjoint(l))), NormF(a)*NormF(a), n, eps)
}

// orthonormalBasis is an orthonormal basis of the range of the p-by-r w of full column rank,
// by Gram-Schmidt with reorthogonalization in complex128.
func orthonormalBasis(w Dense) Dense {
	u := NewDense(w.R, w.C)
	for j := 0; j < w.C; j++ {
		v := append([]complex128(nil), w.D[j*w.R:(j+1)*w.R]...)
		for range 2 {
			for k := 0; k < j; k++ {
				uk := u.D[k*w.R : (k+1)*w.R]
				var d complex128
				for i := range v {
					d += cmplx.Conj(uk[i]) * v[i]
				}
				for i := range v {
					v[i] -= d * uk[i]
				}
			}
		}
		nv := NormF(Dense{R: w.R, C: 1, D: v})
		for i := range v {
			u.Set(i, j, v[i]/complex(nv, 0))
		}
	}
	return u
}

// TestGelsMatchesLAPACK compares the solutions with gonum's Dgels on real data, for every dtype
// (zgels of real data is dgels's), within the perturbation bound of each problem: the two
// solutions differ by at most a few eps cond(A)^2 ||X|| for least squares and eps cond(A) ||X||
// for minimum norm, with cond(A) from gonum's singular values.
func TestGelsMatchesLAPACK(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testGelsLAPACK[float32], testGelsLAPACK[float64], testGelsLAPACK[complex64], testGelsLAPACK[complex128])
	})
}

func testGelsLAPACK[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	tr := gelsTrans[T]()[1]
	for _, s := range [][2]int{{7, 4}, {4, 7}, {40, 30}, {30, 40}} {
		for _, trans := range []batchlas.Transpose{batchlas.NoTrans, tr} {
			m, n, nrhs := s[0], s[1], 2
			p := max(m, n)
			rowsIn, rowsOut := m, n
			if trans != batchlas.NoTrans {
				rowsIn, rowsOut = n, m
			}
			rng := NewRand(t)
			in := NewStored[T](Layout{Rows: m, Cols: n, Batch: 1})
			inB := NewStored[T](Layout{Rows: p, Cols: nrhs, Batch: 1})
			ra, rb := make([]float64, m*n), make([]float64, p*nrhs) // row-major for gonum
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					v := From[T](complex(2*rng.Float64()-1, 0))
					in.Set(0, i, j, v)
					ra[i*n+j] = real(C128(v))
				}
			}
			for i := 0; i < rowsIn; i++ {
				for j := 0; j < nrhs; j++ {
					v := From[T](complex(2*rng.Float64()-1, 0))
					inB.Set(0, i, j, v)
					rb[i*nrhs+j] = real(C128(v))
				}
			}
			cond := gonumCond(m, n, ra)
			impl := lapack.Implementation{}
			gt := blas.NoTrans
			if trans != batchlas.NoTrans {
				gt = blas.Trans
			}
			work := make([]float64, 1)
			impl.Dgels(gt, m, n, nrhs, append([]float64(nil), ra...), n, rb, nrhs, work, -1)
			work = make([]float64, int(work[0]))
			if !impl.Dgels(gt, m, n, nrhs, append([]float64(nil), ra...), n, rb, nrhs, work, len(work)) {
				t.Fatalf("%dx%d %v: gonum's Dgels found the random matrix rank deficient", m, n, trans)
			}
			a, b, info := Upload(t, q, in), Upload(t, q, inB), PoisonedInfo(t, q, 1)
			if err := batchlas.Gels(q, trans, a, b, info); err != nil {
				t.Fatal(err)
			}
			x := Download(t, q, b, inB.Layout)
			if inf := DownloadVector(t, q, info)[0]; inf != 0 {
				t.Fatalf("%dx%d %v: info %d", m, n, trans, inf)
			}
			bound := cond
			if rowsIn >= rowsOut {
				bound *= cond
			}
			var diff, norm float64
			for i := 0; i < rowsOut; i++ {
				for j := 0; j < nrhs; j++ {
					d := cmplx.Abs(C128(x.At(0, i, j)) - complex(rb[i*nrhs+j], 0))
					diff, norm = diff+d*d, norm+rb[i*nrhs+j]*rb[i*nrhs+j]
				}
			}
			if v := math.Sqrt(diff) / (float64(p) * Eps[T]() * bound * math.Sqrt(norm)); v > Tol {
				t.Errorf("%dx%d %v: ||X - X_Dgels|| / (p eps cond^%d ||X||) = %.3g > %d (cond %.3g)", m, n, trans,
					map[bool]int{true: 2, false: 1}[rowsIn >= rowsOut], v, Tol, cond)
			}
		}
	}
}

// gonumCond is the 2-norm condition number of the m-by-n row-major a, from gonum's singular
// values.
func gonumCond(m, n int, a []float64) float64 {
	impl := lapack.Implementation{}
	s := make([]float64, min(m, n))
	w := append([]float64(nil), a...)
	work := make([]float64, 1)
	impl.Dgesvd(golapack.SVDNone, golapack.SVDNone, m, n, w, n, s, nil, 1, nil, 1, work, -1)
	work = make([]float64, int(work[0]))
	impl.Dgesvd(golapack.SVDNone, golapack.SVDNone, m, n, w, n, s, nil, 1, nil, 1, work, len(work))
	return s[0] / s[len(s)-1]
}
