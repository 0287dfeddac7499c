// The rank-k and rank-2k updates on the tiles.cuh engine, shared by syrk's "gram" and
// "triangular" kernels, which serve syrk, herk, syr2k and her2k alike (flags RK_*):
//
//	C = alpha P(A, B) + alpha2 P(B, A) + beta C,  P(X, Y) = op(X) op(Y)^T (^H when RK_HERM),
//
// op(X) = X (n-by-k) or, RK_TRANS, X^T (X^H) for X k-by-n. syrk and herk have no second
// product (B = A); syr2k has alpha2 = alpha, her2k alpha2 = conj(alpha). Both products run
// fused, as one product of reduction depth 2k: L = [op(A) op(B)], R = [alpha op(B)^T ;
// alpha2 op(A)^T], alpha applied as R's slices are staged. Only the uplo triangle of C is
// written (diagonal tiles are computed whole and their other half dropped) and read; with
// RK_HERM the diagonal comes out real, its imaginary part taken as zero.
#pragma once
#include "../gemm/tiles.cuh"

enum { RK_TRANS = 1, RK_LOWER = 2, RK_HERM = 4, RK_TWO = 8 };

// rank_left is L: op(A)'s columns, then op(B)'s.
template <typename T> struct rank_left {
    opnd<T, OPND_GEN> a, b;
    i64 k;
    __device__ __forceinline__ T at(i64 r, i64 p) const { return p < k ? a.at(r, p) : b.at(r, p - k); }
    __device__ __forceinline__ bool at_rows_fast() const { return a.at_rows_fast(); }
};

// rank_right is R: alpha op(B)^T's rows, then alpha2 op(A)^T's.
template <typename T> struct rank_right {
    opnd<T, OPND_GEN> a, b;
    i64 k;
    T alpha, alpha2;
    __device__ __forceinline__ T at(i64 p, i64 c) const {
        return p < k ? scalar<T>::mul(alpha, b.at(p, c)) : scalar<T>::mul(alpha2, a.at(p - k, c));
    }
    __device__ __forceinline__ bool at_rows_fast() const { return a.at_rows_fast(); }
};

// rank_tri_tile is the (row, column) tile of the t-th tile of the lower triangle of tiles,
// counted row by row: (0,0), (1,0), (1,1), (2,0), ...
__device__ __forceinline__ void rank_tri_tile(i64 t, i64 &ti, i64 &tj) {
    ti = (i64)((sqrt(8.0 * (double)t + 1.0) - 1.0) / 2.0);
    while (ti * (ti + 1) / 2 > t) ti--;
    while ((ti + 1) * (ti + 2) / 2 <= t) ti++;
    tj = t - ti * (ti + 1) / 2;
}

// rank_update computes the tile of C that block blockIdx.x names: with tri, the blocks run
// over (tile of the triangle, matrix); without, one block a matrix covers all of C. nk packs
// n (low 32 bits) and k.
template <typename T, int TM, int BK>
__device__ __forceinline__ void rank_update(const T *a, i64 lda, i64 sa, const T *b, i64 ldb, i64 sb, T *c, i64 ldc, i64 sc,
                                            i64 nk, int flags, T alpha, T beta, bool tri) {
    typedef scalar<T> S;
    __shared__ tile_stage<T, TM, TM, BK> st;
    const i64 n = lo32(nk), k = hi32(nk);
    const bool trans = flags & RK_TRANS, lower = flags & RK_LOWER, herm = flags & RK_HERM, two = flags & RK_TWO;
    const i64 side = (n + 16 * TM - 1) / (16 * TM), tiles = tri ? side * (side + 1) / 2 : 1;
    const i64 bi = blockIdx.x / tiles;
    i64 ti = 0, tj = 0;
    if (tri) rank_tri_tile(blockIdx.x % tiles, ti, tj);
    if (!lower) {
        const i64 t = ti;
        ti = tj, tj = t;
    }
    const T *ab = a + bi * sa, *bb = two ? b + bi * sb : ab;
    const i64 ldb_ = two ? ldb : lda;
    const opnd<T, OPND_GEN> la = {ab, lda, trans, herm && trans, false, false, false};
    const opnd<T, OPND_GEN> lb = {bb, ldb_, trans, herm && trans, false, false, false};
    const opnd<T, OPND_GEN> ra = {ab, lda, !trans, herm && !trans, false, false, false};
    const opnd<T, OPND_GEN> rb = {bb, ldb_, !trans, herm && !trans, false, false, false};
    const rank_left<T> L = {la, lb, k};
    const rank_right<T> R = {ra, rb, k, alpha, two && herm ? S::conj(alpha) : alpha};
    const i64 i0 = ti * 16 * TM, j0 = tj * 16 * TM;
    T acc[TM][TM];
    tile_clear(acc);
    tile_product<T, TM, TM, BK>(L, R, n, n, i0, j0, 0, S::is_zero(alpha) ? 0 : (two ? 2 * k : k), st, acc);
    c += bi * sc;
    tile_each(n, n, i0, j0, acc, [&](i64 i, i64 j, T v) {
        if (lower ? i < j : i > j) return;
        T *cij = c + i + j * ldc;
        if (herm && i == j) {
            *cij = S::from_real(S::re(v) + (S::is_zero(beta) ? 0 : S::re(beta) * S::re(*cij)));
            return;
        }
        *cij = S::is_zero(beta) ? v : S::add(v, S::mul(beta, *cij));
    });
}

// RANK_KERNEL defines extern "C" NAME for scalar T, TM-by-TM elements a thread, slices BK
// deep; tri as in rank_update.
#define RANK_KERNEL(NAME, T, TM, BK, TRI)                                                                            \
    extern "C" __global__ void __launch_bounds__(TILE_THREADS)                                                       \
        NAME(const T *a, i64 lda, i64 sa, const T *b, i64 ldb, i64 sb, T *c, i64 ldc, i64 sc, i64 nk, i64 flags,     \
             i64 alpha_re, i64 alpha_im, i64 beta_re, i64 beta_im) {                                                 \
        rank_update<T, TM, BK>(a, lda, sa, b, ldb, sb, c, ldc, sc, nk, (int)flags,                                   \
                               scalar<T>::from_bits(alpha_re, alpha_im), scalar<T>::from_bits(beta_re, beta_im), TRI); \
    }
