// gesv "cta": factors each n-by-n A of a batch as getrf and solves A X = B in the same
// kernel, one block per matrix (n <= LU_ROWS_MAX, A within the shared-memory budget).
//
// The block reads A into shared memory, factors it with lu.cuh's lu_factor_cta, writes the
// factors, pivots and info; when info is 0, each warp solves whole columns of B with
// lu_solve_warp on the factors still in shared memory (P^T b gathered through row_at, which
// is the permutation itself: rows never moved). A singular A leaves its B untouched, as
// LAPACK's gesv does. A and B are each read and written once. Shared memory: n*n elements
// and n ints.
#include "../getrf/lu.cuh"

template <typename T>
__device__ __forceinline__ void gesv_cta(T *a, i64 lda, i64 sa, int *ipiv, T *b, i64 ldb, i64 sb, int n, int nrhs,
                                         i64 batch, int *info) {
    typedef scalar<T> S;
    const i64 mb = blockIdx.x;
    if (mb >= batch) return;
    DYNAMIC_SHARED(T, s);
    const int lds = n, lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    int *row_at = (int *)(s + (i64)lds * n);
    T *g = a + mb * sa;
    lu_load(s, lds, g, lda, n, n);
    __syncthreads();
    const int bad = lu_factor_cta(s, lds, n, n, ipiv + mb * n, row_at);
    lu_store(g, lda, s, lds, row_at, n, n);
    if (threadIdx.x == 0) info[mb] = bad;
    if (bad != 0) return;
    T *bm = b + mb * sb;
    for (int j = warp; j < nrhs; j += warps) {
        T *bj = bm + (i64)j * ldb;
        T x[LU_CMAX];
#pragma unroll
        for (int c = 0; c < LU_CMAX; c++) {
            const int i = lane + 32 * c;
            x[c] = S::from_real(0);
            if (i < n) x[c] = bj[row_at[i]];
        }
        lu_solve_warp(x, s, lds, row_at, n, LU_NOTRANS);
#pragma unroll
        for (int c = 0; c < LU_CMAX; c++) {
            const int i = lane + 32 * c;
            if (i < n) bj[i] = x[c];
        }
    }
}

#define GESV_CTA(NAME, T)                                                                        \
    extern "C" __global__ void __launch_bounds__(256) NAME(T *a, i64 lda, i64 sa, int *ipiv, T *b, i64 ldb, i64 sb, \
                                                            i64 n, i64 nrhs, i64 batch, int *info) { \
        gesv_cta<T>(a, lda, sa, ipiv, b, ldb, sb, (int)n, (int)nrhs, batch, info);               \
    }

GESV_CTA(gesv_cta_f32, float)
GESV_CTA(gesv_cta_f64, double)
GESV_CTA(gesv_cta_c64, cfloat)
GESV_CTA(gesv_cta_c128, cdouble)
