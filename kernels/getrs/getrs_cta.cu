// getrs "cta": solves op(A) X = B with the LU factors and pivots of getrf, for a batch of
// n-by-n A (n <= LU_ROWS_MAX, A within the shared-memory budget) and n-by-nrhs B, one block
// per matrix.
//
// The block reads A into shared memory (leading dimension n|1, odd, so that the transposed
// solves, which read rows of A, meet no bank conflicts) and turns the interchanges into a
// permutation q. Then each warp solves NB = LU_SOLVE_VALUES / C columns of B at a time
// (n <= 32 C; a kernel per C = 1, 2, 4, 8): the columns in registers (lane l holds rows l,
// l+32, ...), gathered through q for op = A (P^T b) and scattered through q for the
// transposes (P x), with lu.cuh's lu_solve_warp. B is read and written once. Shared memory:
// n*(n|1) elements and 2n ints.
#include "../getrf/lu.cuh"

template <typename T, int C>
__device__ __forceinline__ void getrs_cta(const T *a, i64 lda, i64 sa, const int *ipiv, T *b, i64 ldb, i64 sb, int n,
                                          int nrhs, i64 batch, int trans) {
    typedef scalar<T> S;
    constexpr int NB = LU_SOLVE_VALUES / C;
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
    for (int j0 = warp * NB; j0 < nrhs; j0 += warps * NB) {
        T x[NB][C];
#pragma unroll
        for (int k = 0; k < NB; k++) {
            const T *bj = bm + (i64)(j0 + k) * ldb;
#pragma unroll
            for (int c = 0; c < C; c++) {
                const int i = lane + 32 * c;
                x[k][c] = S::from_real(0);
                if (j0 + k < nrhs && i < n) x[k][c] = bj[trans == LU_NOTRANS ? q[i] : i];
            }
        }
        lu_solve_warp<T, C, NB>(x, s, lds, row_at, n, trans);
#pragma unroll
        for (int k = 0; k < NB; k++) {
            T *bj = bm + (i64)(j0 + k) * ldb;
#pragma unroll
            for (int c = 0; c < C; c++) {
                const int i = lane + 32 * c;
                if (j0 + k < nrhs && i < n) bj[trans == LU_NOTRANS ? i : q[i]] = x[k][c];
            }
        }
    }
}

#define GETRS_CTA(NAME, T, C)                                                                    \
    extern "C" __global__ void __launch_bounds__(256) NAME(const T *a, i64 lda, i64 sa, const int *ipiv, T *b,  \
                                                            i64 ldb, i64 sb, i64 n, i64 nrhs, i64 batch, i64 trans) { \
        getrs_cta<T, C>(a, lda, sa, ipiv, b, ldb, sb, (int)n, (int)nrhs, batch, (int)trans);    \
    }
#define GETRS_CTA_ALL(C)                                                                         \
    GETRS_CTA(getrs_cta##C##_f32, float, C)                                                      \
    GETRS_CTA(getrs_cta##C##_f64, double, C)                                                     \
    GETRS_CTA(getrs_cta##C##_c64, cfloat, C)                                                     \
    GETRS_CTA(getrs_cta##C##_c128, cdouble, C)

GETRS_CTA_ALL(1)
GETRS_CTA_ALL(2)
GETRS_CTA_ALL(4)
GETRS_CTA_ALL(8)
