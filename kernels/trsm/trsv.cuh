// Triangular substitution for one block per matrix, shared by trsm "cta" and potrs "cta": the
// triangle in shared memory, one thread per right-hand-side vector.
//
// Every solve is reduced to one form, forward substitution L x = x with L lower triangular:
//
//   - op(A) is M = A, A^T, A^H or conj(A) (trsm's side Right solves x^T op(A) = b^T, which is
//     op(A)^T x = b: the transpose flips and the conjugation stays). M is lower when A's
//     triangle is lower and M does not transpose it, or upper and M does.
//   - an upper M is lower after reversing the order of its rows and columns,
//     L(i, j) = M(n-1-i, n-1-j), with the vector reversed alike.
//
// tri_load writes L into shared memory from A's named triangle through that index map (the
// other triangle is not read; a unit diagonal is not read either), with the inverse of the
// diagonal in place of the diagonal, so that the substitution multiplies instead of dividing.
// tri_solve runs the substitution for one vector: chunks of CH elements in registers, the
// solved elements in shared memory.
//
// Shared layout of L, "column-packed": column j holds rows (j & ~3) .. N4-1 (N4 = n rounded
// up to a multiple of 4), so that every run of four rows starting at a multiple of 4 is one
// 16-byte-aligned quad; the rows above the diagonal in a column's first quad are padding,
// never read as numbers. All threads read the same L element at a time (a broadcast).
#pragma once
#include "../common/scalar.cuh"

// Kernel flags (trsm_cuda.go mirrors them).
#define TRI_LEFT 1  // trsm: side Left (vectors are the columns of B), else Right (the rows)
#define TRI_LOWER 2 // A's lower triangle is stored, else the upper
#define TRI_TRANS 4 // op(A) transposes A
#define TRI_CONJ 8  // op(A) conjugates A
#define TRI_UNIT 16 // A's diagonal is taken as ones and not read

// Most threads of a block: one per right-hand-side vector solved at once.
#define TRI_THREADS 64

// tri_op is how the substitution reads A: which triangle is stored, and whether M = op(A)
// transposes, conjugates, or has a unit diagonal.
struct tri_op {
    bool lower, trans, conj, unit;
    // reversed: M is upper, solved through the reversed index map.
    __device__ bool reversed() const { return lower == trans; }
};

// tri_col is the offset of column j's first stored row, (j & ~3), in the column-packed
// triangle of rounded order n4; tri_col(n, n4) is the whole triangle's size in elements.
__host__ __device__ __forceinline__ int tri_col(int j, int n4) {
    const int q = j >> 2, r = j & 3;
    return 4 * q * n4 - 8 * q * (q - 1) + r * (n4 - 4 * q);
}

// tri_stride is the odd stride, in elements, of the vectors in shared memory: thread t reads
// element k of its own vector at t*stride + k, and an odd stride puts the threads of a warp
// on distinct banks for every element size.
__device__ __forceinline__ int tri_stride(int n) { return n | 1; }

// Four consecutive elements of the triangle, read as one aligned vector load.
template <typename T> struct __align__(16) quad { T v[4]; };

// block_copy calls put(f, s, get(f, s)) for every (f, s) of an nf-by-ns index space, f
// fastest, spread over the block's threads so that consecutive threads take consecutive f.
// Each thread issues the gets of tri_batch positions before the first put, so that that many
// global loads are in flight at once: 16 elements, 128 bytes at most (the blocks of 8- and
// 16-byte types are fewer per SM, their shared memory being larger). No division in the
// loop.
template <typename T> struct tri_batch { enum { value = sizeof(T) <= 8 ? 16 : 8 }; };
template <typename T, typename Get, typename Put>
__device__ __forceinline__ void block_copy(int nf, int ns, Get get, Put put) {
    if (nf <= 0) return;
    const int nt = blockDim.x, df = nt % nf, ds = nt / nf;
    int f = threadIdx.x % nf, s = threadIdx.x / nf;
    auto next = [&](int &f, int &s) {
        f += df;
        s += ds;
        if (f >= nf) {
            f -= nf;
            s++;
        }
    };
    while (s < ns) {
        T v[tri_batch<T>::value];
        int gf = f, gs = s;
#pragma unroll
        for (int u = 0; u < tri_batch<T>::value; u++) {
            if (gs < ns) v[u] = get(gf, gs);
            next(gf, gs);
        }
#pragma unroll
        for (int u = 0; u < tri_batch<T>::value; u++) {
            if (s < ns) put(f, s, v[u]);
            next(f, s);
        }
    }
}

// tri_load writes L of op into shared L from the triangle of the n-by-n column-major a.
// The walk reads a column by column, rows fastest, so that a warp reads consecutive
// addresses.
template <typename T> __device__ __forceinline__ void tri_load(T *L, const T *a, i64 lda, int n, tri_op op) {
    typedef scalar<T> S;
    const int n4 = (n + 3) & ~3;
    const bool rev = op.reversed();
    auto stored = [&](int r, int s) { return op.lower ? r >= s : r <= s; };
    auto get = [&](int r, int s) {
        return stored(r, s) && !(r == s && op.unit) ? a[(i64)s * lda + r] : S::from_real(1);
    };
    block_copy<T>(n, n, get, [&](int r, int s, T v) {
        if (!stored(r, s)) return;
        int i = op.trans ? s : r, j = op.trans ? r : s;
        if (rev) {
            i = n - 1 - i;
            j = n - 1 - j;
        }
        if (op.conj) v = S::conj(v);
        if (r == s) v = S::inv(v); // 1 for a unit diagonal
        L[tri_col(j, n4) + i - (j & ~3)] = v;
    });
}

// tile_copy moves cnt vectors of n elements between global g, where element k of vector v is
// at v*sv + k*sk, and shared x, where it is at v*tri_stride(n) + k. in: x = alpha*g, else
// g = x. vfast says that consecutive vectors are adjacent in g (sv == 1): the walk then
// runs over v fastest, else over k, so that a warp touches consecutive addresses of g.
template <typename T>
__device__ __forceinline__ void tile_copy(T *x, T *g, i64 sv, i64 sk, bool vfast, int cnt, int n, bool in, T alpha) {
    typedef scalar<T> S;
    const int p = tri_stride(n);
    auto at = [&](int f, int s, i64 &gi, int &xi) {
        const int v = vfast ? f : s, k = vfast ? s : f;
        gi = (i64)v * sv + (i64)k * sk;
        xi = v * p + k;
    };
    block_copy<T>(vfast ? cnt : n, vfast ? n : cnt, [&](int f, int s) {
        i64 gi;
        int xi;
        at(f, s, gi, xi);
        return in ? g[gi] : x[xi];
    }, [&](int f, int s, T e) {
        i64 gi;
        int xi;
        at(f, s, gi, xi);
        if (in) x[xi] = S::mul(alpha, e);
        else g[gi] = e;
    });
}

// tri_solve solves L y = x in place for one vector x of n elements in shared memory, with
// L from tri_load; rev reads x in reverse order (element k of the solve at x[n-1-k]).
// Elements K..K+CH-1 are solved together in registers: first the solved elements 0..K-1
// (in shared memory) are subtracted, four columns of L at a time, then the CH-by-CH
// diagonal block is solved column by column.
template <typename T, int CH> __device__ void tri_solve(const T *L, T *x, int n, bool rev) {
    typedef scalar<T> S;
    static_assert(CH % 4 == 0, "chunks are whole quads");
    const int n4 = (n + 3) & ~3;
    T *base = rev ? x + (n - 1) : x;
    const int step = rev ? -1 : 1;
    for (int K = 0; K < n; K += CH) {
        const int rows = min(CH, n - K);
        T r[CH];
#pragma unroll
        for (int i = 0; i < CH; i++) r[i] = i < rows ? base[(K + i) * step] : S::from_real(0);

        // r -= L(K.., J..J+3) y(J..J+3): columns J..J+3 all start at row J, w apart.
        for (int J = 0; J < K; J += 4) {
            const T *c = L + tri_col(J, n4) + (K - J);
            const int w = n4 - J;
#pragma unroll
            for (int u = 0; u < 4; u++) {
                const T y = base[(J + u) * step];
#pragma unroll
                for (int g = 0; g < CH; g += 4) {
                    if (g >= rows) break;
                    const quad<T> l = *reinterpret_cast<const quad<T> *>(c + u * w + g);
#pragma unroll
                    for (int e = 0; e < 4; e++) r[g + e] = S::sub_mul(r[g + e], l.v[e], y);
                }
            }
        }

        // The diagonal block. Column K+j starts at row K + (j & ~3) and lies
        // j*(n4-K) - sum_{j'<j} (j' & ~3) after column K.
        const T *cK = L + tri_col(K, n4);
        const int w = n4 - K;
#pragma unroll
        for (int j = 0; j < CH; j++) {
            if (j >= rows) break;
            int skip = 0; // sum_{j'<j} (j' & ~3), a constant once unrolled
#pragma unroll
            for (int jj = 0; jj < j; jj++) skip += jj & ~3;
            const T *c = cK + j * w - skip - (j & ~3); // c[i]: row K+i of column K+j
#pragma unroll
            for (int g = j & ~3; g < CH; g += 4) {
                if (g >= rows) break;
                const quad<T> l = *reinterpret_cast<const quad<T> *>(c + g);
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    if (g + e == j) r[j] = S::mul(r[j], l.v[e]); // the inverse diagonal
                    else if (g + e > j) r[g + e] = S::sub_mul(r[g + e], l.v[e], r[j]);
                }
            }
        }
#pragma unroll
        for (int i = 0; i < CH; i++) {
            if (i < rows) base[(K + i) * step] = r[i];
        }
    }
}

// Each element type solves CH elements at a time in registers: 32, or 16 for complex
// double, 64 32-bit registers at most.
template <typename T> struct tri_chunk { enum { value = 32 }; };
template <> struct tri_chunk<cdouble> { enum { value = 16 }; };
