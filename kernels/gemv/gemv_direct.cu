// gemv "direct": y = alpha op(A) x + beta y for a batch, x and y flat (x_b at x + b*nx, y_b at
// y + b*ny). NoTrans: a thread per element of y, walking its row of A (the threads of a warp
// read consecutive rows of a column: coalesced). Trans and ConjTrans: a warp per element of
// y, its lanes striding down the column of A, then a butterfly sum. The blocks run over
// (part of y, matrix) in grid x. alpha = 0 or an empty x reads neither A nor x, beta = 0 does
// not read y.
#include "../gemm/tiles.cuh"

#define GEMV_THREADS 128

enum { GV_TRANS = 1, GV_CONJ = 2 };

// gemv_direct's parameters: mn packs A's rows (low 32 bits) and columns.
template <typename T>
__device__ __forceinline__ void gemv_direct(const T *a, i64 lda, i64 sa, const T *x, T *y, i64 mn, int flags, T alpha, T beta) {
    typedef scalar<T> S;
    const i64 M = lo32(mn), N = hi32(mn);
    const bool trans = flags & GV_TRANS, conj = flags & GV_CONJ;
    const i64 ny = trans ? N : M, nx = trans ? M : N;
    const int per = trans ? GEMV_THREADS / 32 : GEMV_THREADS; // elements of y a block
    const i64 parts = (ny + per - 1) / per;
    const i64 bi = blockIdx.x / parts, part = blockIdx.x % parts;
    a += bi * sa, x += bi * nx, y += bi * ny;
    const bool product = !S::is_zero(alpha) && nx > 0;
    T s = tile_zero<T>();
    if (!trans) {
        const i64 i = part * per + threadIdx.x;
        if (i >= ny) return;
        if (product)
            for (i64 j = 0; j < nx; j++) s = mac(s, a[i + j * lda], x[j]);
        y[i] = axpby(alpha, s, beta, y + i);
        return;
    }
    const int lane = threadIdx.x % 32;
    const i64 j = part * per + threadIdx.x / 32; // the same for the whole warp
    if (j >= ny) return;
    if (product) {
        for (i64 i = lane; i < nx; i += 32) {
            T v = a[i + j * lda];
            s = mac(s, conj ? S::conj(v) : v, x[i]);
        }
        for (int m = 16; m > 0; m /= 2) s = S::add(s, S::shfl_xor(s, m));
    }
    if (lane == 0) y[j] = axpby(alpha, s, beta, y + j);
}

#define GEMV_DIRECT(NAME, T)                                                                                     \
    extern "C" __global__ void __launch_bounds__(GEMV_THREADS)                                                   \
        NAME(const T *a, i64 lda, i64 sa, const T *x, T *y, i64 mn, i64 flags, i64 alpha_re, i64 alpha_im,       \
             i64 beta_re, i64 beta_im) {                                                                         \
        gemv_direct<T>(a, lda, sa, x, y, mn, (int)flags, scalar<T>::from_bits(alpha_re, alpha_im),               \
                       scalar<T>::from_bits(beta_re, beta_im));                                                  \
    }

GEMV_DIRECT(gemv_direct_f32, float)
GEMV_DIRECT(gemv_direct_f64, double)
GEMV_DIRECT(gemv_direct_c64, cfloat)
GEMV_DIRECT(gemv_direct_c128, cdouble)
