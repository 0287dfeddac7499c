package cu

import (
	"fmt"

	"github.com/batchlas/batchlas/internal/dl"
)

// The CUDA libraries of the vendor families, each opened with its status names. cuBLAS and
// cuSOLVER open by their CUDA 12 and 13 sonames only: an unversioned libcublas.so may be an
// older toolkit's (Debian's CUDA 11.8 installs one), whose libraries these bindings were not
// checked against.

// OpenCUBLAS opens cuBLAS.
func OpenCUBLAS() (*dl.Lib, error) {
	l, err := OpenLib("cublas", "no cuBLAS: libcublas.so.13 not found; install the CUDA toolkit libraries for the vendor family", "libcublas.so.13", "libcublas.so.12")
	if err != nil {
		return nil, err
	}
	l.StatusName = exportedStatusName(l, "cublasGetStatusName", "cublasStatus")
	return l, nil
}

// OpenCUSOLVER opens cuSOLVER, whose status names are not exported: they are cusolver_common.h's.
func OpenCUSOLVER() (*dl.Lib, error) {
	l, err := OpenLib("cusolver", "no cuSOLVER: libcusolver.so.12 not found; install the CUDA toolkit libraries for the vendor family", "libcusolver.so.12", "libcusolver.so.11")
	if err != nil {
		return nil, err
	}
	l.StatusName = func(st int32) string {
		if n, ok := cusolverStatusNames[st]; ok {
			return n
		}
		return fmt.Sprintf("cusolverStatus %d", st)
	}
	return l, nil
}

var cusolverStatusNames = map[int32]string{
	1: "CUSOLVER_STATUS_NOT_INITIALIZED", 2: "CUSOLVER_STATUS_ALLOC_FAILED", 3: "CUSOLVER_STATUS_INVALID_VALUE",
	4: "CUSOLVER_STATUS_ARCH_MISMATCH", 5: "CUSOLVER_STATUS_MAPPING_ERROR", 6: "CUSOLVER_STATUS_EXECUTION_FAILED",
	7: "CUSOLVER_STATUS_INTERNAL_ERROR", 8: "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED", 9: "CUSOLVER_STATUS_NOT_SUPPORTED",
}

// OpenCUSPARSE opens cuSPARSE.
func OpenCUSPARSE() (*dl.Lib, error) {
	l, err := OpenLib("cusparse", "no cuSPARSE: libcusparse.so.12 not found; install the CUDA toolkit libraries for the vendor family", "libcusparse.so.12")
	if err != nil {
		return nil, err
	}
	l.StatusName = exportedStatusName(l, "cusparseGetErrorName", "cusparseStatus")
	return l, nil
}

// exportedStatusName names a status by the library's own function sym, or as "kind N" where
// the library lacks it.
func exportedStatusName(l *dl.Lib, sym, kind string) func(int32) string {
	return func(st int32) string {
		fn, err := l.Sym(sym)
		if err != nil {
			return fmt.Sprintf("%s %d", kind, st)
		}
		return dl.GoString(fn.Call(uintptr(st)))
	}
}
