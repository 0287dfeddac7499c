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
    const i64 mb = blockIdx.x;
    if (mb >= batch) return;
    DYNAMIC_SHARED(T, s);
    const int lds = n | 1;
    int *q = (int *)(s + (i64)lds * n), *row_at = q + n;
    lu_load(s, lds, a + mb * sa, lda, n, n);
    for (int r = threadIdx.x; r < n; r += blockDim.x) row_at[r] = r;
    lu_swaps_to_perm(q, ipiv + mb * n, n);
    __syncthreads();
    const bool nt = trans == LU_NOTRANS;
    lu_solve_rhs<T, C>(s, lds, row_at, n, trans, b + mb * sb, ldb, nrhs, nt ? q : nullptr, nt ? nullptr : q);
}

#define GETRS_CTA(NAME, T, C)                                                                    \
    extern "C" __global__ void __launch_bounds__(256, 1) NAME(const T *a, i64 lda, i64 sa, const int *ipiv, T *b,  \
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
