// getrs "cta": solves op(A) X = B with the LU factors and pivots of getrf, for a batch of
// n-by-n A (n <= LU_ROWS_MAX, A within the shared-memory budget) and n-by-nrhs B, one block
// per matrix.
//
// The block reads A into shared memory (leading dimension n|1, odd, so that the transposed
// solves, which read rows of A, meet no bank conflicts) and turns the interchanges into a
// permutation q. Then each warp solves whole columns of B, one after another: the column in
// registers (lane l holds rows l, l+32, ...), gathered through q for op = A (P^T b) and
// scattered through q for the transposes (P x), with lu.cuh's lu_solve_warp. B is read and
// written once. Shared memory: n*(n|1) elements and 2n ints.
#include "../getrf/lu.cuh"

template <typename T>
__device__ __forceinline__ void getrs_cta(const T *a, i64 lda, i64 sa, const int *ipiv, T *b, i64 ldb, i64 sb, int n,
                                          int nrhs, i64 batch, int trans) {
    typedef scalar<T> S;
    const i64 mb = blockIdx.x;
    if (mb >= batch) return;
    DYNAMIC_SHARED(T, s);
    const int lds = n | 1, lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    int *q = (int *)(s + (i64)lds * n), *row_at = q + n;
    lu_load(s, lds, a + mb * sa, lda, n, n);
    for (int r = threadIdx.x; r < n; r += blockDim.x) row_at[r] = r;
    lu_swaps_to_perm(q, ipiv + mb * n, n);
    __syncthreads();
    T *bm = b + mb * sb;
    for (int j = warp; j < nrhs; j += warps) {
        T *bj = bm + (i64)j * ldb;
        T x[LU_CMAX];
#pragma unroll
        for (int c = 0; c < LU_CMAX; c++) {
            const int i = lane + 32 * c;
            x[c] = S::from_real(0);
            if (i < n) x[c] = bj[trans == LU_NOTRANS ? q[i] : i];
        }
        lu_solve_warp(x, s, lds, row_at, n, trans);
#pragma unroll
        for (int c = 0; c < LU_CMAX; c++) {
            const int i = lane + 32 * c;
            if (i < n) bj[trans == LU_NOTRANS ? i : q[i]] = x[c];
        }
    }
}

#define GETRS_CTA(NAME, T)                                                                       \
    extern "C" __global__ void __launch_bounds__(256) NAME(const T *a, i64 lda, i64 sa, const int *ipiv, T *b,  \
                                                            i64 ldb, i64 sb, i64 n, i64 nrhs, i64 batch, i64 trans) { \
        getrs_cta<T>(a, lda, sa, ipiv, b, ldb, sb, (int)n, (int)nrhs, batch, (int)trans);       \
    }

GETRS_CTA(getrs_cta_f32, float)
GETRS_CTA(getrs_cta_f64, double)
GETRS_CTA(getrs_cta_c64, cfloat)
GETRS_CTA(getrs_cta_c128, cdouble)
