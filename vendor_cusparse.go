//go:build cuda && !novendor

package batchlas

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/batchlas/batchlas/internal/cu"
	"github.com/batchlas/batchlas/internal/dl"
)

// cuSPARSE, opened at run time on first use with its functions resolved: a machine without
// it still runs cuBLAS and cuSOLVER, and Spmm routes to its native family.

var (
	sparseOnce sync.Once
	cusparse   *cu.Sparse
	sparseErr  error
)

func cusparseOpened() error {
	sparseOnce.Do(func() { cusparse, sparseErr = cu.OpenCUSPARSE() })
	return sparseErr
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
// indices in each row (spmmGroup says which batches it then takes in one call). Two cases it
// gets wrong are refused: a complex op(B) = B^H with one column leaves C unwritten, and a
// complex128 product with transA = transB = NoTrans and one column crashes the process.
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

// spmmDescs are the cuSPARSE descriptors of one cusparseSpMM call: A's CSR, B and C
// column-major, strided batches when the call takes more than one matrix.
type spmmDescs struct{ a, b, c uintptr }

// spmmGroup is the number of matrices that each cusparseSpMM call of s takes: the whole batch
// in one strided-batched call where cuSPARSE computes that right, else one. Its batched CSR
// is right only when every matrix has the first one's row offsets: NVIDIA's batched CSR
// sample shares one offsets array across the batch, NVIDIA's answer in
// NVIDIA/CUDALibrarySamples#65 requires the same number of entries in each row across the
// batch, and on an H200 batches of equal nnz but different rows came back right in matrix 0
// and wrong (by O(1)) after it. With one column of B the batched call was reported wrong
// as well (NVIDIA/CUDALibrarySamples#210, fixed in a later release than the reporter's).
// Those calls go matrix by matrix, each with descriptors of its own.
func spmmGroup[T Scalar](s *spmmCall[T]) int {
	if _, n, _ := s.dims(); s.a.sameRows && n > 1 {
		return max(s.a.batch, 1)
	}
	return 1
}

// withSpmmDescs runs f on the executor thread with the cuSPARSE handle bound to q's stream,
// once for each of the first calls groups of spmmGroup matrices, with that group's
// descriptors.
func withSpmmDescs[T Scalar](q *Queue, s *spmmCall[T], calls int, f func(h uintptr, d spmmDescs) error) error {
	return vendorCall(q, func(h *cuHandles) error {
		if h.sparse == 0 {
			if err := cusparse.Create.Status(uintptr(unsafe.Pointer(&h.sparse))); err != nil {
				return err
			}
		}
		if err := cusparse.SetStream.Status(h.sparse, cudaOf(q).stream); err != nil {
			return err
		}
		g := spmmGroup(s)
		for i := range calls {
			if err := withGroupDescs(s, i*g, g, func(d spmmDescs) error { return f(h.sparse, d) }); err != nil {
				return err
			}
		}
		return nil
	})
}

// withGroupDescs runs f with the descriptors of the count matrices of s from b0 on, destroyed
// afterwards. A group of more than one shares matrix b0's row offsets (spmmGroup takes only
// batches whose matrices all have them).
func withGroupDescs[T Scalar](s *spmmCall[T], b0, count int, f func(d spmmDescs) error) error {
	var d spmmDescs
	defer func() {
		if d.a != 0 {
			cusparse.DestroySpMat.Status(d.a)
		}
		for _, x := range []uintptr{d.b, d.c} {
			if x != 0 {
				cusparse.DestroyDnMat.Status(x)
			}
		}
	}()
	a, mb, mc, dt := s.a, s.b, s.c, cudaDataType[T]()
	nnz, first := a.start[b0+1]-a.start[b0], uintptr(a.start[b0])
	rowOff := a.dev.rowOff + uintptr(4*b0*(a.rows+1))
	colIdx, values := a.dev.colIdx+4*first, a.dev.values+first*uintptr(sizeOf[T]())
	var err error
	call := func(fn *dl.Proc, args ...uintptr) { // each step after the one it needs
		if err == nil {
			err = fn.Status(args...)
		}
	}
	call(cusparse.CreateCsr, uintptr(unsafe.Pointer(&d.a)), uintptr(a.rows), uintptr(a.cols), uintptr(nnz),
		rowOff, colIdx, values, cusparseIndex32I, cusparseIndex32I, cusparseIndexBase0, dt)
	call(cusparse.CreateDnMat, uintptr(unsafe.Pointer(&d.b)), uintptr(mb.rows), uintptr(mb.cols), uintptr(mb.ld), mb.devAt(b0), dt, cusparseOrderCol)
	call(cusparse.CreateDnMat, uintptr(unsafe.Pointer(&d.c)), uintptr(mc.rows), uintptr(mc.cols), uintptr(mc.ld), mc.devAt(b0), dt, cusparseOrderCol)
	if count > 1 {
		call(cusparse.CsrSetStridedBatch, d.a, uintptr(count), 0, uintptr(nnz))
		call(cusparse.DnMatSetStridedBatch, d.b, uintptr(count), uintptr(mb.strd))
		call(cusparse.DnMatSetStridedBatch, d.c, uintptr(count), uintptr(mc.strd))
	}
	if err != nil {
		return err
	}
	return f(d)
}

// spmmCuSparseRuns reports whether cuSPARSE is called at all: alpha = 0, or A without
// entries, is C = beta C, which blasQuick does without reading A or B.
func spmmCuSparseRuns[T Scalar](s *spmmCall[T]) bool {
	m, n, _ := s.dims()
	return m > 0 && n > 0 && s.a.batch > 0 && s.alpha != 0 && s.a.start[1] > 0
}

// spmmCuSparseWork is cusparseSpMM_bufferSize's workspace for s, in bytes: that of its first
// call, since every call has the same sizes and nnz.
func spmmCuSparseWork[T Scalar](q *Queue, s *spmmCall[T]) (int, error) {
	if !spmmCuSparseRuns(s) {
		return 0, nil
	}
	var size uint64
	sc := scalars(s.alpha, s.beta)
	defer runtime.KeepAlive(sc)
	err := withSpmmDescs(q, s, 1, func(h uintptr, d spmmDescs) error {
		return cusparse.SpMMBufferSize.Status(h, cuOpOf[T](s.transA), cuOpOf[T](s.transB), sc.ptr(0), d.a, d.b,
			sc.ptr(1), d.c, cudaDataType[T](), cusparseSpMMAlgDef, uintptr(unsafe.Pointer(&size)))
	})
	return int(size), err
}

// spmmCuSparse calls cusparseSpMM on the groups of spmmGroup, one after another on the
// stream with the same workspace. For beta = 0 C is first set to zero, so that no NaN in C
// can reach the result whatever cuSPARSE reads.
func spmmCuSparse[T Scalar](q *Queue, s *spmmCall[T]) error {
	if done, err := blasQuick(q, !spmmCuSparseRuns(s), s.c, scaleAll, s.beta); done {
		return err
	}
	if s.beta == 0 {
		if err := scaleMat(q, s.c, scaleAll, 0); err != nil {
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
	return withSpmmDescs(q, s, s.a.batch/spmmGroup(s), func(h uintptr, d spmmDescs) error {
		return cusparse.SpMM.Status(h, cuOpOf[T](s.transA), cuOpOf[T](s.transB), sc.ptr(0), d.a, d.b,
			sc.ptr(1), d.c, cudaDataType[T](), cusparseSpMMAlgDef, ws)
	})
}
