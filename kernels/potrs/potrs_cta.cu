// potrs "cta": X = A^-1 B for a batch, from the Cholesky factor of A in its lower (A = L L^H)
// or upper (A = U^H U) triangle, each matrix solved by a team of threads of one block: two
// substitutions of trsm's device code (kernels/common/trsv.cuh), L y = b then L^H x = y, or
// U^H y = b then U x = y. The right-hand sides (columns of B) pass through shared memory in
// tiles of one column per thread of the team; the factor is loaded into shared memory for
// each substitution, as each reads it through its own index map.
//
// info, when not null, holds Potrf's info per matrix: a matrix whose info is not 0 is
// skipped, its B left as it was (Posv's rule, after LAPACK).
#include "../common/trsv.cuh"

template <typename T>
__device__ void potrs_cta(const T *a, i64 lda, i64 sa, T *b, i64 ldb, i64 sb, int n, int nrhs, i64 batch, bool lower,
                          const int *info, int team_size) {
    typedef scalar<T> S;
    const tri_team team = tri_team_of(team_size);
    const i64 bi = (i64)blockIdx.x * (blockDim.x / team.size) + team.index;
    // The other threads keep the block's barriers only.
    const bool live = bi < batch && !(info && info[bi] != 0);
    a += (live ? bi : 0) * sa;
    b += (live ? bi : 0) * sb;
    DYNAMIC_SHARED(T, shared);
    T *L = shared + team.index * tri_footprint(n, team.size); // L, then the tile of vectors
    T *x = L + tri_col(n, (n + 3) & ~3);
    T *mine = x + team.rank * tri_stride(n);
    // The first substitution's matrix is lower (L, or U^H), the second's upper (L^H, or U).
    const tri_op first = {lower, !lower, !lower, false}, second = {lower, lower, lower, false};
    for (int v0 = 0; v0 < nrhs; v0 += team.size) {
        const int cnt = min(team.size, nrhs - v0);
        T *g = b + v0 * ldb;
        const bool solves = live && team.rank < cnt;
        if (live) {
            tile_load(x, g, ldb, true, cnt, n, S::from_real(1), team);
            tri_load(L, a, lda, n, first, team);
        }
        __syncthreads();
        if (solves) tri_solve<T, tri_chunk<T>::value>(L, mine, n, first.reversed());
        __syncthreads();
        if (live) tri_load(L, a, lda, n, second, team);
        __syncthreads();
        if (solves) tri_solve<T, tri_chunk<T>::value>(L, mine, n, second.reversed());
        __syncthreads();
        if (live) tile_store(x, g, ldb, true, cnt, n, team);
        if (v0 + team.size < nrhs) __syncthreads(); // before the next tile overwrites this one
    }
}

// MINB is __launch_bounds__'s blocks per SM, which sets ptxas's register budget: 8 (128
// registers) for double, which fits that; 1 for the others, which spill a few bytes there
// (ptxas's own choice on sm_90).
#define POTRS_CTA(NAME, T, MINB)                                                                          \
    extern "C" __global__ void __launch_bounds__(TRI_THREADS, MINB)                                       \
        NAME(const T *a, i64 lda, i64 sa, T *b, i64 ldb, i64 sb, i64 n, i64 nrhs, i64 batch, i64 lower,   \
             const int *info, i64 team) {                                                                 \
        potrs_cta<T>(a, lda, sa, b, ldb, sb, (int)n, (int)nrhs, batch, lower != 0, info, (int)team);      \
    }

POTRS_CTA(potrs_cta_f32, float, 1)
POTRS_CTA(potrs_cta_f64, double, 8)
POTRS_CTA(potrs_cta_c64, cfloat, 1)
POTRS_CTA(potrs_cta_c128, cdouble, 1)
