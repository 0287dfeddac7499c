package tests

import (
	"math"
	"testing"

	"github.com/batchlas/batchlas"
)

// transferLayouts are the stored layouts the one-matrix and row-major copies are tested on:
// packed, ld > rows, and stride > ld*cols, square and not.
var transferLayouts = []Layout{
	{Rows: 3, Cols: 5, Batch: 4},
	{Rows: 5, Cols: 3, LDPad: 2, Batch: 4},
	{Rows: 4, Cols: 4, LDPad: 1, StridePad: 3, Batch: 3},
	{Rows: 1, Cols: 6, StridePad: 2, Batch: 2},
}

// TestUploadMatrix writes one matrix of a poisoned batch from column- and row-major host data
// with a padded leading dimension: matrix b must hold the data bitwise, and every other
// stored element (other matrices, gaps) must still be poison. DownloadMatrix must read it
// back bitwise and leave the host gaps alone.
func TestUploadMatrix(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testUploadMatrix[float32], testUploadMatrix[float64], testUploadMatrix[complex64], testUploadMatrix[complex128])
	})
}

func testUploadMatrix[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	rng := NewRand(t)
	for _, l := range transferLayouts {
		for _, order := range []batchlas.Order{batchlas.ColMajor, batchlas.RowMajor} {
			b := l.Batch - 2
			inner, outer := l.Rows, l.Cols
			if order == batchlas.RowMajor {
				inner, outer = l.Cols, l.Rows
			}
			ld := inner + 2
			src := Rand[T](rng, (outer-1)*ld+inner)
			at := func(i, j int) T {
				if order == batchlas.RowMajor {
					return src[i*ld+j]
				}
				return src[j*ld+i]
			}
			before := NewStored[T](l)
			m := Upload(t, q, before)
			if err := m.UploadMatrix(b, order, src, ld); err != nil {
				t.Fatalf("%v %v: UploadMatrix: %v", l, order, err)
			}
			got := Download(t, q, m, l)
			Untouched(t, before, got, func(bb, i, j int) bool { return bb == b })
			for j := 0; j < l.Cols; j++ {
				for i := 0; i < l.Rows; i++ {
					if !sameBits(got.At(b, i, j), at(i, j)) {
						t.Fatalf("%v %v: element (%d, %d) of matrix %d is %v, uploaded %v", l, order, i, j, b, got.At(b, i, j), at(i, j))
					}
				}
			}
			sentinel := Fill(len(src), From[T](-1))
			back, err := m.DownloadMatrix(b, order, sentinel, ld)
			if err != nil {
				t.Fatalf("%v %v: DownloadMatrix: %v", l, order, err)
			}
			for k := range src {
				want := src[k]
				if k%ld >= inner { // a gap between rows or columns of the host data
					want = From[T](-1)
				}
				if !sameBits(back[k], want) {
					t.Fatalf("%v %v: DownloadMatrix element %d is %v, want %v", l, order, k, back[k], want)
				}
			}
			m.Free()
		}
	}
}

// TestRowMajorBatch uploads a whole batch in row-major order into a padded matrix: element
// (i, j) of matrix b must land at (i, j) of matrix b, the gaps must stay poison, and
// DownloadRowMajor must give the data back bitwise.
func TestRowMajorBatch(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		ForEachDType(t, q, testRowMajorBatch[float32], testRowMajorBatch[float64], testRowMajorBatch[complex64], testRowMajorBatch[complex128])
	})
}

func testRowMajorBatch[T batchlas.Scalar](t *testing.T, q *batchlas.Queue) {
	rng := NewRand(t)
	for _, l := range append(transferLayouts, Empty()...) {
		src := Rand[T](rng, l.Rows*l.Cols*l.Batch)
		before := NewStored[T](l)
		m := Upload(t, q, before)
		if err := m.UploadRowMajor(src); err != nil {
			t.Fatalf("%v: UploadRowMajor: %v", l, err)
		}
		got := Download(t, q, m, l)
		Untouched(t, before, got, nil)
		for b := 0; b < l.Batch; b++ {
			for i := 0; i < l.Rows; i++ {
				for j := 0; j < l.Cols; j++ {
					if want := src[b*l.Rows*l.Cols+i*l.Cols+j]; !sameBits(got.At(b, i, j), want) {
						t.Fatalf("%v: element (%d, %d) of matrix %d is %v, want %v", l, i, j, b, got.At(b, i, j), want)
					}
				}
			}
		}
		back, err := m.DownloadRowMajor(nil)
		if err != nil {
			t.Fatalf("%v: DownloadRowMajor: %v", l, err)
		}
		if !allSameBits(back, src) {
			t.Fatalf("%v: DownloadRowMajor differs from what UploadRowMajor took", l)
		}
		m.Free()
	}
}

// TestVectorParts checks that Part reads and writes matrix b's elements of a per-matrix
// vector and nothing else, and that DownloadParts splits the vector by matrix.
func TestVectorParts(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		const per, batch = 3, 5
		x := make([]int32, per*batch+2) // two trailing elements belong to no matrix
		for k := range x {
			x[k] = int32(k)
		}
		v := UploadVector(t, q, x)
		defer v.Free()
		parts, err := v.DownloadParts(per)
		if err != nil {
			t.Fatal(err)
		}
		if len(parts) != batch {
			t.Fatalf("DownloadParts gave %d parts, want %d", len(parts), batch)
		}
		for b, p := range parts {
			for k, e := range p {
				if e != int32(b*per+k) {
					t.Fatalf("part %d element %d is %d, want %d", b, k, e, b*per+k)
				}
			}
		}
		p, err := v.Part(2, per)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Upload([]int32{-1, -2, -3}); err != nil {
			t.Fatal(err)
		}
		got := DownloadVector(t, q, v)
		for k := range got {
			want := x[k]
			if k/per == 2 && k < per*batch {
				want = int32(-1 - k%per)
			}
			if got[k] != want {
				t.Fatalf("after Part(2).Upload, element %d is %d, want %d", k, got[k], want)
			}
		}
	})
}

// TestTransferArgs checks the rejected copies: each names its argument and writes nothing.
func TestTransferArgs(t *testing.T) {
	q, _ := ArgQueues(t)
	m := ArgMatrix[float64](t, q, 3, 2, 4)
	v := UploadVector(t, q, Fill(7, int32(Poison)))
	src := make([]float64, 6)
	cases := []ArgCase{
		{"b<0", "b", func() error { return m.UploadMatrix(-1, batchlas.ColMajor, src, 0) }},
		{"b=batch", "b", func() error { return m.UploadMatrix(4, batchlas.ColMajor, src, 0) }},
		{"order", "order", func() error { return m.UploadMatrix(0, 'X', src, 0) }},
		{"ld<rows", "ld", func() error { return m.UploadMatrix(0, batchlas.ColMajor, src, 2) }},
		{"ld<cols", "ld", func() error { return m.UploadMatrix(0, batchlas.RowMajor, src, 1) }},
		{"short", "src", func() error { return m.UploadMatrix(0, batchlas.ColMajor, src[:5], 0) }},
		{"short ld", "src", func() error { return m.UploadMatrix(0, batchlas.RowMajor, src, 3) }},
		{"nil m", "m", func() error { return (*batchlas.Matrix[float64])(nil).UploadMatrix(0, batchlas.ColMajor, src, 0) }},
		{"nil m Upload", "m", func() error { return (*batchlas.Matrix[float64])(nil).Upload(src) }},
		{"nil v Download", "v", func() error { _, err := (*batchlas.Vector[int32])(nil).Download(nil); return err }},
		{"download b", "b", func() error { _, err := m.DownloadMatrix(4, batchlas.RowMajor, nil, 0); return err }},
		{"download ld", "ld", func() error { _, err := m.DownloadMatrix(0, batchlas.RowMajor, nil, 1); return err }},
		{"row-major length", "src", func() error { return m.UploadRowMajor(make([]float64, 25)) }},
		{"row-major nil m", "m", func() error { _, err := (*batchlas.Matrix[float64])(nil).DownloadRowMajor(nil); return err }},
		{"part b", "b, per", func() error { _, err := v.Part(3, 2); return err }},
		{"part per", "b, per", func() error { _, err := v.Part(0, -1); return err }},
		{"parts per", "per", func() error { _, err := v.DownloadParts(0); return err }},
	}
	RunArgCases(t, q, cases, Watch(m), Watch(v))
}

// sameBits reports whether x and y have the same bits.
func sameBits[T batchlas.Scalar](x, y T) bool {
	switch a := any(x).(type) {
	case float32:
		return math.Float32bits(a) == math.Float32bits(any(y).(float32))
	case float64:
		return math.Float64bits(a) == math.Float64bits(any(y).(float64))
	case complex64:
		b := any(y).(complex64)
		return sameBits(real(a), real(b)) && sameBits(imag(a), imag(b))
	}
	a, b := any(x).(complex128), any(y).(complex128)
	return sameBits(real(a), real(b)) && sameBits(imag(a), imag(b))
}

func allSameBits[T batchlas.Scalar](x, y []T) bool {
	if len(x) != len(y) {
		return false
	}
	for k := range x {
		if !sameBits(x[k], y[k]) {
			return false
		}
	}
	return true
}
