// getrf "regs": LU factorization with partial pivoting of a batch of m-by-n matrices,
// m, n <= 64, one block per matrix, the matrix in the block's registers.
//
// Lane l of warp w holds rows l and l + 32 (RC = 1 or 2 of them) of columns w, w + warps,
// ... (LU_REG_COLS of them), read from and written to global memory directly: each warp
// instruction moves 32 consecutive rows of one column. lu.cuh's lu_factor_cta_regs factors
// it (rows never move; one __syncthreads per step; every element takes one FMA per update
// and no shared-memory traffic), with the pivot search of the shared-memory kernel "cta".
// Shared memory holds only the multipliers and the pivot of a step: 2*32 RC elements and 4
// ints. The factors go back in LAPACK's row order, with the pivots and info.
#include "lu.cuh"

template <typename T, int RC>
__device__ __forceinline__ void getrf_regs(T *a, i64 ld, i64 stride, int m, int n, i64 batch, int *ipiv, int *info) {
    const i64 b = blockIdx.x;
    if (b >= batch) return;
    DYNAMIC_SHARED(T, xch);
    T *g = a + b * stride;
    T x[RC][LU_REG_COLS];
    lu_regs_load(x, g, ld, m, n);
    int pos[RC];
    const int bad = lu_factor_cta_regs<T, RC>(x, pos, m, n, ipiv + b * (m < n ? m : n), xch);
    lu_regs_store(g, ld, x, pos, m, n);
    if (threadIdx.x == 0) info[b] = bad;
}

// MINB is __launch_bounds__'s blocks per SM: 3 for float with rows l and l + 32, where
// nvcc would otherwise take 87 registers and fit only 2 blocks of 256 threads per SM (with
// the bound, 78 and no spill under nvcc 11.8).
#define GETRF_REGS(NAME, T, RC, MINB)                                                            \
    extern "C" __global__ void __launch_bounds__(256, MINB)                                      \
        NAME(T *a, i64 ld, i64 stride, i64 m, i64 n, i64 batch, int *ipiv, int *info) {          \
        getrf_regs<T, RC>(a, ld, stride, (int)m, (int)n, batch, ipiv, info);                     \
    }

GETRF_REGS(getrf_regs1_f32, float, 1, 1)
GETRF_REGS(getrf_regs1_f64, double, 1, 1)
GETRF_REGS(getrf_regs1_c64, cfloat, 1, 1)
GETRF_REGS(getrf_regs1_c128, cdouble, 1, 1)
GETRF_REGS(getrf_regs2_f32, float, 2, 3)
GETRF_REGS(getrf_regs2_f64, double, 2, 1)
GETRF_REGS(getrf_regs2_c64, cfloat, 2, 1)
GETRF_REGS(getrf_regs2_c128, cdouble, 2, 1)
