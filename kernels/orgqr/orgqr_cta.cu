// orgqr "cta": forms the m-by-n Q (m >= n >= k) of k Householder reflectors (LAPACK's org2r
// and ung2r) for a batch, one block per matrix held in shared memory.
//
// The block reads the reflectors (the part of the first k columns below the diagonal; nothing
// else is read) into shared memory, where columns k..n-1 start as those of the identity. Step
// j = k-1 down to 0 applies H_j = I - tau_j v_j v_j^H to the columns right of j, each by the
// group of P lanes that owns it (householder.cuh). Column j+1 is turned from v_{j+1} into Q's
// column H_{j+1} e_{j+1} = e_{j+1} - tau_{j+1} v_{j+1} by its own group just before H_j
// reaches it; column 0 is turned last.
//
// With the columns in shared memory a barrier ends each step: it retires every reader of
// v_{j+1} before that column is turned (a group's lanes keep their rows, so nothing else
// needs one). With regs set (one column per group, at most QR_RPL rows per lane) the groups
// turn and update their columns in registers and the reflectors stay unchanged in shared
// memory: no barrier until every group is done.
#include "../common/householder.cuh"

// unit_row is row i of Q's column c = H_c e_c = e_c - t v_c, where vi = v_c(i) for i > c.
template <typename T> __device__ __forceinline__ T unit_row(int i, int c, T t, T vi) {
    typedef scalar<T> S;
    if (i < c) return S::from_real(0);
    if (i == c) return S::sub(S::from_real(1), t);
    return S::mul(S::sub(S::from_real(0), t), vi);
}

template <typename T>
__device__ __forceinline__ void orgqr_cta(T *a, i64 ld, i64 stride, int m, int n, int k, const T *tau, i64 batch, int P, int lds,
                                          bool regs) {
    typedef scalar<T> S;
    const i64 b = blockIdx.x;
    if (b >= batch) return; // the whole block
    DYNAMIC_SHARED(T, s);
    T *ts = s + (i64)n * lds; // tau, k of them
    const int tid = threadIdx.x, nt = blockDim.x, warp = tid >> 5;
    const int p = tid & (P - 1), g = tid / P, ng = nt / P;
    T *ab = a + b * stride;

    for_each_element(m, n, [&](int i, int c) {
        T x = S::from_real(i == c && c >= k ? 1 : 0);
        if (c < k && i > c) x = ab[(i64)c * ld + i];
        s[c * lds + i] = x;
    });
    for (int i = tid; i < k; i += nt) ts[i] = tau[b * k + i];
    __syncthreads();

    if (regs) {
        // The reflectors stay in shared memory, read-only, until every group is done.
        T x[QR_RPL];
        if (g < n) regs_load(x, s + g * lds, m, p, P);
        for (int j = k - 1; j >= 0; j--) {
            if (!warp_has_column_after(j, n, warp, P)) continue;
            if (g == j + 1 && g < k) {
#pragma unroll
                for (int r = 0; r < QR_RPL; r++) {
                    if (p + P * r < m) x[r] = unit_row(p + P * r, g, ts[g], x[r]);
                }
            }
            group_apply_regs(x, s + j * lds, j, m, ts[j], p, P, g > j && g < n);
        }
        if (g == 0 && k > 0) {
#pragma unroll
            for (int r = 0; r < QR_RPL; r++) {
                if (p + P * r < m) x[r] = unit_row(p + P * r, 0, ts[0], x[r]);
            }
        }
        __syncthreads();
        if (g < n) regs_store(x, s + g * lds, m, p, P);
    } else {
        for (int j = k - 1; j >= 0; j--) {
            const T *v = s + j * lds;
            for (int c0 = (j + 1) / ng * ng; c0 < n; c0 += ng) {
                const int c = c0 + g;
                if (c == j + 1 && c < k) {
                    for (int i = p; i < m; i += P) s[c * lds + i] = unit_row(i, c, ts[c], s[c * lds + i]);
                }
                group_apply(s + c * lds, v, j, m, ts[j], p, P, c > j && c < n);
            }
            __syncthreads();
        }
        if (k > 0) {
            for (int i = tid; i < m; i += nt) s[i] = unit_row(i, 0, ts[0], s[i]);
        }
    }
    __syncthreads();
    for_each_element(m, n, [&](int i, int c) { ab[(i64)c * ld + i] = s[c * lds + i]; });
}

// Parameters (all 8 bytes): a, ld, stride, m, n, k, tau, batch, P (lanes per column, a power
// of two up to 32), lds (the shared leading dimension, >= m), regs (1: the columns in
// registers; needs n <= threads/P and m <= QR_RPL*P). Dynamic shared memory: (n*lds + k)
// elements.
#define ORGQR_CTA(NAME, T)                                                                        \
    extern "C" __global__ void __launch_bounds__(512)                                             \
        NAME(T *a, i64 ld, i64 stride, i64 m, i64 n, i64 k, const T *tau, i64 batch, i64 P, i64 lds, \
             i64 regs) {                                                                          \
        orgqr_cta<T>(a, ld, stride, (int)m, (int)n, (int)k, tau, batch, (int)P, (int)lds, regs != 0); \
    }

ORGQR_CTA(orgqr_cta_f32, float)
ORGQR_CTA(orgqr_cta_f64, double)
ORGQR_CTA(orgqr_cta_c64, cfloat)
ORGQR_CTA(orgqr_cta_c128, cdouble)
