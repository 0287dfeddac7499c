// The packed lower-triangle tile and its 4x4-tile update, shared by the potrf kernels that
// keep a matrix in shared memory (potrf_cta.cu: a block per matrix; potrf_warp.cu: a warp).
#pragma once
#include "potrf_common.cuh"

#define CTA_PANEL 8 // columns of a panel: the width of every right-looking step

// ctile is the block's tile: the lower triangle of order NP (a multiple of 8), column j holding
// rows 4*(j/4) to NP-1, the columns one after another. Each column's length is a multiple of
// 4, so that 4 rows from a multiple of 4 are one 16-byte aligned run (4x4 diagonal tiles are
// stored whole).
template <typename T> struct ctile {
    T *s;
    int NP;
    // size is the elements of the tile: the sum over the column groups g < NP/4 of
    // 4*(NP - 4g).
    static __device__ __forceinline__ int size(int NP) { return NP * NP / 2 + 2 * NP; }
    // col(j)[i] is element (i, j), i >= 4*(j/4).
    __device__ __forceinline__ T *col(int j) const {
        const int g = j >> 2;
        return s + 4 * g * NP - 8 * g * (g - 1) + (j & 3) * (NP - 4 * g) - 4 * g;
    }
};

template <typename T> struct is_complex { static const bool v = false; };
template <> struct is_complex<cfloat> { static const bool v = true; };
template <> struct is_complex<cdouble> { static const bool v = true; };

// tile_of gives the 4x4 tile q of a lower triangle of NT x NT tiles numbered down the tile
// columns (tile row ti, tile column tj): u = last - q numbers the reversed triangle by rows,
// which a square root inverts.
__device__ __forceinline__ void tile_of(int q, int NT, int &ti, int &tj) {
    const int u = NT * (NT + 1) / 2 - 1 - q;
    int ra = (int)((sqrtf(8.0f * u + 1.0f) - 1.0f) * 0.5f);
    while (ra * (ra + 1) / 2 > u) ra--;
    while ((ra + 1) * (ra + 2) / 2 <= u) ra++;
    tj = NT - 1 - ra, ti = NT - 1 - (u - ra * (ra + 1) / 2);
}

// A panel is the tile's columns c0..c0+7 (c0 a multiple of 8); col(k) is where column c0+k
// starts. panel_at finds each column at its use; panel_cols keeps three numbers from which
// the eight follow, for a caller that computes them once a step rather than once a tile and
// column (potrf_warp). potrf_cta uses panel_at: at its budget of 128 registers (double) ptxas
// spilled 4 bytes to keep the three.
template <typename T> struct panel_at {
    const ctile<T> &t;
    int c0;
    __device__ __forceinline__ const T *col(int k) const { return t.col(c0 + k); }
};

// panel_cols: the panel is two column groups, column c0+k starting at col(c0) + k (NP - c0)
// for k < 4 and at col(c0+4) + (k-4) (NP - c0 - 4) after.
template <typename T> struct panel_cols {
    T *s;
    int a, b, w;
    __device__ __forceinline__ panel_cols(const ctile<T> &t, int c0)
        : s(t.s), a((int)(t.col(c0) - t.s)), b((int)(t.col(c0 + 4) - t.s)), w(t.NP - c0) {}
    __device__ __forceinline__ T *col(int k) const { return s + (k < 4 ? a + k * w : b + (k - 4) * (w - 4)); }
};

// tile_update applies the panel p to the 4x4 block c at rows i0.. and columns j0..:
// c -= L(i0.., panel) L(j0.., panel)^H, 16 (complex: 64) FMAs per pair of 16-byte loads.
template <typename T, typename P>
__device__ __forceinline__ void tile_update(T (&c)[4][4], const P &p, int i0, int j0) {
    typedef scalar<T> S;
#pragma unroll
    for (int k = 0; k < CTA_PANEL; k++) {
        T li[4], lj[4];
        const T *pk = p.col(k);
        ld4(pk + i0, li);
        ld4(pk + j0, lj);
#pragma unroll
        for (int jj = 0; jj < 4; jj++) {
#pragma unroll
            for (int ii = 0; ii < 4; ii++) c[jj][ii] = S::sub_mul_conj(c[jj][ii], li[ii], lj[jj]);
        }
    }
}

// shared_tile_update applies the panel p to tile q of the trailing triangle from (c, c) (NT
// tiles a side), loading and storing the tile around the update.
template <typename T, typename P>
__device__ __forceinline__ void shared_tile_update(const ctile<T> &t, const P &p, int c, int NT, int q) {
    int ti, tj;
    tile_of(q, NT, ti, tj);
    const int i0 = c + 4 * ti, j0 = c + 4 * tj;
    T acc[4][4];
#pragma unroll
    for (int jj = 0; jj < 4; jj++) ld4(t.col(j0 + jj) + i0, acc[jj]);
    tile_update(acc, p, i0, j0);
#pragma unroll
    for (int jj = 0; jj < 4; jj++) st4(t.col(j0 + jj) + i0, acc[jj]);
}
