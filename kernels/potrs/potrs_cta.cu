// potrs "cta": X = A^-1 B for a batch, from the Cholesky factor of A in its lower (A = L L^H)
// or upper (A = U^H U) triangle, one block per matrix: two substitutions of trsm's device
// code (kernels/trsm/trsv.cuh), L y = b then L^H x = y, or U^H y = b then U x = y. The
// right-hand sides (columns of B) pass through shared memory in tiles of blockDim.x columns,
// one thread solving each; the factor is loaded into shared memory for each substitution, as
// each reads it through its own index map.
//
// info, when not null, holds Potrf's info per matrix: a matrix whose info is not 0 is
// skipped, its B left as it was (Posv's rule, after LAPACK).
#include "../trsm/trsv.cuh"

template <typename T>
__device__ void potrs_cta(const T *a, i64 lda, i64 sa, T *b, i64 ldb, i64 sb, int n, int nrhs, i64 batch, bool lower,
                          const int *info) {
    typedef scalar<T> S;
    const i64 bi = blockIdx.x;
    if (bi >= batch || (info && info[bi] != 0)) return;
    a += bi * sa;
    b += bi * sb;
    DYNAMIC_SHARED(T, L); // L, then the tile of vectors
    T *x = L + tri_col(n, (n + 3) & ~3);
    // The first substitution's matrix is lower (L, or U^H), the second's upper (L^H, or U).
    const tri_op first = {lower, !lower, !lower, false}, second = {lower, lower, lower, false};
    for (int v0 = 0; v0 < nrhs; v0 += blockDim.x) {
        const int cnt = min((int)blockDim.x, nrhs - v0);
        T *g = b + v0 * ldb;
        T *mine = x + threadIdx.x * tri_stride(n);
        const bool solves = (int)threadIdx.x < cnt;
        tile_load(x, g, ldb, true, cnt, n, S::from_real(1));
        tri_load(L, a, lda, n, first);
        __syncthreads();
        if (solves) tri_solve<T, tri_chunk<T>::value>(L, mine, n, first.reversed());
        __syncthreads();
        tri_load(L, a, lda, n, second);
        __syncthreads();
        if (solves) tri_solve<T, tri_chunk<T>::value>(L, mine, n, second.reversed());
        __syncthreads();
        tile_store(x, g, ldb, true, cnt, n);
        __syncthreads();
    }
}

#define POTRS_CTA(NAME, T)                                                                                \
    extern "C" __global__ void __launch_bounds__(TRI_THREADS)                                             \
        NAME(const T *a, i64 lda, i64 sa, T *b, i64 ldb, i64 sb, i64 n, i64 nrhs, i64 batch, i64 lower,   \
             const int *info) {                                                                           \
        potrs_cta<T>(a, lda, sa, b, ldb, sb, (int)n, (int)nrhs, batch, lower != 0, info);                 \
    }

POTRS_CTA(potrs_cta_f32, float)
POTRS_CTA(potrs_cta_f64, double)
POTRS_CTA(potrs_cta_c64, cfloat)
POTRS_CTA(potrs_cta_c128, cdouble)
