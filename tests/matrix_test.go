package tests

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/batchlas/batchlas"
)

// TestEmptyViews checks that the empty views at the ends of a padded matrix (the batch range
// [batch, batch), zero rows or columns past the last ones) are valid arguments: an empty
// Slice of a matrix with ld > rows starts beyond the end of its allocation.
func TestEmptyViews(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		a, err := batchlas.NewMatrixStrided[float64](q, 3, 3, 5, 0, 2)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Free()
		tail, err := a.Slice(2, 2)
		if err != nil {
			t.Fatal(err)
		}
		right, err := a.View(0, 3, 3, 0)
		if err != nil {
			t.Fatal(err)
		}
		corner, err := a.View(3, 3, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		info := PoisonedInfo(t, q, 2)
		for name, m := range map[string]*batchlas.Matrix[float64]{"Slice(2, 2)": tail, "View(0, 3, 3, 0)": right, "View(3, 3, 0, 0)": corner} {
			if _, err := m.Download(nil); err != nil {
				t.Errorf("%s: Download: %v", name, err)
			}
			if err := m.Upload(nil); err != nil {
				t.Errorf("%s: Upload: %v", name, err)
			}
			if _, err := m.DownloadRaw(nil); err != nil {
				t.Errorf("%s: DownloadRaw: %v", name, err)
			}
			if err := batchlas.Getrf(q, m, info, info); err != nil {
				t.Errorf("%s: Getrf: %v", name, err)
			}
		}
		if err := batchlas.Potrf(q, batchlas.Lower, tail, info); err != nil {
			t.Errorf("Potrf of Slice(2, 2): %v", err)
		}
		if err := batchlas.Potrf(q, batchlas.Lower, corner, info); err != nil {
			t.Errorf("Potrf of View(3, 3, 0, 0): %v", err)
		}
	})
}

// TestFreeWhileChecked frees a matrix while another goroutine passes a view of it to an
// operation: the call either runs or reports the freed memory, and (under -race) the
// freed flag is no data race.
func TestFreeWhileChecked(t *testing.T) {
	q, _ := ArgQueues(t)
	a := ArgMatrix[float64](t, q, 4, 4, 3)
	v, err := a.Slice(0, 3)
	if err != nil {
		t.Fatal(err)
	}
	info := PoisonedInfo(t, q, 3)
	done := make(chan error)
	go func() { done <- batchlas.Potrf(q, batchlas.Lower, v, info) }()
	if err := a.Free(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil && !errors.Is(err, batchlas.ErrInvalidArgument) {
		t.Errorf("Potrf of a view being freed: %v", err)
	}
}

// TestNilQueue calls every method of a nil queue: each answers or errs, none panics.
func TestNilQueue(t *testing.T) {
	var q *batchlas.Queue
	if d := q.Device(); d != (batchlas.Device{}) {
		t.Errorf("Device of a nil queue: %+v", d)
	}
	if b := q.Backend(); b != batchlas.Auto {
		t.Errorf("Backend of a nil queue: %v", b)
	}
	if n := q.WorkspaceSize(); n != 0 {
		t.Errorf("WorkspaceSize of a nil queue: %d", n)
	}
	WantArgErr(t, q.Reserve(8), "q")
	WantArgErr(t, q.Wait(), "q")
	if err := q.Close(); err != nil {
		t.Errorf("Close of a nil queue: %v", err)
	}
}

// TestViewBounds asks for views whose corner plus size overflows: each must be refused.
func TestViewBounds(t *testing.T) {
	q, _ := ArgQueues(t)
	a := ArgMatrix[float64](t, q, 4, 3, 2)
	for _, v := range [][4]int{
		{math.MaxInt, 0, 1, 1}, {0, math.MaxInt, 1, 1}, {math.MaxInt, 0, 0, 1}, {0, math.MaxInt, 1, 0},
		{1, 0, math.MaxInt, 1}, {0, 1, 1, math.MaxInt}, {math.MaxInt, math.MaxInt, 0, 0},
	} {
		if _, err := a.View(v[0], v[1], v[2], v[3]); err == nil {
			t.Errorf("View%v of a 4x3 matrix: no error", v)
		} else {
			WantArgErr(t, err, "i, j, r, c")
		}
	}
	for _, s := range [][2]int{{math.MaxInt, math.MaxInt}, {1, math.MinInt}, {3, 3}} {
		if _, err := a.Slice(s[0], s[1]); err == nil {
			t.Errorf("Slice%v of a batch of 2: no error", s)
		}
	}
}

// TestCloseWhileReserving closes queues while other goroutines grow their workspace and
// allocate: once Close has returned and they have stopped, nothing may be left allocated.
func TestCloseWhileReserving(t *testing.T) {
	for range 50 {
		q, err := batchlas.NewQueue(batchlas.Host)
		if err != nil {
			t.Fatal(err)
		}
		var wg, running sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			running.Add(1)
			go func() {
				defer wg.Done()
				// Both calls fail only once the queue is closed, after every goroutine
				// has run 20 rounds.
				for i := 1; ; i++ {
					if i == 20 {
						running.Done()
					}
					if q.Reserve(i*64+g) != nil {
						return
					}
					if _, err := batchlas.NewMatrix[float32](q, 2, 2, 1); err != nil {
						return
					}
				}
			}()
		}
		running.Wait()
		if err := q.Close(); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		if n := q.WorkspaceSize(); n != 0 {
			t.Fatalf("a closed queue holds a workspace of %d bytes", n)
		}
	}
}

// TestUploadDownload moves packed data into padded layouts and views: Download must return
// it, and the elements between columns and matrices must keep their values.
func TestUploadDownload(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		for _, l := range append(SquareLayouts(3, 1, 4), Layout{Rows: 3, Cols: 5, LDPad: 2, StridePad: 1, Batch: 4}, Layout{Rows: 0, Cols: 3, Batch: 2}) {
			t.Run(l.String(), func(t *testing.T) {
				before := NewStored[complex64](l)
				m := Upload(t, q, before)
				packed := Rand[complex64](NewRand(t), l.Rows*l.Cols*l.Batch)
				if err := m.Upload(packed); err != nil {
					t.Fatal(err)
				}
				got, err := m.Download(nil)
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprint(got) != fmt.Sprint(packed) {
					t.Errorf("Download after Upload: %v, want %v", got, packed)
				}
				after := Download(t, q, m, l)
				Untouched(t, before, after, nil)
				for b := 0; b < l.Batch; b++ {
					for j := 0; j < l.Cols; j++ {
						for i := 0; i < l.Rows; i++ {
							if v, w := after.At(b, i, j), packed[(b*l.Cols+j)*l.Rows+i]; v != w {
								t.Fatalf("element (%d, %d) of matrix %d is %v, want %v", i, j, b, v, w)
							}
						}
					}
				}
			})
		}
		// A view of a slice: its Download is the packed sub-block.
		a := ArgMatrix[float64](t, q, 4, 3, 3)
		all, _ := a.Download(nil)
		s, err := a.Slice(1, 3)
		if err != nil {
			t.Fatal(err)
		}
		v, err := s.View(1, 1, 2, 2)
		if err != nil {
			t.Fatal(err)
		}
		got, err := v.Download(nil)
		if err != nil {
			t.Fatal(err)
		}
		var want []float64
		for b := 1; b < 3; b++ {
			for j := 1; j < 3; j++ {
				want = append(want, all[b*12+j*4+1:b*12+j*4+3]...)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("View(1, 1, 2, 2) of Slice(1, 3): %v, want %v", got, want)
		}
	})
}

// TestEmptyViewsEveryOp runs every op on empty views that start past the end of their
// allocation: each call must succeed without touching memory.
func TestEmptyViewsEveryOp(t *testing.T) {
	ForEachQueue(t, func(t *testing.T, q *batchlas.Queue) {
		a, err := batchlas.NewMatrixStrided[complex128](q, 3, 3, 5, 0, 2)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Free()
		last, err := a.Slice(1, 2)
		if err != nil {
			t.Fatal(err)
		}
		// 0x0 and 3x0 views past the last column of the last matrix, and an empty batch.
		e00, err1 := last.View(3, 3, 0, 0)
		e30, err2 := last.View(0, 3, 3, 0)
		tail, err3 := a.Slice(2, 2)
		if err := errors.Join(err1, err2, err3); err != nil {
			t.Fatal(err)
		}
		iv := PoisonedInfo(t, q, 3)
		s := UploadVector(t, q, Fill(3, 0.0))
		L, U, N, C := batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.ConjTrans
		for name, m := range map[string]*batchlas.Matrix[complex128]{"0x0": e00, "empty batch": tail} {
			for op, err := range map[string]error{
				"potrf": batchlas.Potrf(q, U, m, iv),
				"potrs": batchlas.Potrs(q, U, m, m),
				"posv":  batchlas.Posv(q, U, m, m, iv),
				"getrf": batchlas.Getrf(q, m, iv, iv),
				"getrs": batchlas.Getrs(q, C, m, iv, m),
				"gesv":  batchlas.Gesv(q, m, iv, m, iv),
				"getri": batchlas.Getri(q, m, iv, iv),
				"symm":  batchlas.Symm(q, L, U, 1, m, m, 0, m),
				"hemm":  batchlas.Hemm(q, L, U, 1, m, m, 0, m),
				"syrk":  batchlas.Syrk(q, U, N, 1, m, 0, m),
				"herk":  batchlas.Herk(q, U, C, 1, m, 0, m),
				"syr2k": batchlas.Syr2k(q, U, N, 1, m, m, 0, m),
				"her2k": batchlas.Her2k(q, U, C, 1, m, m, 0, m),
				"gesvd": batchlas.Gesvd(q, batchlas.SVDAll, batchlas.SVDAll, m, s, m, m, iv),
			} {
				if err != nil {
					t.Errorf("%s of the %s view: %v", op, name, err)
				}
			}
		}
		// A 3x3 C with a k = 0 update from the 3x0 view, and the 3x0 view as B or as X.
		c := ArgMatrix[complex128](t, q, 3, 3, 1)
		for op, err := range map[string]error{
			"syrk, k = 0":   batchlas.Syrk(q, U, N, 1, e30, 1, c),
			"her2k, k = 0":  batchlas.Her2k(q, U, N, 1, e30, e30, 1, c),
			"getrs, nrhs 0": batchlas.Getrs(q, N, c, UploadVector(t, q, []int32{1, 2, 3}), e30),
			"potrs, nrhs 0": batchlas.Potrs(q, U, c, e30),
			"gesvd, n = 0":  batchlas.Gesvd(q, batchlas.SVDNone, batchlas.SVDNone, e30, s, nil, nil, iv),
		} {
			if err != nil {
				t.Errorf("%s: %v", op, err)
			}
		}
	})
}
