package tests

import (
	"fmt"
	"math/cmplx"
	"testing"

	"github.com/batchlas/batchlas"
)

func TestGemv(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testGemv[float32], testGemv[float64], testGemv[complex64], testGemv[complex128])
	})
}

func testGemv[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	layouts := []Layout{
		{Rows: 0, Cols: 0, Batch: 3}, {Rows: 0, Cols: 3, Batch: 2}, {Rows: 3, Cols: 0, LDPad: 1, Batch: 2},
		{Rows: 3, Cols: 3, Batch: 0}, {Rows: 1, Cols: 1, Batch: 1}, {Rows: 5, Cols: 3, Batch: 3},
		{Rows: 3, Cols: 7, LDPad: 2, StridePad: 3, Batch: 3}, {Rows: 4, Cols: 3, LDPad: 1, Batch: 1024},
		// Past the CUDA direct family's blocks: 128 elements of y under NoTrans, 4 otherwise.
		{Rows: 130, Cols: 9, LDPad: 1, StridePad: 1, Batch: 2},
	}
	for _, tr := range Transposes {
		for _, beta := range []complex128{Beta, 0} {
			for _, l := range layouts {
				t.Run(fmt.Sprintf("%v_beta%v_%v", tr, beta, l), func(t *testing.T) {
					checkGemv[T](t, q, tr, beta, l)
				})
			}
			t.Run(fmt.Sprintf("%v_beta%v_alpha0nan", tr, beta), func(t *testing.T) { checkGemvAlphaZero[T](t, q, tr, beta) })
		}
	}
}

// checkGemvAlphaZero checks that alpha = 0 reads neither A nor x, both all NaN: y = beta y,
// or 0 from a y of NaN when beta = 0.
func checkGemvAlphaZero[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, tr batchlas.Transpose, beta complex128) {
	l := Layout{Rows: 5, Cols: 3, LDPad: 1, Batch: 3}
	ny, nx := l.Rows, l.Cols
	if tr != batchlas.NoTrans {
		nx, ny = ny, nx
	}
	inY := Fill(ny*l.Batch, NaN[T]())
	if beta != 0 {
		inY = Rand[T](NewRand(t), ny*l.Batch)
	}
	a, x, y := Upload(t, q, NewStored[T](l)), UploadVector(t, q, Fill(nx*l.Batch, NaN[T]())), UploadVector(t, q, inY)
	if err := batchlas.Gemv(q, tr, From[T](0), a, x, From[T](beta), y); err != nil {
		t.Fatalf("Gemv: %v", err)
	}
	for i, v := range DownloadVector(t, q, y) {
		want := C128(From[T](beta)) * C128(inY[i])
		if beta == 0 {
			want = 0
		}
		if d := cmplx.Abs(C128(v) - want); !(d <= 4*Eps[T]()*(cmplx.Abs(want)+1)) {
			t.Fatalf("y[%d] = %v, want beta y = %v", i, v, want)
		}
	}
}

// gemvTail is the number of elements past the end of x and y: NaN in x (not to be read),
// Poison in y (not to be written).
const gemvTail = 2

// checkGemv multiplies random matrices of layout l by random vectors; with beta = 0, y holds
// NaN before the call, which must not reach the result.
func checkGemv[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, tr batchlas.Transpose, beta complex128, l Layout) {
	rng := NewRand(t)
	ny, nx := l.Rows, l.Cols
	if tr != batchlas.NoTrans {
		nx, ny = ny, nx
	}
	inA := RandStored[T](rng, l)
	inX := append(Rand[T](rng, nx*l.Batch), Fill(gemvTail, NaN[T]())...)
	inY := Fill(ny*l.Batch, NaN[T]())
	if beta != 0 {
		inY = Rand[T](rng, ny*l.Batch)
	}
	inY = append(inY, Fill(gemvTail, From[T](Poison))...)
	alphaT, betaT := From[T](Alpha), From[T](beta)
	a, x, y := Upload(t, q, inA), UploadVector(t, q, inX), UploadVector(t, q, inY)
	if err := batchlas.Gemv(q, tr, alphaT, a, x, betaT, y); err != nil {
		t.Fatalf("Gemv: %v", err)
	}
	Untouched(t, inA, Download(t, q, a, l), ReadOnly)
	if got := DownloadVector(t, q, x); !sameVector(got, inX) {
		t.Errorf("x changed")
	}
	out := DownloadVector(t, q, y)
	if tail := out[ny*l.Batch:]; !sameVector(tail, inY[ny*l.Batch:]) {
		t.Errorf("y past its batch parts changed: %v", tail)
	}

	al, be := C128(alphaT), C128(betaT)
	for _, i := range Sample(l.Batch) {
		A, xi, yi := inA.Dense(i), column(inX[i*nx:(i+1)*nx]), column(inY[i*ny:(i+1)*ny])
		want := Axpby(al, Mul(Op(tr, A), xi), be, yi)
		ref := cmplx.Abs(al) * NormF(A) * NormF(xi)
		if be != 0 {
			ref += cmplx.Abs(be) * NormF(yi)
		}
		if r := Scaled(Sub(column(out[i*ny:(i+1)*ny]), want), ref, nx, Eps[T]()); r > Tol {
			t.Fatalf("matrix %d: ||y - (alpha op(A) x + beta y)|| / (n eps (|alpha| ||A|| ||x|| + |beta| ||y||)) = %.3g > %d", i, r, Tol)
		}
	}
}

// column is x as a one-column matrix.
func column[T batchlas.Scalar](x []T) Dense {
	d := NewDense(len(x), 1)
	for i, v := range x {
		d.D[i] = C128(v)
	}
	return d
}

// sameVector reports whether x and y are equal, NaN matching NaN.
func sameVector[T batchlas.Scalar](x, y []T) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] && !(IsNaN(x[i]) && IsNaN(y[i])) {
			return false
		}
	}
	return true
}
