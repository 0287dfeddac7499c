// ormqr "cta": applies Q = H_0 H_1 ... H_{k-1} of k Householder reflectors, or Q^H, to a
// batch of m-by-n matrices C from the left or the right (LAPACK's orm2r and unm2r), one block
// per matrix held in shared memory.
//
// The right side is the left side on S = C^H: (C Q)^H = Q^H C^H and (C Q^H)^H = Q C^H. So
// the block holds S (C, or C^H read conjugate-transposed: nq-by-ncol with nq the order of Q)
// and the reflectors (the part of a's first k columns below the diagonal) in shared memory,
// and applies Q^H (adj: H_0^H first, with conj(tau)) or Q (H_{k-1} first, with tau) to each
// column of S. A column stays with its group of P lanes through every reflector
// (householder.cuh), and the reflectors are read-only: no barrier between the load and the
// store. With one column per group and at most 32 rows per lane (ormqr_regs) the group holds
// its column in registers meanwhile.
#include "../common/householder.cuh"

// ormqr_regs applies the reflectors to the columns of S held in registers; the caller stores
// nothing between, and no lane reads another group's column.
template <typename T, int RPL>
__device__ __forceinline__ void ormqr_regs(T *s, const T *vs, const T *ts, int nq, int ncol, int k, bool adj, int lds, int P) {
    typedef scalar<T> S;
    const int p = threadIdx.x & (P - 1), g = threadIdx.x / P;
    T x[RPL];
    if (g < ncol) regs_load(x, s + g * lds, p, P);
    for (int step = 0; step < k; step++) {
        const int j = adj ? step : k - 1 - step;
        group_apply_regs(x, vs + j * P * RPL, adj ? S::conj(ts[j]) : ts[j], p, P, g < ncol);
    }
    if (g < ncol) regs_store(x, s + g * lds, p, P);
}

template <typename T>
__device__ __forceinline__ void ormqr_smem(T *s, const T *vs, const T *ts, int nq, int ncol, int k, bool adj, int lds, int P) {
    typedef scalar<T> S;
    const int p = threadIdx.x & (P - 1), g = threadIdx.x / P, ng = blockDim.x / P;
    for (int c0 = 0; c0 < ncol; c0 += ng) {
        const int col = c0 + g;
        for (int step = 0; step < k; step++) {
            const int j = adj ? step : k - 1 - step;
            group_apply(s + col * lds, vs + j * nq, j, nq, adj ? S::conj(ts[j]) : ts[j], p, P, col < ncol);
        }
    }
}

template <typename T>
__device__ __forceinline__ void ormqr_cta(const T *a, i64 lda, i64 stridea, const T *tau, T *c, i64 ldc, i64 stridec,
                                          int m, int n, int k, bool left, bool adj, i64 batch, int P, int lds, int rpl) {
    typedef scalar<T> S;
    const i64 b = blockIdx.x;
    if (b >= batch) return; // the whole block
    DYNAMIC_SHARED(T, s);
    const int nq = left ? m : n, ncol = left ? n : m;
    const int ldv = rpl ? P * rpl : nq;
    T *vs = s + (i64)ncol * lds; // the reflectors in padded form, leading dimension ldv
    T *ts = vs + (i64)k * ldv;   // tau
    T *cb = c + b * stridec;
    const T *ab = a + b * stridea;

    for_each_element(m, n, [&](int i, int j) {
        const T x = cb[(i64)j * ldc + i];
        if (left) s[j * lds + i] = x;
        else s[i * lds + j] = S::conj(x);
    });
    if (ldv > nq) { // zero rows from nq to P*rpl, which regs_load reads
        for_each_element(ldv - nq, ncol, [&](int i, int j) { s[j * lds + nq + i] = S::from_real(0); });
    }
    for_each_element(ldv, k, [&](int i, int j) { vs[j * ldv + i] = pad_row(ab + (i64)j * lda, i, j, nq); });
    for (int i = threadIdx.x; i < k; i += blockDim.x) ts[i] = tau[b * k + i];
    __syncthreads();
    if (!with_rpl<T>(rpl, [&](auto c) { ormqr_regs<T, decltype(c)::value>(s, vs, ts, nq, ncol, k, adj, lds, P); }))
        ormqr_smem(s, vs, ts, nq, ncol, k, adj, lds, P);
    __syncthreads();
    for_each_element(m, n, [&](int i, int j) { cb[(i64)j * ldc + i] = left ? s[j * lds + i] : S::conj(s[i * lds + j]); });
}

// Parameters (all 8 bytes): a, lda, stridea, tau, c, ldc, stridec, m, n, k, left (0 or 1),
// adj (1: apply Q^H to S), batch, P (lanes per column, a power of two up to 32), lds (the
// shared leading dimension, >= nq), rpl (0: the columns in shared memory; 4, 8, 16 or 32
// (not complex128): in registers, rpl rows per lane, which needs ncol <= threads/P, nq <= P*rpl and
// lds >= P*rpl, lds*sizeof(T) a multiple of 16). Dynamic shared memory: ncol*lds + (ldv+1)*k elements, ldv = P*rpl with rpl,
// else nq.
#define ORMQR_CTA(NAME, T)                                                                        \
    extern "C" __global__ void __launch_bounds__(512)                                             \
        NAME(const T *a, i64 lda, i64 stridea, const T *tau, T *c, i64 ldc, i64 stridec, i64 m, i64 n, i64 k, \
             i64 left, i64 adj, i64 batch, i64 P, i64 lds, i64 rpl)  {                            \
        ormqr_cta<T>(a, lda, stridea, tau, c, ldc, stridec, (int)m, (int)n, (int)k, left != 0, adj != 0, batch, \
                     (int)P, (int)lds, (int)rpl);                                                  \
    }

ORMQR_CTA(ormqr_cta_f32, float)
ORMQR_CTA(ormqr_cta_f64, double)
ORMQR_CTA(ormqr_cta_c64, cfloat)
ORMQR_CTA(ormqr_cta_c128, cdouble)
