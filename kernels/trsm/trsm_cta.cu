// trsm "cta": B := alpha op(A)^-1 B (side Left) or alpha B op(A)^-1 (side Right) for a batch,
// each matrix solved by a team of threads of one block (trsv.cuh; a block holds one or more
// matrices). A's triangle goes to shared memory once (trsv.cuh maps all sixteen variants onto
// one forward substitution); the right-hand-side vectors, the columns of B (Left) or its rows
// (Right), pass through shared memory in tiles of one vector per thread of the team, each
// thread solving its own. Right solves x op(A) = b for each row x, that is op(A)^T x^T = b^T:
// the same solve with the transpose flipped.
//
// alpha = 0 sets B to zero without reading A or B, as the BLAS does.
#include "../common/trsv.cuh"

template <typename T>
__device__ void trsm_cta(const T *a, i64 lda, i64 sa, T *b, i64 ldb, i64 sb, int n, int nv, i64 batch, int flags,
                         T alpha, int team_size) {
    typedef scalar<T> S;
    const tri_team team = tri_team_of(team_size);
    const i64 bi = (i64)blockIdx.x * (blockDim.x / team.size) + team.index;
    const bool live = bi < batch; // the other threads keep the block's barriers only
    a += (live ? bi : 0) * sa;
    b += (live ? bi : 0) * sb;
    const bool left = flags & TRI_LEFT; // the vectors are B's columns, else its rows
    DYNAMIC_SHARED(T, shared);
    T *L = shared + team.index * tri_footprint(n, team.size); // L, then the tile of vectors
    T *x = L + tri_col(n, (n + 3) & ~3);
    if (S::is_zero(alpha)) {
        if (live) store_columns(b, ldb, left ? n : nv, left ? nv : n, team, [](int, int) { return S::from_real(0); });
        return;
    }
    const bool trans = flags & TRI_TRANS;
    const tri_op op = {(flags & TRI_LOWER) != 0, left ? trans : !trans, (flags & TRI_CONJ) != 0, (flags & TRI_UNIT) != 0};
    if (live) tri_load(L, a, lda, n, op, team);
    for (int v0 = 0; v0 < nv; v0 += team.size) {
        const int cnt = min(team.size, nv - v0);
        T *g = b + (left ? v0 * ldb : v0);
        if (live) tile_load(x, g, ldb, left, cnt, n, alpha, team);
        __syncthreads();
        if (live && team.rank < cnt) tri_solve<T, tri_chunk<T>::value>(L, x + team.rank * tri_stride(n), n, op.reversed());
        __syncthreads();
        if (live) tile_store(x, g, ldb, left, cnt, n, team);
        if (v0 + team.size < nv) __syncthreads(); // before the next tile overwrites this one
    }
}

#define TRSM_CTA(NAME, T)                                                                                 \
    extern "C" __global__ void __launch_bounds__(TRI_THREADS)                                             \
        NAME(const T *a, i64 lda, i64 sa, T *b, i64 ldb, i64 sb, i64 n, i64 nv, i64 batch, i64 flags,     \
             i64 alpha_re, i64 alpha_im, i64 team) {                                                      \
        trsm_cta<T>(a, lda, sa, b, ldb, sb, (int)n, (int)nv, batch, (int)flags,                           \
                    scalar<T>::from_bits(alpha_re, alpha_im), (int)team);                                 \
    }

TRSM_CTA(trsm_cta_f32, float)
TRSM_CTA(trsm_cta_f64, double)
TRSM_CTA(trsm_cta_c64, cfloat)
TRSM_CTA(trsm_cta_c128, cdouble)
