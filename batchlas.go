// Package batchlas factors, solves and decomposes many small and medium dense matrices in
// one call, on an NVIDIA GPU (build tag cuda), an AMD GPU (build tag rocm: rocBLAS and
// rocSOLVER only, for the ops they cover; no AMD GPU has run it yet, only the CPU stand-in
// of internal/hip/standin) or the CPU.
//
// Data lives on a Queue's device in column-major, batch-major order, as in LAPACK and
// cuBLAS: element (i, j) of matrix b of a Matrix is at b*stride + j*ld + i. Every operation
// checks all of its arguments before it does anything; a bad call returns an error that
// wraps ErrInvalidArgument and names the argument, and writes nothing. A numerical failure
// of one matrix (not positive definite, singular, no convergence) is not an error: it is
// that matrix's info value, with LAPACK's meaning, and the other matrices are still right.
//
// Operations on a GPU queue are asynchronous; Queue.Wait synchronizes and reports faults.
// The host backend runs each call at once, parallel over the batch on all cores.
//
// Every operation is one generic function over the four Scalar types, named as in LAPACK
// and gonum, with an <Op>BufferSize companion that answers its workspace:
//
//   - BLAS level 2 and 3: Gemv, Gemm, Symm, Hemm, Syrk, Herk, Syr2k, Her2k, Trmm, Trsm.
//   - Cholesky: Potrf (factor), Potrs (solve with the factor), Posv (factor and solve).
//   - LU with partial pivoting: Getrf (factor), Getrs (solve), Gesv (factor and solve),
//     Getri (inverse).
//   - QR: Geqrf (factor), Orgqr (form Q), Ormqr (multiply by Q), Gels (least squares and
//     minimum-norm solutions).
//   - Eigen and singular values: Syev (Hermitian eigenproblem), Gesvd (singular value
//     decomposition).
//   - Sparse times dense: Spmm, on a batch of CSR matrices (NewCSR, CSRFromDense).
//
// Data moves with NewMatrix, NewMatrixStrided and NewVector, their Upload and Download
// methods, and views (Matrix.View, Matrix.Slice, Vector.Slice) that share memory. gonum's
// types convert to and from one matrix of a batch or all of it (FromDense, ToDenses,
// FromSymDense, FromCDense, FromGeneral64, ...); UploadMatrix and DownloadMatrix move matrix
// b alone, in column- or row-major order; Vector.Part is matrix b's part of a per-matrix
// vector. CheckInfo turns an info vector into nil or an *InfoError naming each failing
// matrix. Package route pins families and traces the choices, for tuning and tests.
package batchlas

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	selection "github.com/batchlas/batchlas/select"
)

// Backend names where a queue runs its work.
type Backend int

const (
	Auto Backend = iota // the best available: CUDA when built in and a GPU answers, else Host
	Host                // the CPU, in pure Go (plus the system LAPACK with the host tag)
	CUDA                // an NVIDIA GPU; needs the cuda build tag
	ROCm                // an AMD GPU; needs the rocm build tag (vendor families only)
)

func (b Backend) String() string {
	switch b {
	case Auto:
		return "auto"
	case Host:
		return "host"
	case CUDA:
		return "cuda"
	case ROCm:
		return "rocm"
	}
	return fmt.Sprintf("Backend(%d)", int(b))
}

// Device holds the facts about a queue's device that routing and users need.
type Device struct {
	Backend   Backend
	Name      string // e.g. "NVIDIA H200" or "cpu"
	Key       string // table key: "sm_90", "gfx90a", "cpu"
	Family    string // "sm", "gfx" or "cpu"
	Arch      int    // 90 for sm_90; 0 for the CPU
	IsGPU     bool
	SubGroup  int    // threads in a warp or wavefront; 1 on the CPU
	SharedMem int    // bytes of shared memory one block may use; 0 on the CPU
	MaxBlock  int    // threads in one block; 1 on the CPU
	Units     int    // multiprocessors, or cores available to the host backend
	Memory    int64  // bytes of device memory; 0 on the CPU
	Driver    string // driver version, e.g. "580.159"; empty on the CPU
	// Fallback, for a queue opened with Auto on the host, says why no GPU backend was used:
	// the first line of NewQueue(CUDA)'s error. Empty otherwise.
	Fallback string
}

// String describes the device in one line, e.g. "cuda (NVIDIA H200, sm_90, 132
// multiprocessors, 143 GB, CUDA 13.0)" or "host (cpu, 2 cores); cuda not used: ...".
func (d Device) String() string {
	var s string
	switch {
	case d.Backend == Auto:
		return "no device"
	case d.IsGPU:
		s = fmt.Sprintf("%v (%s, %s, %d multiprocessors, %.0f GB, %s)", d.Backend, d.Name, d.Key, d.Units, float64(d.Memory)/1e9, d.Driver)
	default:
		s = fmt.Sprintf("%v (%s, %d cores)", d.Backend, d.Name, d.Units)
	}
	if d.Fallback != "" {
		s += "; cuda not used: " + d.Fallback
	}
	return s
}

// engine is what a backend gives a queue.
type engine interface {
	device() Device
	wait() error  // waits for all enqueued work and reports asynchronous faults
	close() error // releases the backend's resources; the queue frees allocations first
}

// devEngine is an engine whose memory is not addressable from Go.
type devEngine interface {
	engine
	alloc(bytes int) (uintptr, error)
	free(ptr uintptr) error
	// upload and download copy between host memory and device memory and return when the
	// host side may be reused.
	upload(dst uintptr, src []byte) error
	download(dst []byte, src uintptr) error
}

// Queue is an ordered stream of work on one device. Its methods are safe for concurrent use,
// but work from several goroutines is ordered only by the queue.
type Queue struct {
	eng    engine
	dev    Device
	closed atomic.Bool
	nested atomic.Int32 // calls launched from inside a call, for the trace's indentation
	calls  callLock     // one call at a time on a device queue (oplock.go)

	mu     sync.Mutex
	allocs map[*allocation]struct{}
	arena  arena
}

// NewQueue opens a queue on the given backend. Auto picks CUDA when the build has the cuda
// tag and a GPU answers, and the host otherwise; the queue's Device says which, and why the
// GPU was not used. With BATCHLAS_SELECT_TRACE=1 the choice is printed once per device.
func NewQueue(b Backend) (*Queue, error) {
	var eng engine
	var err error
	var fallback string
	switch b {
	case Auto:
		// A GPU that does not answer is not an error here: Auto falls back to the host.
		if eng, err = newCUDAEngine(); err != nil {
			fallback, _, _ = strings.Cut(unprefixed(err.Error()), "\n")
			eng, err = newHostEngine(), nil
		}
	case Host:
		eng = newHostEngine()
	case CUDA:
		eng, err = newCUDAEngine()
	case ROCm:
		eng, err = newROCmEngine()
	default:
		return nil, argErr("NewQueue", "b", "unknown backend %v", b)
	}
	if err != nil {
		return nil, err
	}
	q := &Queue{eng: eng, dev: eng.device(), allocs: map[*allocation]struct{}{}}
	q.dev.Fallback = fallback
	if selection.Current().Trace {
		routes.WarnOnce("device "+q.dev.String(), "batchlas: device: %v", q.dev)
	}
	return q, nil
}

// errNoROCm answers NewQueue(ROCm) in a build without the rocm tag.
var errNoROCm = errors.New("batchlas: the ROCm backend is not in this build: rebuild with -tags rocm, or use the host backend (batchlas.Host)")

// Device describes the queue's device; the zero Device for a nil queue.
func (q *Queue) Device() Device {
	if q == nil {
		return Device{}
	}
	return q.dev
}

// Backend is the queue's backend: never Auto, except for a nil queue.
func (q *Queue) Backend() Backend { return q.Device().Backend }

// Wait blocks until all work enqueued on q has finished and returns the first asynchronous
// fault, as a *DeviceError.
func (q *Queue) Wait() error {
	if err := q.usable("Wait"); err != nil {
		return err
	}
	return q.eng.wait()
}

// Close waits for the queue's work, frees every matrix, vector and workspace still allocated
// on it, releases the device, and flushes the trace and the coverage rows (see route.Flush).
// Data of a closed queue can no longer be used. Closing twice, or closing a nil or zero Queue,
// is not an error.
func (q *Queue) Close() error {
	if q == nil || q.eng == nil || q.closed.Swap(true) {
		return nil
	}
	err := q.eng.wait()
	q.mu.Lock()
	for a := range q.allocs {
		err = errors.Join(err, a.release())
	}
	clear(q.allocs)
	err = errors.Join(err, q.arena.release(q))
	q.mu.Unlock()
	err = errors.Join(err, q.eng.close())
	// Go has no exit hook: closing a queue is where the coverage rows reach their file.
	return errors.Join(err, routes.Flush())
}

// usable reports whether q can take work.
func (q *Queue) usable(op string) error {
	if q == nil {
		return argErr(op, "q", "nil queue")
	}
	if q.eng == nil {
		return argErr(op, "q", "queue not made by NewQueue")
	}
	if q.closed.Load() {
		return &closedError{op}
	}
	return nil
}

func (q *Queue) isHost() bool { return q.dev.Backend == Host }

// hostEngine runs work at once on the calling goroutine and its helpers.
type hostEngine struct{}

func newHostEngine() engine { return hostEngine{} }

func (hostEngine) device() Device {
	return Device{Backend: Host, Name: "cpu", Key: "cpu", Family: "cpu", SubGroup: 1, MaxBlock: 1,
		Units: runtime.GOMAXPROCS(0)}
}
func (hostEngine) wait() error  { return nil }
func (hostEngine) close() error { return nil }
