package tests

import (
	"fmt"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/batchlas/batchlas"
)

func TestSpmm(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testSpmm[float32], testSpmm[float64], testSpmm[complex64], testSpmm[complex128])
	})
}

// Sparsity patterns of the Spmm tests.
const (
	// spEqual: sorted unique columns, the same nnz in every matrix (cuSPARSE's batched form).
	spEqual = iota
	// spVaried: sorted unique columns; empty rows, full rows, rows longer than a warp, and
	// (batch > 1) one matrix with no entries, so nnz differs across the batch.
	spVaried
	// spRepeats: columns unsorted and repeated within rows, which add up.
	spRepeats
	// spNone: no entries in any matrix.
	spNone
	// spSameRows: sorted unique columns, as many in each row as in that row of matrix 0 (the
	// one form the vendor family runs as a single strided-batched cuSPARSE call), the columns
	// drawn afresh in every matrix.
	spSameRows
)

var spNames = []string{"equal", "varied", "repeats", "none", "samerows"}

// spmmShape is A stored rows-by-cols, B's columns n (of op(B)), the padding of B and C, the
// batch and the pattern of A.
type spmmShape struct{ rows, cols, n, ldPad, stridePad, batch, pattern int }

var spmmShapes = []spmmShape{
	{3, 4, 2, 0, 0, 0, spVaried}, {0, 3, 2, 0, 0, 2, spNone}, {3, 0, 2, 1, 0, 2, spNone}, {4, 3, 0, 0, 0, 2, spEqual},
	{4, 5, 3, 1, 2, 2, spNone}, {5, 7, 3, 1, 2, 3, spVaried}, {6, 4, 1, 0, 0, 2, spEqual}, {9, 6, 5, 2, 1, 2, spRepeats},
	{7, 5, 1, 0, 3, 3, spRepeats}, {33, 40, 35, 1, 0, 2, spVaried}, {4, 4, 2, 0, 0, 40, spEqual},
	{5, 6, 3, 1, 2, 4, spSameRows}, {6, 5, 1, 0, 0, 3, spSameRows},
}

func testSpmm[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	for _, tA := range Transposes {
		for _, tB := range Transposes {
			for _, beta := range []complex128{Beta, 0} {
				for _, s := range spmmShapes {
					t.Run(fmt.Sprintf("%v%v_beta%v_%dx%d_n%d_ld+%d_st+%d_b%d_%s", tA, tB, beta, s.rows, s.cols, s.n, s.ldPad,
						s.stridePad, s.batch, spNames[s.pattern]), func(t *testing.T) {
						checkSpmm[T](t, q, tA, tB, From[T](Alpha), beta, s)
					})
				}
			}
		}
	}
	t.Run("alpha0", func(t *testing.T) { checkSpmmAlphaZero[T](t, q) })
}

// sparseBatch is a batch of sparse matrices as NewCSR takes them.
type sparseBatch[T batchlas.Scalar] struct {
	rows, cols     int
	rowPtr, colIdx [][]int32
	values         [][]T
}

// randSparse makes a batch of the given pattern with Rand values.
func randSparse[T batchlas.Scalar](rng *rand.Rand, rows, cols, batch, pattern int) sparseBatch[T] {
	s := sparseBatch[T]{rows: rows, cols: cols, rowPtr: make([][]int32, batch), colIdx: make([][]int32, batch), values: make([][]T, batch)}
	equal := rows * cols / 3
	var lens []int // spSameRows: the rows' lengths
	for b := range batch {
		var rowCols [][]int32 // the columns of each row
		switch {
		case pattern == spSameRows:
			if b == 0 {
				lens = make([]int, rows)
				for i := range lens {
					lens[i] = rng.IntN(cols + 1)
				}
			}
			rowCols = make([][]int32, rows)
			for i, l := range lens {
				for _, j := range rng.Perm(cols)[:l] {
					rowCols[i] = append(rowCols[i], int32(j))
				}
				slices.Sort(rowCols[i])
			}
		case pattern == spEqual:
			rowCols = make([][]int32, rows)
			for _, k := range rng.Perm(rows * cols)[:equal] {
				rowCols[k/cols] = append(rowCols[k/cols], int32(k%cols))
			}
			for _, r := range rowCols {
				slices.Sort(r)
			}
		case pattern == spNone || pattern == spVaried && b == 1:
			rowCols = make([][]int32, rows)
		case pattern == spVaried:
			for i := range rows {
				var r []int32
				for j := range cols {
					if i%4 == 1 || i%4 > 1 && rng.Float64() < 0.3 { // rows 0, 4, ... stay empty
						r = append(r, int32(j))
					}
				}
				rowCols = append(rowCols, r)
			}
		default: // spRepeats: drawn with replacement, in drawing order
			for range rows {
				var r []int32
				for range rng.IntN(cols + 3) {
					r = append(r, int32(rng.IntN(max(cols, 1))))
				}
				if cols == 0 {
					r = nil
				}
				rowCols = append(rowCols, r)
			}
		}
		ptr := []int32{0}
		for _, r := range rowCols {
			s.colIdx[b] = append(s.colIdx[b], r...)
			ptr = append(ptr, int32(len(s.colIdx[b])))
		}
		s.rowPtr[b] = ptr
		s.values[b] = Rand[T](rng, len(s.colIdx[b]))
	}
	return s
}

// dense expands matrix b, repeated entries summed, and the same with the entries' moduli
// (the scale of the rounding of those sums).
func (s sparseBatch[T]) dense(b int) (a, abs Dense) {
	a, abs = NewDense(s.rows, s.cols), NewDense(s.rows, s.cols)
	for i := range s.rows {
		for p := s.rowPtr[b][i]; p < s.rowPtr[b][i+1]; p++ {
			j, v := int(s.colIdx[b][p]), C128(s.values[b][p])
			a.Set(i, j, a.At(i, j)+v)
			abs.Set(i, j, abs.At(i, j)+complex(cmplx.Abs(v), 0))
		}
	}
	return a, abs
}

func (s sparseBatch[T]) upload(t testing.TB, q *batchlas.Queue) *batchlas.CSR[T] {
	t.Helper()
	a, err := batchlas.NewCSR(q, s.rows, s.cols, s.rowPtr, s.colIdx, s.values)
	if err != nil {
		t.Fatalf("NewCSR: %v", err)
	}
	t.Cleanup(func() { a.Free() })
	return a
}

// checkSpmm multiplies a random sparse A by a random B whose gaps hold NaN; with beta = 0, C
// holds NaN before the call, which must not reach the result. Each matrix is checked
// against the dense product of A expanded.
func checkSpmm[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, tA, tB batchlas.Transpose, alpha T, beta complex128, s spmmShape) {
	rng := NewRand(t)
	sp := randSparse[T](rng, s.rows, s.cols, s.batch, s.pattern)
	m, k := s.rows, s.cols
	if tA != batchlas.NoTrans {
		m, k = k, m
	}
	inB := RandStored[T](rng, opLayout(tB, k, s.n, s.ldPad+1, s.stridePad, s.batch))
	lc := Layout{Rows: m, Cols: s.n, LDPad: s.ldPad, StridePad: s.stridePad, Batch: s.batch}
	inC := NewStored[T](lc)
	if beta != 0 {
		inC = RandStored[T](rng, lc)
	}
	betaT := From[T](beta)
	a, b, c := sp.upload(t, q), Upload(t, q, inB), Upload(t, q, inC)
	if err := batchlas.Spmm(q, tA, tB, alpha, a, b, betaT, c); routeRefused(err) {
		t.Skipf("pinned family refuses: %v", err) // only under a pin
	} else if SkipMiss(t, q, "spmm", err); err != nil {
		t.Fatalf("Spmm: %v", err)
	}
	Untouched(t, inB, Download(t, q, b, inB.Layout), ReadOnly)
	out := Download(t, q, c, lc)
	Untouched(t, inC, out, nil)

	al, be := C128(alpha), C128(betaT)
	for _, i := range Sample(s.batch) {
		A, absA := sp.dense(i)
		B := inB.Dense(i)
		want := Axpby(al, Mul(Op(tA, A), Op(tB, B)), be, inC.Dense(i))
		ref := cmplx.Abs(al) * NormF(absA) * NormF(B)
		if be != 0 {
			ref += cmplx.Abs(be) * NormF(inC.Dense(i))
		}
		if r := Scaled(Sub(out.Dense(i), want), ref, k, Eps[T]()); r > Tol {
			t.Fatalf("matrix %d: ||C - (alpha op(A) op(B) + beta C)|| / (k eps (|alpha| ||A|| ||B|| + |beta| ||C||)) = %.3g > %d", i, r, Tol)
		}
	}
}

// checkSpmmAlphaZero: with alpha = 0, A's values and all of B are NaN and must not be read;
// C becomes beta C, and exactly zero for beta = 0 although it held NaN.
func checkSpmmAlphaZero[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	rng := NewRand(t)
	sp := randSparse[T](rng, 6, 5, 3, spVaried)
	for b := range sp.values {
		for p := range sp.values[b] {
			sp.values[b][p] = NaN[T]()
		}
	}
	a := sp.upload(t, q)
	for _, tr := range [][2]batchlas.Transpose{{batchlas.NoTrans, batchlas.NoTrans}, {batchlas.ConjTrans, batchlas.Trans}} {
		m := 6
		if tr[0] != batchlas.NoTrans {
			m = 5
		}
		k := 11 - m
		lb := opLayout(tr[1], k, 4, 1, 2, 3)
		b := Upload(t, q, NewStored[T](lb))
		for _, beta := range []complex128{Beta, 0} {
			lc := Layout{Rows: m, Cols: 4, LDPad: 2, StridePad: 1, Batch: 3}
			inC := NewStored[T](lc)
			if beta != 0 {
				inC = RandStored[T](rng, lc)
			}
			c := Upload(t, q, inC)
			if err := batchlas.Spmm(q, tr[0], tr[1], 0, a, b, From[T](beta), c); routeRefused(err) {
				t.Skipf("pinned family refuses: %v", err)
			} else if SkipMiss(t, q, "spmm", err); err != nil {
				t.Fatalf("Spmm %v%v beta %v: %v", tr[0], tr[1], beta, err)
			}
			out := Download(t, q, c, lc)
			Untouched(t, inC, out, nil)
			be := C128(From[T](beta))
			for i := range lc.Batch {
				want, ref := Axpby(0, NewDense(m, 4), be, inC.Dense(i)), 0.0 // beta = 0: exactly zero
				if be != 0 {
					ref = cmplx.Abs(be) * NormF(inC.Dense(i))
				}
				if r := Scaled(Sub(out.Dense(i), want), ref, 1, Eps[T]()); r > Tol {
					t.Fatalf("%v%v beta %v, matrix %d: ||C - beta C|| / (eps |beta| ||C||) = %.3g > %d", tr[0], tr[1], beta, i, r, Tol)
				}
			}
		}
	}
}

// TestCSR checks the batch's accessors and that Download returns what NewCSR took, and that
// CSRFromDense keeps exactly the nonzeros, in sorted order.
func TestCSR(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		rng := NewRand(t)
		sp := randSparse[complex64](rng, 5, 4, 3, spRepeats)
		a := sp.upload(t, q)
		if a.Rows() != 5 || a.Cols() != 4 || a.Batch() != 3 || a.Queue() != q {
			t.Errorf("%v: wrong accessors", a)
		}
		total := 0
		for _, c := range sp.colIdx {
			total += len(c)
		}
		if got, want := a.String(), fmt.Sprintf("CSR[c64](5x4 batch=3 nnz=%d)", total); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
		if got := (&batchlas.CSR[complex64]{}).String(); got != "CSR[c64](0x0 batch=0 nnz=0)" {
			t.Errorf("String() of a zero CSR = %q", got)
		}
		for b, n := range a.NNZ() {
			if n != len(sp.colIdx[b]) {
				t.Errorf("NNZ()[%d] = %d, want %d", b, n, len(sp.colIdx[b]))
			}
		}
		rp, ci, vs, err := a.Download()
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(rp, ci, vs) != fmt.Sprint(sp.rowPtr, sp.colIdx, sp.values) {
			t.Errorf("Download = %v %v %v, want %v %v %v", rp, ci, vs, sp.rowPtr, sp.colIdx, sp.values)
		}

		dense := []float64{0, 2, 0, 0, 3, 0, 1, 0, nan(), 0, 0, 0} // two 3x2 matrices, column-major
		d, err := batchlas.CSRFromDense(q, 3, 2, 2, dense)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Free()
		rp2, ci2, vs2, err := d.Download()
		if err != nil {
			t.Fatal(err)
		}
		want := "[[0 0 2 2] [0 1 1 2]] [[0 1] [0 0]] [[2 3] [1 NaN]]"
		if got := fmt.Sprint(rp2, ci2, vs2); got != want {
			t.Errorf("CSRFromDense: %s, want %s", got, want)
		}
		if err := a.Free(); err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := a.Download(); err == nil {
			t.Error("Download after Free: no error")
		}
	})
}

// TestSpmmVendorRefuses checks, on a GPU, that the vendor family takes cuSPARSE's form and
// declines exactly the calls cuSPARSE gets wrong or cannot take: under the vendor pin, which
// falls back to the router's choice, those run on another family.
func TestSpmmVendorRefuses(t *testing.T) {
	q := cudaQueue(t)
	if emulated(q) {
		t.Skip("the emulator runs no vendor library")
	}
	if novendor {
		t.Skip("the novendor build has no vendor family")
	}
	pinFor(t, "spmm", "vendor")
	cases := []struct {
		name   string
		vendor bool
		run    func() error
	}{
		{"f64 sorted, equal nnz", true, spmmRouted[float64](t, q, spEqual, batchlas.NoTrans, batchlas.NoTrans, 3)},
		{"f64 sorted, the same rows' lengths", true, spmmRouted[float64](t, q, spSameRows, batchlas.NoTrans, batchlas.NoTrans, 3)},
		{"f64 repeated columns", false, spmmRouted[float64](t, q, spRepeats, batchlas.NoTrans, batchlas.NoTrans, 3)},
		{"f64 nnz differs", false, spmmRouted[float64](t, q, spVaried, batchlas.NoTrans, batchlas.NoTrans, 3)},
		{"c64 op(B) = B^H, one column", false, spmmRouted[complex64](t, q, spEqual, batchlas.NoTrans, batchlas.ConjTrans, 1)},
		{"c64 op(B) = B^H, two columns", true, spmmRouted[complex64](t, q, spEqual, batchlas.NoTrans, batchlas.ConjTrans, 2)},
		{"c128 N/N, one column", false, spmmRouted[complex128](t, q, spEqual, batchlas.NoTrans, batchlas.NoTrans, 1)},
		{"c128 T/N, one column", true, spmmRouted[complex128](t, q, spEqual, batchlas.Trans, batchlas.NoTrans, 1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := traced(t, c.run)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(out, "-> vendor "); got != c.vendor {
				t.Errorf("vendor chosen: %v, want %v:\n%s", got, c.vendor, out)
			}
		})
	}
}

// spmmRouted returns a call of Spmm on a 6x5 batch of 3 of the given pattern with n columns.
func spmmRouted[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, pattern int, tA, tB batchlas.Transpose, n int) func() error {
	rng := NewRand(t)
	a := randSparse[T](rng, 6, 5, 3, pattern).upload(t, q)
	m, k := 6, 5
	if tA != batchlas.NoTrans {
		m, k = k, m
	}
	b := Upload(t, q, RandStored[T](rng, opLayout(tB, k, n, 0, 0, 3)))
	c := Upload(t, q, NewStored[T](Layout{Rows: m, Cols: n, Batch: 3}))
	return func() error { return batchlas.Spmm(q, tA, tB, 1, a, b, 0, c) }
}
