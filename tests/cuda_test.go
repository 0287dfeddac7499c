package tests

import (
	"errors"
	"fmt"
	"testing"

	"github.com/batchlas/batchlas"
)

// Tests of the CUDA backend itself. They skip, saying why, where the build has no cuda tag
// or no GPU answers.

// cudaQueue returns the suite's CUDA queue or skips t.
func cudaQueue(t *testing.T) *batchlas.Queue {
	t.Helper()
	for _, q := range Queues() {
		if q.Backend() == batchlas.CUDA {
			return q
		}
	}
	_, err := batchlas.NewQueue(batchlas.CUDA)
	t.Skipf("no CUDA queue: %v", err)
	return nil
}

func TestCUDADevice(t *testing.T) {
	q := cudaQueue(t)
	d := q.Device()
	free, total, err := q.MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s %s: %d SMs, warp %d, shared %d B/block, %d threads/block, memory %d MiB (free %d of %d MiB)",
		d.Name, d.Key, d.Units, d.SubGroup, d.SharedMem, d.MaxBlock, d.Memory>>20, free>>20, total>>20)
	if !d.IsGPU || d.Arch < 50 || d.Units < 1 || d.SubGroup != 32 || d.Memory <= 0 || total != d.Memory {
		t.Errorf("implausible device facts %+v (total %d)", d, total)
	}
}

// TestCUDAQueueCycles opens, uses and closes a queue 1000 times; device memory must end
// where it started.
func TestCUDAQueueCycles(t *testing.T) {
	cudaQueue(t)
	cycle := func() {
		q, err := batchlas.NewQueue(batchlas.CUDA)
		if err != nil {
			t.Fatal(err)
		}
		a, err := batchlas.NewMatrix[float64](q, 8, 8, 64)
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float64, 8*8*64)
		for b := 0; b < 64; b++ {
			for i := 0; i < 8; i++ {
				x[b*64+i*9] = 2
			}
		}
		info := PoisonedInfo(t, q, 64)
		if err := a.Upload(x); err != nil {
			t.Fatal(err)
		}
		if err := batchlas.Potrf(q, batchlas.Lower, a, info); err != nil {
			t.Fatal(err)
		}
		if got := DownloadVector(t, q, info); got[63] != 0 {
			t.Fatalf("info %d", got[63])
		}
		if err := q.Close(); err != nil {
			t.Fatal(err)
		}
	}
	q := cudaQueue(t)
	cycle() // the first cycle loads modules and creates library handles
	before, _, err := q.MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1000; i++ {
		cycle()
	}
	after, _, _ := q.MemInfo()
	t.Logf("free device memory before %d, after 1000 queue cycles %d (difference %d bytes)", before, after, before-after)
	if d := before - after; d > 2<<20 || d < -(2<<20) {
		t.Errorf("1000 queue cycles moved free memory by %d bytes", d)
	}
}

// TestCUDATooLarge asks for more than the device's free memory: an error, not a crash.
func TestCUDATooLarge(t *testing.T) {
	q := cudaQueue(t)
	free, total, err := q.MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	m, err := batchlas.NewMatrix[float64](q, 1<<12, 1<<12, int(free/(8<<24))+2)
	if err == nil {
		m.Free()
		t.Fatalf("allocation of more than the %d free bytes succeeded", free)
	}
	// Beyond the free memory the driver refuses; beyond the device's memory (free plus
	// 256 MiB may be) the size check does, before the driver is asked.
	var de *batchlas.DeviceError
	if !errors.As(err, &de) && !errors.Is(err, batchlas.ErrInvalidArgument) {
		t.Errorf("error %v is neither a *DeviceError nor an invalid argument", err)
	}
	t.Logf("too large: %v", err)
	_, err = batchlas.NewMatrix[float64](q, 1<<12, 1<<12, int(total/(8<<24))+1)
	WantArgErr(t, err, "rows, cols, batch")
	WantArgErr(t, q.Reserve(int(total)+1), "bytes")
	// The queue still works.
	checkPotrf[float32](t, q, batchlas.Lower, Layout{Rows: 5, Cols: 5, Batch: 10}, nil)
}

// TestCUDAClosed uses a closed queue and a matrix of a closed queue.
func TestCUDAClosed(t *testing.T) {
	cudaQueue(t)
	q, err := batchlas.NewQueue(batchlas.CUDA)
	if err != nil {
		t.Fatal(err)
	}
	a, err := batchlas.NewMatrix[float32](q, 4, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	info, err := batchlas.NewVector[int32](q, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"Potrf":     batchlas.Potrf(q, batchlas.Lower, a, info),
		"Upload":    a.Upload(make([]float32, 32)),
		"Wait":      q.Wait(),
		"Free":      a.Free(),
		"NewMatrix": func() error { _, err := batchlas.NewMatrix[float32](q, 1, 1, 1); return err }(),
	} {
		if !errors.Is(err, batchlas.ErrClosed) {
			t.Errorf("%s on a closed queue: %v, want ErrClosed", name, err)
		}
	}
	if _, err := info.Download(nil); !errors.Is(err, batchlas.ErrClosed) {
		t.Errorf("Download of a closed queue's vector: %v", err)
	}
}

// TestCUDAPotrfFamilies runs each CUDA family of potrf pinned: tiny at order 32, refused one
// above its largest order, both families on a batch of 70000 (beyond the 65535 grid limit).
func TestCUDAPotrfFamilies(t *testing.T) {
	q := cudaQueue(t)
	for _, fam := range []string{"tiny", "vendor"} {
		for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
			for _, l := range []Layout{{Rows: 32, Cols: 32, LDPad: 1, StridePad: 3, Batch: 300}, {Rows: 3, Cols: 3, Batch: 70000}} {
				t.Run(fmt.Sprintf("%s_%v_%v", fam, uplo, l), func(t *testing.T) {
					pinFor(t, "potrf", fam)
					ForEachDType(t, q,
						func(t *testing.T, q *batchlas.Queue) { checkPotrf[float32](t, q, uplo, l, map[int]int{7: 2}) },
						func(t *testing.T, q *batchlas.Queue) { checkPotrf[float64](t, q, uplo, l, map[int]int{7: 2}) },
						func(t *testing.T, q *batchlas.Queue) { checkPotrf[complex64](t, q, uplo, l, map[int]int{7: 2}) },
						func(t *testing.T, q *batchlas.Queue) { checkPotrf[complex128](t, q, uplo, l, map[int]int{7: 2}) })
				})
			}
		}
	}
	// tiny takes n <= 64 (n <= 32 for complex128, whose rows would not fit the registers).
	t.Run("tiny_refuses_65", func(t *testing.T) { tinyRefuses[float64](t, q, 65) })
	t.Run("tiny_refuses_33_c128", func(t *testing.T) { tinyRefuses[complex128](t, q, 33) })
}

// tinyRefuses checks that potrf pinned to tiny refuses order n with an error naming route.
func tinyRefuses[T batchlas.Scalar](t *testing.T, q *batchlas.Queue, n int) {
	pinFor(t, "potrf", "tiny")
	a, err := batchlas.NewMatrix[T](q, n, n, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Free()
	info, err := batchlas.NewVector[int32](q, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer info.Free()
	WantArgErr(t, batchlas.Potrf(q, batchlas.Lower, a, info), "route")
}

// TestCUDASyevBlocked runs syev's blocked family pinned, both tridiagonal solvers, at order
// 129 (four panels of 32 and a last panel of one column; float32 and complex128) with the
// residuals of TestCUDASyevCTA. (Its grid is cta's, a block per matrix in x, whose batch of
// 70000 TestCUDASyevCTA runs; here that would cost CI's emulator most of a minute.)
func TestCUDASyevBlocked(t *testing.T) {
	q := cudaQueue(t)
	l := Layout{Rows: 129, Cols: 129, LDPad: 3, StridePad: 1, Batch: 2}
	for _, tri := range []string{"blocked:tri=0", "blocked:tri=1"} {
		t.Run(tri, func(t *testing.T) {
			pinFor(t, "syev", tri)
			t.Run(l.String()+"/f32", func(t *testing.T) {
				checkSyev[float32, float32](t, q, batchlas.Upper, l, syevCase{gen: randomHermitian[float32], scale: 1}, nil)
			})
			t.Run(l.String()+"/c128", func(t *testing.T) {
				checkSyev[complex128, float64](t, q, batchlas.Lower, l, syevCase{gen: randomHermitian[complex128], scale: 1}, nil)
			})
		})
	}
}

// TestCUDASyevCTA runs syev's cta family pinned at order 128 (float32 and float64): the
// residuals ||AV - VW|| / (n eps ||A||) and ||V^H V - I|| / (n eps) within Tol, the
// eigenvalues ascending and equal with and without vectors; and float32 on a batch of 70000
// (beyond the 65535 grid limit).
func TestCUDASyevCTA(t *testing.T) {
	q := cudaQueue(t)
	pinFor(t, "syev", "cta")
	l := Layout{Rows: 128, Cols: 128, LDPad: 3, StridePad: 1, Batch: 2}
	t.Run(l.String()+"/f32", func(t *testing.T) {
		checkSyev[float32, float32](t, q, batchlas.Lower, l, syevCase{gen: randomHermitian[float32], scale: 1}, nil)
	})
	t.Run(l.String()+"/f64", func(t *testing.T) {
		checkSyev[float64, float64](t, q, batchlas.Lower, l, syevCase{gen: randomHermitian[float64], scale: 1}, nil)
	})
	wide := Layout{Rows: 2, Cols: 2, Batch: 70000}
	t.Run(wide.String()+"/f32", func(t *testing.T) {
		checkSyev[float32, float32](t, q, batchlas.Upper, wide, syevCase{gen: randomHermitian[float32], scale: 1}, nil)
	})
}
