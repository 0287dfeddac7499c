// gesvd "blocked": the singular value decomposition of a batch of matrices by one-sided
// Jacobi (jacobi.cuh), one block per matrix, its work arrays in global workspace, so that
// any shape runs: matrix b's are the wss bytes at ws + b*wss (gesvd_cuda.go's
// gesvdBlockedBytes), laid out as jacobi's shared memory.
#include "jacobi.cuh"

// Every parameter is 8 bytes (kernels/emu/README.md): dims = Mw | N << 32, outs = Mo | RL << 32.
// One block an SM is the bound's floor: with the thread count alone, nvcc 13.0's ptxas held
// this kernel to 64 (f32) and 48 (f64) registers on sm_90 and spilled; with the floor it
// takes 140 and 115 and spills nothing (bench/results/sm_90/issue26/spill_probe.txt). The
// kernel runs one block a matrix over global workspace, so occupancy buys it little.
#define GESVD_BLOCKED(SUFFIX, T, R)                                                                                 \
    extern "C" __global__ void __launch_bounds__(JACOBI_THREADS, 1)                                                   \
        gesvd_blocked_##SUFFIX(const T *a, i64 lda, i64 sa, i64 dims, i64 outs, i64 flags, R *s, int *info, T *lp, \
                               i64 ldl, i64 sl, T *rp, i64 ldr, i64 sr, char *ws, i64 wss) {                        \
        gesvd_onesided<T, true>(a, lda, sa, dims, outs, flags, s, info, lp, ldl, sl, rp, ldr, sr, ws, wss);        \
    }

GESVD_BLOCKED(f32, float, float)
GESVD_BLOCKED(f64, double, double)
GESVD_BLOCKED(c64, cfloat, float)
GESVD_BLOCKED(c128, cdouble, double)
