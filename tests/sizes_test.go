package tests

import (
	"errors"
	"math"
	"testing"

	"github.com/batchlas/batchlas"
)

// Sizes near and past every limit: NewMatrix, NewVector and Reserve never panic, and refuse
// what no memory holds with an error that wraps ErrInvalidArgument and names the argument;
// a refused Reserve keeps the workspace the queue had.

func TestSizesBeyondMemory(t *testing.T) {
	q, _ := ArgQueues(t)
	_, err := batchlas.NewMatrix[float64](q, 1<<24, 1<<24, 1)
	WantArgErr(t, err, "rows, cols, batch")
	_, err = batchlas.NewMatrixStrided[complex64](q, 1, 1, 1, 1<<40, 1<<12)
	WantArgErr(t, err, "rows, cols, batch")
	_, err = batchlas.NewVector[complex128](q, 1<<48)
	WantArgErr(t, err, "n")
	if err := q.Reserve(1 << 16); err != nil {
		t.Fatal(err)
	}
	WantArgErr(t, q.Reserve(1<<62), "bytes")
	WantArgErr(t, q.Reserve(math.MaxInt), "bytes")
	if n := q.WorkspaceSize(); n != 1<<16 {
		t.Errorf("after a refused Reserve the workspace is %d bytes, want the %d it had", n, 1<<16)
	}
}

// fuzzAllocCap is the most a fuzz call may really allocate: sizes between it and what the
// library must refuse on any machine (more than the 2^48 bytes Go can allocate) depend on
// the machine's memory and are left out.
const fuzzAllocCap = 1 << 26

// refusedOrSmall reports whether a request of bytes (as a float, which does not overflow) is
// one the fuzz targets make: small enough to allocate, or large enough that every machine
// refuses it.
func refusedOrSmall(bytes float64) bool { return bytes <= fuzzAllocCap || bytes > 1<<48 }

// wantInvalid fails t unless err is nil or wraps ErrInvalidArgument.
func wantInvalid(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil && !errors.Is(err, batchlas.ErrInvalidArgument) {
		t.Fatalf("%s: %v does not wrap ErrInvalidArgument", what, err)
	}
}

var sizeSeeds = []int{0, 1, -1, 2, 1 << 24, 1 << 31, 1<<31 - 1, 1 << 32, 1 << 48, 1 << 52, 1 << 62, math.MaxInt, math.MinInt, math.MaxInt32}

func FuzzNewMatrix(f *testing.F) {
	for i, s := range sizeSeeds {
		o := sizeSeeds[(i+5)%len(sizeSeeds)]
		f.Add(s, s, 0, 0, 1, uint8(i))
		f.Add(3, 4, s, 0, 2, uint8(i))
		f.Add(3, 4, 0, s, 2, uint8(i))
		f.Add(2, 2, 0, 0, s, uint8(i))
		f.Add(s, o, 0, 0, o, uint8(i))
		f.Add(s, 1, s, s, o, uint8(i))
	}
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, rows, cols, ld, stride, batch int, dtype uint8) {
		switch dtype % 4 {
		case 0:
			fuzzNewMatrix[float32](t, q, rows, cols, ld, stride, batch)
		case 1:
			fuzzNewMatrix[float64](t, q, rows, cols, ld, stride, batch)
		case 2:
			fuzzNewMatrix[complex64](t, q, rows, cols, ld, stride, batch)
		default:
			fuzzNewMatrix[complex128](t, q, rows, cols, ld, stride, batch)
		}
	})
}

// fuzzNewMatrix makes the matrix unless it would take memory only some machines have; a
// valid layout must come back with the sizes asked for.
func fuzzNewMatrix[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, rows, cols, ld, stride, batch int) {
	fl, fs := float64(ld), float64(stride)
	if ld == 0 {
		fl = math.Max(1, float64(rows))
	}
	if stride == 0 {
		fs = fl * float64(cols)
	}
	valid := rows >= 0 && cols >= 0 && batch >= 0 && fl >= math.Max(1, float64(rows)) && fs >= fl*float64(cols)
	span := 0.0
	if rows > 0 && cols > 0 && batch > 0 {
		span = (float64(batch)-1)*fs + (float64(cols)-1)*fl + float64(rows)
	}
	if valid && !refusedOrSmall(span*sizeOfT[T]()) {
		t.Skip("a size that some machines hold")
	}
	m, err := batchlas.NewMatrixStrided[T](q, rows, cols, ld, stride, batch)
	wantInvalid(t, "NewMatrixStrided", err)
	switch {
	case err == nil && !valid:
		t.Fatalf("NewMatrixStrided(%d, %d, %d, %d, %d) accepted a bad layout", rows, cols, ld, stride, batch)
	case err == nil:
		defer m.Free()
		if m.Rows() != rows || m.Cols() != cols || m.Batch() != batch {
			t.Fatalf("NewMatrixStrided(%d, %d, %d, %d, %d) made %v", rows, cols, ld, stride, batch, m)
		}
	case valid && span*sizeOfT[T]() <= fuzzAllocCap && fl <= 1<<40 && fl*float64(cols) <= 1<<40 && fs*float64(batch) <= 1<<40:
		// (Beyond 2^40, a layout the guards against offset overflow refuse although it
		// holds few elements, such as a huge batch of empty matrices, may be refused.)
		t.Fatalf("NewMatrixStrided(%d, %d, %d, %d, %d), %g bytes: %v", rows, cols, ld, stride, batch, span*sizeOfT[T](), err)
	}
}

// sizeOfT is the size of T in bytes.
func sizeOfT[T batchlas.Scalar]() float64 {
	if IsComplex[T]() {
		return 2 * sizeOfReal[T]()
	}
	return sizeOfReal[T]()
}

func sizeOfReal[T batchlas.Scalar]() float64 {
	if Eps[T]() == 0x1p-23 {
		return 4
	}
	return 8
}

func FuzzNewVector(f *testing.F) {
	for i, s := range sizeSeeds {
		f.Add(s, uint8(i))
	}
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, n int, dtype uint8) {
		size := []float64{4, 8, 8, 16, 4}[dtype%5]
		if n >= 0 && !refusedOrSmall(float64(n)*size) {
			t.Skip("a size that some machines hold")
		}
		var err error
		var free func() error
		switch dtype % 5 {
		case 0:
			v, e := batchlas.NewVector[float32](q, n)
			err, free = e, func() error { return v.Free() }
		case 1:
			v, e := batchlas.NewVector[float64](q, n)
			err, free = e, func() error { return v.Free() }
		case 2:
			v, e := batchlas.NewVector[complex64](q, n)
			err, free = e, func() error { return v.Free() }
		case 3:
			v, e := batchlas.NewVector[complex128](q, n)
			err, free = e, func() error { return v.Free() }
		default:
			v, e := batchlas.NewVector[int32](q, n)
			err, free = e, func() error { return v.Free() }
		}
		wantInvalid(t, "NewVector", err)
		switch {
		case err == nil && n < 0:
			t.Fatalf("NewVector(%d) accepted a negative length", n)
		case err == nil:
			free()
		case n >= 0 && float64(n)*size <= fuzzAllocCap:
			t.Fatalf("NewVector(%d): %v", n, err)
		}
	})
}

func FuzzReserve(f *testing.F) {
	for _, s := range sizeSeeds {
		f.Add(s)
	}
	q := FuzzQueue(f)
	f.Fuzz(func(t *testing.T, bytes int) {
		if bytes >= 0 && !refusedOrSmall(float64(bytes)) {
			t.Skip("a size that some machines hold")
		}
		before := q.WorkspaceSize()
		err := q.Reserve(bytes)
		wantInvalid(t, "Reserve", err)
		switch after := q.WorkspaceSize(); {
		case err != nil && after != before:
			t.Fatalf("a refused Reserve(%d) changed the workspace from %d to %d bytes", bytes, before, after)
		case err == nil && after < bytes:
			t.Fatalf("Reserve(%d) left %d bytes", bytes, after)
		case err != nil && bytes >= 0 && bytes <= fuzzAllocCap:
			t.Fatalf("Reserve(%d): %v", bytes, err)
		}
	})
}

// FuzzView takes views and slices of a padded matrix and of a vector with indices near and
// past every bound: each is refused with ErrInvalidArgument or holds exactly the elements it
// names.
func FuzzView(f *testing.F) {
	for i, s := range sizeSeeds {
		o := sizeSeeds[(i+3)%len(sizeSeeds)]
		f.Add(s, 0, 1, 1, 0, 1)
		f.Add(0, s, 1, 1, 1, 2)
		f.Add(1, 1, s, o, s, o)
		f.Add(o, s, 0, 0, o, s)
	}
	f.Add(1, 1, 4, 3, 1, 3)
	q := FuzzQueue(f)
	const rows, cols, batch = 5, 4, 3
	l := Layout{Rows: rows, Cols: cols, LDPad: 2, StridePad: 3, Batch: batch}
	s := RandStored[float64](NewRand(f), l)
	a := Upload(f, q, s)
	x := UploadVector(f, q, Rand[float64](NewRand(f), 7))
	f.Fuzz(func(t *testing.T, i, j, r, c, from, to int) {
		v, err := a.View(i, j, r, c)
		wantInvalid(t, "View", err)
		if err == nil {
			if i < 0 || j < 0 || r < 0 || c < 0 || i > rows || j > cols || r > rows-i || c > cols-j {
				t.Fatalf("View(%d, %d, %d, %d) of a %dx%d matrix accepted", i, j, r, c, rows, cols)
			}
			got, err := v.Download(nil)
			if err != nil {
				t.Fatal(err)
			}
			for k, g := range got {
				b, jj, ii := k/(r*c), k/r%c, k%r
				if w := s.At(b, i+ii, j+jj); g != w {
					t.Fatalf("View(%d, %d, %d, %d): element (%d, %d) of matrix %d is %v, want %v", i, j, r, c, ii, jj, b, g, w)
				}
			}
		}
		m, err := a.Slice(from, to)
		wantInvalid(t, "Slice", err)
		if err == nil && (from < 0 || to < from || to > batch || m.Batch() != to-from) {
			t.Fatalf("Slice(%d, %d) of a batch of %d accepted, batch %d", from, to, batch, m.Batch())
		}
		y, err := x.Slice(from, to)
		wantInvalid(t, "Vector.Slice", err)
		if err == nil && (from < 0 || to < from || to > x.Len() || y.Len() != to-from) {
			t.Fatalf("Vector.Slice(%d, %d) of length %d accepted, length %d", from, to, x.Len(), y.Len())
		}
	})
}
