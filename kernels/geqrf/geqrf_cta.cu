// geqrf "cta": Householder QR (LAPACK's geqr2) of a batch of m-by-n matrices, one block per
// matrix held in shared memory, any m and n whose matrix fits there.
//
// The block loads its matrix with coalesced reads into shared memory (leading dimension lds),
// factors it there and writes it back once, with tau. Columns belong to groups of P lanes
// (column c to group c mod (threads/P), for the whole factorization; see householder.cuh).
// Step j, after one barrier: every group applies H_j^H = I - conj(tau_j) v_j v_j^H to its
// columns right of j; the warp that owns column j+1 then forms reflector j+1 from it at once
// (warp_larfg: the column is its own, so a __syncwarp orders it), and the next step's barrier
// publishes v_{j+1} and tau_{j+1}. One __syncthreads per column.
//
// With regs set (one column per group, at most QR_RPL rows per lane) the groups hold their
// columns in registers: a step reads v_j from shared memory and nothing else, and a column
// goes back to shared memory when it becomes the next pivot (for warp_larfg and the other
// groups) or, never one (m < n), at the end.
#include "../common/householder.cuh"

template <typename T>
__device__ __forceinline__ void geqrf_cta(T *a, i64 ld, i64 stride, int m, int n, T *tau, i64 batch, int P, int lds,
                                          bool regs) {
    typedef scalar<T> S;
    const i64 b = blockIdx.x;
    if (b >= batch) return; // the whole block
    DYNAMIC_SHARED(T, s);
    const int k = min(m, n);
    T *ts = s + (i64)n * lds; // tau, k of them
    const int tid = threadIdx.x, nt = blockDim.x, lane = tid & 31, warp = tid >> 5;
    const int p = tid & (P - 1), g = tid / P, ng = nt / P;
    T *ab = a + b * stride;

    for_each_element(m, n, [&](int i, int c) { s[c * lds + i] = ab[(i64)c * ld + i]; });
    __syncthreads();
    T x[QR_RPL];
    if (regs && g < n) regs_load(x, s + g * lds, m, p, P);
    if (warp == 0) warp_larfg(s, 0, m, ts, lane); // column 0 belongs to group 0, in warp 0

    for (int j = 0; j < k; j++) {
        __syncthreads();
        const T t = S::conj(ts[j]);
        const T *v = s + j * lds;
        if (regs) {
            if (!warp_has_column_after(j, n, warp, P)) continue;
            group_apply_regs(x, v, j, m, t, p, P, g > j && g < n);
            if (g == j + 1 && j + 1 < k) regs_store(x, s + g * lds, m, p, P);
        } else {
            // Every lane runs the same slots: the dot products reduce by shuffles.
            for (int c0 = (j + 1) / ng * ng; c0 < n; c0 += ng) {
                const int c = c0 + g;
                group_apply(s + c * lds, v, j, m, t, p, P, c > j && c < n);
            }
        }
        if (j + 1 < k && warp == (j + 1) % ng * P / 32) {
            __syncwarp();
            warp_larfg(s + (j + 1) * lds, j + 1, m, ts + j + 1, lane);
        }
    }
    if (regs && g >= k && g < n) regs_store(x, s + g * lds, m, p, P);
    __syncthreads();
    for_each_element(m, n, [&](int i, int c) { ab[(i64)c * ld + i] = s[c * lds + i]; });
    for (int i = tid; i < k; i += nt) tau[b * k + i] = ts[i];
}

// Parameters (all 8 bytes): a, ld, stride, m, n, tau, batch, P (lanes per column, a power of
// two up to 32), lds (the shared leading dimension, >= m), regs (1: the columns in registers;
// needs n <= threads/P and m <= QR_RPL*P). Dynamic shared memory: (n*lds + min(m, n)) elements.
#define GEQRF_CTA(NAME, T)                                                                        \
    extern "C" __global__ void __launch_bounds__(512)                                             \
        NAME(T *a, i64 ld, i64 stride, i64 m, i64 n, T *tau, i64 batch, i64 P, i64 lds, i64 regs) { \
        geqrf_cta<T>(a, ld, stride, (int)m, (int)n, tau, batch, (int)P, (int)lds, regs != 0);     \
    }

GEQRF_CTA(geqrf_cta_f32, float)
GEQRF_CTA(geqrf_cta_f64, double)
GEQRF_CTA(geqrf_cta_c64, cfloat)
GEQRF_CTA(geqrf_cta_c128, cdouble)
