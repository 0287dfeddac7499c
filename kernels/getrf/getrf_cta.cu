// getrf "cta": LU factorization with partial pivoting of a batch of m-by-n matrices
// (m <= LU_ROWS_MAX, the matrix within the shared-memory budget), one block per matrix.
//
// The block reads the matrix into shared memory (coalesced, consecutive threads on
// consecutive rows), factors it there with lu.cuh's lu_factor_cta (rows never move; one
// __syncthreads per step) and writes the factors back in LAPACK's row order, with the
// pivots and info. Shared memory: m*n elements and m ints (row_at).
#include "lu.cuh"

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

GETRF_CTA(getrf_cta_f32, float)
GETRF_CTA(getrf_cta_f64, double)
GETRF_CTA(getrf_cta_c64, cfloat)
GETRF_CTA(getrf_cta_c128, cdouble)
