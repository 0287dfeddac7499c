//go:build cuda

package batchlas

import (
	"errors"
	"fmt"
	"sync"
	"time"
	"unsafe"

	"github.com/batchlas/batchlas/internal/cu"
	"github.com/batchlas/batchlas/kernels"
)

// cudaEngine is one queue on a CUDA device: a stream of the device's executor, and a pinned
// host buffer through which uploads and downloads are staged.
type cudaEngine struct {
	ex     *cu.Exec
	stream uintptr

	mu         sync.Mutex // guards the staging buffer
	stage      uintptr    // pinned host memory
	stageBytes int
}

// gridXMax is the most blocks a grid's x dimension takes (2^31 - 1), where the kernels put
// the batch.
const gridXMax = 1<<31 - 1

// stageChunk bounds the pinned staging buffer; larger copies go through it in pieces.
const stageChunk = 32 << 20

func newCUDAEngine() (engine, error) {
	ex, err := cu.Executor(0, kernels.Image)
	if err != nil {
		return nil, err
	}
	e := &cudaEngine{ex: ex}
	if err := ex.Do(func() (err error) { e.stream, err = cu.StreamCreate(); return err }); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *cudaEngine) device() Device {
	f := e.ex.Facts
	arch := f.Major*10 + f.Minor
	return Device{
		Backend: CUDA, Name: f.Name, Key: fmt.Sprintf("sm_%d", arch), Family: "sm", Arch: arch, IsGPU: true,
		SubGroup: f.WarpSize, SharedMem: f.SharedOptin, MaxBlock: f.MaxThreads, Units: f.Multiprocessors,
		Memory: f.Memory, Driver: fmt.Sprintf("CUDA %d.%d", f.Version/1000, f.Version%1000/10),
	}
}

// wait synchronizes the stream; a fault of earlier work surfaces here.
func (e *cudaEngine) wait() error {
	return e.ex.Do(func() error { return cu.StreamSynchronize(e.stream) })
}

func (e *cudaEngine) close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.ex.Do(func() error {
		err := cu.StreamSynchronize(e.stream)
		err = errors.Join(err, cu.StreamDestroy(e.stream))
		if e.stage != 0 {
			err = errors.Join(err, cu.MemFreeHost(e.stage))
			e.stage, e.stageBytes = 0, 0
		}
		return err
	})
}

// alloc takes plain device memory (never managed memory). A request larger than the free
// memory returns the driver's CUDA_ERROR_OUT_OF_MEMORY.
func (e *cudaEngine) alloc(bytes int) (uintptr, error) {
	var p uintptr
	err := e.ex.Do(func() (err error) { p, err = cu.MemAlloc(bytes); return err })
	return p, err
}

func (e *cudaEngine) free(p uintptr) error {
	return e.ex.Do(func() error { return cu.MemFree(p) })
}

func (e *cudaEngine) upload(dst uintptr, src []byte) error { return e.copy(dst, src, true) }

func (e *cudaEngine) download(dst []byte, src uintptr) error { return e.copy(src, dst, false) }

// copy moves host bytes to or from device address dev through the pinned buffer, in order
// with the stream's earlier work, and returns when host may be reused.
func (e *cudaEngine) copy(dev uintptr, host []byte, up bool) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	for off := 0; off < len(host); off += stageChunk {
		part := host[off:min(off+stageChunk, len(host))]
		d := dev + uintptr(off)
		err := e.ex.Do(func() error {
			if err := e.growStage(len(part)); err != nil {
				return err
			}
			pinned := hostBytes(e.stage, len(part))
			if up {
				copy(pinned, part)
				if err := cu.MemcpyHtoDAsync(d, e.stage, len(part), e.stream); err != nil {
					return err
				}
				return cu.StreamSynchronize(e.stream)
			}
			if err := cu.MemcpyDtoHAsync(e.stage, d, len(part), e.stream); err != nil {
				return err
			}
			if err := cu.StreamSynchronize(e.stream); err != nil {
				return err
			}
			copy(part, pinned)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// growStage makes the pinned buffer hold at least n bytes; it runs on the executor thread
// with e.mu held.
func (e *cudaEngine) growStage(n int) error {
	if n <= e.stageBytes {
		return nil
	}
	size := min(stageChunk, max(n, 2*e.stageBytes, 1<<20))
	if e.stage != 0 {
		if err := cu.MemFreeHost(e.stage); err != nil {
			return err
		}
		e.stage, e.stageBytes = 0, 0
	}
	p, err := cu.MemAllocHost(size)
	if err != nil {
		return err
	}
	e.stage, e.stageBytes = p, size
	return nil
}

// memInfo is the device's free and total memory.
func (e *cudaEngine) memInfo() (free, total int64, err error) {
	err = e.ex.Do(func() (err error) { free, total, err = cu.MemGetInfo(); return err })
	return free, total, err
}

// hostBytes views n bytes of C memory at p.
func hostBytes(p uintptr, n int) []byte {
	return unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&p))), n)
}

// dim3 is a launch's grid or block size.
type dim3 cu.Dim3

// launch enqueues kernel fn of fatbin mod on the stream (cu.Exec.Launch: the kernel's handle
// is resolved once per device, the driver's functions once per process).
func (e *cudaEngine) launch(mod, fn string, grid, block dim3, shared int, args ...uintptr) error {
	return e.ex.Launch(e.stream, mod, fn, cu.Dim3(grid), cu.Dim3(block), shared, args...)
}

// ptrArray writes the device addresses base + b*strideBytes of a batch's matrices into the
// device array dst, on the stream: the pointer-array vendor calls read it there.
func (e *cudaEngine) ptrArray(dst, base uintptr, strideBytes, batch int) error {
	const threads = 256
	return e.launch("util", "fill_ptrs", dim3{(batch + threads - 1) / threads, 1, 1}, dim3{threads, 1, 1}, 0,
		dst, base, uintptr(strideBytes), uintptr(batch))
}

// zero32 clears n 32-bit words at p on the stream.
func (e *cudaEngine) zero32(p uintptr, n int) error {
	if n == 0 {
		return nil
	}
	return e.ex.Do(func() error { return cu.MemsetD32Async(p, 0, n, e.stream) })
}

// quickReturn is the quick return of a native factorization: true when no kernel need run,
// after writing info 0 for a batch of empty matrices.
func quickReturn(q *Queue, rows, cols, batch int, info *Vector[int32]) (bool, error) {
	switch {
	case batch == 0:
		return true, nil
	case rows == 0 || cols == 0:
		return true, cudaOf(q).zero32(info.devPtr(), batch)
	}
	return false, nil
}

// Parts of C that scaleMat scales (SCALE_* of kernels/util/util.cu).
const (
	scaleAll   = 0
	scaleLower = 1 // only the elements with i >= j
	scaleUpper = 2 // only the elements with i <= j; with scaleLower, the diagonal alone
	// scaleHerm: beta is real (its imaginary part unused), and the diagonal becomes
	// re(beta) re(c) with imaginary part 0, never read: a Hermitian matrix's diagonal.
	scaleHerm = 4
)

// scaleMat sets the part (scaleAll, or scaleTri's) of every matrix of c to beta c on the
// stream, with kernels/util's scale_mat: beta 0 writes zeros without reading c, and nothing
// outside the part is read or written (the other triangle, the padding between columns and
// between matrices).
func scaleMat[T Scalar](q *Queue, c *Matrix[T], part int, beta T) error {
	total := c.rows * c.cols * c.batch
	if total == 0 {
		return nil
	}
	br, bi := kernelScalar(beta)
	const threads = 256
	return cudaOf(q).launch("util", "scale_mat_"+dtypeName[T](), dim3{ceilDiv(total, threads), 1, 1}, dim3{threads, 1, 1}, 0,
		c.devPtr(), uintptr(c.ld), uintptr(c.strd), uintptr(c.rows), uintptr(c.cols), uintptr(c.batch), uintptr(part), br, bi)
}

// cudaOf is q's CUDA engine.
func cudaOf(q *Queue) *cudaEngine { return q.eng.(*cudaEngine) }

// Modes of copyMat (kernels/util/util.cu).
const (
	copyIfOK      = 1 // only matrices whose info is 0
	copyIfFailed  = 2 // only matrices whose info is not 0
	copyTranspose = 4 // dst(i, j) = src(j, i)
	copyConj      = 8 // conjugate (complex types only)
	// copyLower and copyUpper copy only the elements (i, j) of dst with i >= j, or i <= j:
	// a copy of a triangle reads and writes nothing of the other one.
	copyLower = 16
	copyUpper = 32
)

// copyTri is the copyMat mode that copies only the uplo triangle of dst.
func copyTri(uplo Uplo) int {
	if uplo == Lower {
		return copyLower
	}
	return copyUpper
}

// copyMat copies rows-by-cols matrices of a batch from src (ld sld, stride sstride, in
// elements) to dst on the stream; info (a device int32 per matrix) is read by the
// conditional modes.
func copyMat[T Scalar](e *cudaEngine, dst uintptr, dld, dstride int, src uintptr, sld, sstride, rows, cols, batch int, info uintptr, mode int) error {
	total := rows * cols * batch
	if total == 0 {
		return nil
	}
	if !isComplex[T]() {
		mode &^= copyConj
	}
	const threads = 256
	return e.launch("util", fmt.Sprintf("copy_mat_%d", sizeOf[T]()), dim3{(total + threads - 1) / threads, 1, 1}, dim3{threads, 1, 1}, 0,
		dst, uintptr(dld), uintptr(dstride), src, uintptr(sld), uintptr(sstride), uintptr(rows), uintptr(cols), uintptr(batch), info, uintptr(mode))
}

// elapsed times f's work with two events on the stream.
func (e *cudaEngine) elapsed(f func() error) (d time.Duration, err error) {
	var ev [2]uintptr
	defer func() {
		err = errors.Join(err, e.ex.Do(func() error {
			var errs error
			for _, x := range ev {
				if x != 0 {
					errs = errors.Join(errs, cu.EventDestroy(x))
				}
			}
			return errs
		}))
	}()
	err = e.ex.Do(func() error {
		for i := range ev {
			var err error
			if ev[i], err = cu.EventCreate(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	// About a millisecond of spinning ahead of the start event: the host enqueues f's work
	// meanwhile, so a small op's time is its device time, not the host's dispatch.
	const spinCycles = 2_000_000
	if err := e.launch("util", "spin", dim3{1, 1, 1}, dim3{1, 1, 1}, 0, spinCycles); err != nil {
		return 0, err
	}
	if err := e.ex.Do(func() error { return cu.EventRecord(ev[0], e.stream) }); err != nil {
		return 0, err
	}
	if err := f(); err != nil {
		return 0, err
	}
	var ms float32
	err = e.ex.Do(func() error {
		if err := cu.EventRecord(ev[1], e.stream); err != nil {
			return err
		}
		if err := cu.EventSynchronize(ev[1]); err != nil {
			return err
		}
		ms, err = cu.EventElapsedTime(ev[0], ev[1])
		return err
	})
	return time.Duration(float64(ms) * 1e6), err
}

// solveKeepingFailed runs solve, which overwrites b, and then puts back B_b (from a packed
// copy at save) for every matrix whose info is not 0.
func solveKeepingFailed[T Scalar](q *Queue, b *Matrix[T], save, info uintptr, solve func() error) error {
	if b.cols == 0 {
		return nil
	}
	e := cudaOf(q)
	r, n := b.rows, b.cols
	if err := copyMat[T](e, save, r, r*n, b.devPtr(), b.ld, b.strd, r, n, b.batch, 0, 0); err != nil {
		return err
	}
	if err := solve(); err != nil {
		return err
	}
	return copyMat[T](e, b.devPtr(), b.ld, b.strd, save, r, r*n, r, n, b.batch, info, copyIfFailed)
}

// packedBytes is the size of m's matrices packed.
func packedBytes[T Scalar](m *Matrix[T]) int { return m.rows * m.cols * m.batch * sizeOf[T]() }
