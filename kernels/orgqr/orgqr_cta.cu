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
// With the columns in shared memory (orgqr_smem) a barrier ends each step: it retires every
// reader of v_{j+1} before that column is turned (a group's lanes keep their rows, so nothing
// else needs one). With one column per group and at most 32 rows per lane (orgqr_regs) the
// groups turn and update their columns in registers, and the reflectors stay unchanged in
// shared memory: no barrier until every group is done.
#include "../common/householder.cuh"

// unit_row is row i of Q's column c = H_c e_c = e_c - t v_c, where vi is row i of v_c in
// padded form (pad_row).
template <typename T> __device__ __forceinline__ T unit_row(int i, int c, T t, T vi) {
    typedef scalar<T> S;
    return S::sub_mul(S::from_real(i == c ? 1 : 0), t, vi);
}

template <typename T> __device__ __forceinline__ void orgqr_smem(T *s, const T *ts, int m, int n, int k, int lds, int P) {
    const int p = threadIdx.x & (P - 1), g = threadIdx.x / P, ng = blockDim.x / P;
    for (int j = k - 1; j >= 0; j--) {
        for (int c0 = (j + 1) / ng * ng; c0 < n; c0 += ng) {
            const int c = c0 + g;
            if (c == j + 1 && c < k) {
                for (int i = p; i < m; i += P) s[c * lds + i] = unit_row(i, c, ts[c], s[c * lds + i]);
            }
            group_apply(s + c * lds, s + j * lds, j, m, ts[j], p, P, c > j && c < n);
        }
        __syncthreads();
    }
    if (k > 0) {
        for (int i = threadIdx.x; i < m; i += blockDim.x) s[i] = unit_row(i, 0, ts[0], s[i]);
    }
}

// orgqr_regs: the reflectors stay in shared memory, read-only, until every group is done.
template <typename T, int RPL>
__device__ __forceinline__ void orgqr_regs(T *s, const T *ts, int m, int n, int k, int lds, int P) {
    const int p = threadIdx.x & (P - 1), g = threadIdx.x / P, warp = threadIdx.x >> 5;
    T x[RPL];
    if (g < n) regs_load(x, s + g * lds, p, P);
    for (int j = k - 1; j >= -1; j--) {
        if (j >= 0 && !warp_has_column_after(j, n, warp, P)) continue;
        if (g == j + 1 && g < k) {
#pragma unroll
            for (int r = 0; r < RPL; r++) x[r] = unit_row(reg_row<T>(p, P, r), g, ts[g], x[r]);
        }
        if (j >= 0) group_apply_regs(x, s + j * lds, ts[j], p, P, g > j && g < n);
    }
    __syncthreads();
    if (g < n) regs_store(x, s + g * lds, p, P);
}

template <typename T>
__device__ __forceinline__ void orgqr_cta(T *a, i64 ld, i64 stride, int m, int n, int k, const T *tau, i64 batch, int P, int lds,
                                          int rpl) {
    typedef scalar<T> S;
    const i64 b = blockIdx.x;
    if (b >= batch) return; // the whole block
    DYNAMIC_SHARED(T, s);
    T *ts = s + (i64)n * lds; // tau, k of them
    T *ab = a + b * stride;

    // The reflectors in padded form (pad_row; zero from m to P*rpl), the identity's columns
    // from k on.
    for_each_element(rpl ? P * rpl : m, n, [&](int i, int c) {
        s[c * lds + i] = c < k ? pad_row(ab + (i64)c * ld, i, c, m) : S::from_real(i == c ? 1 : 0);
    });
    for (int i = threadIdx.x; i < k; i += blockDim.x) ts[i] = tau[b * k + i];
    __syncthreads();
    if (!with_rpl<T>(rpl, [&](auto c) { orgqr_regs<T, decltype(c)::value>(s, ts, m, n, k, lds, P); }))
        orgqr_smem(s, ts, m, n, k, lds, P);
    __syncthreads();
    for_each_element(m, n, [&](int i, int c) { ab[(i64)c * ld + i] = s[c * lds + i]; });
}

// Parameters (all 8 bytes): a, ld, stride, m, n, k, tau, batch, P (lanes per column, a power
// of two up to 32), lds (the shared leading dimension, >= m), rpl (0: the columns in shared
// memory; 4, 8, 16 or 32 (not complex128): in registers, rpl rows per lane, which needs n <= threads/P,
// m <= P*rpl, lds >= P*rpl and lds*sizeof(T) a multiple of 16). Dynamic shared memory:
// n*lds + k elements.
#define ORGQR_CTA(NAME, T)                                                                        \
    extern "C" __global__ void __launch_bounds__(512, 1)                                          \
        NAME(T *a, i64 ld, i64 stride, i64 m, i64 n, i64 k, const T *tau, i64 batch, i64 P, i64 lds, \
             i64 rpl) {                                                                            \
        orgqr_cta<T>(a, ld, stride, (int)m, (int)n, (int)k, tau, batch, (int)P, (int)lds, (int)rpl);  \
    }

ORGQR_CTA(orgqr_cta_f32, float)
ORGQR_CTA(orgqr_cta_f64, double)
ORGQR_CTA(orgqr_cta_c64, cfloat)
ORGQR_CTA(orgqr_cta_c128, cdouble)
