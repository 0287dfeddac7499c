// getrf "cta": LU factorization with partial pivoting of a batch of m-by-n matrices, one
// block per matrix, in two kernels that lu.cuh's block factorizations share their pivoting
// with (rows never move; one __syncthreads per step):
//
//   - getrf_cta_regs<RC> for m <= 32 RC (RC = 1, 2) and n <= 64: the matrix stays in the
//     block's registers (lu_factor_cta_regs), read from and written to global memory
//     directly, each warp instruction moving 32 consecutive rows of one column; shared
//     memory holds only the multipliers and the pivot of a step (2*32 RC elements and 4
//     ints). Every element takes one FMA per update, no shared-memory traffic.
//   - getrf_cta for m <= LU_ROWS_MAX and the matrix within the shared-memory budget: the
//     matrix in shared memory (lu_factor_cta), read with consecutive threads on consecutive
//     rows; shared memory: m*n elements and m ints (row_at).
//
// Both write the factors in LAPACK's row order, with the pivots and info.
#include "lu.cuh"

template <typename T, int RC>
__device__ __forceinline__ void getrf_cta_regs(T *a, i64 ld, i64 stride, int m, int n, i64 batch, int *ipiv, int *info) {
    typedef scalar<T> S;
    const i64 b = blockIdx.x;
    if (b >= batch) return;
    DYNAMIC_SHARED(T, xch);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5, kmin = m < n ? m : n;
    T *g = a + b * stride;
    T x[RC][LU_REG_COLS];
#pragma unroll
    for (int jj = 0; jj < LU_REG_COLS; jj++) {
        const int j = warp + warps * jj;
#pragma unroll
        for (int c = 0; c < RC; c++) {
            const int i = lane + 32 * c;
            x[c][jj] = S::from_real(0);
            if (j < n && i < m) x[c][jj] = g[(i64)j * ld + i];
        }
    }
    int pos[RC];
    const int bad = lu_factor_cta_regs<T, RC>(x, pos, m, n, ipiv + b * kmin, xch);
#pragma unroll
    for (int jj = 0; jj < LU_REG_COLS; jj++) {
        const int j = warp + warps * jj;
#pragma unroll
        for (int c = 0; c < RC; c++)
            if (j < n && lane + 32 * c < m) g[(i64)j * ld + pos[c]] = x[c][jj];
    }
    if (threadIdx.x == 0) info[b] = bad;
}

template <typename T>
__device__ __forceinline__ void getrf_cta(T *a, i64 ld, i64 stride, int m, int n, i64 batch, int *ipiv, int *info) {
    const i64 b = blockIdx.x;
    if (b >= batch) return;
    DYNAMIC_SHARED(T, s);
    const int lds = m, kmin = m < n ? m : n;
    int *row_at = (int *)(s + (i64)lds * n);
    T *g = a + b * stride;
    lu_load(s, lds, g, ld, m, n);
    __syncthreads();
    const int bad = lu_factor_cta(s, lds, m, n, ipiv + b * kmin, row_at);
    lu_store(g, ld, s, lds, row_at, m, n);
    if (threadIdx.x == 0) info[b] = bad;
}

#define GETRF_CTA(NAME, T)                                                                       \
    extern "C" __global__ void __launch_bounds__(256)                                            \
        NAME(T *a, i64 ld, i64 stride, i64 m, i64 n, i64 batch, int *ipiv, int *info) {          \
        getrf_cta<T>(a, ld, stride, (int)m, (int)n, batch, ipiv, info);                          \
    }

#define GETRF_CTA_REGS(NAME, T, RC)                                                              \
    extern "C" __global__ void __launch_bounds__(128)                                            \
        NAME(T *a, i64 ld, i64 stride, i64 m, i64 n, i64 batch, int *ipiv, int *info) {          \
        getrf_cta_regs<T, RC>(a, ld, stride, (int)m, (int)n, batch, ipiv, info);                 \
    }

GETRF_CTA_REGS(getrf_cta_regs1_f32, float, 1)
GETRF_CTA_REGS(getrf_cta_regs1_f64, double, 1)
GETRF_CTA_REGS(getrf_cta_regs1_c64, cfloat, 1)
GETRF_CTA_REGS(getrf_cta_regs1_c128, cdouble, 1)
GETRF_CTA_REGS(getrf_cta_regs2_f32, float, 2)
GETRF_CTA_REGS(getrf_cta_regs2_f64, double, 2)
GETRF_CTA_REGS(getrf_cta_regs2_c64, cfloat, 2)
GETRF_CTA_REGS(getrf_cta_regs2_c128, cdouble, 2)
GETRF_CTA(getrf_cta_f32, float)
GETRF_CTA(getrf_cta_f64, double)
GETRF_CTA(getrf_cta_c64, cfloat)
GETRF_CTA(getrf_cta_c128, cdouble)
