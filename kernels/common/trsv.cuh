// Triangular substitution shared by trsm "cta" and potrs "cta": each matrix's triangle in
// shared memory, a team of threads of one block per matrix, one thread per right-hand-side
// vector.
//
// Every solve is reduced to one form, forward substitution L x = x with L lower triangular:
//
//   - op(A) is M = A, A^T, A^H or conj(A) (trsm's side Right solves x^T op(A) = b^T, which is
//     op(A)^T x = b: the transpose flips and the conjugation stays). M is lower when A's
//     triangle is lower and M does not transpose it, or upper and M does.
//   - an upper M is lower after reversing the order of its rows and columns,
//     L(i, j) = M(n-1-i, n-1-j), with the vector reversed alike.
//
// tri_load writes L into shared memory from A's named triangle through that index map, with
// the inverse of the diagonal in place of the diagonal, so that the substitution multiplies
// instead of dividing. No value of the other triangle is used, nor a unit diagonal (a 16-byte
// run of a column that straddles the diagonal is loaded whole, its other part dropped).
// tri_solve runs the substitution for one vector: chunks of CH elements in registers, the
// solved elements in shared memory.
//
// Shared layout of L, "column-packed": column j holds rows (j & ~3) .. N4-1 (N4 = n rounded
// up to a multiple of 4), so that every run of four rows starting at a multiple of 4 is one
// 16-byte-aligned quad; the rows above the diagonal in a column's first quad are padding,
// never read as numbers. All threads read the same L element at a time (a broadcast).
#pragma once
#include "scalar.cuh"

// Kernel flags (trsm_cuda.go mirrors them).
#define TRI_LEFT 1  // trsm: side Left (vectors are the columns of B), else Right (the rows)
#define TRI_LOWER 2 // A's lower triangle is stored, else the upper
#define TRI_TRANS 4 // op(A) transposes A
#define TRI_CONJ 8  // op(A) conjugates A
#define TRI_UNIT 16 // A's diagonal is taken as ones and not read

// Most threads of a block. A block holds one matrix or several: each has a team of threads,
// one per right-hand-side vector solved at once, a multiple of 8, so that small matrices
// with few right-hand sides still fill the SM with warps.
#define TRI_THREADS 64

// tri_team is this thread's place: size threads solve each matrix, this one is rank among
// them, and its matrix is the index-th of the block.
struct tri_team {
    int size, rank, index;
};

__device__ __forceinline__ tri_team tri_team_of(int size) {
    const tri_team t = {size, (int)threadIdx.x % size, (int)threadIdx.x / size};
    return t;
}

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

// tri_footprint is the shared memory of one matrix in elements: L, then a tile of team-size
// vectors; a multiple of 16 bytes, so that every matrix's L is aligned.
__device__ __forceinline__ int tri_footprint(int n, int team) {
    return tri_col(n, (n + 3) & ~3) + team * tri_stride(n);
}

// Four consecutive elements of the triangle, read as one aligned vector load.
template <typename T> struct __align__(16) quad { T v[4]; };

// run is W consecutive elements of a column, one access of W*sizeof(T) bytes (16 for the
// vector path of the copies below).
template <typename T, int W> struct alignas(W * sizeof(T)) run { T v[W]; };

// tri_width is the run length of the vector path: 16 bytes (1 for complex double).
template <typename T> struct tri_width { enum { value = sizeof(T) < 16 ? 16 / sizeof(T) : 1 }; };

// team_copy calls put(f, s, get(f, s)) for every (f, s) of an nf-by-ns index space, f
// fastest, spread over the team's threads so that consecutive threads take consecutive f.
// Each thread issues the gets of B positions (runs of up to 16 bytes) before the first put,
// so that that many global loads are in flight at once. No division in the loop.
template <typename R, int B, typename Get, typename Put>
__device__ __forceinline__ void team_copy(int nf, int ns, tri_team team, Get get, Put put) {
    enum { batch = B };
    if (nf <= 0) return;
    const int nt = team.size, df = nt % nf, ds = nt / nf;
    int f = team.rank % nf, s = team.rank / nf;
    auto next = [&](int &f, int &s) {
        f += df;
        s += ds;
        if (f >= nf) {
            f -= nf;
            s++;
        }
    };
    while (s < ns) {
        R v[batch];
        int gf = f, gs = s;
#pragma unroll
        for (int u = 0; u < batch; u++) {
            if (gs < ns) v[u] = get(gf, gs);
            next(gf, gs);
        }
#pragma unroll
        for (int u = 0; u < batch; u++) {
            if (s < ns) put(f, s, v[u]);
            next(f, s);
        }
    }
}

// tri_copy_batch is team_copy's B for elements of T: 8 runs (128 bytes, 32 registers) in
// flight, but 4 for float, where the 32 registers cost trsm_cta_f32 blocks per SM (152
// registers against 95 under nvcc 11.8); on the H200 4 took trsm f32 n = 16 from 0.037 to
// 0.032 ms and trsm f64 n = 64 from 1.150 to 1.324 ms.
template <typename T> struct tri_copy_batch { enum { value = sizeof(T) == 4 ? 4 : 8 }; };

// tri_vector says whether the rows-by-cols column-major g (leading dimension ld) splits into
// aligned runs of tri_width elements.
template <typename T> __device__ __forceinline__ bool tri_vector(const T *g, i64 ld, int rows) {
    enum { W = tri_width<T>::value };
    return W > 1 && rows % W == 0 && ld % W == 0 && (reinterpret_cast<unsigned long long>(g) & 15) == 0;
}

// load_runs: load_columns with runs of W rows.
template <typename T, int W, typename Keep, typename Put>
__device__ __forceinline__ void load_runs(const T *g, i64 ld, int rows, int cols, tri_team team, Keep keep, Put put) {
    auto reached = [&](int f, int s) { return keep(f * W, s) || keep(f * W + W - 1, s); };
    team_copy<run<T, W>, tri_copy_batch<T>::value>(rows / W, cols, team, [&](int f, int s) {
        run<T, W> v;
        if (reached(f, s)) v = *reinterpret_cast<const run<T, W> *>(g + (i64)s * ld + f * W);
        return v;
    }, [&](int f, int s, run<T, W> v) {
        if (reached(f, s)) put(f * W, s, v);
    });
}

// load_columns calls put(r, s, v) with the runs v of W consecutive elements, rows r.. of
// column s, of the rows-by-cols column-major g that reach an element that keep(r, s) names,
// where the kept elements form one run of rows in each column that reaches the first or the
// last row (a triangle, or all). W is 16 bytes of elements where the alignment of g allows,
// else 1 (put takes a run of either length); a warp reads consecutive addresses. The elements
// of a run that keep does not name are not to be used.
template <typename T, typename Keep, typename Put>
__device__ __forceinline__ void load_columns(const T *g, i64 ld, int rows, int cols, tri_team team, Keep keep, Put put) {
    if (tri_vector(g, ld, rows)) load_runs<T, tri_width<T>::value>(g, ld, rows, cols, team, keep, put);
    else load_runs<T, 1>(g, ld, rows, cols, team, keep, put);
}

// store_runs: store_columns with runs of W rows.
template <typename T, int W, typename Get>
__device__ __forceinline__ void store_runs(T *g, i64 ld, int rows, int cols, tri_team team, Get get) {
    team_copy<run<T, W>, tri_copy_batch<T>::value>(rows / W, cols, team, [&](int f, int s) {
        run<T, W> v;
#pragma unroll
        for (int w = 0; w < W; w++) v.v[w] = get(f * W + w, s);
        return v;
    }, [&](int f, int s, run<T, W> v) { *reinterpret_cast<run<T, W> *>(g + (i64)s * ld + f * W) = v; });
}

// store_columns sets every element (r, s) of the rows-by-cols column-major g to get(r, s),
// 16 bytes a thread where alignment allows.
template <typename T, typename Get>
__device__ __forceinline__ void store_columns(T *g, i64 ld, int rows, int cols, tri_team team, Get get) {
    if (tri_vector(g, ld, rows)) store_runs<T, tri_width<T>::value>(g, ld, rows, cols, team, get);
    else store_runs<T, 1>(g, ld, rows, cols, team, get);
}

// tri_load writes L of op into shared L from the triangle of the n-by-n column-major a.
// A map that does not transpose takes a run of a column of A to a run of a column of L (in
// reverse order when reversed), which is stored whole: its elements outside the triangle land
// on the padding above the diagonal of that column, never read as numbers.
template <typename T>
__device__ __forceinline__ void tri_load(T *L, const T *a, i64 lda, int n, tri_op op, tri_team team) {
    typedef scalar<T> S;
    const int n4 = (n + 3) & ~3;
    const bool rev = op.reversed();
    auto stored = [&](int r, int s) { return op.lower ? r >= s : r <= s; };
    // at is the offset in L of M's element (r, s) of A, M = op(A) through the index map.
    auto at = [&](int r, int s) {
        int i = op.trans ? s : r, j = op.trans ? r : s;
        if (rev) {
            i = n - 1 - i;
            j = n - 1 - j;
        }
        return tri_col(j, n4) + i - (j & ~3);
    };
    load_columns(a, lda, n, n, team, stored, [&](int r0, int s, auto v) {
        enum { W = sizeof(v.v) / sizeof(T) };
#pragma unroll
        for (int w = 0; w < W; w++) {
            if (r0 + w == s) v.v[w] = op.unit ? S::from_real(1) : S::inv(op.conj ? S::conj(v.v[w]) : v.v[w]);
            else if (op.conj) v.v[w] = S::conj(v.v[w]);
        }
        if (!op.trans) {
            if (rev) {
#pragma unroll
                for (int w = 0; w < W / 2; w++) {
                    const T e = v.v[w];
                    v.v[w] = v.v[W - 1 - w];
                    v.v[W - 1 - w] = e;
                }
            }
            *reinterpret_cast<decltype(v) *>(L + at(rev ? r0 + W - 1 : r0, s)) = v;
        } else {
#pragma unroll
            for (int w = 0; w < W; w++) {
                if (stored(r0 + w, s)) L[at(r0 + w, s)] = v.v[w];
            }
        }
    });
}

// The tile of cnt right-hand-side vectors of n elements: in global memory a column-major
// matrix g (leading dimension ld) whose columns are the vectors (vcols) or whose rows are;
// in shared memory x, element k of vector v at v*tri_stride(n) + k.

// tile_load sets x = alpha g.
template <typename T>
__device__ __forceinline__ void tile_load(T *x, const T *g, i64 ld, bool vcols, int cnt, int n, T alpha, tri_team team) {
    typedef scalar<T> S;
    const int p = tri_stride(n);
    load_columns(g, ld, vcols ? n : cnt, vcols ? cnt : n, team, [](int, int) { return true; }, [&](int r0, int s, auto v) {
        enum { W = sizeof(v.v) / sizeof(T) };
#pragma unroll
        for (int w = 0; w < W; w++) x[vcols ? s * p + r0 + w : (r0 + w) * p + s] = S::mul(alpha, v.v[w]);
    });
}

// tile_store sets g = x.
template <typename T>
__device__ __forceinline__ void tile_store(const T *x, T *g, i64 ld, bool vcols, int cnt, int n, tri_team team) {
    const int p = tri_stride(n);
    store_columns(g, ld, vcols ? n : cnt, vcols ? cnt : n, team, [&](int r, int s) { return x[vcols ? s * p + r : r * p + s]; });
}

// tri_solve solves L y = x in place for one vector x of n elements in shared memory, with
// L from tri_load; rev reads x in reverse order (element k of the solve at x[n-1-k]).
// Elements K..K+CH-1 are solved together in registers: first the solved elements 0..K-1
// (in shared memory) are subtracted, four columns of L at a time, then the CH-by-CH
// diagonal block is solved column by column.
template <typename T, int CH> __device__ __forceinline__ void tri_solve(const T *L, T *x, int n, bool rev) {
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

        // r -= L(K.., J..J+3) y(J..J+3): columns J..J+3 all start at row J, w apart. A last
        // chunk of fewer than CH rows reads past its column into the next ones or the tile
        // (K > 0 means n > CH, so less than CH elements past a column stay in this matrix's
        // shared memory); those r are never used, and the loop has no branch. One column at a
        // time (no unrolling of J and u), so that the compiler holds only one column of L in
        // registers.
#pragma unroll 1
        for (int J = 0; J < K; J += 4) {
            const T *c = L + tri_col(J, n4) + (K - J);
            const int w = n4 - J;
#pragma unroll 1
            for (int u = 0; u < 4; u++) {
                const T y = base[(J + u) * step];
#pragma unroll
                for (int g = 0; g < CH; g += 4) {
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

// Each element type solves CH elements at a time in registers: 128 bytes, 32 32-bit
// registers (32 floats, 16 doubles or complex floats, 8 complex doubles), and as many again
// for the column of L that updates them.
template <typename T> struct tri_chunk { enum { value = 128 / sizeof(T) }; };
