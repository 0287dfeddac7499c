// gemm "tiled": C = alpha op(A) op(B) + beta C for a batch, one block of 256 threads per
// 64-by-64 tile of C (tiles.cuh's engine: 4-by-4 elements a thread, double-buffered
// 16-deep slices, 8 deep for complex types), the blocks over (tile, matrix) in grid x. Any
// m, n, k and every transpose pair; edges are predicated. alpha = 0 or k = 0 reads neither A
// nor B, beta = 0 does not read C.
#include "tiles.cuh"

template <typename T> struct gemm_tiled_depth { static const int value = 16; };
template <> struct gemm_tiled_depth<cfloat> { static const int value = 8; };
template <> struct gemm_tiled_depth<cdouble> { static const int value = 8; };

// gemm_tiled's parameters: mn packs m (low 32 bits) and n, kf packs k and the TF_* flags.
template <typename T>
__device__ __forceinline__ void gemm_tiled(const T *a, i64 lda, i64 sa, const T *b, i64 ldb, i64 sb, T *c, i64 ldc, i64 sc,
                                           i64 mn, i64 kf, T alpha, T beta) {
    const i64 M = lo32(mn), N = hi32(mn), K = lo32(kf);
    const int flags = (int)hi32(kf);
    const i64 tiles = ((M + 63) / 64) * ((N + 63) / 64);
    const i64 bi = blockIdx.x / tiles, tile = blockIdx.x % tiles;
    const opnd<T, OPND_GEN> L = {a + bi * sa, lda, (flags & TF_A_TRANS) != 0, (flags & TF_A_CONJ) != 0, false, false, false};
    const opnd<T, OPND_GEN> R = {b + bi * sb, ldb, (flags & TF_B_TRANS) != 0, (flags & TF_B_CONJ) != 0, false, false, false};
    gemm_tile<T, 4, 4, gemm_tiled_depth<T>::value>(L, R, c + bi * sc, ldc, M, N, K, tile, alpha, beta);
}

#define GEMM_TILED(NAME, T)                                                                                        \
    extern "C" __global__ void __launch_bounds__(TILE_THREADS)                                                     \
        NAME(const T *a, i64 lda, i64 sa, const T *b, i64 ldb, i64 sb, T *c, i64 ldc, i64 sc, i64 mn, i64 kf,      \
             i64 alpha_re, i64 alpha_im, i64 beta_re, i64 beta_im) {                                               \
        gemm_tiled<T>(a, lda, sa, b, ldb, sb, c, ldc, sc, mn, kf, scalar<T>::from_bits(alpha_re, alpha_im),        \
                      scalar<T>::from_bits(beta_re, beta_im));                                                     \
    }

GEMM_TILED(gemm_tiled_f32, float)
GEMM_TILED(gemm_tiled_f64, double)
GEMM_TILED(gemm_tiled_c64, cfloat)
GEMM_TILED(gemm_tiled_c128, cdouble)
