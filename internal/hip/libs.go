package hip

import (
	"fmt"

	"github.com/batchlas/batchlas/internal/dl"
)

// rocBLAS and rocSOLVER, each opened once with every function the vendor families call
// resolved at that moment (a missing one is an error of the open). A routine in four dtypes
// is a dl.Procs, indexed 0..3 for s, d, c, z. rocSOLVER's calls take a rocBLAS handle and
// return rocblas_status.

// BLAS is rocBLAS. Hemm, Herk and Her2k are symm, syrk and syr2k for the real dtypes, as BLAS
// defines them; Trmm is the trmm of ROCm 6 (rocBLAS 4), which writes C (in place when C is
// B); Copy is y_b = x_b, n elements at strides incx and incy.
type BLAS struct {
	Lib           *dl.Lib
	CreateHandle  *dl.Proc `sym:"rocblas_create_handle"`
	DestroyHandle *dl.Proc `sym:"rocblas_destroy_handle"`
	SetStream     *dl.Proc `sym:"rocblas_set_stream"`
	Gemm          dl.Procs `sym:"rocblas_{t}gemm_strided_batched"`
	Gemv          dl.Procs `sym:"rocblas_{t}gemv_strided_batched"`
	Copy          dl.Procs `sym:"rocblas_{t}copy_strided_batched"`
	Trsm          dl.Procs `sym:"rocblas_{t}trsm_strided_batched"`
	Trmm          dl.Procs `sym:"rocblas_{t}trmm_strided_batched"`
	Symm          dl.Procs `sym:"rocblas_{t}symm_strided_batched"`
	Hemm          dl.Procs `sym:"rocblas_{t}{symm|hemm}_strided_batched"`
	Syrk          dl.Procs `sym:"rocblas_{t}syrk_strided_batched"`
	Herk          dl.Procs `sym:"rocblas_{t}{syrk|herk}_strided_batched"`
	Syr2k         dl.Procs `sym:"rocblas_{t}syr2k_strided_batched"`
	Her2k         dl.Procs `sym:"rocblas_{t}{syr2k|her2k}_strided_batched"`
}

// Solver is rocSOLVER. Syev is ?syev for the real dtypes and ?heev for the complex ones;
// Orgqr and Ormqr are ?orgqr and ?ormqr, or ?ungqr and ?unmqr, which rocSOLVER has for one
// matrix only.
type Solver struct {
	Lib   *dl.Lib
	Potrf dl.Procs `sym:"rocsolver_{t}potrf_strided_batched"`
	Getrf dl.Procs `sym:"rocsolver_{t}getrf_strided_batched"`
	Getrs dl.Procs `sym:"rocsolver_{t}getrs_strided_batched"`
	Getri dl.Procs `sym:"rocsolver_{t}getri_strided_batched"`
	Geqrf dl.Procs `sym:"rocsolver_{t}geqrf_strided_batched"`
	Syev  dl.Procs `sym:"rocsolver_{t}{syev|heev}_strided_batched"`
	Gesvd dl.Procs `sym:"rocsolver_{t}gesvd_strided_batched"`
	Potrs dl.Procs `sym:"rocsolver_{t}potrs_strided_batched"`
	Gels  dl.Procs `sym:"rocsolver_{t}gels_strided_batched"`
	Orgqr dl.Procs `sym:"rocsolver_{t}{orgqr|ungqr}"`
	Ormqr dl.Procs `sym:"rocsolver_{t}{ormqr|unmqr}"`
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
