// geqrf "cta": Householder QR (LAPACK's geqr2) of a batch of m-by-n matrices, one block per
// matrix held in shared memory, any m and n whose matrix fits there.
//
// The block loads its matrix with coalesced reads into shared memory (leading dimension lds)
// and writes it back once at the end, with tau. Columns belong to groups of P lanes (column c
// to group c mod (threads/P), for the whole factorization; see householder.cuh). Step j,
// after one barrier: every group applies H_j^H = I - conj(tau_j) v_j v_j^H to its columns
// right of j; the warp that owns column j+1 then forms reflector j+1 from it at once
// (warp_larfg: the column is its own, so a __syncwarp orders it), and the next step's barrier
// publishes v_{j+1} and tau_{j+1}. One __syncthreads per column.
//
// Two ways to hold the columns right of the pivot (householder.cuh): in shared memory
// (geqrf_smem, any size that fits), or, with one column per group and at most 32 rows per
// lane (16 for complex128), in the registers of their groups (geqrf_regs). There the group
// that holds column j+1 writes it to shared memory for its warp's warp_larfg, which spreads
// the column's rows over all 32 lanes, and the warp publishes the reflector padded (zero
// above j+1, one at j+1, zero past m) in one of two buffers that alternate by step.
#include "../common/householder.cuh"

template <typename T>
__device__ __forceinline__ void geqrf_smem(T *s, T *ts, int m, int n, int k, int lds, int P) {
    typedef scalar<T> S;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int p = tid & (P - 1), g = tid / P, ng = blockDim.x / P;
    if (warp == 0) warp_larfg(s, 0, m, ts, lane); // column 0 belongs to group 0, in warp 0
    for (int j = 0; j < k; j++) {
        __syncthreads();
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
__device__ __forceinline__ void geqrf_regs(T *s, T *ts, T *vb, int m, int n, int k, int lds, int P) {
    typedef scalar<T> S;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int p = tid & (P - 1), g = tid / P, rows = P * RPL;
    T x[RPL];
    if (g < n) regs_load(x, s + g * lds, p, P);
    if (warp == 0) geqrf_pivot(s, 0, m, ts, vb, rows, lane); // column 0 belongs to group 0, in warp 0
    for (int j = 0; j < k; j++) {
        __syncthreads();
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

// geqrf_cta: RPL 0 takes the layout from rpl at run time (with_rpl); else rpl is RPL.
template <typename T, int RPL>
__device__ __forceinline__ void geqrf_cta(T *a, i64 ld, i64 stride, int m, int n, T *tau, i64 batch, int P, int lds,
                                          int rpl) {
    const i64 b = blockIdx.x;
    if (b >= batch) return; // the whole block
    DYNAMIC_SHARED(T, s);
    const int k = min(m, n);
    T *ts = s + (i64)n * lds; // tau, k of them
    // With rpl: two padded reflectors of P*rpl rows, on a 16-byte boundary.
    T *vb = s + ((i64)n * lds + k + qr_w<T>() - 1) / qr_w<T>() * qr_w<T>();
    T *ab = a + b * stride;

    // With rpl, the rows from m to P*rpl are zero (regs_load reads them).
    for_each_element(rpl ? P * rpl : m, n, [&](int i, int c) {
        s[c * lds + i] = i < m ? ab[(i64)c * ld + i] : scalar<T>::from_real(0);
    });
    __syncthreads();
    if constexpr (RPL > 0) geqrf_regs<T, RPL>(s, ts, vb, m, n, k, lds, P);
    else if (!with_rpl<T>(rpl, [&](auto c) { geqrf_regs<T, decltype(c)::value>(s, ts, vb, m, n, k, lds, P); }))
        geqrf_smem(s, ts, m, n, k, lds, P);
    __syncthreads();
    for_each_element(m, n, [&](int i, int c) { ab[(i64)c * ld + i] = s[c * lds + i]; });
    for (int i = threadIdx.x; i < k; i += blockDim.x) tau[b * k + i] = ts[i];
}

// Parameters (all 8 bytes): a, ld, stride, m, n, tau, batch, P (lanes per column, a power of
// two up to 32), lds (the shared leading dimension, >= m), rpl (0: the columns in shared
// memory; 4, 8, 16 or 32 (not complex128): in registers, rpl rows per lane, which needs
// n <= threads/P, m <= P*rpl, lds >= P*rpl and lds*sizeof(T) a multiple of 16). Dynamic
// shared memory: n*lds + min(m, n) elements, and with rpl, from the next 16-byte boundary,
// 2*P*rpl more.
#define GEQRF_CTA(NAME, T)                                                                        \
    extern "C" __global__ void __launch_bounds__(512)                                             \
        NAME(T *a, i64 ld, i64 stride, i64 m, i64 n, T *tau, i64 batch, i64 P, i64 lds, i64 rpl) { \
        geqrf_cta<T, 0>(a, ld, stride, (int)m, (int)n, tau, batch, (int)P, (int)lds, (int)rpl);   \
    }

GEQRF_CTA(geqrf_cta_f32, float)
GEQRF_CTA(geqrf_cta_f64, double)
GEQRF_CTA(geqrf_cta_c64, cfloat)
GEQRF_CTA(geqrf_cta_c128, cdouble)

// geqrf_cta_r32_f32: float's layout of 32 rows a lane in blocks of at most 128 threads (m =
// 17..32 with n = 32..128, 33..64 with 16..64, 65..128 with 8..32), a kernel of its own with
// the same parameters (rpl 32). Inside geqrf_cta_f32 the other layouts' paths hold every
// launch to 100 registers, 4 blocks an SM at n = 64; alone it takes what its minimum of 6
// blocks allows, 80, and spills nothing (nvcc 13.0, sm_90). On the H200 at n = 64, batch
// 8192: 0.940 ms, against 1.230 for geqrf_cta_f32; minimums of 7 and 8 ran 0.870 and 0.844
// but spilled 8 and 12 bytes.
extern "C" __global__ void __launch_bounds__(128, 6)
    geqrf_cta_r32_f32(float *a, i64 ld, i64 stride, i64 m, i64 n, float *tau, i64 batch, i64 P, i64 lds, i64 rpl) {
    geqrf_cta<float, 32>(a, ld, stride, (int)m, (int)n, tau, batch, (int)P, (int)lds, 32);
}
