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
// store. With regs set (one column per group, at most QR_RPL rows per lane) the group holds
// its column in registers meanwhile.
#include "../common/householder.cuh"

template <typename T>
__device__ __forceinline__ void ormqr_cta(const T *a, i64 lda, i64 stridea, const T *tau, T *c, i64 ldc, i64 stridec,
                                          int m, int n, int k, bool left, bool adj, i64 batch, int P, int lds,
                                          bool regs) {
    typedef scalar<T> S;
    const i64 b = blockIdx.x;
    if (b >= batch) return; // the whole block
    DYNAMIC_SHARED(T, s);
    const int nq = left ? m : n, ncol = left ? n : m;
    T *vs = s + (i64)ncol * lds; // the reflectors, leading dimension nq
    T *ts = vs + (i64)k * nq;    // tau
    const int tid = threadIdx.x, nt = blockDim.x;
    const int p = tid & (P - 1), g = tid / P, ng = nt / P;
    T *cb = c + b * stridec;
    const T *ab = a + b * stridea;

    for_each_element(m, n, [&](int i, int j) {
        const T x = cb[(i64)j * ldc + i];
        if (left) s[j * lds + i] = x;
        else s[i * lds + j] = S::conj(x);
    });
    for_each_element(nq, k, [&](int i, int j) {
        if (i > j) vs[j * nq + i] = ab[(i64)j * lda + i];
    });
    for (int i = tid; i < k; i += nt) ts[i] = tau[b * k + i];
    __syncthreads();

    if (regs) {
        T x[QR_RPL];
        if (g < ncol) regs_load(x, s + g * lds, nq, p, P);
        for (int step = 0; step < k; step++) {
            const int j = adj ? step : k - 1 - step;
            const T t = adj ? S::conj(ts[j]) : ts[j];
            group_apply_regs(x, vs + j * nq, j, nq, t, p, P, g < ncol);
        }
        if (g < ncol) regs_store(x, s + g * lds, nq, p, P);
    } else {
        for (int c0 = 0; c0 < ncol; c0 += ng) {
            const int col = c0 + g;
            for (int step = 0; step < k; step++) {
                const int j = adj ? step : k - 1 - step;
                const T t = adj ? S::conj(ts[j]) : ts[j];
                group_apply(s + col * lds, vs + j * nq, j, nq, t, p, P, col < ncol);
            }
        }
    }
    __syncthreads();
    for_each_element(m, n, [&](int i, int j) { cb[(i64)j * ldc + i] = left ? s[j * lds + i] : S::conj(s[i * lds + j]); });
}

// Parameters (all 8 bytes): a, lda, stridea, tau, c, ldc, stridec, m, n, k, left (0 or 1),
// adj (1: apply Q^H to S), batch, P (lanes per column, a power of two up to 32), lds (the
// shared leading dimension, >= nq), regs (1: the columns in registers; needs
// ncol <= threads/P and nq <= QR_RPL*P). Dynamic shared memory: (ncol*lds + (nq+1)*k)
// elements.
#define ORMQR_CTA(NAME, T)                                                                        \
    extern "C" __global__ void __launch_bounds__(512)                                             \
        NAME(const T *a, i64 lda, i64 stridea, const T *tau, T *c, i64 ldc, i64 stridec, i64 m, i64 n, i64 k, \
             i64 left, i64 adj, i64 batch, i64 P, i64 lds, i64 regs) {                            \
        ormqr_cta<T>(a, lda, stridea, tau, c, ldc, stridec, (int)m, (int)n, (int)k, left != 0, adj != 0, batch, \
                     (int)P, (int)lds, regs != 0);                                                \
    }

ORMQR_CTA(ormqr_cta_f32, float)
ORMQR_CTA(ormqr_cta_f64, double)
ORMQR_CTA(ormqr_cta_c64, cfloat)
ORMQR_CTA(ormqr_cta_c128, cdouble)
