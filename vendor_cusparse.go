//go:build cuda && !novendor

package batchlas

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// cuSPARSE, opened at run time on first use: a machine without it still runs cuBLAS and
// cuSOLVER, and Spmm routes to its native family.

var (
	sparseOnce sync.Once
	sparseLib  *dynLib
	sparseErr  error
)

func cusparseOpened() error {
	sparseOnce.Do(func() {
		if sparseLib, sparseErr = openLib("cusparse", "no cuSPARSE: libcusparse.so.12 not found; install the CUDA toolkit libraries for the vendor family", "libcusparse.so.12"); sparseErr == nil {
			sparseLib.nameOf = cusparseStatusName
		}
	})
	return sparseErr
}

func cusparseStatusName(st int32) string {
	fn, err := sparseLib.sym("cusparseGetErrorName")
	if err != nil {
		return fmt.Sprintf("cusparseStatus %d", st)
	}
	r, _, _ := purego.SyscallN(fn, uintptr(st))
	return goString(r)
}

// The cuSPARSE enum values of the generic API.
const (
	cusparseIndex32I   = 2 // CUSPARSE_INDEX_32I
	cusparseIndexBase0 = 0 // CUSPARSE_INDEX_BASE_ZERO
	cusparseOrderCol   = 1 // CUSPARSE_ORDER_COL
	cusparseSpMMAlgDef = 0 // CUSPARSE_SPMM_ALG_DEFAULT
)

// cudaDataType is T's cudaDataType_t: CUDA_R_32F, CUDA_R_64F, CUDA_C_32F, CUDA_C_64F.
func cudaDataType[T Scalar]() uintptr { return [4]uintptr{0, 1, 4, 5}[dtypeIndex[T]()] }

func spmmCUDAVendor[T Scalar]() family[spmmCall[T]] {
	return family[spmmCall[T]]{
		canRun: spmmCuSparseCanRun[T],
		bufferSize: func(q *Queue, s *spmmCall[T]) int {
			n, err := spmmCuSparseWork(q, s)
			if err != nil {
				return 0
			}
			return n
		},
		launch: spmmCuSparse[T],
		why: func(q *Queue) string {
			if q.dev.Backend != CUDA || cusparseOpened() == nil {
				return ""
			}
			return sparseErr.Error()
		},
	}
}

// spmmCuSparseCanRun: cuSPARSE opened, and a call it is known to compute right. Its batched
// CSR takes one nnz for every matrix and, as every cuSPARSE CSR, strictly increasing column
// indices in each row. Two cases it gets wrong are refused: a complex op(B) = B^H with one
// column leaves C unwritten, and a complex128 product with transA = transB = NoTrans and
// one column crashes the process.
func spmmCuSparseCanRun[T Scalar](q *Queue, s *spmmCall[T]) bool {
	_, n, _ := s.dims()
	switch {
	case !onCUDA(q) || cusparseOpened() != nil || !fitsInt(s.a.batch):
		return false
	case !s.a.canonical || !s.a.equalNNZ():
		return false
	case n == 1 && s.conjB():
		return false
	case n == 1 && dtypeName[T]() == "c128" && s.transA == NoTrans && s.transB == NoTrans:
		return false
	}
	return true
}

// spmmDescs are the cuSPARSE descriptors of a call: A's strided CSR batch, B and C strided
// column-major batches.
type spmmDescs struct{ a, b, c uintptr }

// withSpmmDescs runs f on the executor thread with the cuSPARSE handle bound to q's stream
// and the descriptors of s, destroyed afterwards.
func withSpmmDescs[T Scalar](q *Queue, s *spmmCall[T], f func(h uintptr, d spmmDescs) error) error {
	return vendorCall(q, func(h *cuHandles) error {
		if h.sparse == 0 {
			if err := sparseLib.check("cusparseCreate", uintptr(unsafe.Pointer(&h.sparse))); err != nil {
				return err
			}
		}
		if err := sparseLib.check("cusparseSetStream", h.sparse, cudaOf(q).stream); err != nil {
			return err
		}
		var d spmmDescs
		defer func() {
			if d.a != 0 {
				sparseLib.check("cusparseDestroySpMat", d.a)
			}
			for _, x := range []uintptr{d.b, d.c} {
				if x != 0 {
					sparseLib.check("cusparseDestroyDnMat", x)
				}
			}
		}()
		a, b, c, dt := s.a, s.b, s.c, cudaDataType[T]()
		nnz := a.start[1]
		var err error
		call := func(fn string, args ...uintptr) { // each step after the one it needs
			if err == nil {
				err = sparseLib.check(fn, args...)
			}
		}
		call("cusparseCreateCsr", uintptr(unsafe.Pointer(&d.a)), uintptr(a.rows), uintptr(a.cols), uintptr(nnz),
			a.dev.rowOff, a.dev.colIdx, a.dev.values, cusparseIndex32I, cusparseIndex32I, cusparseIndexBase0, dt)
		call("cusparseCsrSetStridedBatch", d.a, uintptr(a.batch), uintptr(a.rows+1), uintptr(nnz))
		call("cusparseCreateDnMat", uintptr(unsafe.Pointer(&d.b)), uintptr(b.rows), uintptr(b.cols), uintptr(b.ld), b.devPtr(), dt, cusparseOrderCol)
		call("cusparseDnMatSetStridedBatch", d.b, uintptr(b.batch), uintptr(b.strd))
		call("cusparseCreateDnMat", uintptr(unsafe.Pointer(&d.c)), uintptr(c.rows), uintptr(c.cols), uintptr(c.ld), c.devPtr(), dt, cusparseOrderCol)
		call("cusparseDnMatSetStridedBatch", d.c, uintptr(c.batch), uintptr(c.strd))
		if err != nil {
			return err
		}
		return f(h.sparse, d)
	})
}

// spmmCuSparseRuns reports whether cuSPARSE is called at all: alpha = 0, or A without
// entries, is C = beta C, which the direct kernel's pass does without reading A or B.
func spmmCuSparseRuns[T Scalar](s *spmmCall[T]) bool {
	m, n, _ := s.dims()
	return m > 0 && n > 0 && s.a.batch > 0 && s.alpha != 0 && s.a.start[1] > 0
}

// spmmCuSparseWork is cusparseSpMM_bufferSize's workspace for s, in bytes.
func spmmCuSparseWork[T Scalar](q *Queue, s *spmmCall[T]) (int, error) {
	if !spmmCuSparseRuns(s) {
		return 0, nil
	}
	var size uint64
	sc := scalars(s.alpha, s.beta)
	defer runtime.KeepAlive(sc)
	err := withSpmmDescs(q, s, func(h uintptr, d spmmDescs) error {
		return sparseLib.check("cusparseSpMM_bufferSize", h, cuOpOf[T](s.transA), cuOpOf[T](s.transB), sc.ptr(0), d.a, d.b,
			sc.ptr(1), d.c, cudaDataType[T](), cusparseSpMMAlgDef, uintptr(unsafe.Pointer(&size)))
	})
	return int(size), err
}

// spmmCuSparse calls cusparseSpMM on the strided batches. For beta = 0 the direct kernel
// first sets C to zero, so that no NaN in C can reach the result whatever cuSPARSE reads.
func spmmCuSparse[T Scalar](q *Queue, s *spmmCall[T]) error {
	m, n, _ := s.dims()
	if m == 0 || n == 0 || s.a.batch == 0 {
		return nil
	}
	if !spmmCuSparseRuns(s) || s.beta == 0 {
		if err := spmmScaleC(q, s); err != nil || !spmmCuSparseRuns(s) {
			return err
		}
	}
	work, err := spmmCuSparseWork(q, s)
	if err != nil {
		return err
	}
	ws, err := q.scratch(work)
	if err != nil {
		return err
	}
	sc := scalars(s.alpha, s.beta)
	defer runtime.KeepAlive(sc)
	return withSpmmDescs(q, s, func(h uintptr, d spmmDescs) error {
		return sparseLib.check("cusparseSpMM", h, cuOpOf[T](s.transA), cuOpOf[T](s.transB), sc.ptr(0), d.a, d.b,
			sc.ptr(1), d.c, cudaDataType[T](), cusparseSpMMAlgDef, ws)
	})
}
