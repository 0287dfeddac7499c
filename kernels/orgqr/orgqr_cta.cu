// orgqr "cta": forms the m-by-n Q (m >= n >= k) of k Householder reflectors (LAPACK's org2r
// and ung2r) for a batch, one block per matrix held in shared memory.
//
// The block reads the reflectors (the part of the first k columns below the diagonal; nothing
// else is read) into shared memory, where columns k..n-1 start as those of the identity. Step
// j = k-1 down to 0, after one barrier, applies H_j = I - tau_j v_j v_j^H to the columns
// right of j, each by the group of P lanes that owns it (householder.cuh). Column j+1 is
// turned from v_{j+1} into Q's column H_{j+1} e_{j+1} = e_{j+1} - tau_{j+1} v_{j+1} by its
// own group just before H_j reaches it: the barrier has retired every reader of v_{j+1}, and
// the group's lanes keep their rows, so no other barrier is needed. Column 0 is turned last.
#include "../common/householder.cuh"

// qr_unit_column overwrites column a (holding v_c below row c) by e_c - t v_c, over the rows
// of lane p of a group of P lanes.
template <typename T> __device__ __forceinline__ void qr_unit_column(T *a, int c, int m, T t, int p, int P) {
    typedef scalar<T> S;
    for (int i = p; i < m; i += P) {
        if (i < c) a[i] = S::from_real(0);
        else if (i == c) a[i] = S::sub(S::from_real(1), t);
        else a[i] = S::mul(S::sub(S::from_real(0), t), a[i]);
    }
}

template <typename T>
__device__ __forceinline__ void orgqr_cta(T *a, i64 ld, i64 stride, int m, int n, int k, const T *tau, i64 batch, int P, int lds) {
    typedef scalar<T> S;
    const i64 b = blockIdx.x;
    if (b >= batch) return; // the whole block
    DYNAMIC_SHARED(T, s);
    T *ts = s + (i64)n * lds; // tau, k of them
    const int tid = threadIdx.x, nt = blockDim.x;
    const int p = tid & (P - 1), g = tid / P, ng = nt / P;
    T *ab = a + b * stride;

    for (int e = tid; e < m * n; e += nt) {
        const int c = e / m, i = e - c * m;
        T x = S::from_real(i == c && c >= k ? 1 : 0);
        if (c < k && i > c) x = ab[(i64)c * ld + i];
        s[c * lds + i] = x;
    }
    for (int i = tid; i < k; i += nt) ts[i] = tau[b * k + i];

    for (int j = k - 1; j >= 0; j--) {
        __syncthreads();
        const T t = ts[j];
        const T *v = s + j * lds;
        for (int c0 = (j + 1) / ng * ng; c0 < n; c0 += ng) {
            const int c = c0 + g;
            if (c == j + 1 && c < k) qr_unit_column(s + c * lds, c, m, ts[c], p, P);
            group_apply(s + c * lds, v, j, m, t, p, P, c > j && c < n);
        }
    }
    __syncthreads();
    if (k > 0) {
        qr_unit_column(s, 0, m, ts[0], tid, nt);
        __syncthreads();
    }
    for (int e = tid; e < m * n; e += nt) {
        const int c = e / m, i = e - c * m;
        ab[(i64)c * ld + i] = s[c * lds + i];
    }
}

// Parameters (all 8 bytes): a, ld, stride, m, n, k, tau, batch, P (lanes per column, a power
// of two up to 32), lds (the shared leading dimension, >= m). Dynamic shared memory:
// (n*lds + k) elements.
#define ORGQR_CTA(NAME, T)                                                                        \
    extern "C" __global__ void __launch_bounds__(512)                                             \
        NAME(T *a, i64 ld, i64 stride, i64 m, i64 n, i64 k, const T *tau, i64 batch, i64 P, i64 lds) { \
        orgqr_cta<T>(a, ld, stride, (int)m, (int)n, (int)k, tau, batch, (int)P, (int)lds);       \
    }

ORGQR_CTA(orgqr_cta_f32, float)
ORGQR_CTA(orgqr_cta_f64, double)
ORGQR_CTA(orgqr_cta_c64, cfloat)
ORGQR_CTA(orgqr_cta_c128, cdouble)
