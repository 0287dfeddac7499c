// getri "cta": the inverse of each n-by-n A of a batch from getrf's LU factors and pivots,
// one block per matrix (n <= LU_ROWS_MAX, A within the shared-memory budget).
//
// The block reads the factors into shared memory. When U has an exactly zero diagonal entry
// (the first at k: info = k + 1) the matrix keeps its factors, as LAPACK's getri leaves it.
// Otherwise column j of inv(A) = U^-1 L^-1 P^T e_j: each warp solves whole columns with
// lu.cuh's lu_solve_warp, starting from P^T e_j (entry r is 1 where q[r] = j), and writes
// them over A, whose factors are all in shared memory by then. A is read and written once.
// Shared memory: n*n elements and 2n ints.
#include "../getrf/lu.cuh"

template <typename T>
__device__ __forceinline__ void getri_cta(T *a, i64 lda, i64 sa, const int *ipiv, int n, i64 batch, int *info) {
    typedef scalar<T> S;
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
    for (int c = 0; c < LU_CMAX; c++) {
        const int i = lane + 32 * c;
        if (i < n && first == n && lu_is_zero(s[(i64)i * lds + i])) first = i;
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        const int o = __shfl_xor_sync(0xffffffffu, first, off);
        if (o < first) first = o;
    }
    if (threadIdx.x == 0) info[mb] = first < n ? first + 1 : 0;
    if (first < n) return;
    for (int j = warp; j < n; j += warps) {
        T x[LU_CMAX];
#pragma unroll
        for (int c = 0; c < LU_CMAX; c++) {
            const int i = lane + 32 * c;
            x[c] = S::from_real(i < n && q[i] == j ? 1 : 0);
        }
        lu_solve_warp(x, s, lds, row_at, n, LU_NOTRANS);
        T *gj = g + (i64)j * lda;
#pragma unroll
        for (int c = 0; c < LU_CMAX; c++) {
            const int i = lane + 32 * c;
            if (i < n) gj[i] = x[c];
        }
    }
}

#define GETRI_CTA(NAME, T)                                                                       \
    extern "C" __global__ void __launch_bounds__(256)                                            \
        NAME(T *a, i64 lda, i64 sa, const int *ipiv, i64 n, i64 batch, int *info) {              \
        getri_cta<T>(a, lda, sa, ipiv, (int)n, batch, info);                                      \
    }

GETRI_CTA(getri_cta_f32, float)
GETRI_CTA(getri_cta_f64, double)
GETRI_CTA(getri_cta_c64, cfloat)
GETRI_CTA(getri_cta_c128, cdouble)
