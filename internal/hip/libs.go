package hip

import (
	"fmt"

	"github.com/batchlas/batchlas/internal/dl"
)

// rocBLAS and rocSOLVER, each opened once with every function the vendor families call
// resolved at that moment (a missing one is an error of the open). Their routines come in
// four dtypes; the accessors take the dtype's index, 0..3 for s, d, c, z. rocSOLVER's calls
// take a rocBLAS handle and return rocblas_status.

// BLAS is rocBLAS.
type BLAS struct {
	Lib           *dl.Lib
	CreateHandle  *dl.Proc `sym:"rocblas_create_handle"`
	DestroyHandle *dl.Proc `sym:"rocblas_destroy_handle"`
	SetStream     *dl.Proc `sym:"rocblas_set_stream"`
	Sgemm         *dl.Proc `sym:"rocblas_sgemm_strided_batched"`
	Dgemm         *dl.Proc `sym:"rocblas_dgemm_strided_batched"`
	Cgemm         *dl.Proc `sym:"rocblas_cgemm_strided_batched"`
	Zgemm         *dl.Proc `sym:"rocblas_zgemm_strided_batched"`
	Sgemv         *dl.Proc `sym:"rocblas_sgemv_strided_batched"`
	Dgemv         *dl.Proc `sym:"rocblas_dgemv_strided_batched"`
	Cgemv         *dl.Proc `sym:"rocblas_cgemv_strided_batched"`
	Zgemv         *dl.Proc `sym:"rocblas_zgemv_strided_batched"`
	Strsm         *dl.Proc `sym:"rocblas_strsm_strided_batched"`
	Dtrsm         *dl.Proc `sym:"rocblas_dtrsm_strided_batched"`
	Ctrsm         *dl.Proc `sym:"rocblas_ctrsm_strided_batched"`
	Ztrsm         *dl.Proc `sym:"rocblas_ztrsm_strided_batched"`
	Strmm         *dl.Proc `sym:"rocblas_strmm_strided_batched"`
	Dtrmm         *dl.Proc `sym:"rocblas_dtrmm_strided_batched"`
	Ctrmm         *dl.Proc `sym:"rocblas_ctrmm_strided_batched"`
	Ztrmm         *dl.Proc `sym:"rocblas_ztrmm_strided_batched"`
	Ssymm         *dl.Proc `sym:"rocblas_ssymm_strided_batched"`
	Dsymm         *dl.Proc `sym:"rocblas_dsymm_strided_batched"`
	Csymm         *dl.Proc `sym:"rocblas_csymm_strided_batched"`
	Zsymm         *dl.Proc `sym:"rocblas_zsymm_strided_batched"`
	Chemm         *dl.Proc `sym:"rocblas_chemm_strided_batched"`
	Zhemm         *dl.Proc `sym:"rocblas_zhemm_strided_batched"`
	Ssyrk         *dl.Proc `sym:"rocblas_ssyrk_strided_batched"`
	Dsyrk         *dl.Proc `sym:"rocblas_dsyrk_strided_batched"`
	Csyrk         *dl.Proc `sym:"rocblas_csyrk_strided_batched"`
	Zsyrk         *dl.Proc `sym:"rocblas_zsyrk_strided_batched"`
	Cherk         *dl.Proc `sym:"rocblas_cherk_strided_batched"`
	Zherk         *dl.Proc `sym:"rocblas_zherk_strided_batched"`
	Ssyr2k        *dl.Proc `sym:"rocblas_ssyr2k_strided_batched"`
	Dsyr2k        *dl.Proc `sym:"rocblas_dsyr2k_strided_batched"`
	Csyr2k        *dl.Proc `sym:"rocblas_csyr2k_strided_batched"`
	Zsyr2k        *dl.Proc `sym:"rocblas_zsyr2k_strided_batched"`
	Cher2k        *dl.Proc `sym:"rocblas_cher2k_strided_batched"`
	Zher2k        *dl.Proc `sym:"rocblas_zher2k_strided_batched"`
	Scopy         *dl.Proc `sym:"rocblas_scopy_strided_batched"`
	Dcopy         *dl.Proc `sym:"rocblas_dcopy_strided_batched"`
	Ccopy         *dl.Proc `sym:"rocblas_ccopy_strided_batched"`
	Zcopy         *dl.Proc `sym:"rocblas_zcopy_strided_batched"`
}

func (l *BLAS) Gemm(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Sgemm, l.Dgemm, l.Cgemm, l.Zgemm}[dtype]
}
func (l *BLAS) Gemv(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Sgemv, l.Dgemv, l.Cgemv, l.Zgemv}[dtype]
}

// Copy is rocblas_<t>copy_strided_batched: y_b = x_b, n elements at strides incx and incy.
func (l *BLAS) Copy(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Scopy, l.Dcopy, l.Ccopy, l.Zcopy}[dtype]
}
func (l *BLAS) Trsm(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Strsm, l.Dtrsm, l.Ctrsm, l.Ztrsm}[dtype]
}

// Trmm is rocBLAS's trmm of ROCm 6 (rocBLAS 4), which writes C (in place when C is B).
func (l *BLAS) Trmm(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Strmm, l.Dtrmm, l.Ctrmm, l.Ztrmm}[dtype]
}
func (l *BLAS) Symm(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Ssymm, l.Dsymm, l.Csymm, l.Zsymm}[dtype]
}

// Hemm, Herk and Her2k are symm, syrk and syr2k for the real dtypes, as BLAS defines them.
func (l *BLAS) Hemm(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Ssymm, l.Dsymm, l.Chemm, l.Zhemm}[dtype]
}
func (l *BLAS) Syrk(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Ssyrk, l.Dsyrk, l.Csyrk, l.Zsyrk}[dtype]
}
func (l *BLAS) Herk(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Ssyrk, l.Dsyrk, l.Cherk, l.Zherk}[dtype]
}
func (l *BLAS) Syr2k(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Ssyr2k, l.Dsyr2k, l.Csyr2k, l.Zsyr2k}[dtype]
}
func (l *BLAS) Her2k(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Ssyr2k, l.Dsyr2k, l.Cher2k, l.Zher2k}[dtype]
}

// Solver is rocSOLVER. syev is ?syev for the real dtypes and ?heev for the complex ones.
type Solver struct {
	Lib    *dl.Lib
	Spotrf *dl.Proc `sym:"rocsolver_spotrf_strided_batched"`
	Dpotrf *dl.Proc `sym:"rocsolver_dpotrf_strided_batched"`
	Cpotrf *dl.Proc `sym:"rocsolver_cpotrf_strided_batched"`
	Zpotrf *dl.Proc `sym:"rocsolver_zpotrf_strided_batched"`
	Sgetrf *dl.Proc `sym:"rocsolver_sgetrf_strided_batched"`
	Dgetrf *dl.Proc `sym:"rocsolver_dgetrf_strided_batched"`
	Cgetrf *dl.Proc `sym:"rocsolver_cgetrf_strided_batched"`
	Zgetrf *dl.Proc `sym:"rocsolver_zgetrf_strided_batched"`
	Sgetrs *dl.Proc `sym:"rocsolver_sgetrs_strided_batched"`
	Dgetrs *dl.Proc `sym:"rocsolver_dgetrs_strided_batched"`
	Cgetrs *dl.Proc `sym:"rocsolver_cgetrs_strided_batched"`
	Zgetrs *dl.Proc `sym:"rocsolver_zgetrs_strided_batched"`
	Sgetri *dl.Proc `sym:"rocsolver_sgetri_strided_batched"`
	Dgetri *dl.Proc `sym:"rocsolver_dgetri_strided_batched"`
	Cgetri *dl.Proc `sym:"rocsolver_cgetri_strided_batched"`
	Zgetri *dl.Proc `sym:"rocsolver_zgetri_strided_batched"`
	Sgeqrf *dl.Proc `sym:"rocsolver_sgeqrf_strided_batched"`
	Dgeqrf *dl.Proc `sym:"rocsolver_dgeqrf_strided_batched"`
	Cgeqrf *dl.Proc `sym:"rocsolver_cgeqrf_strided_batched"`
	Zgeqrf *dl.Proc `sym:"rocsolver_zgeqrf_strided_batched"`
	Ssyev  *dl.Proc `sym:"rocsolver_ssyev_strided_batched"`
	Dsyev  *dl.Proc `sym:"rocsolver_dsyev_strided_batched"`
	Csyev  *dl.Proc `sym:"rocsolver_cheev_strided_batched"`
	Zsyev  *dl.Proc `sym:"rocsolver_zheev_strided_batched"`
	Sgesvd *dl.Proc `sym:"rocsolver_sgesvd_strided_batched"`
	Dgesvd *dl.Proc `sym:"rocsolver_dgesvd_strided_batched"`
	Cgesvd *dl.Proc `sym:"rocsolver_cgesvd_strided_batched"`
	Zgesvd *dl.Proc `sym:"rocsolver_zgesvd_strided_batched"`
	Spotrs *dl.Proc `sym:"rocsolver_spotrs_strided_batched"`
	Dpotrs *dl.Proc `sym:"rocsolver_dpotrs_strided_batched"`
	Cpotrs *dl.Proc `sym:"rocsolver_cpotrs_strided_batched"`
	Zpotrs *dl.Proc `sym:"rocsolver_zpotrs_strided_batched"`
	Sgels  *dl.Proc `sym:"rocsolver_sgels_strided_batched"`
	Dgels  *dl.Proc `sym:"rocsolver_dgels_strided_batched"`
	Cgels  *dl.Proc `sym:"rocsolver_cgels_strided_batched"`
	Zgels  *dl.Proc `sym:"rocsolver_zgels_strided_batched"`
	Sorgqr *dl.Proc `sym:"rocsolver_sorgqr"`
	Dorgqr *dl.Proc `sym:"rocsolver_dorgqr"`
	Corgqr *dl.Proc `sym:"rocsolver_cungqr"`
	Zorgqr *dl.Proc `sym:"rocsolver_zungqr"`
	Sormqr *dl.Proc `sym:"rocsolver_sormqr"`
	Dormqr *dl.Proc `sym:"rocsolver_dormqr"`
	Cormqr *dl.Proc `sym:"rocsolver_cunmqr"`
	Zormqr *dl.Proc `sym:"rocsolver_zunmqr"`
}

func (l *Solver) Potrf(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Spotrf, l.Dpotrf, l.Cpotrf, l.Zpotrf}[dtype]
}
func (l *Solver) Getrf(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Sgetrf, l.Dgetrf, l.Cgetrf, l.Zgetrf}[dtype]
}
func (l *Solver) Getrs(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Sgetrs, l.Dgetrs, l.Cgetrs, l.Zgetrs}[dtype]
}
func (l *Solver) Getri(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Sgetri, l.Dgetri, l.Cgetri, l.Zgetri}[dtype]
}
func (l *Solver) Geqrf(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Sgeqrf, l.Dgeqrf, l.Cgeqrf, l.Zgeqrf}[dtype]
}
func (l *Solver) Syev(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Ssyev, l.Dsyev, l.Csyev, l.Zsyev}[dtype]
}
func (l *Solver) Gesvd(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Sgesvd, l.Dgesvd, l.Cgesvd, l.Zgesvd}[dtype]
}
func (l *Solver) Potrs(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Spotrs, l.Dpotrs, l.Cpotrs, l.Zpotrs}[dtype]
}

func (l *Solver) Gels(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Sgels, l.Dgels, l.Cgels, l.Zgels}[dtype]
}

// Orgqr and Ormqr are ?orgqr and ?ormqr for the real dtypes, ?ungqr and ?unmqr for the
// complex ones; rocSOLVER has them for one matrix only.
func (l *Solver) Orgqr(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Sorgqr, l.Dorgqr, l.Corgqr, l.Zorgqr}[dtype]
}
func (l *Solver) Ormqr(dtype int) *dl.Proc {
	return [4]*dl.Proc{l.Sormqr, l.Dormqr, l.Cormqr, l.Zormqr}[dtype]
}

// OpenBLAS opens rocBLAS and resolves its table.
func OpenBLAS() (*BLAS, error) {
	l, err := OpenLib("rocblas", "no rocBLAS: librocblas.so not found; install ROCm's rocblas for the vendor family", "librocblas.so.4", "librocblas.so")
	if err != nil {
		return nil, err
	}
	l.StatusName = statusName
	t := &BLAS{Lib: l}
	return t, l.Resolve(t)
}

// OpenSolver opens rocSOLVER and resolves its table.
func OpenSolver() (*Solver, error) {
	l, err := OpenLib("rocsolver", "no rocSOLVER: librocsolver.so not found; install ROCm's rocsolver for the vendor family", "librocsolver.so.0", "librocsolver.so")
	if err != nil {
		return nil, err
	}
	l.StatusName = statusName
	t := &Solver{Lib: l}
	return t, l.Resolve(t)
}

// statusName names a rocblas_status (rocblas-types.h), which rocSOLVER returns too.
func statusName(st int32) string {
	if n, ok := statusNames[st]; ok {
		return n
	}
	return fmt.Sprintf("rocblas_status %d", st)
}

var statusNames = map[int32]string{
	1: "rocblas_status_invalid_handle", 2: "rocblas_status_not_implemented", 3: "rocblas_status_invalid_pointer",
	4: "rocblas_status_invalid_size", 5: "rocblas_status_memory_error", 6: "rocblas_status_internal_error",
	7: "rocblas_status_perf_degraded", 8: "rocblas_status_size_query_mismatch", 9: "rocblas_status_size_increased",
	10: "rocblas_status_size_unchanged", 11: "rocblas_status_invalid_value", 12: "rocblas_status_continue",
	13: "rocblas_status_check_numerics_fail", 14: "rocblas_status_excluded_from_build", 15: "rocblas_status_arch_mismatch",
}

// rocBLAS's and rocSOLVER's enum values (rocblas-types.h, rocsolver's rocsolver-extra-types.h).
const (
	OpNone, OpTrans, OpConjTrans = 111, 112, 113 // rocblas_operation
	FillUpper, FillLower         = 121, 122      // rocblas_fill
	DiagNonUnit, DiagUnit        = 131, 132      // rocblas_diagonal
	SideLeft, SideRight          = 141, 142      // rocblas_side
	EvectOriginal, EvectNone     = 211, 213      // rocblas_evect
	SvectAll, SvectSingular      = 191, 192      // rocblas_svect
	SvectNone                    = 194
	OutOfPlace                   = 201 // rocblas_workmode: gesvd's fast_alg
)
