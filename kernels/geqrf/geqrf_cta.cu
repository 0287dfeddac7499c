// geqrf "cta": Householder QR (LAPACK's geqr2) of a batch of m-by-n matrices, a team of
// threads per matrix held in shared memory (one or more teams a block; householder.cuh), any
// m and n whose matrix fits there.
//
// The team loads its matrix with coalesced reads into shared memory (leading dimension lds)
// and writes it back once at the end, with tau. Columns belong to groups of P lanes (column c
// to group c mod (threads/P), for the whole factorization; see householder.cuh). Step j,
// after one barrier: every group applies H_j^H = I - conj(tau_j) v_j v_j^H to its columns
// right of j; the warp that owns column j+1 then forms reflector j+1 from it at once
// (warp_larfg: the column is its own, so a __syncwarp orders it), and the next step's barrier
// publishes v_{j+1} and tau_{j+1}. One barrier (team_sync) per column.
//
// Two ways to hold the columns right of the pivot (householder.cuh; the entry's RPL): in
// shared memory (geqrf_smem, any size that fits), or, with one column per group and at most
// RPL rows per lane (QR_CTA_ENTRIES), in the registers of their groups (geqrf_regs). There the group
// that holds column j+1 writes it to shared memory for its warp's warp_larfg, which spreads
// the column's rows over all 32 lanes, and the warp publishes the reflector padded (zero
// above j+1, one at j+1, zero past m) in one of two buffers that alternate by step.
#include "../common/householder.cuh"

template <typename T>
__device__ __forceinline__ void geqrf_smem(T *s, T *ts, int m, int n, int k, int lds, int P, tri_team team) {
    typedef scalar<T> S;
    const int lane = team.rank & 31, warp = team.rank >> 5; // the warp within the team
    const int p = team.rank & (P - 1), g = team.rank / P, ng = team.size / P;
    if (warp == 0) warp_larfg(s, 0, m, ts, lane); // column 0 belongs to group 0, in warp 0
    for (int j = 0; j < k; j++) {
        team_sync(team);
        const T t = S::conj(ts[j]);
        // Every lane runs the same slots: the dot products reduce by shuffles.
        for (int c0 = (j + 1) / ng * ng; c0 < n; c0 += ng) {
            const int c = c0 + g;
            group_apply(s + c * lds, s + j * lds, j, m, t, p, P, c > j && c < n);
        }
        if (j + 1 < k && warp == (j + 1) % ng * P / 32) {
            __syncwarp();
            warp_larfg(s + (j + 1) * lds, j + 1, m, ts + j + 1, lane);
        }
    }
}

// geqrf_pivot: the warp that owns column j (col, 16-byte aligned, rows rows) forms reflector
// j from it (warp_larfg) and publishes it padded (pad_row) in vb, 16 bytes a lane.
template <typename T>
__device__ __forceinline__ void geqrf_pivot(T *col, int j, int m, T *tau, T *vb, int rows, int lane) {
    constexpr int W = qr_w<T>();
    warp_larfg(col, j, m, tau, lane);
    __syncwarp();
    for (int i = lane * W; i < rows; i += 32 * W) {
        qr_pack<T> c = load16(col + i);
#pragma unroll
        for (int w = 0; w < W; w++) c.e[w] = pad_row(c.e, w, j - i, m - i);
        store16(vb + i, c);
    }
}

template <typename T, int RPL>
__device__ __forceinline__ void geqrf_regs(T *s, T *ts, T *vb, int m, int n, int k, int lds, int P, tri_team team) {
    typedef scalar<T> S;
    const int lane = team.rank & 31, warp = team.rank >> 5; // the warp within the team
    const int p = team.rank & (P - 1), g = team.rank / P, rows = P * RPL;
    T x[RPL];
    if (g < n) regs_load(x, s + g * lds, p, P);
    if (warp == 0) geqrf_pivot(s, 0, m, ts, vb, rows, lane); // column 0 belongs to group 0, in warp 0
    for (int j = 0; j < k; j++) {
        team_sync(team);
        if (!warp_has_column_after(j, n, warp, P)) continue;
        group_apply_regs(x, vb + (j & 1) * rows, S::conj(ts[j]), p, P, g > j && g < n);
        if (j + 1 < k && warp == (j + 1) * P / 32) {
            if (g == j + 1) regs_store(x, s + g * lds, p, P);
            __syncwarp();
            geqrf_pivot(s + (j + 1) * lds, j + 1, m, ts + j + 1, vb + ((j + 1) & 1) * rows, rows, lane);
        }
    }
    if (g >= k && g < n) regs_store(x, s + g * lds, p, P); // columns never pivots (m < n)
}

template <typename T, int RPL>
__device__ __forceinline__ void geqrf_cta(T *a, i64 ld, i64 stride, int m, int n, T *tau, i64 batch, int P, int lds,
                                          int team_size) {
    typedef scalar<T> S;
    const tri_team team = tri_team_of(team_size);
    const i64 b = (i64)blockIdx.x * (blockDim.x / team.size) + team.index;
    const bool live = b < batch; // else the team works on zeros and writes nothing
    const int k = min(m, n);
    // The team's region: the matrix, tau (k of them), and with RPL, from the next 16-byte
    // boundary, two padded reflectors of P*RPL rows.
    const int vb0 = qr_align<T>(n * lds + k);
    DYNAMIC_SHARED(T, shared);
    T *s = shared + team.index * (vb0 + 2 * P * RPL);
    T *ts = s + n * lds, *vb = s + vb0;
    T *ab = a + (live ? b : 0) * stride;

    // With RPL, the rows from m to P*RPL are zero (regs_load reads them).
    for_each_element(team, RPL ? P * RPL : m, n, [&](int i, int c) {
        s[c * lds + i] = live && i < m ? ab[(i64)c * ld + i] : S::from_real(0);
    });
    team_sync(team);
    if constexpr (RPL > 0) geqrf_regs<T, RPL>(s, ts, vb, m, n, k, lds, P, team);
    else geqrf_smem(s, ts, m, n, k, lds, P, team);
    team_sync(team);
    if (!live) return;
    for_each_element(team, m, n, [&](int i, int c) { ab[(i64)c * ld + i] = s[c * lds + i]; });
    for (int i = team.rank; i < k; i += team.size) tau[b * k + i] = ts[i];
}

// Entries geqrf_cta_r<RPL>_<type> (QR_CTA_ENTRIES). Parameters (all 8 bytes): a, ld, stride,
// m, n, tau, batch, P (lanes per column, a power of two up to 32), lds (the shared leading
// dimension, >= m), team (threads per matrix, a multiple of 32; the block holds
// blockDim.x/team matrices, matrix blockIdx.x*(blockDim.x/team) + its team's index). RPL 0:
// the columns in shared memory; else in registers, RPL rows per lane, which needs
// n <= team/P, m <= P*RPL, lds >= P*RPL and lds*sizeof(T) a multiple of 16. Dynamic shared
// memory: blockDim.x/team times n*lds + min(m, n) elements rounded up to 16 bytes, and with
// RPL 2*P*RPL more.
#define GEQRF_CTA(SUFFIX, T, RPL, MAXT)                                                            \
    extern "C" __global__ void __launch_bounds__(MAXT, 1)                                           \
        geqrf_cta_##SUFFIX(T *a, i64 ld, i64 stride, i64 m, i64 n, T *tau, i64 batch, i64 P, i64 lds, \
                           i64 team) {                                                             \
        geqrf_cta<T, RPL>(a, ld, stride, (int)m, (int)n, tau, batch, (int)P, (int)lds, (int)team); \
    }

QR_CTA_ENTRIES(GEQRF_CTA)
