// gesvd "jacobi": the singular value decomposition of a batch of matrices by one-sided
// Jacobi (jacobi.cuh), one block per matrix, its work arrays in shared memory.
#include "jacobi.cuh"

// Every parameter is 8 bytes (kernels/emu/README.md): dims = Mw | N << 32, outs = Mo | RL << 32.
#define GESVD_JACOBI(SUFFIX, T, R)                                                                                 \
    extern "C" __global__ void __launch_bounds__(JACOBI_THREADS)                                                  \
        gesvd_jacobi_##SUFFIX(const T *a, i64 lda, i64 sa, i64 dims, i64 outs, i64 flags, R *s, int *info, T *lp, \
                              i64 ldl, i64 sl, T *rp, i64 ldr, i64 sr) {                                           \
        gesvd_onesided<T, false>(a, lda, sa, dims, outs, flags, s, info, lp, ldl, sl, rp, ldr, sr, (char *)0, 0); \
    }

GESVD_JACOBI(f32, float, float)
GESVD_JACOBI(f64, double, double)
GESVD_JACOBI(c64, cfloat, float)
GESVD_JACOBI(c128, cdouble, double)
