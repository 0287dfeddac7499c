//go:build cuda && !novendor

package batchlas

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/batchlas/batchlas/internal/cu"
	"github.com/batchlas/batchlas/internal/dl"
)

// cuBLAS and cuSOLVER, opened at run time. The handles belong to the device's executor and
// are bound to the calling queue's stream before each call; all calls run on the executor
// thread, so a handle is never used by two threads at once.

var (
	vendorOnce sync.Once
	cublas     *cu.BLAS
	cusolver   *cu.Solver
	vendorErr  error
)

// cudaVendorLibs opens cuBLAS and cuSOLVER, once, with their functions resolved.
func cudaVendorLibs() error {
	vendorOnce.Do(func() {
		if cublas, vendorErr = cu.OpenCUBLAS(); vendorErr == nil {
			cusolver, vendorErr = cu.OpenCUSOLVER()
		}
	})
	return vendorErr
}

// cuHandles are one device's library handles, and the parameter objects of the cuSOLVER
// calls that take one (created once, left at their defaults).
type cuHandles struct {
	blas, solver uintptr
	syevj        uintptr // syevjInfo_t
	gesvdj       uintptr // gesvdjInfo_t
	params       uintptr // cusolverDnParams_t
	sparse       uintptr // cusparseHandle_t, created on first use (vendor_cusparse.go)
}

// vendorCall runs f on q's executor thread with the device's handles bound to q's stream.
func vendorCall(q *Queue, f func(h *cuHandles) error) error {
	if err := cudaVendorLibs(); err != nil {
		return err
	}
	e := q.eng.(*cudaEngine)
	return e.ex.Do(func() error {
		h, _ := e.ex.Vendor.(*cuHandles)
		if h == nil {
			h = &cuHandles{}
			if err := cublas.Create.Status(uintptr(unsafe.Pointer(&h.blas))); err != nil {
				return err
			}
			if err := cusolver.Create.Status(uintptr(unsafe.Pointer(&h.solver))); err != nil {
				return err
			}
			if err := cusolver.CreateSyevjInfo.Status(uintptr(unsafe.Pointer(&h.syevj))); err != nil {
				return err
			}
			if err := cusolver.CreateParams.Status(uintptr(unsafe.Pointer(&h.params))); err != nil {
				return err
			}
			if err := cusolver.CreateGesvdjInfo.Status(uintptr(unsafe.Pointer(&h.gesvdj))); err != nil {
				return err
			}
			e.ex.Vendor = h
		}
		if err := cublas.SetStream.Status(h.blas, e.stream); err != nil {
			return err
		}
		if err := cusolver.SetStream.Status(h.solver, e.stream); err != nil {
			return err
		}
		return f(h)
	})
}

// onCUDA is the first can_run term of every CUDA vendor family: a CUDA queue, and cuBLAS and
// cuSOLVER opened. Without the libraries the family cannot run, so that the route falls to
// another family instead of failing in launch.
func onCUDA(q *Queue) bool { return q.dev.Backend == CUDA && cudaVendorLibs() == nil }

// cuFill, cuOp, cuSide and cuDiag are the cuBLAS enum values.
func cuFill(u Uplo) uintptr {
	if u == Upper {
		return 1
	}
	return 0
}

func cuOp(t Transpose) uintptr {
	switch t {
	case Trans:
		return 1
	case ConjTrans:
		return 2
	}
	return 0
}

func cuSide(s Side) uintptr {
	if s == Right {
		return 1
	}
	return 0
}

func cuDiag(d Diag) uintptr {
	if d == Unit {
		return 1
	}
	return 0
}

// devArray is a batch of device objects: object b starts at base + b*stride bytes.
type devArray struct {
	base   uintptr
	stride int
}

func matArray[T Scalar](m *Matrix[T]) devArray { return devArray{m.devPtr(), m.strd * sizeOf[T]()} }

// ptrArraysBytes is the workspace of ptrArrays.
func ptrArraysBytes(batch, arrays, extra int) int { return alignUp(8*batch*arrays, 256) + extra }

// ptrArrays leases the queue's workspace and fills one device pointer array per arr, on the
// stream; extra bytes of workspace follow the arrays, 256-byte aligned, at *extraPtr.
func ptrArrays(q *Queue, batch, extra int, arrs ...devArray) (ptrs []uintptr, extraPtr uintptr, err error) {
	ws, err := q.scratch(ptrArraysBytes(batch, len(arrs), extra))
	if err != nil {
		return nil, 0, err
	}
	e := cudaOf(q)
	for i, a := range arrs {
		p := ws + uintptr(8*batch*i)
		if err := e.ptrArray(p, a.base, a.stride, batch); err != nil {
			return nil, 0, err
		}
		ptrs = append(ptrs, p)
	}
	return ptrs, ws + uintptr(alignUp(8*batch*len(arrs), 256)), nil
}

// vendorLoop calls the cuBLAS or cuSOLVER function fn once per matrix of the batch, with
// the arguments args returns for matrix b, all enqueued on the stream in one visit to the
// executor thread: the host never waits per matrix. fn is read from the opened tables, so
// callers are launches whose canRun (onCUDA) opened them.
func vendorLoop(q *Queue, batch int, fn *dl.Proc, args func(h *cuHandles, b int) []uintptr) error {
	return vendorCall(q, func(h *cuHandles) error {
		for b := 0; b < batch; b++ {
			if err := fn.Status(args(h, b)...); err != nil {
				return err
			}
		}
		return nil
	})
}

// hostInfoErr reports an int that a vendor call writes on the host (argument checks of cuBLAS's
// getrsBatched and geqrfBatched); nonzero means the library refused an argument.
func hostInfoErr(call string, info *int32) error {
	if *info != 0 {
		return &DeviceError{Library: "cublas", Call: call, Status: int(*info), Name: fmt.Sprintf("argument %d refused", -*info)}
	}
	return nil
}

// cuOpOf is trans for a cuBLAS call on T: ConjTrans of a real type is Trans.
func cuOpOf[T Scalar](t Transpose) uintptr {
	if t == ConjTrans && !isComplex[T]() {
		t = Trans
	}
	return cuOp(t)
}
