package tests

import (
	"fmt"
	"testing"

	"github.com/batchlas/batchlas"
)

func TestOrmqr(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testOrmqr[float32], testOrmqr[float64], testOrmqr[complex64], testOrmqr[complex128])
	})
}

// ormqrShape is Q's order nq, the number of reflectors k and the other dimension of C.
type ormqrShape struct{ nq, k, other int }

func testOrmqr[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	transes := []batchlas.Transpose{batchlas.NoTrans, batchlas.ConjTrans}
	if !IsComplex[T]() {
		transes = append(transes, batchlas.Trans)
	}
	// 40 reflectors take gonum's blocked path for float64.
	// {4, 3, 600}: more columns (of C, or of C^H) than "cta" has lane groups.
	shapes := []ormqrShape{{1, 1, 1}, {1, 0, 3}, {5, 3, 4}, {7, 7, 2}, {16, 16, 16}, {40, 36, 9}, {4, 3, 600}}
	for _, side := range []batchlas.Side{batchlas.Left, batchlas.Right} {
		for _, trans := range transes {
			name := fmt.Sprintf("%v%v", side, trans)
			for _, s := range shapes {
				for _, l := range RectLayouts(4, cShape(side, s)) {
					t.Run(fmt.Sprintf("%s_%v_k%d", name, l, s.k), func(t *testing.T) {
						checkOrmqr[T](t, q, side, trans, s.k, l, nil)
					})
				}
			}
			for _, l := range []Layout{{Rows: 0, Cols: 0, Batch: 2}, {Rows: 4, Cols: 4, Batch: 0}, cLayout(side, ormqrShape{4, 2, 0}, 3)} {
				t.Run(fmt.Sprintf("%s_empty_%v", name, l), func(t *testing.T) {
					checkOrmqr[T](t, q, side, trans, min(l.Rows, l.Cols, 2), l, nil)
				})
			}
		}
	}
	// Q of the largest order the pinned family accepts, from both sides.
	for _, side := range []batchlas.Side{batchlas.Left, batchlas.Right} {
		t.Run(fmt.Sprintf("limit_%v", side), func(t *testing.T) {
			n := limitOrder(t, func(n int) error {
				a, tau, c := probeMatrix[T](q, n, n, 1), probeVector[T](q, n), probeMatrix[T](q, n, n, 1)
				defer a.Free()
				defer tau.Free()
				defer c.Free()
				_, err := batchlas.OrmqrBufferSize(q, side, batchlas.ConjTrans, n, a, tau, c)
				return err
			})
			checkOrmqr[T](t, q, side, batchlas.ConjTrans, n, Layout{Rows: n, Cols: n, LDPad: 1, StridePad: 3, Batch: 2}, nil)
		})
	}
	// Past what "cta" holds in shared memory for every dtype: "blocked" groups the
	// reflectors (and, for complex128, cuts C in chunks too); k < nq as well.
	for _, s := range []ormqrShape{{150, 140, 140}, {240, 240, 30}, {240, 200, 30}} {
		for _, side := range []batchlas.Side{batchlas.Left, batchlas.Right} {
			for _, trans := range []batchlas.Transpose{batchlas.NoTrans, batchlas.ConjTrans} {
				c := cShape(side, s)
				l := Layout{Rows: c[0], Cols: c[1], LDPad: 1, StridePad: 3, Batch: 2}
				t.Run(fmt.Sprintf("large_%v%v_%v_k%d", side, trans, l, s.k), func(t *testing.T) {
					checkOrmqr[T](t, q, side, trans, s.k, l, nil)
				})
			}
		}
	}
	// Batches that leave the last block part empty: "cta" packs 16-by-16 matrices four a block.
	for _, side := range []batchlas.Side{batchlas.Left, batchlas.Right} {
		for _, batch := range []int{3, 1029} {
			t.Run(fmt.Sprintf("packed_%v_batch%d", side, batch), func(t *testing.T) {
				checkOrmqr[T](t, q, side, batchlas.ConjTrans, 16, Layout{Rows: 16, Cols: 16, LDPad: 1, Batch: batch}, nil)
			})
		}
	}
	t.Run("saturating_nan", func(t *testing.T) {
		checkOrmqr[T](t, q, batchlas.Right, batchlas.ConjTrans, 4, Layout{Rows: 3, Cols: 6, LDPad: 1, Batch: 1024}, map[int]bool{300: true, 1023: true})
	})
}

// cShape is the shape of C for a side.
func cShape(side batchlas.Side, s ormqrShape) [2]int {
	if side == batchlas.Left {
		return [2]int{s.nq, s.other}
	}
	return [2]int{s.other, s.nq}
}

func cLayout(side batchlas.Side, s ormqrShape, batch int) Layout {
	c := cShape(side, s)
	return Layout{Rows: c[0], Cols: c[1], Batch: batch}
}

// checkOrmqr applies Q, from the QR factorization of random nq-by-k matrices, to C of layout
// l, and compares with the explicit Q formed on the host from the same reflectors (as T holds
// them), so that no family of Orgqr need run the reference. a holds one column more than k and is
// NaN wherever Ormqr may not read; it must come back unchanged. nanAt marks matrices of C
// given a NaN: their result must hold NaN.
func checkOrmqr[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, side batchlas.Side, trans batchlas.Transpose, k int, l Layout, nanAt map[int]bool) {
	nq := l.Rows
	if side == batchlas.Right {
		nq = l.Cols
	}
	_, f, tau := qrOf[T](t, q, RandDense[T], nq, k, l.Batch)
	// The reflectors for Ormqr.
	al := Layout{Rows: nq, Cols: k + 1, LDPad: 2, Batch: l.Batch}
	ain := NewStored[T](al)
	var tauT []T
	for b := 0; b < l.Batch; b++ {
		for j := 0; j < k; j++ {
			for i := j + 1; i < nq; i++ {
				ain.Set(b, i, j, From[T](f[b].At(i, j)))
			}
			tauT = append(tauT, From[T](tau[b][j]))
		}
	}
	tv := UploadVector(t, q, tauT)

	rng := NewRand(t)
	cin := NewStored[T](l)
	for b := 0; b < l.Batch; b++ {
		c := RandDense[T](rng, l.Rows, l.Cols)
		if nanAt[b] {
			c.Set(l.Rows-1, 0, complex(nan(), 0))
		}
		cin.SetDense(b, c)
	}
	a := Upload(t, q, ain)
	c := Upload(t, q, cin)
	if err := batchlas.Ormqr(q, side, trans, k, a, tv, c); routeRefused(err) {
		t.Skipf("pinned family refuses %v: %v", l, err) // a family limited in size
	} else if err != nil {
		t.Fatalf("Ormqr: %v", err)
	}
	out := Download(t, q, c, l)
	Untouched(t, cin, out, nil)
	Untouched(t, ain, Download(t, q, a, al), func(b, i, j int) bool { return false })
	if got := DownloadVector(t, q, tv); fmt.Sprint(got) != fmt.Sprint(tauT) {
		t.Errorf("tau was written")
	}
	check := Sample(l.Batch)
	for b := range nanAt {
		if !hasNaN(out, b) {
			t.Errorf("matrix %d of c holds NaN: none in the result", b)
		}
		check = append(check, b-1, b+1)
	}
	for _, b := range check {
		if b < 0 || b >= l.Batch || nanAt[b] {
			continue
		}
		opQ := QFromReflectors(f[b], tau[b])
		if trans != batchlas.NoTrans {
			opQ = Adjoint(opQ)
		}
		cb := cin.Dense(b)
		var want Dense
		if side == batchlas.Left {
			want = Mul(opQ, cb)
		} else {
			want = Mul(cb, opQ)
		}
		if r := Scaled(Sub(out.Dense(b), want), NormF(cb), nq, Eps[T]()); r > Tol {
			t.Fatalf("matrix %d: ||result - op(Q) C|| / (nq eps ||C||) = %.3g > %d", b, r, Tol)
		}
	}
}
