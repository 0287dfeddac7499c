// orgqr "cta": forms the m-by-n Q (m >= n >= k) of k Householder reflectors (LAPACK's org2r
// and ung2r) for a batch, a team of threads per matrix held in shared memory (one or more
// teams a block; householder.cuh).
//
// The team reads the reflectors (the part of the first k columns below the diagonal; nothing
// else is read) into shared memory, where columns k..n-1 start as those of the identity. Step
// j = k-1 down to 0 applies H_j = I - tau_j v_j v_j^H to the columns right of j, each by the
// group of P lanes that owns it (householder.cuh). Column j+1 is turned from v_{j+1} into Q's
// column H_{j+1} e_{j+1} = e_{j+1} - tau_{j+1} v_{j+1} by its own group just before H_j
// reaches it; column 0 is turned last.
//
// With the columns in shared memory (orgqr_smem, RPL 0) a barrier ends each step: it retires
// every reader of v_{j+1} before that column is turned (a group's lanes keep their rows, so
// nothing else needs one). With one column per group and RPL rows per lane (orgqr_regs) the
// groups turn and update their columns in registers, and the reflectors stay unchanged in
// shared memory: no barrier until every group is done.
#include "../common/householder.cuh"

// unit_row is row i of Q's column c = H_c e_c = e_c - t v_c, where vi is row i of v_c in
// padded form (pad_row).
template <typename T> __device__ __forceinline__ T unit_row(int i, int c, T t, T vi) {
    typedef scalar<T> S;
    return S::sub_mul(S::from_real(i == c ? 1 : 0), t, vi);
}

template <typename T>
__device__ __forceinline__ void orgqr_smem(T *s, const T *ts, int m, int n, int k, int lds, int P, tri_team team) {
    const int p = team.rank & (P - 1), g = team.rank / P, ng = team.size / P;
    for (int j = k - 1; j >= 0; j--) {
        for (int c0 = (j + 1) / ng * ng; c0 < n; c0 += ng) {
            const int c = c0 + g;
            if (c == j + 1 && c < k) {
                for (int i = p; i < m; i += P) s[c * lds + i] = unit_row(i, c, ts[c], s[c * lds + i]);
            }
            group_apply(s + c * lds, s + j * lds, j, m, ts[j], p, P, c > j && c < n);
        }
        team_sync(team);
    }
    if (k > 0) {
        for (int i = team.rank; i < m; i += team.size) s[i] = unit_row(i, 0, ts[0], s[i]);
    }
}

// orgqr_regs: the reflectors stay in shared memory, read-only, until every group is done.
template <typename T, int RPL>
__device__ __forceinline__ void orgqr_regs(T *s, const T *ts, int m, int n, int k, int lds, int P, tri_team team) {
    const int p = team.rank & (P - 1), g = team.rank / P, warp = team.rank >> 5; // the warp within the team
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
    team_sync(team);
    if (g < n) regs_store(x, s + g * lds, p, P);
}

template <typename T, int RPL>
__device__ __forceinline__ void orgqr_cta(T *a, i64 ld, i64 stride, int m, int n, int k, const T *tau, i64 batch, int P,
                                          int lds, int team_size) {
    typedef scalar<T> S;
    const tri_team team = tri_team_of(team_size);
    const i64 b = (i64)blockIdx.x * (blockDim.x / team.size) + team.index;
    const bool live = b < batch; // else the team works on zeros and writes nothing
    DYNAMIC_SHARED(T, shared);
    T *s = shared + team.index * qr_align<T>(n * lds + k); // the team's region
    T *ts = s + n * lds;                                   // tau, k of them
    T *ab = a + (live ? b : 0) * stride;

    // The reflectors in padded form (pad_row; zero from m to P*RPL), the identity's columns
    // from k on.
    for_each_element(team, RPL ? P * RPL : m, n, [&](int i, int c) {
        s[c * lds + i] = c >= k ? S::from_real(i == c ? 1 : 0) : live ? pad_row(ab + (i64)c * ld, i, c, m) : S::from_real(0);
    });
    for (int i = team.rank; i < k; i += team.size) ts[i] = live ? tau[b * k + i] : S::from_real(0);
    team_sync(team);
    if constexpr (RPL > 0) orgqr_regs<T, RPL>(s, ts, m, n, k, lds, P, team);
    else orgqr_smem(s, ts, m, n, k, lds, P, team);
    team_sync(team);
    if (!live) return;
    for_each_element(team, m, n, [&](int i, int c) { ab[(i64)c * ld + i] = s[c * lds + i]; });
}

// Entries orgqr_cta_r<RPL>_<type> (QR_CTA_ENTRIES). Parameters (all 8 bytes): a, ld, stride,
// m, n, k, tau, batch, P (lanes per column, a power of two up to 32), lds (the shared leading
// dimension, >= m), team (threads per matrix, a multiple of 32; the block holds
// blockDim.x/team matrices, matrix blockIdx.x*(blockDim.x/team) + its team's index). RPL 0:
// the columns in shared memory; else in registers, RPL rows per lane, which needs
// n <= team/P, m <= P*RPL, lds >= P*RPL and lds*sizeof(T) a multiple of 16. Dynamic shared
// memory: blockDim.x/team times n*lds + k elements rounded up to 16 bytes.
#define ORGQR_CTA(SUFFIX, T, RPL, MAXT)                                                             \
    extern "C" __global__ void __launch_bounds__(MAXT, 1)                                            \
        orgqr_cta_##SUFFIX(T *a, i64 ld, i64 stride, i64 m, i64 n, i64 k, const T *tau, i64 batch, i64 P, \
                           i64 lds, i64 team) {                                                     \
        orgqr_cta<T, RPL>(a, ld, stride, (int)m, (int)n, (int)k, tau, batch, (int)P, (int)lds, (int)team); \
    }

QR_CTA_ENTRIES(ORGQR_CTA)
