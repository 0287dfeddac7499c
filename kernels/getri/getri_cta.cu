// getri "cta": the inverse of each n-by-n A of a batch from getrf's LU factors and pivots,
// one block per matrix (n <= LU_ROWS_MAX, A within the shared-memory budget).
//
// The block reads the factors into shared memory. When U has an exactly zero diagonal entry
// (the first at k: info = k + 1) the matrix keeps its factors, as LAPACK's getri leaves it.
// Otherwise column j of inv(A) = U^-1 L^-1 P^T e_j: each warp solves NB = LU_SOLVE_VALUES / C
// columns at a time (n <= 32 C; a kernel per C = 1, 2, 4, 8) with lu.cuh's lu_solve_warp,
// starting from P^T e_j (entry r is 1 where q[r] = j), and writes them over A, whose factors
// are all in shared memory by then. A is read and written once. Shared memory: n*n elements
// and 2n ints.
#include "../getrf/lu.cuh"

template <typename T, int C>
__device__ __forceinline__ void getri_cta(T *a, i64 lda, i64 sa, const int *ipiv, int n, i64 batch, int *info) {
    typedef scalar<T> S;
    constexpr int NB = LU_SOLVE_VALUES / C;
    const i64 mb = blockIdx.x;
    if (mb >= batch) return;
    DYNAMIC_SHARED(T, s);
    const int lds = n, lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    int *q = (int *)(s + (i64)lds * n), *row_at = q + n;
    T *g = a + mb * sa;
    lu_load(s, lds, g, lda, n, n);
    for (int r = threadIdx.x; r < n; r += blockDim.x) row_at[r] = r;
    lu_swaps_to_perm(q, ipiv + mb * n, n);
    __syncthreads();
    // The first zero on U's diagonal, found by every warp.
    int first = n;
#pragma unroll
    for (int c = 0; c < C; c++) {
        const int i = lane + 32 * c;
        if (i < n && first == n && lu_is_zero(s[(i64)i * lds + i])) first = i;
    }
    first = (int)__reduce_min_sync(0xffffffffu, (unsigned)first);
    if (threadIdx.x == 0) info[mb] = first < n ? first + 1 : 0;
    if (first < n) return;
    for (int j0 = warp * NB; j0 < n; j0 += warps * NB) {
        T x[NB][C];
#pragma unroll
        for (int k = 0; k < NB; k++)
#pragma unroll
            for (int c = 0; c < C; c++) {
                const int i = lane + 32 * c;
                x[k][c] = S::from_real(i < n && q[i] == j0 + k ? 1 : 0);
            }
        lu_solve_warp<T, C, NB>(x, s, lds, row_at, n, LU_NOTRANS);
#pragma unroll
        for (int k = 0; k < NB; k++) {
            T *gj = g + (i64)(j0 + k) * lda;
#pragma unroll
            for (int c = 0; c < C; c++) {
                const int i = lane + 32 * c;
                if (j0 + k < n && i < n) gj[i] = x[k][c];
            }
        }
    }
}

#define GETRI_CTA(NAME, T, C)                                                                    \
    extern "C" __global__ void __launch_bounds__(256, 1)                                         \
        NAME(T *a, i64 lda, i64 sa, const int *ipiv, i64 n, i64 batch, int *info) {              \
        getri_cta<T, C>(a, lda, sa, ipiv, (int)n, batch, info);                                   \
    }
#define GETRI_CTA_ALL(C)                                                                         \
    GETRI_CTA(getri_cta##C##_f32, float, C)                                                      \
    GETRI_CTA(getri_cta##C##_f64, double, C)                                                     \
    GETRI_CTA(getri_cta##C##_c64, cfloat, C)                                                     \
    GETRI_CTA(getri_cta##C##_c128, cdouble, C)

GETRI_CTA_ALL(1)
GETRI_CTA_ALL(2)
GETRI_CTA_ALL(4)
GETRI_CTA_ALL(8)
