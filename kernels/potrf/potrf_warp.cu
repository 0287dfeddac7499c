// potrf "warp": Cholesky factorization A = L L^H (or U^H U) of a batch of n-by-n matrices,
// n <= 64, one warp per matrix, the matrix in shared memory. A block holds WARP_WARPS
// matrices, one per warp, each in its own packed lower-triangle tile (ctile.cuh), and no
// barrier joins two warps: a matrix never waits for another, and small tiles (9 KB for
// float at n = 64) keep 13 to 64 matrices in flight per SM, against the two blocks of 256
// threads of potrf_cta.
//
// The named triangle is copied into the tile with cp.async, a stored column at a time, lane l
// on rows l and l+32. Then for each panel of 8 columns c0..c0+7 (right-looking, blocked):
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

// warp_triangle calls f(i, j, off) for each element of the named triangle of order n that
// the lane copies: L's (i, j), i >= j, at offset off of the stored matrix ((i, j) for lower,
// (j, i) for upper). It walks the stored columns, lane l on rows l + 32u of each (the rows
// from the diagonal on for lower), so that a warp's accesses to a column are consecutive.
template <int RPL, typename F> __device__ __forceinline__ void warp_triangle(int n, i64 ld, bool lower, F f) {
    const int lane = threadIdx.x & 31;
#pragma unroll 2
    for (int c = 0; c < n; c++) {
#pragma unroll
        for (int u = 0; u < RPL; u++) {
            const int r = (lower ? c : 0) + lane + 32 * u; // stored row
            if (lower ? r < n : r <= c) f(lower ? r : c, lower ? c : r, (i64)c * ld + r);
        }
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

    warp_triangle<RPL>(n, ld, lower, [&](int i, int j, i64 off) { cp_async(t.col(j) + i, m + off); });
    cp_async_wait();
    if (is_complex<T>::v && !lower) {
        warp_triangle<RPL>(n, ld, lower, [&](int i, int j, i64) { t.col(j)[i] = S::conj(t.col(j)[i]); });
    }
    __syncwarp();

    int bad = 0;
    for (int c0 = 0; c0 < n; c0 += CTA_PANEL) {
        T p[RPL][CTA_PANEL];
#pragma unroll
        for (int u = 0; u < RPL; u++) {
#pragma unroll
            for (int k = 0; k < CTA_PANEL; k++) p[u][k] = S::from_real(0);
        }
        panel_rows<RPL>(c0, n, [&](int u, int k, int r) { p[u][k] = t.col(c0 + k)[r]; });
        bad = panel_factor<T, RPL>(p, c0, n);
        panel_rows<RPL>(c0, n, [&](int u, int k, int r) { t.col(c0 + k)[r] = p[u][k]; });
        __syncwarp();
        if (bad) break; // the same in every lane
        const int c1 = c0 + CTA_PANEL, NT = (NP - c1) / 4;
        for (int q = lane; q < NT * (NT + 1) / 2; q += 32) shared_tile_update(t, c0, c1, NT, q);
        __syncwarp();
    }

    warp_triangle<RPL>(n, ld, lower, [&](int i, int j, i64 off) {
        const T v = t.col(j)[i];
        m[off] = lower ? v : S::conj(v);
    });
    if (lane == 0) info[b] = bad;
}

// RPL: rows a lane holds of a panel, 1 for n <= 32, 2 for n <= 64. MINB, __launch_bounds__'s
// blocks per SM, is the most that ptxas meets without spilling (nvcc 11.8, sm_90): a larger
// one trades spills for occupancy that the shared memory does not allow anyway at n = 64.
#define POTRF_WARP(SUFFIX, T, RPL, MINB)                                                          \
    extern "C" __global__ void __launch_bounds__(32 * WARP_WARPS, MINB)                            \
        potrf_warp_r##RPL##_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, int *info, i64 lower) { \
        potrf_warp<T, RPL>(a, ld, stride, (int)n, batch, info, lower != 0);                        \
    }

POTRF_WARP(f32, float, 1, 8)
POTRF_WARP(f32, float, 2, 8)
POTRF_WARP(f64, double, 1, 4)
POTRF_WARP(f64, double, 2, 4)
POTRF_WARP(c64, cfloat, 1, 5)
POTRF_WARP(c64, cfloat, 2, 5)
POTRF_WARP(c128, cdouble, 1, 1)
POTRF_WARP(c128, cdouble, 2, 1)
