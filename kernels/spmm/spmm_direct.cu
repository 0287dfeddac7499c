// spmm "direct": C_b = alpha op(A_b) op(B_b) + beta C_b for a batch of sparse A_b in
// compressed rows and dense B_b, C_b (column-major, strided). The rows given are op(A)'s:
// A's own, or for op(A) = A^T and A^H the entries of A in column order, which the Go side
// builds once per matrix. So every transpose is a gather: each element of C is one thread's
// sum over its row's entries in stored order, deterministic, with no atomics.
//
// A warp computes one row i of C_b: its lanes take 32 columns of C at a time; the warp loads
// 32 entries of the row at once (one a lane) and passes them round by shuffles, each lane
// adding entry * op(B)(column, j) for its j. Consecutive blocks hold consecutive rows of
// one matrix, then the next matrix's rows (grid x = batch * blocks per matrix; the Go side
// splits a larger batch into several launches).
//
// ptr[b*(m+1) + i] .. ptr[b*(m+1) + i + 1] are row i's entries in the whole batch's arrays
// idx (column of op(A)) and val. alpha = 0 reads neither ptr, idx, val nor B; beta = 0 does
// not read C.
#include "../common/scalar.cuh"

#define SPMM_TRANS_B 1 // op(B) = B^T (or B^H)
#define SPMM_CONJ_B 2  // op(B) conjugates
#define SPMM_CONJ_A 4  // op(A) conjugates

template <typename T>
__device__ void spmm_direct(const i64 *ptr, const int *idx, const T *val, const T *b, i64 ldb, i64 sb, T *c, i64 ldc,
                            i64 sc, i64 m, i64 n, int flags, T alpha, T beta) {
    typedef scalar<T> S;
    const int lane = threadIdx.x & 31;
    const i64 warps = blockDim.x >> 5;
    const i64 per = (m + warps - 1) / warps; // blocks per matrix
    const i64 mat = blockIdx.x / per;
    const i64 row = (blockIdx.x - mat * per) * warps + (threadIdx.x >> 5);
    if (row >= m) return; // the whole warp: its shuffles below stay full
    b += mat * sb;
    c += mat * sc;
    const bool live = !S::is_zero(alpha), keep = !S::is_zero(beta);
    const bool trans_b = flags & SPMM_TRANS_B, conj_b = flags & SPMM_CONJ_B, conj_a = flags & SPMM_CONJ_A;
    i64 lo = 0, hi = 0;
    if (live) {
        lo = ptr[mat * (m + 1) + row];
        hi = ptr[mat * (m + 1) + row + 1];
    }
    for (i64 j0 = 0; j0 < n; j0 += 32) {
        const i64 j = j0 + lane;
        T acc = S::from_real(0);
        for (i64 p0 = lo; p0 < hi; p0 += 32) {
            int col = 0;
            T v = S::from_real(0);
            if (p0 + lane < hi) {
                col = idx[p0 + lane];
                v = val[p0 + lane];
                if (conj_a) v = S::conj(v);
            }
            const int cnt = (int)min((i64)32, hi - p0);
            for (int e = 0; e < cnt; e++) {
                const int r = __shfl_sync(0xffffffffu, col, e);
                const T x = S::shfl(v, e);
                if (j < n) {
                    T y = trans_b ? b[r * ldb + j] : b[j * ldb + r];
                    if (conj_b) y = S::conj(y);
                    acc = S::add(acc, S::mul(x, y));
                }
            }
        }
        if (j < n) {
            T out = S::mul(alpha, acc);
            if (keep) out = S::add(out, S::mul(beta, c[j * ldc + row]));
            c[j * ldc + row] = out;
        }
    }
}

#define SPMM_DIRECT(NAME, T)                                                                                  \
    extern "C" __global__ void                                                                                \
        NAME(const i64 *ptr, const int *idx, const T *val, const T *b, i64 ldb, i64 sb, T *c, i64 ldc, i64 sc, \
             i64 m, i64 n, i64 flags, i64 alpha_re, i64 alpha_im, i64 beta_re, i64 beta_im) {                  \
        spmm_direct<T>(ptr, idx, val, b, ldb, sb, c, ldc, sc, m, n, (int)flags,                               \
                       scalar<T>::from_bits(alpha_re, alpha_im), scalar<T>::from_bits(beta_re, beta_im));      \
    }

SPMM_DIRECT(spmm_direct_f32, float)
SPMM_DIRECT(spmm_direct_f64, double)
SPMM_DIRECT(spmm_direct_c64, cfloat)
SPMM_DIRECT(spmm_direct_c128, cdouble)
