// trmm "triangular": B := alpha op(A) B (side Left) or alpha B op(A) (side Right), A
// triangular, in place, on the tiles.cuh engine. A block owns a strip of B that the product
// never mixes with the rest (64 columns for Left, 64 rows for Right) and walks its 64-by-64
// tiles in the order that reads each part of the strip before it is overwritten: each tile's
// reduction runs only over the part of op(A)'s rows (Left) or columns (Right) that is not
// zero, a loop bound, so the zero half of A is skipped and only the tile that straddles the
// diagonal masks elements. The strips of every matrix run in grid x. Only A's uplo triangle
// is read, and not its diagonal when unit; alpha = 0 sets B to zero reading neither.
#include "../gemm/tiles.cuh"

enum { TM_LOWER = 1, TM_TRANS = 2, TM_CONJ = 4, TM_UNIT = 8 };

template <typename T> struct trmm_depth { static const int value = 16; };
template <> struct trmm_depth<cfloat> { static const int value = 8; };
template <> struct trmm_depth<cdouble> { static const int value = 8; };

// trmm_triangular's parameters: mn packs B's rows (low 32 bits) and columns.
template <typename T, bool left>
__device__ __forceinline__ void trmm_triangular(const T *a, i64 lda, i64 sa, T *b, i64 ldb, i64 sb, i64 mn, int flags, T alpha) {
    typedef scalar<T> S;
    const int BK = trmm_depth<T>::value;
    __shared__ tile_stage<T, 4, 4, BK> st;
    const i64 M = lo32(mn), N = hi32(mn);
    const bool trans = flags & TM_TRANS;
    // op(A) is lower triangular when A is lower and not transposed, or upper and transposed.
    const bool lower = ((flags & TM_LOWER) != 0) != trans;
    const i64 order = left ? M : N, strips = ((left ? N : M) + 63) / 64, tiles = (order + 63) / 64;
    const i64 bi = blockIdx.x / strips, strip = blockIdx.x % strips;
    const opnd<T, OPND_TRI> A = {a + bi * sa, lda, trans, (flags & TM_CONJ) != 0, (flags & TM_LOWER) != 0,
                                 (flags & TM_UNIT) != 0, false};
    const opnd<T, OPND_GEN> B = {b + bi * sb, ldb, false, false, false, false, false};
    T *bm = b + bi * sb;
    const bool zero = S::is_zero(alpha);
    for (i64 step = 0; step < tiles; step++) {
        // Left: row tile t of the strip; op(A)(i, p) is zero for p > i (lower), p < i (upper),
        // so a lower op(A) goes bottom up, reading rows at or above the tile's, an upper one top
        // down. Right: column tile t; op(A)(p, j) is zero for p < j (lower), p > j (upper), so
        // a lower op(A) goes left to right, an upper one right to left.
        const i64 t = left == lower ? tiles - 1 - step : step;
        const i64 x0 = t * 64, x1 = min(x0 + 64, order);
        const i64 klo = lower == left ? 0 : x0, khi = lower == left ? x1 : order;
        T acc[4][4];
        tile_clear(acc);
        const i64 i0 = left ? x0 : strip * 64, j0 = left ? strip * 64 : x0;
        if (left) tile_product<T, 4, 4, BK>(A, B, M, N, i0, j0, klo, zero ? klo : khi, st, acc);
        else tile_product<T, 4, 4, BK>(B, A, M, N, i0, j0, klo, zero ? klo : khi, st, acc);
        tile_each(M, N, i0, j0, acc, [&](i64 i, i64 j, T v) { bm[i + j * ldb] = S::mul(alpha, v); });
    }
}

// trmm_triangular_{left,right}_<dtype>: a kernel per side, each with one product in its loop.
// MINB is __launch_bounds__'s blocks per SM (0: none), which sets ptxas's register budget: 2
// (128 registers) for complex64, where nvcc 13.0 left to itself gave the Right kernel 80 and
// spilled 8 bytes on sm_90 (20 on sm_80 and sm_89) while it needs about 87 (nvcc 11.8);
// above 64 registers two blocks of TILE_THREADS fit an SM either way, so the budget costs no
// occupancy. The others spill nothing left to themselves (13.0 on sm_90: float 73 and 80,
// double 126 and 128, complex128 168 and 134 registers, Left and Right).
#define TRMM_TRIANGULAR(NAME, T, LEFT, MINB)                                                                     \
    extern "C" __global__ void __launch_bounds__(TILE_THREADS, MINB)                                             \
        NAME(const T *a, i64 lda, i64 sa, T *b, i64 ldb, i64 sb, i64 mn, i64 flags, i64 alpha_re, i64 alpha_im) { \
        trmm_triangular<T, LEFT>(a, lda, sa, b, ldb, sb, mn, (int)flags, scalar<T>::from_bits(alpha_re, alpha_im)); \
    }

TRMM_TRIANGULAR(trmm_triangular_left_f32, float, true, 0)
TRMM_TRIANGULAR(trmm_triangular_left_f64, double, true, 0)
TRMM_TRIANGULAR(trmm_triangular_left_c64, cfloat, true, 2)
TRMM_TRIANGULAR(trmm_triangular_left_c128, cdouble, true, 0)
TRMM_TRIANGULAR(trmm_triangular_right_f32, float, false, 0)
TRMM_TRIANGULAR(trmm_triangular_right_f64, double, false, 0)
TRMM_TRIANGULAR(trmm_triangular_right_c64, cfloat, false, 2)
TRMM_TRIANGULAR(trmm_triangular_right_c128, cdouble, false, 0)
