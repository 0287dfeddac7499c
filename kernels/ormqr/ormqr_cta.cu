// ormqr "cta": applies Q = H_0 H_1 ... H_{k-1} of k Householder reflectors, or Q^H, to a
// batch of m-by-n matrices C from the left or the right (LAPACK's orm2r and unm2r), a team of
// threads per matrix held in shared memory (one or more teams a block; householder.cuh).
//
// The right side is the left side on S = C^H: (C Q)^H = Q^H C^H and (C Q^H)^H = Q C^H. So
// the team holds S (C, or C^H read conjugate-transposed: nq-by-ncol with nq the order of Q)
// and the reflectors (the part of a's first k columns below the diagonal) in shared memory,
// and applies Q^H (adj: H_0^H first, with conj(tau)) or Q (H_{k-1} first, with tau) to each
// column of S. A column stays with its group of P lanes through every reflector
// (householder.cuh), and the reflectors are read-only: no barrier between the load and the
// store. With one column per group and RPL rows per lane (ormqr_regs; RPL 0: ormqr_smem) the
// group holds its column in registers meanwhile.
#include "../common/householder.cuh"

// ormqr_regs applies the reflectors to the columns of S held in registers; the caller stores
// nothing between, and no lane reads another group's column.
template <typename T, int RPL>
__device__ __forceinline__ void ormqr_regs(T *s, const T *vs, const T *ts, int ncol, int k, bool adj, int lds, int P,
                                           tri_team team) {
    typedef scalar<T> S;
    const int p = team.rank & (P - 1), g = team.rank / P;
    T x[RPL];
    if (g < ncol) regs_load(x, s + g * lds, p, P);
    for (int step = 0; step < k; step++) {
        const int j = adj ? step : k - 1 - step;
        group_apply_regs(x, vs + j * P * RPL, adj ? S::conj(ts[j]) : ts[j], p, P, g < ncol);
    }
    if (g < ncol) regs_store(x, s + g * lds, p, P);
}

template <typename T>
__device__ __forceinline__ void ormqr_smem(T *s, const T *vs, const T *ts, int nq, int ncol, int k, bool adj, int lds, int P,
                                           tri_team team) {
    typedef scalar<T> S;
    const int p = team.rank & (P - 1), g = team.rank / P, ng = team.size / P;
    for (int c0 = 0; c0 < ncol; c0 += ng) {
        const int col = c0 + g;
        for (int step = 0; step < k; step++) {
            const int j = adj ? step : k - 1 - step;
            group_apply(s + col * lds, vs + j * nq, j, nq, adj ? S::conj(ts[j]) : ts[j], p, P, col < ncol);
        }
    }
}

template <typename T, int RPL>
__device__ __forceinline__ void ormqr_cta(const T *a, i64 lda, i64 stridea, const T *tau, T *c, i64 ldc, i64 stridec,
                                          int m, int n, int k, bool left, bool adj, i64 batch, int P, int lds, int team_size) {
    typedef scalar<T> S;
    const tri_team team = tri_team_of(team_size);
    const i64 b = (i64)blockIdx.x * (blockDim.x / team.size) + team.index;
    const bool live = b < batch; // else the team works on zeros and writes nothing
    const int nq = left ? m : n, ncol = left ? n : m;
    const int ldv = RPL ? P * RPL : nq;
    DYNAMIC_SHARED(T, shared);
    T *s = shared + team.index * qr_align<T>(ncol * lds + (ldv + 1) * k); // the team's region
    T *vs = s + ncol * lds; // the reflectors in padded form, leading dimension ldv
    T *ts = vs + k * ldv;   // tau
    T *cb = c + (live ? b : 0) * stridec;
    const T *ab = a + (live ? b : 0) * stridea;

    for_each_element(team, m, n, [&](int i, int j) {
        const T x = live ? cb[(i64)j * ldc + i] : S::from_real(0);
        if (left) s[j * lds + i] = x;
        else s[i * lds + j] = S::conj(x);
    });
    if (ldv > nq) { // zero rows from nq to P*RPL, which regs_load reads
        for_each_element(team, ldv - nq, ncol, [&](int i, int j) { s[j * lds + nq + i] = S::from_real(0); });
    }
    for_each_element(team, ldv, k, [&](int i, int j) {
        vs[j * ldv + i] = live ? pad_row(ab + (i64)j * lda, i, j, nq) : S::from_real(0);
    });
    for (int i = team.rank; i < k; i += team.size) ts[i] = live ? tau[b * k + i] : S::from_real(0);
    team_sync(team);
    if constexpr (RPL > 0) ormqr_regs<T, RPL>(s, vs, ts, ncol, k, adj, lds, P, team);
    else ormqr_smem(s, vs, ts, nq, ncol, k, adj, lds, P, team);
    team_sync(team);
    if (!live) return;
    for_each_element(team, m, n, [&](int i, int j) { cb[(i64)j * ldc + i] = left ? s[j * lds + i] : S::conj(s[i * lds + j]); });
}

// Entries ormqr_cta_r<RPL>_<type> (QR_CTA_ENTRIES). Parameters (all 8 bytes): a, lda, stridea,
// tau, c, ldc, stridec, m, n, k, left (0 or 1), adj (1: apply Q^H to S), batch, P (lanes per
// column, a power of two up to 32), lds (the shared leading dimension, >= nq), team (threads
// per matrix, a multiple of 32; the block holds blockDim.x/team matrices, matrix
// blockIdx.x*(blockDim.x/team) + its team's index). RPL 0: the columns in shared memory; else
// in registers, RPL rows per lane, which needs ncol <= team/P, nq <= P*RPL, lds >= P*RPL and
// lds*sizeof(T) a multiple of 16. Dynamic shared memory: blockDim.x/team times
// ncol*lds + (ldv+1)*k elements rounded up to 16 bytes, ldv = P*RPL with RPL, else nq.
#define ORMQR_CTA(SUFFIX, T, RPL, MAXT)                                                            \
    extern "C" __global__ void __launch_bounds__(MAXT)                                              \
        ormqr_cta_##SUFFIX(const T *a, i64 lda, i64 stridea, const T *tau, T *c, i64 ldc, i64 stridec, i64 m, \
                           i64 n, i64 k, i64 left, i64 adj, i64 batch, i64 P, i64 lds, i64 team) {  \
        ormqr_cta<T, RPL>(a, lda, stridea, tau, c, ldc, stridec, (int)m, (int)n, (int)k, left != 0, adj != 0, \
                          batch, (int)P, (int)lds, (int)team);                                      \
    }

QR_CTA_ENTRIES(ORMQR_CTA)
