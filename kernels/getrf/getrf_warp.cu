// getrf "warp": LU factorization with partial pivoting of a batch of m-by-n matrices,
// m, n <= 32, one warp per matrix, WARP_MATRICES matrices (warps) per block.
//
// Lane l holds row l in registers, read from and written to global memory directly (each
// warp instruction moves 32 consecutive rows of one column), and lu.cuh's lu_factor_warp
// factors it with no shared memory and no barrier (the step loop unrolled, the pivot by
// warp reductions, the pivot row by shuffles). The factors go back in LAPACK's row order,
// with the pivots and info.
#include "lu.cuh"

#define WARP_MATRICES 4

template <typename T>
__device__ __forceinline__ void getrf_warp(T *a, i64 ld, i64 stride, int m, int n, i64 batch, int *ipiv, int *info) {
    typedef scalar<T> S;
    const i64 b = (i64)blockIdx.x * WARP_MATRICES + (threadIdx.x >> 5);
    if (b >= batch) return; // whole warps leave together
    const int lane = threadIdx.x & 31;
    T *g = a + b * stride;
    T r[LU_WARP_MAX];
#pragma unroll
    for (int j = 0; j < LU_WARP_MAX; j++) {
        r[j] = S::from_real(0);
        if (j < n && lane < m) r[j] = g[(i64)j * ld + lane];
    }
    int pos;
    const int bad = lu_factor_warp(r, pos, m, n, ipiv + b * (m < n ? m : n));
#pragma unroll
    for (int j = 0; j < LU_WARP_MAX; j++)
        if (j < n && lane < m) g[(i64)j * ld + pos] = r[j];
    if (lane == 0) info[b] = bad;
}

#define GETRF_WARP(NAME, T)                                                                      \
    extern "C" __global__ void __launch_bounds__(32 * WARP_MATRICES)                             \
        NAME(T *a, i64 ld, i64 stride, i64 m, i64 n, i64 batch, int *ipiv, int *info) {          \
        getrf_warp<T>(a, ld, stride, (int)m, (int)n, batch, ipiv, info);                         \
    }

GETRF_WARP(getrf_warp_f32, float)
GETRF_WARP(getrf_warp_f64, double)
GETRF_WARP(getrf_warp_c64, cfloat)
GETRF_WARP(getrf_warp_c128, cdouble)
