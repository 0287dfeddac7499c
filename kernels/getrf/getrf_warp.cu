// getrf "warp": LU factorization with partial pivoting of a batch of m-by-n matrices, one
// warp per matrix, several matrices (warps) per block. Two kernels:
//
// warp:smem=0, getrf_warp<RC>: m, n <= 32 for every type (getrf_warp1), and m, n <= 64 for
// float (getrf_warp2, lane l holding rows l and l + 32: 128 registers of matrix). Each lane
// holds its rows in registers, read from and written to global memory directly (each warp
// instruction moves 32 consecutive rows of one column), and lu.cuh's lu_factor_warp factors
// them with no shared memory and no barrier (the step loop unrolled, the pivot by warp
// reductions, the pivot row by shuffles). WARP_MATRICES matrices per block.
//
// warp:smem=1, getrf_warp_smem: m, n <= 64 for every type, the matrix in shared memory
// (column-major, leading dimension lds >= m, a multiple of 4), blocked right-looking with
// rows physically interchanged, as LAPACK's getrf. For each panel of 8 columns c0..c0+7:
//
//   1. the panel's rows c0..m-1 go to registers, lane l holding rows c0+l and c0+l+32, and
//      are factored there as getf2: the pivot by lu.cuh's warp reductions (lu_warp_pivot),
//      the pivot row's entries right of the pivot broadcast by shuffles, the rows left in
//      their lanes (each lane tracks its rows' positions, lu_interchange) and stored back to
//      the tile at their positions;
//   2. the panel's interchanges are applied to the other columns (a lane per column), and
//      U12 = L11^-1 A12 is solved for the columns right of the panel (a lane per column,
//      L11 read by broadcast), U12 also going to a row-major copy ut (8 rows, pitch ldu);
//   3. the trailing matrix A22 -= L21 U12 in 4x4 tiles, a lane per tile, 16 FMAs (float)
//      per pair of 16-byte shared loads.
//
// The blocks hold blockDim.x / 32 matrices (the launch picks as many as the shared memory
// of an SM packs well); no barrier joins two warps. Shared memory per matrix: lds*n + 8*ldu
// elements (getrf_cuda.go's getrfWarpSmemShape).
//
// Pivoting is lu.cuh's (getf2's): ipiv[k] is 1-based, a pivot that is exactly zero sets
// info = k + 1 (the first such k), and its column is neither scaled nor used to update the
// panel, while the factorization goes on.
#include "lu.cuh"
#include "../common/smem.cuh"

#define WARP_MATRICES 4 // matrices per block of getrf_warp<RC>
#define SMEM_PANEL 8      // columns of a panel of getrf_warp_smem

template <typename T, int RC>
__device__ __forceinline__ void getrf_warp(T *a, i64 ld, i64 stride, int m, int n, i64 batch, int *ipiv, int *info) {
    typedef scalar<T> S;
    constexpr int NC = 32 * RC;
    const i64 b = (i64)blockIdx.x * WARP_MATRICES + (threadIdx.x >> 5);
    if (b >= batch) return; // whole warps leave together
    const int lane = threadIdx.x & 31;
    T *g = a + b * stride;
    T r[RC][NC];
#pragma unroll
    for (int j = 0; j < NC; j++)
#pragma unroll
        for (int c = 0; c < RC; c++) {
            r[c][j] = S::from_real(0);
            if (j < n && lane + 32 * c < m) r[c][j] = g[(i64)j * ld + lane + 32 * c];
        }
    int pos[RC];
    const int bad = lu_factor_warp<T, RC, NC>(r, pos, m, n, ipiv + b * (m < n ? m : n));
#pragma unroll
    for (int j = 0; j < NC; j++)
#pragma unroll
        for (int c = 0; c < RC; c++)
            if (j < n && lane + 32 * c < m) g[(i64)j * ld + pos[c]] = r[c][j];
    if (lane == 0) info[b] = bad;
}

// smem_tile is getrf_warp_smem's matrix in shared memory: a (lds*n elements, column-major)
// and the row-major copy of the panel's U12 rows, ut (SMEM_PANEL rows of pitch ldu).
template <typename T> struct smem_tile {
    T *a, *ut;
    int lds, ldu;
    __device__ __forceinline__ T *at(int i, int j) const { return a + j * lds + i; }
};

// smem_panel_factor factors the panel of rows c0..m-1 and columns c0..c0+nb-1 that the warp
// holds in p (lane l: rows c0+l+32u), as getf2, without moving rows between lanes: pos[u] is
// the position of the lane's row u in the interchanged order, and only the pivot row's
// entries right of the pivot travel, by shuffles. It writes the pivot positions (0-based,
// LAPACK's ipiv - 1) to prow and returns the first zero pivot's k + 1 (of the whole matrix),
// or 0.
template <typename T, int RPL>
__device__ __forceinline__ int smem_panel_factor(T (&p)[RPL][SMEM_PANEL], int (&pos)[RPL], int (&prow)[SMEM_PANEL], int c0, int nb, int m) {
    typedef scalar<T> S;
    const int lane = threadIdx.x & 31;
    int bad = 0;
#pragma unroll
    for (int u = 0; u < RPL; u++) pos[u] = c0 + lane + 32 * u;
#pragma unroll
    for (int k = 0; k < SMEM_PANEL; k++) {
        prow[k] = c0 + k;
        if (k < nb) { // uniform
            const int rk = c0 + k;
            T v[RPL];
#pragma unroll
            for (int u = 0; u < RPL; u++) v[u] = p[u][k];
            const int bp = lu_warp_pivot(v, pos, rk, m - c0);
            const int lp = bp & 0xffff, posp = bp >> 16;
            prow[k] = posp;
            const T piv = S::shfl(lp >= 32 ? v[RPL - 1] : v[0], lp & 31);
            lu_interchange(pos, lp, posp, rk); // a no-op when piv is zero: the pivot row is then at rk
            if (lu_is_zero(piv)) {
                if (bad == 0) bad = rk + 1;
            } else {
                lu_pivot<T> pivot;
                pivot.set(piv);
#pragma unroll
                for (int u = 0; u < RPL; u++) {
                    if (pos[u] > rk) p[u][k] = pivot.scale(p[u][k]);
                }
#pragma unroll
                for (int j = k + 1; j < SMEM_PANEL; j++) {
                    const T pj = S::shfl(lp >= 32 ? p[RPL - 1][j] : p[0][j], lp & 31);
#pragma unroll
                    for (int u = 0; u < RPL; u++) {
                        if (pos[u] > rk) p[u][j] = S::sub_mul(p[u][j], p[u][k], pj);
                    }
                }
            }
        }
    }
    return bad;
}

// smem_interchange applies the panel's interchanges (rows c0+k and prow[k], k < nb, in
// turn) to the columns outside the panel, a lane per column.
template <typename T>
__device__ __forceinline__ void smem_interchange(const smem_tile<T> &t, const int (&prow)[SMEM_PANEL], int c0, int nb, int n) {
    const int lane = threadIdx.x & 31;
    for (int j = lane; j < n; j += 32) {
        if (j >= c0 && j < c0 + nb) continue;
#pragma unroll
        for (int k = 0; k < SMEM_PANEL; k++) {
            if (k < nb && prow[k] != c0 + k) {
                T *x = t.at(c0 + k, j), *y = t.at(prow[k], j);
                const T v = *x;
                *x = *y;
                *y = v;
            }
        }
    }
}

// smem_u12 solves L11 X = A12 for the panel's rows c0..c0+nb-1 and the columns right of it
// (L11 unit lower triangular, read by broadcast), a lane per column, X over A12 and into ut.
template <typename T>
__device__ __forceinline__ void smem_u12(const smem_tile<T> &t, int c0, int nb, int n) {
    typedef scalar<T> S;
    const int lane = threadIdx.x & 31;
    for (int j = c0 + nb + lane; j < n; j += 32) {
        T x[SMEM_PANEL];
#pragma unroll
        for (int k = 0; k < SMEM_PANEL; k++) {
            if (k < nb) {
                x[k] = *t.at(c0 + k, j);
#pragma unroll
                for (int i = 0; i < k; i++) x[k] = S::sub_mul(x[k], *t.at(c0 + k, c0 + i), x[i]);
                *t.at(c0 + k, j) = x[k];
                t.ut[k * t.ldu + j] = x[k];
            }
        }
    }
}

// smem_update applies A22 -= L21 U12 to the trailing rows and columns from c1 in 4x4 tiles
// (numbered down the tile columns, a lane per tile); columns past n are neither read nor
// written, rows past m are padding of lds.
template <typename T>
__device__ __forceinline__ void smem_update(const smem_tile<T> &t, int c0, int nb, int c1, int m, int n) {
    typedef scalar<T> S;
    const int lane = threadIdx.x & 31;
    const int MT = (m - c1 + 3) / 4, NT = (n - c1 + 3) / 4;
    for (int q = lane; q < MT * NT; q += 32) {
        const int i0 = c1 + 4 * (q % MT), j0 = c1 + 4 * (q / MT);
        T acc[4][4];
#pragma unroll
        for (int jj = 0; jj < 4; jj++) {
            if (j0 + jj < n) ld4(t.at(i0, j0 + jj), acc[jj]);
        }
#pragma unroll 2
        for (int k = 0; k < SMEM_PANEL; k++) {
            if (k < nb) {
                T l[4], u[4];
                ld4(t.at(i0, c0 + k), l);
                ld4(t.ut + k * t.ldu + j0, u);
#pragma unroll
                for (int jj = 0; jj < 4; jj++) {
#pragma unroll
                    for (int ii = 0; ii < 4; ii++) acc[jj][ii] = S::sub_mul(acc[jj][ii], l[ii], u[jj]);
                }
            }
        }
#pragma unroll
        for (int jj = 0; jj < 4; jj++) {
            if (j0 + jj < n) st4(t.at(i0, j0 + jj), acc[jj]);
        }
    }
}

template <typename T, int RPL>
__device__ __forceinline__ void getrf_warp_smem(T *a, i64 ld, i64 stride, int m, int n, i64 batch, int *ipiv, int *info, int lds, int ldu) {
    typedef scalar<T> S;
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    const i64 b = (i64)blockIdx.x * (blockDim.x >> 5) + w;
    if (b >= batch) return; // whole warps leave together
    DYNAMIC_SHARED(T, s);
    T *sa = s + w * (lds * n + SMEM_PANEL * ldu);
    const smem_tile<T> t = {sa, sa + lds * n, lds, ldu};
    T *g = a + b * stride;
    // Lane l copies rows l and l + 32 of each column, both copies in one unrolled step: the
    // copies a lane issues do not wait on a walk's index arithmetic (lu_walk, as lu_load,
    // took the kernel from 1.25 to 1.38 ms at float64 n = 64, batch 8192, on the H200).
    for (int j = 0; j < n; j++) {
#pragma unroll
        for (int u = 0; u < RPL; u++) cp_async_if(t.at(lane + 32 * u, j), g + (i64)j * ld + lane + 32 * u, lane + 32 * u < m);
    }
    cp_async_wait();
    __syncwarp();

    const int kmin = m < n ? m : n;
    int bad = 0;
    for (int c0 = 0; c0 < kmin; c0 += SMEM_PANEL) {
        const int nb = min(SMEM_PANEL, kmin - c0);
        T p[RPL][SMEM_PANEL];
#pragma unroll
        for (int u = 0; u < RPL; u++) {
            const int r = c0 + lane + 32 * u;
#pragma unroll
            for (int k = 0; k < SMEM_PANEL; k++) p[u][k] = r < m && k < nb ? *t.at(r, c0 + k) : S::from_real(0);
        }
        int prow[SMEM_PANEL], pos[RPL];
        const int zero = smem_panel_factor<T, RPL>(p, pos, prow, c0, nb, m);
        if (bad == 0) bad = zero;
#pragma unroll
        for (int u = 0; u < RPL; u++) { // each row to its position: the panel's interchanges
#pragma unroll
            for (int k = 0; k < SMEM_PANEL; k++) {
                if (c0 + lane + 32 * u < m && k < nb) *t.at(pos[u], c0 + k) = p[u][k];
            }
        }
#pragma unroll
        for (int k = 0; k < SMEM_PANEL; k++) {
            if (lane == k && k < nb) ipiv[b * kmin + c0 + k] = prow[k] + 1;
        }
        __syncwarp();
        smem_interchange(t, prow, c0, nb, n);
        __syncwarp();
        smem_u12(t, c0, nb, n);
        __syncwarp();
        smem_update(t, c0, nb, c0 + nb, m, n);
        __syncwarp();
    }

    for (int j = 0; j < n; j++) {
#pragma unroll
        for (int u = 0; u < RPL; u++)
            if (lane + 32 * u < m) g[(i64)j * ld + lane + 32 * u] = *t.at(lane + 32 * u, j);
    }
    if (lane == 0) info[b] = bad;
}

#define GETRF_WARP(NAME, T, RC)                                                                  \
    extern "C" __global__ void __launch_bounds__(32 * WARP_MATRICES)                             \
        NAME(T *a, i64 ld, i64 stride, i64 m, i64 n, i64 batch, int *ipiv, int *info) {          \
        getrf_warp<T, RC>(a, ld, stride, (int)m, (int)n, batch, ipiv, info);                     \
    }

GETRF_WARP(getrf_warp1_f32, float, 1)
GETRF_WARP(getrf_warp1_f64, double, 1)
GETRF_WARP(getrf_warp1_c64, cfloat, 1)
GETRF_WARP(getrf_warp1_c128, cdouble, 1)
GETRF_WARP(getrf_warp2_f32, float, 2)

// getrf_warp_smem's entries: m, n <= 64, lane l holding panel rows l and l + 32. Extra
// parameters: lds (>= m, a multiple of 4) and ldu (>= n, a multiple of 4). MINB is
// __launch_bounds__'s blocks per SM for the launch's 32 to 128 threads.
#define GETRF_WARP_SMEM(NAME, T, MINB)                                                            \
    extern "C" __global__ void __launch_bounds__(128, MINB)                                        \
        NAME(T *a, i64 ld, i64 stride, i64 m, i64 n, i64 batch, int *ipiv, int *info, i64 lds, i64 ldu) { \
        getrf_warp_smem<T, 2>(a, ld, stride, (int)m, (int)n, batch, ipiv, info, (int)lds, (int)ldu); \
    }

GETRF_WARP_SMEM(getrf_warp_smem_f32, float, 1)
GETRF_WARP_SMEM(getrf_warp_smem_f64, double, 1)
GETRF_WARP_SMEM(getrf_warp_smem_c64, cfloat, 1)
GETRF_WARP_SMEM(getrf_warp_smem_c128, cdouble, 1)
