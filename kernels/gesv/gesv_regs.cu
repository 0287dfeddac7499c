// gesv "regs": factors each n-by-n A of a batch as getrf and solves A X = B in the same
// kernel, n <= 64, one block per matrix, the factorization in the block's registers.
//
// As getrf "regs" (lu.cuh's lu_factor_cta_regs: lane l of warp w holds rows l, l + 32 of
// columns w, w + warps, ...), the factors go to global memory in LAPACK's row order, with
// pivots and info, and to shared memory in their physical rows (row_at: rows never moved,
// so row_at is also the permutation of B). When info is 0, lu_solve_rhs solves for B as
// gesv "cta" does; a singular A leaves its B untouched, as LAPACK's gesv does. A and B are
// each read and written once. Shared memory: n*n elements for the factors, 2*32 RC
// multipliers and 4 ints for the factorization, n ints (row_at).
#include "../getrf/lu.cuh"

template <typename T, int RC>
__device__ __forceinline__ void gesv_regs(T *a, i64 lda, i64 sa, int *ipiv, T *b, i64 ldb, i64 sb, int n, int nrhs,
                                          i64 batch, int *info) {
    const i64 mb = blockIdx.x;
    if (mb >= batch) return;
    DYNAMIC_SHARED(T, s);
    const int lds = n, lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    T *xch = s + (i64)lds * n;
    int *row_at = (int *)(xch + 2 * 32 * RC) + 4;
    T *g = a + mb * sa;
    T x[RC][LU_REG_COLS];
    lu_regs_load(x, g, lda, n, n);
    int pos[RC];
    const int bad = lu_factor_cta_regs<T, RC>(x, pos, n, n, ipiv + mb * n, xch);
    lu_regs_store(g, lda, x, pos, n, n);
#pragma unroll
    for (int jj = 0; jj < LU_REG_COLS; jj++) {
        const int j = warp + warps * jj;
#pragma unroll
        for (int c = 0; c < RC; c++)
            if (j < n && lane + 32 * c < n) s[(i64)j * lds + lane + 32 * c] = x[c][jj];
    }
    if (warp == 0) {
#pragma unroll
        for (int c = 0; c < RC; c++)
            if (lane + 32 * c < n) row_at[pos[c]] = lane + 32 * c;
    }
    __syncthreads();
    if (threadIdx.x == 0) info[mb] = bad;
    if (bad != 0) return;
    lu_solve_rhs<T, RC>(s, lds, row_at, n, LU_NOTRANS, b + mb * sb, ldb, nrhs, row_at, nullptr);
}

#define GESV_REGS(NAME, T, RC)                                                                   \
    extern "C" __global__ void __launch_bounds__(256, 1) NAME(T *a, i64 lda, i64 sa, int *ipiv, T *b, i64 ldb, i64 sb, \
                                                            i64 n, i64 nrhs, i64 batch, int *info) { \
        gesv_regs<T, RC>(a, lda, sa, ipiv, b, ldb, sb, (int)n, (int)nrhs, batch, info);          \
    }
#define GESV_REGS_ALL(RC)                                                                        \
    GESV_REGS(gesv_regs##RC##_f32, float, RC)                                                    \
    GESV_REGS(gesv_regs##RC##_f64, double, RC)                                                   \
    GESV_REGS(gesv_regs##RC##_c64, cfloat, RC)                                                   \
    GESV_REGS(gesv_regs##RC##_c128, cdouble, RC)

GESV_REGS_ALL(1)
GESV_REGS_ALL(2)
