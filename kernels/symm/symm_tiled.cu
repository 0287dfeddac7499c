// symm "tiled": C = alpha A B + beta C (side Left) or alpha B A + beta C (side Right), A
// symmetric (complex symmetric) or, SY_HERM, Hermitian, for symm and hemm: gemm's tiled
// kernel with A read through tiles.cuh's mirrored operand, which takes each element of the
// unreferenced triangle from its mirror (conjugated when Hermitian) as the slices are staged,
// so that A is never expanded and its other triangle never read, nor the imaginary part of a
// Hermitian diagonal (taken as zero). 64-by-64 tiles of C, the blocks over (tile, matrix) in
// grid x. alpha = 0 reads neither A nor B, beta = 0 does not read C.
#include "../gemm/tiles.cuh"

enum { SY_LOWER = 1, SY_HERM = 2 };

template <typename T> struct symm_depth { static const int value = 16; };
template <> struct symm_depth<cfloat> { static const int value = 8; };
template <> struct symm_depth<cdouble> { static const int value = 8; };

// symm_tiled's parameters: mn packs C's rows (low 32 bits) and columns.
template <typename T, bool left>
__device__ __forceinline__ void symm_tiled(const T *a, i64 lda, i64 sa, const T *b, i64 ldb, i64 sb, T *c, i64 ldc, i64 sc,
                                           i64 mn, int flags, T alpha, T beta) {
    const i64 M = lo32(mn), N = hi32(mn);
    const i64 tiles = ((M + 63) / 64) * ((N + 63) / 64);
    const i64 bi = blockIdx.x / tiles, tile = blockIdx.x % tiles;
    const opnd<T, OPND_SYM> A = {a + bi * sa, lda, false, false, (flags & SY_LOWER) != 0, false, (flags & SY_HERM) != 0};
    const opnd<T, OPND_GEN> B = {b + bi * sb, ldb, false, false, false, false, false};
    if (left) gemm_tile<T, 4, 4, symm_depth<T>::value>(A, B, c + bi * sc, ldc, M, N, M, tile, alpha, beta);
    else gemm_tile<T, 4, 4, symm_depth<T>::value>(B, A, c + bi * sc, ldc, M, N, N, tile, alpha, beta);
}

// symm_tiled_{left,right}_<dtype>: a kernel per side.
#define SYMM_TILED(NAME, T, LEFT)                                                                                  \
    extern "C" __global__ void __launch_bounds__(TILE_THREADS)                                                     \
        NAME(const T *a, i64 lda, i64 sa, const T *b, i64 ldb, i64 sb, T *c, i64 ldc, i64 sc, i64 mn, i64 flags,   \
             i64 alpha_re, i64 alpha_im, i64 beta_re, i64 beta_im) {                                               \
        symm_tiled<T, LEFT>(a, lda, sa, b, ldb, sb, c, ldc, sc, mn, (int)flags, scalar<T>::from_bits(alpha_re, alpha_im), \
                      scalar<T>::from_bits(beta_re, beta_im));                                                     \
    }

SYMM_TILED(symm_tiled_left_f32, float, true)
SYMM_TILED(symm_tiled_left_f64, double, true)
SYMM_TILED(symm_tiled_left_c64, cfloat, true)
SYMM_TILED(symm_tiled_left_c128, cdouble, true)
SYMM_TILED(symm_tiled_right_f32, float, false)
SYMM_TILED(symm_tiled_right_f64, double, false)
SYMM_TILED(symm_tiled_right_c64, cfloat, false)
SYMM_TILED(symm_tiled_right_c128, cdouble, false)
