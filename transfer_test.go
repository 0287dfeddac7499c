package batchlas

import (
	"testing"
	"unsafe"
)

// countingEngine is a device engine whose memory is a Go arena; it records the device byte
// range of every copy, so that a test can see what moved.
type countingEngine struct {
	hostEngine
	mem    []byte
	next   uintptr
	copies [][2]uintptr // [first byte, one past the last) of each upload or download
}

func (e *countingEngine) alloc(bytes int) (uintptr, error) {
	p := e.next + 64 // address 0 means no memory
	e.next = p + uintptr(bytes)
	if int(e.next) > len(e.mem) {
		e.mem = append(e.mem, make([]byte, int(e.next)-len(e.mem))...)
	}
	return p, nil
}

func (e *countingEngine) free(uintptr) error { return nil }

func (e *countingEngine) upload(dst uintptr, src []byte) error {
	e.copies = append(e.copies, [2]uintptr{dst, dst + uintptr(len(src))})
	copy(e.mem[dst:], src)
	return nil
}

func (e *countingEngine) download(dst []byte, src uintptr) error {
	e.copies = append(e.copies, [2]uintptr{src, src + uintptr(len(dst))})
	copy(dst, e.mem[src:])
	return nil
}

// TestOneMatrixMovesOnlyItsBytes checks that UploadMatrix and DownloadMatrix on a device
// queue copy only matrix b's storage, packed or padded, in either order, and that a packed
// whole-batch copy is a single transfer.
func TestOneMatrixMovesOnlyItsBytes(t *testing.T) {
	e := &countingEngine{}
	q := &Queue{eng: e, dev: e.device(), allocs: map[*allocation]struct{}{}}
	const rows, cols, batch, b = 3, 4, 5, 2
	for _, ld := range []int{rows, rows + 2} {
		m, err := NewMatrixStrided[float64](q, rows, cols, ld, ld*cols+7, batch)
		if err != nil {
			t.Fatal(err)
		}
		es := uintptr(sizeOf[float64]())
		first := m.devPtr() + uintptr(b*m.Stride())*es
		last := first + uintptr((cols-1)*ld+rows)*es
		src := make([]float64, rows*cols)
		for k := range src {
			src[k] = float64(k + 1)
		}
		for _, order := range []Order{ColMajor, RowMajor} {
			e.copies = nil
			if err := m.UploadMatrix(b, order, src, 0); err != nil {
				t.Fatal(err)
			}
			if _, err := m.DownloadMatrix(b, order, nil, 0); err != nil {
				t.Fatal(err)
			}
			for _, c := range e.copies {
				if c[0] < first || c[1] > last {
					t.Errorf("ld %d %v: a copy moved device bytes [%d, %d), matrix %d spans [%d, %d)", ld, order, c[0], c[1], b, first, last)
				}
			}
			if want := map[bool]int{true: 2, false: 3}[ld == rows]; len(e.copies) != want {
				t.Errorf("ld %d %v: %d copies, want %d (one each way, and the upload stages matrix b when ld > rows)", ld, order, len(e.copies), want)
			}
		}
	}
	p, err := NewMatrix[float32](q, rows, cols, batch)
	if err != nil {
		t.Fatal(err)
	}
	e.copies = nil
	if err := p.UploadRowMajor(make([]float32, rows*cols*batch)); err != nil {
		t.Fatal(err)
	}
	if len(e.copies) != 1 || e.copies[0][1]-e.copies[0][0] != uintptr(rows*cols*batch)*unsafe.Sizeof(float32(0)) {
		t.Errorf("UploadRowMajor of a packed batch: copies %v, want one of the whole batch", e.copies)
	}
}
