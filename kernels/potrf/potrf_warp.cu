// potrf "warp": Cholesky factorization A = L L^H (or U^H U) of a batch of n-by-n matrices,
// n <= 64, one warp per matrix, the matrix in shared memory. A block holds WARP_WARPS
// matrices, one per warp, each in its own packed lower-triangle tile (ctile.cuh), and no
// barrier joins two warps: a matrix never waits for another. The tiles (9 KB for float at
// n = 64) and the registers keep 4 (complex128, n = 64) to 28 (float, n <= 32) matrices in
// flight per SM, against the two blocks of 256 threads of potrf_cta.
//
// The named triangle is copied into the tile a few stored columns at a time (warp_load), lane
// l on rows l and l+32. Then for each panel of 8 columns c0..c0+7 (right-looking, blocked):
//
//   1. the panel's rows c0..n-1 go to registers, lane l holding rows c0+l and c0+l+32 (RPL
//      rows a lane), and are factored there right-looking, the pivot and each L(c0+j, k)
//      broadcast by a shuffle:
//        L(k, k) = sqrt(A(k, k)),  L(i, k) = A(i, k) / L(k, k),  A(i, j) -= L(i, k) conj(L(j, k));
//      this is the diagonal block's factor and the solve below it in one pass, all lanes at
//      work, no thread alone on the critical path;
//   2. the panel goes back to the tile, and the trailing lower triangle A22 -= L21 L21^H is
//      updated in 4x4 tiles, a lane per tile (tile_update: 16 FMAs per pair of 16-byte
//      shared loads for float).
//
// The upper case U^H U = A is the lower case of L = U^H: element (i, j) of L is the conjugate
// of the stored (j, i). Only the named triangle is read or written; the tile's padding past n
// only ever feeds padding.
//
// info[b] = k + 1 when pivot k is not positive (or is NaN), as in LAPACK; the factorization of
// that matrix stops: columns before the failing panel hold the factor, the failing panel its
// columns as factored so far with the failing pivot at (k, k), the rest the trailing matrix as
// updated so far. Shared memory: WARP_WARPS tiles of ctile::size(NP) elements (potrf_cuda.go's
// potrfWarpShape).
#include "ctile.cuh"

#define WARP_WARPS 4 // warps, one matrix each, per block

// warp_walk visits the elements of the named triangle of order n, a block of CB stored
// columns at a time, as the copies between the stored matrix m and the tile (warp_load,
// warp_store) take them: L's (i, j), i >= j, is the stored (i, j) for lower and the
// conjugate of the stored (j, i) for upper. Lane l takes rows l + 32u of each stored column
// (from the diagonal on for lower), so that a warp's accesses to a column are consecutive.
// The tile addresses are hoisted out of the element loop: a stored column's start in the
// tile for lower, L's columns lane + 32u for upper, where stored row r of column c is L's
// (c, r). each(c0, f) calls f(k, u, sh, g, ok) for the lane's elements of columns
// c0..c0+CB-1: sh in the tile, g in m, ok when the element is in the triangle.
template <typename T, int RPL, bool LOWER> struct warp_walk {
    static constexpr int CB = 16 / (RPL * (int)sizeof(T)) > 0 ? 16 / (RPL * (int)sizeof(T)) : 1;
    T *m;
    i64 ld;
    int n, lane;
    const ctile<T> &t;
    T *tr[RPL];
    __device__ __forceinline__ warp_walk(T *m, i64 ld, int n, const ctile<T> &t) : m(m), ld(ld), n(n), lane(threadIdx.x & 31), t(t) {
#pragma unroll
        for (int u = 0; u < RPL; u++) tr[u] = t.col(lane + 32 * u);
    }
    template <typename F> __device__ __forceinline__ void each(int c0, F f) const {
#pragma unroll
        for (int k = 0; k < CB; k++) {
            const int c = c0 + k;
            T *g = m + (i64)c * ld, *tc = t.col(c);
#pragma unroll
            for (int u = 0; u < RPL; u++) {
                const int r = (LOWER ? c : 0) + lane + 32 * u;
                f(k, u, LOWER ? tc + r : tr[u] + c, g + r, c < n && (LOWER ? r < n : r <= c));
            }
        }
    }
};

// warp_load copies the named triangle into the tile by cp.async, all in flight at once (a
// warp per matrix leaves few warps per SM to hide a load's latency: staging through
// registers a few columns at a time took float64 n = 64 from 0.262 to 0.325 ms); upper
// complex tiles are conjugated after.
template <typename T, int RPL, bool LOWER> __device__ __forceinline__ void warp_load(T *m, i64 ld, int n, const ctile<T> &t) {
    const warp_walk<T, RPL, LOWER> w(m, ld, n, t);
    for (int c0 = 0; c0 < n; c0 += w.CB) {
        w.each(c0, [&](int, int, T *sh, T *g, bool ok) { cp_async_if(sh, g, ok); });
        if (is_complex<T>::v && !LOWER) {
            cp_async_wait();
            w.each(c0, [&](int, int, T *sh, T *, bool ok) {
                if (ok) *sh = scalar<T>::conj(*sh);
            });
        }
    }
    cp_async_wait();
}

// warp_store writes the tile back to the named triangle, a few columns at a time, their
// shared reads ahead of their global writes.
template <typename T, int RPL, bool LOWER> __device__ __forceinline__ void warp_store(T *m, i64 ld, int n, const ctile<T> &t) {
    const warp_walk<T, RPL, LOWER> w(m, ld, n, t);
    for (int c0 = 0; c0 < n; c0 += w.CB) {
        T v[w.CB][RPL];
        w.each(c0, [&](int k, int u, T *sh, T *, bool ok) {
            if (ok) v[k][u] = *sh;
        });
        w.each(c0, [&](int k, int u, T *, T *g, bool ok) {
            if (ok) *g = LOWER ? v[k][u] : scalar<T>::conj(v[k][u]);
        });
    }
}

// panel_rows runs f(u, k, r) over the elements of the panel from column c0 that lane holds:
// row r = c0 + lane + 32u of panel column k, within the triangle (r >= c0 + k) and the order.
template <int RPL, typename F> __device__ __forceinline__ void panel_rows(int c0, int n, F f) {
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int u = 0; u < RPL; u++) {
#pragma unroll
        for (int k = 0; k < CTA_PANEL; k++) {
            const int r = c0 + lane + 32 * u;
            if (r >= c0 + k && r < n) f(u, k, r);
        }
    }
}

// panel_factor factors the panel from column c0 held in p (zero outside the triangle and past
// n). It returns 0, or k + 1 when pivot k fails, leaving that pivot's value at (k, k). The
// steps are guarded rather than left by break or return: an early exit from the unrolled loop
// sends p to local memory.
template <typename T, int RPL> __device__ __forceinline__ int panel_factor(T (&p)[RPL][CTA_PANEL], int c0, int n) {
    typedef scalar<T> S;
    typedef typename S::real R;
    const int lane = threadIdx.x & 31;
    int bad = 0;
#pragma unroll
    for (int k = 0; k < CTA_PANEL; k++) {
        const R d = S::re(S::shfl(p[0][k], k)); // row c0+k is lane k's first
        if (bad == 0 && c0 + k < n && !(d > 0)) {
            if (lane == k) p[0][k] = S::from_real(d);
            bad = c0 + k + 1;
        }
        if (bad == 0 && c0 + k < n) {
            const R inv = rsqrt_r(d);
#pragma unroll
            for (int u = 0; u < RPL; u++) p[u][k] = S::scale(p[u][k], inv);
            if (lane == k) p[0][k] = S::from_real(d * inv);
            // Rows above c0+k hold zeros in column k, so they are left as they are; row c0+k
            // gains values right of its diagonal, which are never stored.
#pragma unroll
            for (int j = k + 1; j < CTA_PANEL; j++) {
                const T ljk = S::shfl(p[0][k], j);
#pragma unroll
                for (int u = 0; u < RPL; u++) p[u][j] = S::sub_mul_conj(p[u][j], p[u][k], ljk);
            }
        }
    }
    return bad;
}

template <typename T, int RPL>
__device__ __forceinline__ void potrf_warp(T *a, i64 ld, i64 stride, int n, i64 batch, int *info, bool lower) {
    typedef scalar<T> S;
    const int lane = threadIdx.x & 31;
    const i64 b = (i64)blockIdx.x * WARP_WARPS + (threadIdx.x >> 5);
    if (b >= batch) return; // a whole warp: no barrier spans warps
    const int NP = (n + CTA_PANEL - 1) / CTA_PANEL * CTA_PANEL;
    DYNAMIC_SHARED(T, s);
    const ctile<T> t = {s + (threadIdx.x >> 5) * ctile<T>::size(NP), NP};
    T *m = a + b * stride;

    if (lower) warp_load<T, RPL, true>(m, ld, n, t);
    else warp_load<T, RPL, false>(m, ld, n, t);
    __syncwarp();

    int bad = 0;
    for (int c0 = 0; c0 < n; c0 += CTA_PANEL) {
        T p[RPL][CTA_PANEL];
#pragma unroll
        for (int u = 0; u < RPL; u++) {
#pragma unroll
            for (int k = 0; k < CTA_PANEL; k++) p[u][k] = S::from_real(0);
        }
        const panel_cols<T> pc(t, c0);
        panel_rows<RPL>(c0, n, [&](int u, int k, int r) { p[u][k] = pc.col(k)[r]; });
        bad = panel_factor<T, RPL>(p, c0, n);
        panel_rows<RPL>(c0, n, [&](int u, int k, int r) { pc.col(k)[r] = p[u][k]; });
        __syncwarp();
        if (bad) break; // the same in every lane
        const int c1 = c0 + CTA_PANEL, NT = (NP - c1) / 4;
        for (int q = lane; q < NT * (NT + 1) / 2; q += 32) shared_tile_update(t, pc, c1, NT, q);
        __syncwarp();
    }

    if (lower) warp_store<T, RPL, true>(m, ld, n, t);
    else warp_store<T, RPL, false>(m, ld, n, t);
    if (lane == 0) info[b] = bad;
}

// RPL: rows a lane holds of a panel, 1 for n <= 32, 2 for n <= 64. MINB, __launch_bounds__'s
// blocks per SM, is the most that ptxas meets without spilling on sm_90: a larger one trades
// spills for occupancy that the shared memory does not allow anyway at n = 64 (float: six
// blocks of 35 KB).
#define POTRF_WARP(SUFFIX, T, RPL, MINB)                                                          \
    extern "C" __global__ void __launch_bounds__(32 * WARP_WARPS, MINB)                            \
        potrf_warp_r##RPL##_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, int *info, i64 lower) { \
        potrf_warp<T, RPL>(a, ld, stride, (int)n, batch, info, lower != 0);                        \
    }

POTRF_WARP(f32, float, 1, 6)
POTRF_WARP(f32, float, 2, 6)
POTRF_WARP(f64, double, 1, 4)
POTRF_WARP(f64, double, 2, 4)
POTRF_WARP(c64, cfloat, 1, 5)
POTRF_WARP(c64, cfloat, 2, 5)
POTRF_WARP(c128, cdouble, 1, 1)
POTRF_WARP(c128, cdouble, 2, 1)
