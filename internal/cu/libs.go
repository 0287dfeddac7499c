package cu

import (
	"fmt"

	"github.com/batchlas/batchlas/internal/dl"
)

// The CUDA libraries of the vendor families, each opened once with every function the
// families call resolved at that moment (a missing one is an error of the open, except for
// the fields tagged optional). A Procs field is one routine in the four dtypes, indexed
// 0..3 for s, d, c, z. cuBLAS and cuSOLVER open by their CUDA 12 and 13 sonames only: an
// unversioned libcublas.so may be an older toolkit's (Debian's CUDA 11.8 installs one),
// whose libraries these bindings were not checked against.

// BLAS is cuBLAS. Hemm, Herk and Her2k are symm, syrk and syr2k for the real dtypes, as BLAS
// defines them.
type BLAS struct {
	Lib           *dl.Lib
	Create        *dl.Proc `sym:"cublasCreate_v2"`
	SetStream     *dl.Proc `sym:"cublasSetStream_v2"`
	GetStatusName *dl.Proc `sym:"cublasGetStatusName" optional:"true"`
	Gemm          dl.Procs `sym:"cublas{T}gemmStridedBatched"`
	Gemv          dl.Procs `sym:"cublas{T}gemvStridedBatched"`
	Scal          dl.Procs `sym:"cublas{T}scal_v2"`
	Trsm          dl.Procs `sym:"cublas{T}trsmBatched"` // pointer arrays
	Trmm          dl.Procs `sym:"cublas{T}trmm_v2"`     // one matrix: cuBLAS has no batched trmm
	Symm          dl.Procs `sym:"cublas{T}symm_v2"`
	Hemm          dl.Procs `sym:"cublas{T}{symm|hemm}_v2"`
	Syrk          dl.Procs `sym:"cublas{T}syrk_v2"`
	Herk          dl.Procs `sym:"cublas{T}{syrk|herk}_v2"`
	Syr2k         dl.Procs `sym:"cublas{T}syr2k_v2"`
	Her2k         dl.Procs `sym:"cublas{T}{syr2k|her2k}_v2"`
	Gels          dl.Procs `sym:"cublas{T}gelsBatched"`
	Getrf         dl.Procs `sym:"cublas{T}getrfBatched"`
	Getrs         dl.Procs `sym:"cublas{T}getrsBatched"`
	Getri         dl.Procs `sym:"cublas{T}getriBatched"`
	Geqrf         dl.Procs `sym:"cublas{T}geqrfBatched"`
}

// Solver is cuSOLVER's dense API. The names without Batched are the single-matrix routines.
// XsyevBatched came with CUDA 12.6: an older cuSOLVER opens without it, and the two Procs'
// Status then returns the error that names the missing symbol (syev's auto route takes that
// as a reason to loop syevd instead).
type Solver struct {
	Lib                     *dl.Lib
	Create                  *dl.Proc `sym:"cusolverDnCreate"`
	SetStream               *dl.Proc `sym:"cusolverDnSetStream"`
	CreateSyevjInfo         *dl.Proc `sym:"cusolverDnCreateSyevjInfo"`
	CreateParams            *dl.Proc `sym:"cusolverDnCreateParams"`
	CreateGesvdjInfo        *dl.Proc `sym:"cusolverDnCreateGesvdjInfo"`
	PotrfBatched            dl.Procs `sym:"cusolverDn{T}potrfBatched"`
	PotrsBatched            dl.Procs `sym:"cusolverDn{T}potrsBatched"`
	Getrf                   dl.Procs `sym:"cusolverDn{T}getrf"`
	GetrfBufferSize         dl.Procs `sym:"cusolverDn{T}getrf_bufferSize"`
	Geqrf                   dl.Procs `sym:"cusolverDn{T}geqrf"`
	GeqrfBufferSize         dl.Procs `sym:"cusolverDn{T}geqrf_bufferSize"`
	Orgqr                   dl.Procs `sym:"cusolverDn{T}{orgqr|ungqr}"`
	OrgqrBufferSize         dl.Procs `sym:"cusolverDn{T}{orgqr|ungqr}_bufferSize"`
	Ormqr                   dl.Procs `sym:"cusolverDn{T}{ormqr|unmqr}"`
	OrmqrBufferSize         dl.Procs `sym:"cusolverDn{T}{ormqr|unmqr}_bufferSize"`
	Gesvd                   dl.Procs `sym:"cusolverDn{T}gesvd"`
	GesvdBufferSize         dl.Procs `sym:"cusolverDn{T}gesvd_bufferSize"`
	GesvdjBatched           dl.Procs `sym:"cusolverDn{T}gesvdjBatched"`
	GesvdjBatchedBufferSize dl.Procs `sym:"cusolverDn{T}gesvdjBatched_bufferSize"`
	SyevjBatched            dl.Procs `sym:"cusolverDn{T}{syevj|heevj}Batched"`
	SyevjBatchedBufferSize  dl.Procs `sym:"cusolverDn{T}{syevj|heevj}Batched_bufferSize"`
	Syevd                   dl.Procs `sym:"cusolverDn{T}{syevd|heevd}"`
	SyevdBufferSize         dl.Procs `sym:"cusolverDn{T}{syevd|heevd}_bufferSize"`
	XsyevBatched            *dl.Proc `sym:"cusolverDnXsyevBatched" optional:"true"`
	XsyevBatchedBufferSize  *dl.Proc `sym:"cusolverDnXsyevBatched_bufferSize" optional:"true"`
}

// Sparse is cuSPARSE's generic API, as the batched CSR SpMM uses it.
type Sparse struct {
	Lib                  *dl.Lib
	Create               *dl.Proc `sym:"cusparseCreate"`
	SetStream            *dl.Proc `sym:"cusparseSetStream"`
	GetErrorName         *dl.Proc `sym:"cusparseGetErrorName" optional:"true"`
	CreateCsr            *dl.Proc `sym:"cusparseCreateCsr"`
	CreateDnMat          *dl.Proc `sym:"cusparseCreateDnMat"`
	CsrSetStridedBatch   *dl.Proc `sym:"cusparseCsrSetStridedBatch"`
	DnMatSetStridedBatch *dl.Proc `sym:"cusparseDnMatSetStridedBatch"`
	DestroySpMat         *dl.Proc `sym:"cusparseDestroySpMat"`
	DestroyDnMat         *dl.Proc `sym:"cusparseDestroyDnMat"`
	SpMM                 *dl.Proc `sym:"cusparseSpMM"`
	SpMMBufferSize       *dl.Proc `sym:"cusparseSpMM_bufferSize"`
}

// OpenCUBLAS opens cuBLAS and resolves its table.
func OpenCUBLAS() (*BLAS, error) {
	l, err := OpenLib("cublas", "no cuBLAS: libcublas.so.13 not found; install the CUDA toolkit libraries for the vendor family", "libcublas.so.13", "libcublas.so.12")
	if err != nil {
		return nil, err
	}
	t := &BLAS{Lib: l}
	if err := l.Resolve(t); err != nil {
		return nil, err
	}
	l.StatusName = exportedStatusName(t.GetStatusName, "cublasStatus")
	return t, nil
}

// OpenCUSOLVER opens cuSOLVER and resolves its table. Its status names are not exported:
// they are cusolver_common.h's.
func OpenCUSOLVER() (*Solver, error) {
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
	t := &Solver{Lib: l}
	if err := l.Resolve(t); err != nil {
		return nil, err
	}
	return t, nil
}

var cusolverStatusNames = map[int32]string{
	1: "CUSOLVER_STATUS_NOT_INITIALIZED", 2: "CUSOLVER_STATUS_ALLOC_FAILED", 3: "CUSOLVER_STATUS_INVALID_VALUE",
	4: "CUSOLVER_STATUS_ARCH_MISMATCH", 5: "CUSOLVER_STATUS_MAPPING_ERROR", 6: "CUSOLVER_STATUS_EXECUTION_FAILED",
	7: "CUSOLVER_STATUS_INTERNAL_ERROR", 8: "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED", 9: "CUSOLVER_STATUS_NOT_SUPPORTED",
}

// OpenCUSPARSE opens cuSPARSE and resolves its table.
func OpenCUSPARSE() (*Sparse, error) {
	l, err := OpenLib("cusparse", "no cuSPARSE: libcusparse.so.12 not found; install the CUDA toolkit libraries for the vendor family", "libcusparse.so.12")
	if err != nil {
		return nil, err
	}
	t := &Sparse{Lib: l}
	if err := l.Resolve(t); err != nil {
		return nil, err
	}
	l.StatusName = exportedStatusName(t.GetErrorName, "cusparseStatus")
	return t, nil
}

// exportedStatusName names a status by the library's own function fn, or as "kind N" where
// the library lacks it.
func exportedStatusName(fn *dl.Proc, kind string) func(int32) string {
	return func(st int32) string {
		if fn.Err() != nil {
			return fmt.Sprintf("%s %d", kind, st)
		}
		return dl.GoString(fn.Call(uintptr(st)))
	}
}
