// gesv "cta": factors each n-by-n A of a batch as getrf and solves A X = B in the same
// kernel, one block per matrix (n <= LU_ROWS_MAX, A within the shared-memory budget).
//
// The block reads A into shared memory, factors it with lu.cuh's lu_factor_cta, writes the
// factors, pivots and info; when info is 0, each warp solves NB = LU_SOLVE_VALUES / C
// columns of B at a time (n <= 32 C; a kernel per C = 1, 2, 4, 8) with lu_solve_warp on the
// factors still in shared memory (P^T b gathered through row_at, which is the permutation
// itself: rows never moved). A singular A leaves its B untouched, as LAPACK's gesv does. A
// and B are each read and written once. Shared memory: n*n elements and n ints.
#include "../getrf/lu.cuh"

template <typename T, int C>
__device__ __forceinline__ void gesv_cta(T *a, i64 lda, i64 sa, int *ipiv, T *b, i64 ldb, i64 sb, int n, int nrhs,
                                         i64 batch, int *info) {
    const i64 mb = blockIdx.x;
    if (mb >= batch) return;
    DYNAMIC_SHARED(T, s);
    const int lds = n;
    int *row_at = (int *)(s + (i64)lds * n);
    T *g = a + mb * sa;
    lu_load(s, lds, g, lda, n, n);
    __syncthreads();
    const int bad = lu_factor_cta(s, lds, n, n, ipiv + mb * n, row_at);
    lu_store(g, lda, s, lds, row_at, n, n);
    if (threadIdx.x == 0) info[mb] = bad;
    if (bad != 0) return;
    lu_solve_rhs<T, C>(s, lds, row_at, n, LU_NOTRANS, b + mb * sb, ldb, nrhs, row_at, nullptr);
}

#define GESV_CTA(NAME, T, C)                                                                     \
    extern "C" __global__ void __launch_bounds__(256, 1) NAME(T *a, i64 lda, i64 sa, int *ipiv, T *b, i64 ldb, i64 sb, \
                                                            i64 n, i64 nrhs, i64 batch, int *info) { \
        gesv_cta<T, C>(a, lda, sa, ipiv, b, ldb, sb, (int)n, (int)nrhs, batch, info);            \
    }
#define GESV_CTA_ALL(C)                                                                          \
    GESV_CTA(gesv_cta##C##_f32, float, C)                                                        \
    GESV_CTA(gesv_cta##C##_f64, double, C)                                                       \
    GESV_CTA(gesv_cta##C##_c64, cfloat, C)                                                       \
    GESV_CTA(gesv_cta##C##_c128, cdouble, C)

GESV_CTA_ALL(1)
GESV_CTA_ALL(2)
GESV_CTA_ALL(4)
GESV_CTA_ALL(8)
