// gemm "small": C = alpha op(A) op(B) + beta C for a batch of small matrices, whole
// operands in shared memory: a block holds one or more matrices (mats, a team of threads
// each, a power of two up to 256 threads in all), each team copies op(A) and op(B) into its
// part of the dynamic shared memory (reading A and B in their stored order, so that the
// reads are coalesced) and then computes C's elements in turns, one element a thread at a
// time, each a k-long dot product out of shared memory. Any m, n, k whose op(A) and op(B)
// fit the shared memory; every transpose pair. alpha = 0 or k = 0 reads neither A nor B,
// beta = 0 does not read C.
#include "tiles.cuh"

// small_copy stores op(X), r-by-c, from X (r-by-c, or c-by-r when trans) into s column-major.
template <typename T>
__device__ __forceinline__ void small_copy(T *s, const T *x, i64 ld, i64 r, i64 c, bool trans, bool conj, int rank, int team) {
    const i64 sr = trans ? c : r; // X's stored rows
    for (i64 e = rank; e < r * c; e += team) {
        const i64 u = e % sr, v = e / sr;
        T x_uv = x[u + v * ld];
        if (conj) x_uv = scalar<T>::conj(x_uv);
        s[trans ? v + u * r : u + v * r] = x_uv;
    }
}

// gemm_small's parameters: mn packs m (low 32 bits) and n, kf packs k and, above it, the
// TF_* flags (8 bits) and the matrices of a block.
template <typename T>
__device__ __forceinline__ void gemm_small(const T *a, i64 lda, i64 sa, const T *b, i64 ldb, i64 sb, T *c, i64 ldc, i64 sc,
                                           i64 mn, i64 kf, i64 batch, T alpha, T beta) {
    const i64 M = lo32(mn), N = hi32(mn), K = lo32(kf);
    const int flags = (int)(hi32(kf) & 0xff), mats = (int)(hi32(kf) >> 8);
    const int team = blockDim.x / mats, rank = threadIdx.x % team, which = threadIdx.x / team;
    const i64 bi = (i64)blockIdx.x * mats + which;
    const bool live = bi < batch; // the other teams keep the block's barrier only
    DYNAMIC_SHARED(T, shared);
    T *sa_ = shared + which * (M * K + K * N), *sb_ = sa_ + M * K;
    const bool product = !scalar<T>::is_zero(alpha) && K > 0;
    if (live && product) {
        small_copy(sa_, a + bi * sa, lda, M, K, (flags & TF_A_TRANS) != 0, (flags & TF_A_CONJ) != 0, rank, team);
        small_copy(sb_, b + bi * sb, ldb, K, N, (flags & TF_B_TRANS) != 0, (flags & TF_B_CONJ) != 0, rank, team);
    }
    __syncthreads();
    if (!live) return;
    c += bi * sc;
    for (i64 e = rank; e < M * N; e += team) {
        const i64 i = e % M, j = e / M;
        T s = tile_zero<T>();
        if (product)
            for (i64 p = 0; p < K; p++) s = mac(s, sa_[i + p * M], sb_[p + j * K]);
        c[i + j * ldc] = axpby(alpha, s, beta, c + i + j * ldc);
    }
}

#define GEMM_SMALL(NAME, T)                                                                                        \
    extern "C" __global__ void __launch_bounds__(TILE_THREADS)                                                     \
        NAME(const T *a, i64 lda, i64 sa, const T *b, i64 ldb, i64 sb, T *c, i64 ldc, i64 sc, i64 mn, i64 kf,      \
             i64 batch, i64 alpha_re, i64 alpha_im, i64 beta_re, i64 beta_im) {                                    \
        gemm_small<T>(a, lda, sa, b, ldb, sb, c, ldc, sc, mn, kf, batch, scalar<T>::from_bits(alpha_re, alpha_im), \
                      scalar<T>::from_bits(beta_re, beta_im));                                                     \
    }

GEMM_SMALL(gemm_small_f32, float)
GEMM_SMALL(gemm_small_f64, double)
GEMM_SMALL(gemm_small_c64, cfloat)
GEMM_SMALL(gemm_small_c128, cdouble)
