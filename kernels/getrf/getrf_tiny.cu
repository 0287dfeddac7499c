// getrf "tiny": LU factorization with partial pivoting of a batch of N-by-N matrices,
// N <= 8, one thread per matrix, the matrix in registers; a kernel per order N (the loops
// unroll completely and every index is a constant).
//
// A block of THREADS threads takes THREADS consecutive matrices. They go through shared
// memory both ways, so that global memory sees consecutive threads on consecutive elements
// (coalesced) whatever the layout: element e of the block's matrix t sits at
// s[e * (THREADS + 1) + t], which thread t reads without bank conflicts (THREADS + 1 is
// odd). THREADS is 128, or 64 or 32 where the matrices would pass 48 KB of static shared
// memory (tiny_threads; getrfTinyThreads in getrf_cuda.go is the same rule). The
// factorization is lu.cuh's lu_factor_regs (LAPACK's getf2 with physical row swaps).
#include "lu.cuh"

// tiny_threads is the block size for N-by-N matrices of B bytes per element.
__host__ __device__ constexpr int tiny_threads(int n, int b) {
    return n * n * b * 129 <= 48 * 1024 ? 128 : n * n * b * 65 <= 48 * 1024 ? 64 : 32;
}

template <typename T, int N>
__device__ __forceinline__ void getrf_tiny(T *a, i64 ld, i64 stride, i64 batch, int *ipiv, int *info) {
    constexpr int TINY_THREADS = tiny_threads(N, sizeof(T)), TINY_PAD = TINY_THREADS + 1;
    __shared__ T s[N * N * TINY_PAD];
    const i64 b0 = (i64)blockIdx.x * TINY_THREADS;
    const int t = threadIdx.x;
    const int count = batch - b0 < TINY_THREADS ? (int)(batch - b0) : TINY_THREADS;
#pragma unroll
    for (int q = 0; q < N * N; q++) {
        const int idx = q * TINY_THREADS + t, mi = idx / (N * N), e = idx % (N * N);
        if (mi < count) s[e * TINY_PAD + mi] = a[(b0 + mi) * stride + (i64)(e / N) * ld + e % N];
    }
    __syncthreads();
    if (t < count) {
        T r[N][N];
#pragma unroll
        for (int j = 0; j < N; j++)
#pragma unroll
            for (int i = 0; i < N; i++) r[i][j] = s[(j * N + i) * TINY_PAD + t];
        int piv[N];
        info[b0 + t] = lu_factor_regs<T, N>(r, piv);
#pragma unroll
        for (int k = 0; k < N; k++) ipiv[(b0 + t) * N + k] = piv[k];
#pragma unroll
        for (int j = 0; j < N; j++)
#pragma unroll
            for (int i = 0; i < N; i++) s[(j * N + i) * TINY_PAD + t] = r[i][j];
    }
    __syncthreads();
#pragma unroll
    for (int q = 0; q < N * N; q++) {
        const int idx = q * TINY_THREADS + t, mi = idx / (N * N), e = idx % (N * N);
        if (mi < count) a[(b0 + mi) * stride + (i64)(e / N) * ld + e % N] = s[e * TINY_PAD + mi];
    }
}

#define GETRF_TINY(NAME, T, N)                                                                   \
    extern "C" __global__ void __launch_bounds__(tiny_threads(N, sizeof(T)))                     \
        NAME(T *a, i64 ld, i64 stride, i64 batch, int *ipiv, int *info) {                        \
        getrf_tiny<T, N>(a, ld, stride, batch, ipiv, info);                                      \
    }
// The orders whose matrix fits 256 bytes (64 registers; getrfTinyCanRun's rule): N <= 8
// for float, 5 for double and complex64, 4 for complex128.
#define GETRF_TINY_ALL(N)                                                                        \
    GETRF_TINY(getrf_tiny##N##_f32, float, N)                                                    \
    GETRF_TINY(getrf_tiny##N##_f64, double, N)                                                   \
    GETRF_TINY(getrf_tiny##N##_c64, cfloat, N)                                                   \
    GETRF_TINY(getrf_tiny##N##_c128, cdouble, N)

GETRF_TINY_ALL(1)
GETRF_TINY_ALL(2)
GETRF_TINY_ALL(3)
GETRF_TINY_ALL(4)
GETRF_TINY(getrf_tiny5_f32, float, 5)
GETRF_TINY(getrf_tiny5_f64, double, 5)
GETRF_TINY(getrf_tiny5_c64, cfloat, 5)
GETRF_TINY(getrf_tiny6_f32, float, 6)
GETRF_TINY(getrf_tiny7_f32, float, 7)
GETRF_TINY(getrf_tiny8_f32, float, 8)
