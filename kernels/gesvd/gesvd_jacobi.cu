// gesvd "jacobi": the singular value decomposition of a batch of matrices by one-sided
// Jacobi (jacobi.cuh), one block per matrix, its work arrays in shared memory.
#include "jacobi.cuh"

// JACOBI_MIN_BLOCKS is __launch_bounds__'s blocks per SM, which sets ptxas's register budget:
// 3 blocks of JACOBI_THREADS, 80 registers. Left to itself, nvcc 13.0 chose 48 to 64 and
// spilled 4 to 52 bytes on sm_90 (and on sm_80, sm_89, sm_120); the kernels need about 58 to
// 74 there (nvcc 11.8 with no minimum: 58 to 68 on sm_90; 13.0's spills at 64), so 80 leaves
// room. ptxas schedules into the whole budget it is given, and a small matrix's launch is one
// warp a block (gesvdJacobiShape), 25 blocks an SM at 80 registers; 2 (128 registers) would
// leave it 16.
#define JACOBI_MIN_BLOCKS 3

// Every parameter is 8 bytes (kernels/emu/README.md): dims = Mw | N << 32, outs = Mo | RL << 32.
#define GESVD_JACOBI(SUFFIX, T, R)                                                                                 \
    extern "C" __global__ void __launch_bounds__(JACOBI_THREADS, JACOBI_MIN_BLOCKS)                               \
        gesvd_jacobi_##SUFFIX(const T *a, i64 lda, i64 sa, i64 dims, i64 outs, i64 flags, R *s, int *info, T *lp, \
                              i64 ldl, i64 sl, T *rp, i64 ldr, i64 sr) {                                           \
        gesvd_onesided<T, false>(a, lda, sa, dims, outs, flags, s, info, lp, ldl, sl, rp, ldr, sr, (char *)0, 0); \
    }

GESVD_JACOBI(f32, float, float)
GESVD_JACOBI(f64, double, double)
GESVD_JACOBI(c64, cfloat, float)
GESVD_JACOBI(c128, cdouble, double)
