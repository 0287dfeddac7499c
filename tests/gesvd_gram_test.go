package tests

import (
	"math"
	"testing"

	"github.com/batchlas/batchlas"
)

// TestCUDAGesvdGram runs gesvd's members blocked:qr=0:gram=1 and blocked:qr=1:gram=1 pinned,
// at orders where they run (the shared suite's probe and shapes are below their least order,
// 32, so there they refuse): N = 32 and 48 (two and three pairs of 8-column blocks) and 64
// (two of 16), tall, square (qr=0) and wide, every job pair on one shape, the shared suite's
// special matrices, a rank-deficient batch, and NaN and Inf planted in a batch; checkGesvd
// checks residuals, orthonormality, order and info. N = 40 splits into no pairs of blocks and
// is refused.
func TestCUDAGesvdGram(t *testing.T) {
	q := cudaQueue(t)
	ForEachDType(t, q, testGesvdGram[float32, float32], testGesvdGram[float64, float64],
		testGesvdGram[complex64, float32], testGesvdGram[complex128, float64])
}

func testGesvdGram[T batchlas.Scalar, R batchlas.Real](t *testing.T, q *batchlas.Queue) {
	for _, qr := range []bool{false, true} {
		pin := "blocked:qr=0:gram=1"
		if qr {
			pin = "blocked:qr=1:gram=1"
		}
		t.Run(pin, func(t *testing.T) {
			pinFor(t, "gesvd", pin)
			l := Layout{Rows: 53, Cols: 48, LDPad: 2, Batch: 2}
			in := randStored[T](t, l, nil)
			// Every job pair in the real types; the complex ones, for the emulator's time, the
			// pairs with both factors and with none.
			jobs := svdJobs
			if _, ok := any(*new(T)).(complex64); ok {
				jobs = []batchlas.SVDJob{batchlas.SVDNone, batchlas.SVDAll}
			}
			if _, ok := any(*new(T)).(complex128); ok {
				jobs = []batchlas.SVDJob{batchlas.SVDNone, batchlas.SVDAll}
			}
			var ref []float64
			for _, ju := range jobs {
				for _, jv := range jobs {
					s := checkGesvd[T, R](t, q, ju, jv, in, nil)
					if ref == nil {
						ref = s
						continue
					}
					sameSingular(t, in, ref, s, "jobs against NN")
				}
			}
			shapes := []Layout{{Rows: 32, Cols: 45, StridePad: 3, Batch: 2}, {Rows: 70, Cols: 64, Batch: 1}}
			if !qr {
				shapes = append(shapes, Layout{Rows: 32, Cols: 32, Batch: 2})
			}
			for _, l := range shapes {
				checkGesvd[T, R](t, q, batchlas.SVDAll, batchlas.SVDAll, randStored[T](t, l, nil), nil)
			}
			// The shared suite's special matrices (known rank and singular values, graded,
			// nearly diagonal, scaled) at the least order these members take.
			testGesvdSpecials[T, R](t, q, Layout{Rows: 40, Cols: 32, LDPad: 1, Batch: 2})
			l = Layout{Rows: 48, Cols: 48, Batch: 2}
			if qr {
				l.Rows = 60
			}
			low := randStored[T](t, l, lowRank(func(k int) int { return k - 2 }))
			checkSmallSingular(t, low, checkGesvd[T, R](t, q, batchlas.SVDThin, batchlas.SVDThin, low, nil), 46)
			l = Layout{Rows: 40, Cols: 32, LDPad: 1, Batch: 5}
			planted := randStored[T](t, l, func(b int, d Dense) Dense {
				switch b {
				case 2:
					d.Set(d.R-1, d.C/2, complex(math.NaN(), 0))
				case 3:
					d.Set(0, d.C-1, complex(math.Inf(1), 0))
				}
				return d
			})
			checkGesvd[T, R](t, q, batchlas.SVDAll, batchlas.SVDThin, planted, map[int]bool{2: true, 3: true})
			a := ArgMatrix[T](t, q, 44, 40, 1)
			s, info := UploadVector(t, q, make([]R, 40)), PoisonedInfo(t, q, 1)
			WantArgErr(t, batchlas.Gesvd(q, batchlas.SVDNone, batchlas.SVDNone, a, s, nil, nil, info), "route")
		})
	}
}

// TestCUDAGesvdGramDrift: at order 256 in float32, the right factor of blocked's kernel,
// alone (gram=0) and after the block sweeps (gram=1), is orthonormal to a few N eps, far
// inside Tol. The kernel's rotations once applied c = 1/sqrt(1+t^2), which rounds to 1 for
// small angles while c^2 + s^2 = 1 + t^2, so every such rotation grew V's columns the same
// way, and over the 10^5 rotations of this order V ended 27 to 30 N eps from orthonormal.
func TestCUDAGesvdGramDrift(t *testing.T) {
	q := cudaQueue(t)
	l := Layout{Rows: 256, Cols: 256, Batch: 1}
	in := randStored[float32](t, l, nil)
	for _, pin := range []string{"blocked:qr=0:gram=0", "blocked:qr=0:gram=1"} {
		t.Run(pin, func(t *testing.T) {
			pinFor(t, "gesvd", pin)
			a, vt := Upload(t, q, in), Upload(t, q, NewStored[float32](l))
			s, info := UploadVector(t, q, make([]float32, l.Cols)), PoisonedInfo(t, q, 1)
			if err := batchlas.Gesvd(q, batchlas.SVDNone, batchlas.SVDAll, a, s, nil, vt, info); err != nil {
				t.Fatal(err)
			}
			if iv := DownloadVector(t, q, info); iv[0] != 0 {
				t.Fatalf("info %d, want 0", iv[0])
			}
			v := Download(t, q, vt, l).Dense(0)
			if r := Scaled(Sub(Mul(v, Adjoint(v)), Identity(l.Cols)), 1, l.Cols, Eps[float32]()); r > 5 {
				t.Errorf("||V^H V - I|| / (n eps) = %.3g > 5", r)
			}
		})
	}
}
