// getrf "warp": LU factorization with partial pivoting of a batch of m-by-n matrices, one
// warp per matrix, WARP_MATRICES matrices (warps) per block: m, n <= 32 for every type
// (getrf_warp1), and m, n <= 64 for float (getrf_warp2, lane l holding rows l and l + 32:
// 128 registers of matrix).
//
// Each lane holds its rows in registers, read from and written to global memory directly
// (each warp instruction moves 32 consecutive rows of one column), and lu.cuh's
// lu_factor_warp factors them with no shared memory and no barrier (the step loop unrolled,
// the pivot by warp reductions, the pivot row by shuffles). The factors go back in LAPACK's
// row order, with the pivots and info.
#include "lu.cuh"

#define WARP_MATRICES 4

template <typename T, int RC>
__device__ __forceinline__ void getrf_warp(T *a, i64 ld, i64 stride, int m, int n, i64 batch, int *ipiv, int *info) {
    typedef scalar<T> S;
    constexpr int NC = 32 * RC;
    const i64 b = (i64)blockIdx.x * WARP_MATRICES + (threadIdx.x >> 5);
    if (b >= batch) return; // whole warps leave together
    const int lane = threadIdx.x & 31;
    T *g = a + b * stride;
    T r[RC][NC];
#pragma unroll
    for (int j = 0; j < NC; j++)
#pragma unroll
        for (int c = 0; c < RC; c++) {
            r[c][j] = S::from_real(0);
            if (j < n && lane + 32 * c < m) r[c][j] = g[(i64)j * ld + lane + 32 * c];
        }
    int pos[RC];
    const int bad = lu_factor_warp<T, RC, NC>(r, pos, m, n, ipiv + b * (m < n ? m : n));
#pragma unroll
    for (int j = 0; j < NC; j++)
#pragma unroll
        for (int c = 0; c < RC; c++)
            if (j < n && lane + 32 * c < m) g[(i64)j * ld + pos[c]] = r[c][j];
    if (lane == 0) info[b] = bad;
}

#define GETRF_WARP(NAME, T, RC)                                                                  \
    extern "C" __global__ void __launch_bounds__(32 * WARP_MATRICES)                             \
        NAME(T *a, i64 ld, i64 stride, i64 m, i64 n, i64 batch, int *ipiv, int *info) {          \
        getrf_warp<T, RC>(a, ld, stride, (int)m, (int)n, batch, ipiv, info);                     \
    }

GETRF_WARP(getrf_warp1_f32, float, 1)
GETRF_WARP(getrf_warp1_f64, double, 1)
GETRF_WARP(getrf_warp1_c64, cfloat, 1)
GETRF_WARP(getrf_warp1_c128, cdouble, 1)
GETRF_WARP(getrf_warp2_f32, float, 2)
