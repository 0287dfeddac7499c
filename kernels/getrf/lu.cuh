// LU factorization with partial pivoting and the solves with its factors: the device code
// shared by the getrf, getrs, gesv and getri kernels (one copy of each piece of math).
//
// Pivoting follows LAPACK's getf2 exactly: at step k the pivot is the first row (in the
// current row order) of largest BLAS i?amax measure in column k from row k down (|x|, or
// |re| + |im| for complex types); ipiv[k] = that row + 1; a pivot that is exactly zero sets
// info = k + 1 (the first such k) and its column is neither scaled nor used for an update,
// while the factorization goes on. The column below a nonzero pivot is multiplied by the
// pivot's reciprocal, or divided by the pivot when |pivot| is below the safe minimum (the
// reciprocal would overflow).
//
// The block ("cta") factorization never moves rows: row i of the matrix stays at physical
// row i of shared memory, and the lanes track pos(i), its row in LAPACK's interchanged order.
// Step k picks the pivot among rows with pos >= k, swaps the pos of the pivot row and of the
// row at pos k (LAPACK's interchange), and updates the rows with pos > k. At the end
// row_at[r] is the physical row holding row r of the factors, and P^T A's row r is row
// row_at[r] of A.
#pragma once
#include "../common/scalar.cuh"

// LU_CMAX bounds the rows of a block factorization or solve: m <= 32 * LU_CMAX, lane l
// holding rows l, l + 32, ... in registers indexed by compile-time constants.
#define LU_CMAX 8
#define LU_ROWS_MAX (32 * LU_CMAX)

// lu_abs1 is BLAS i?amax's measure: |x| for real x, |re| + |im| for complex x.
__device__ __forceinline__ float lu_abs1(float x) { return fabsf(x); }
__device__ __forceinline__ double lu_abs1(double x) { return fabs(x); }
__device__ __forceinline__ float lu_abs1(cfloat x) { return fabsf(x.re) + fabsf(x.im); }
__device__ __forceinline__ double lu_abs1(cdouble x) { return fabs(x.re) + fabs(x.im); }

// lu_modulus is |x|, computed without overflow or underflow of |x|^2.
__device__ __forceinline__ float lu_modulus(float x) { return fabsf(x); }
__device__ __forceinline__ double lu_modulus(double x) { return fabs(x); }
template <typename C> __device__ __forceinline__ typename scalar<C>::real lu_cmodulus(C x) {
    typedef typename scalar<C>::real R;
    const R a = fabs(x.re), b = fabs(x.im), big = a > b ? a : b, small = a > b ? b : a;
    if (big == R(0)) return R(0);
    const R s = small / big;
    return big * sqrt(R(1) + s * s);
}
__device__ __forceinline__ float lu_modulus(cfloat x) { return lu_cmodulus(x); }
__device__ __forceinline__ double lu_modulus(cdouble x) { return lu_cmodulus(x); }

// lu_div is a / b; complex division by Smith's method, so that a tiny or huge b neither
// overflows nor underflows |b|^2.
__device__ __forceinline__ float lu_div(float a, float b) { return a / b; }
__device__ __forceinline__ double lu_div(double a, double b) { return a / b; }
template <typename C> __device__ __forceinline__ C lu_cdiv(C a, C b) {
    typedef typename scalar<C>::real R;
    if (fabs(b.re) >= fabs(b.im)) {
        const R r = b.im / b.re, d = b.re + b.im * r;
        return scalar<C>::make((a.re + a.im * r) / d, (a.im - a.re * r) / d);
    }
    const R r = b.re / b.im, d = b.im + b.re * r;
    return scalar<C>::make((a.re * r + a.im) / d, (a.im * r - a.re) / d);
}
__device__ __forceinline__ cfloat lu_div(cfloat a, cfloat b) { return lu_cdiv(a, b); }
__device__ __forceinline__ cdouble lu_div(cdouble a, cdouble b) { return lu_cdiv(a, b); }

__device__ __forceinline__ bool lu_is_zero(float x) { return x == 0.0f; }
__device__ __forceinline__ bool lu_is_zero(double x) { return x == 0.0; }
__device__ __forceinline__ bool lu_is_zero(cfloat x) { return x.re == 0.0f && x.im == 0.0f; }
__device__ __forceinline__ bool lu_is_zero(cdouble x) { return x.re == 0.0 && x.im == 0.0; }

// LAPACK's safe minimum: the smallest normal number, whose reciprocal does not overflow.
__device__ __forceinline__ float lu_safe_min(float) { return 1.17549435e-38f; }
__device__ __forceinline__ double lu_safe_min(double) { return 2.2250738585072014e-308; }

// lu_key ranks a pivot candidate x: lu_abs1(x), a NaN below every number, except for the
// first candidate (the row at position k), where a NaN ranks above every number. That
// makes the largest key, ties to the earlier row, the row BLAS's sequential i?amax picks
// (it keeps the first entry unless a later one is strictly larger, and a NaN never is),
// while the ranking stays a total order that a tree reduction may combine in any order.
template <typename T> __device__ __forceinline__ typename scalar<T>::real lu_key(T x, bool first) {
    typedef typename scalar<T>::real R;
    const R v = lu_abs1(x);
    return v == v ? v : (first ? R(INFINITY) : R(-1));
}

// lu_better: candidate (key ka, position pa) ranks before (kb, pb).
template <typename R> __device__ __forceinline__ bool lu_better(R ka, int pa, R kb, int pb) {
    return ka > kb || (ka == kb && pa < pb);
}

// lu_pivot scales the column below a nonzero pivot as getf2 does: times 1/pivot, or divided
// by the pivot when |pivot| is below the safe minimum.
template <typename T> struct lu_pivot {
    typedef scalar<T> S;
    T piv, inv;
    bool small;
    __device__ __forceinline__ void set(T p) {
        piv = p;
        small = lu_modulus(p) < lu_safe_min(typename S::real(0));
        inv = small ? p : S::inv(p);
    }
    __device__ __forceinline__ T scale(T x) const { return small ? lu_div(x, piv) : S::mul(x, inv); }
};

// lu_factor_regs factors the N-by-N matrix r (registers, r[i][j] = A(i,j)) in place as
// getf2, with physical row interchanges (predicated moves between compile-time indices).
// It writes the N pivots (1-based) to ipiv and returns info.
template <typename T, int N> __device__ __forceinline__ int lu_factor_regs(T (&r)[N][N], int (&ipiv)[N]) {
    typedef scalar<T> S;
    typedef typename S::real R;
    int info = 0;
#pragma unroll
    for (int k = 0; k < N; k++) {
        R best = lu_key(r[k][k], true);
        int p = k;
        T piv = r[k][k];
#pragma unroll
        for (int i = k + 1; i < N; i++) {
            const R key = lu_key(r[i][k], false);
            if (lu_better(key, i, best, p)) {
                best = key;
                p = i;
                piv = r[i][k];
            }
        }
        ipiv[k] = p + 1;
        if (lu_is_zero(piv)) {
            if (info == 0) info = k + 1;
            continue;
        }
#pragma unroll
        for (int i = k + 1; i < N; i++) {
            if (p == i) {
#pragma unroll
                for (int j = 0; j < N; j++) {
                    const T t = r[k][j];
                    r[k][j] = r[i][j];
                    r[i][j] = t;
                }
            }
        }
        lu_pivot<T> pv;
        pv.set(piv);
#pragma unroll
        for (int i = k + 1; i < N; i++) {
            r[i][k] = pv.scale(r[i][k]);
#pragma unroll
            for (int j = k + 1; j < N; j++) r[i][j] = S::sub_mul(r[i][j], r[i][k], r[k][j]);
        }
    }
    return info;
}

// lu_walk calls f(i, j) for the elements of an m-by-n matrix that thread t of nt takes:
// t, t + nt, t + 2 nt, ... in column-major order, so that consecutive threads touch
// consecutive rows of a column and no thread idles at a column's end.
template <typename F> __device__ __forceinline__ void lu_walk(int t, int nt, int m, int n, F f) {
    int i = t, j = 0;
    while (i >= m && j < n) i -= m, j++;
    for (; j < n;) {
        f(i, j);
        i += nt;
        while (i >= m && j < n) i -= m, j++;
    }
}

// lu_load copies the m-by-n matrix g (leading dimension ld) into shared memory s (leading
// dimension lds) with the whole block.
template <typename T> __device__ __forceinline__ void lu_load(T *s, int lds, const T *g, i64 ld, int m, int n) {
    lu_walk(threadIdx.x, blockDim.x, m, n, [&](int i, int j) { s[j * lds + i] = g[(i64)j * ld + i]; });
}

// lu_store copies rows row_at[0..m) of the m-by-n shared s (leading dimension lds) to rows
// 0..m of g (leading dimension ld): the factors in LAPACK's row order.
template <typename T>
__device__ __forceinline__ void lu_store(T *g, i64 ld, const T *s, int lds, const int *row_at, int m, int n) {
    lu_walk(threadIdx.x, blockDim.x, m, n, [&](int i, int j) { g[(i64)j * ld + i] = s[j * lds + row_at[i]]; });
}

// lu_warp_best returns the best (key, bp) of the warp's lanes, by lu_better, in every lane:
// a key of -2 means no candidate. A key ranks as the unsigned integer of its bits, once
// lu_key's NaN below every number (-1) is mapped to 0: a key of 0 then ties with real zeros,
// but only when the best key is 0, and then the first candidate (key 0, or +Inf if NaN)
// wins on its position anyway. So the maximum key and, among its holders, the minimum bp
// come from warp reductions (redux.sync): 2 for float keys, 3 for double ones, instead of
// five rounds of shuffles.
__device__ __forceinline__ int lu_warp_best(float key, int bp) {
    const unsigned bits = key >= 0.0f ? (unsigned)__float_as_int(key) : 0u;
    const unsigned top = __reduce_max_sync(0xffffffffu, bits);
    return (int)__reduce_min_sync(0xffffffffu, bits == top ? (unsigned)bp : 0x7fffffffu);
}
__device__ __forceinline__ int lu_warp_best(double key, int bp) {
    const unsigned long long bits = key >= 0.0 ? (unsigned long long)__double_as_longlong(key) : 0ull;
    const unsigned hi = (unsigned)(bits >> 32), lo = (unsigned)bits;
    const unsigned top_hi = __reduce_max_sync(0xffffffffu, hi);
    const unsigned top_lo = __reduce_max_sync(0xffffffffu, hi == top_hi ? lo : 0u);
    const bool top = hi == top_hi && lo == top_lo;
    return (int)__reduce_min_sync(0xffffffffu, top ? (unsigned)bp : 0x7fffffffu);
}

// lu_warp_pivot finds step k's pivot among this warp's rows: lane l offers v[c], the
// column-k entry of row l + 32c, when that row is below the diagonal (pos[c] >= k) and
// exists (row < m). It returns, in every lane, (position << 16) | row of the pivot row.
template <typename T, int C>
__device__ __forceinline__ int lu_warp_pivot(const T (&v)[C], const int (&pos)[C], int k, int m) {
    typedef typename scalar<T>::real R;
    const int lane = threadIdx.x & 31;
    R best = R(-2);
    int bp = 0x7fffffff;
#pragma unroll
    for (int c = 0; c < C; c++) {
        const int i = lane + 32 * c;
        if (32 * c >= m) break;
        if (i < m && pos[c] >= k) {
            const R key = lu_key(v[c], pos[c] == k);
            const int pk = pos[c] << 16 | i;
            if (lu_better(key, pk, best, bp)) best = key, bp = pk;
        }
    }
    return lu_warp_best(best, bp);
}

// lu_interchange records step k's interchange in this lane's positions: pivot row p (at
// position posp) goes to position k, the row at position k to posp.
template <int C> __device__ __forceinline__ void lu_interchange(int (&pos)[C], int p, int posp, int k) {
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int c = 0; c < C; c++) {
        if (lane + 32 * c == p) pos[c] = k;
        else if (pos[c] == k) pos[c] = posp;
    }
}

// lu_factor_cta factors the m-by-n matrix a in shared memory (leading dimension lds,
// m <= LU_ROWS_MAX) with the whole block (whole warps), as getf2 but without moving rows
// (see the top of this file). It writes the min(m,n) pivots (1-based) to the global ipiv,
// fills the shared row_at (m ints), and returns info in every thread. One __syncthreads per
// step: every warp finds the pivot itself (shuffles over column k), warp w updates columns
// k+1+w, k+1+w+warps, ... of the rows below, each lane computing the multipliers of its rows
// from the unscaled column k, and warp 0 writes column k's scaled multipliers in the next
// step, when no warp reads it.
template <typename T> __device__ int lu_factor_cta(T *a, int lds, int m, int n, int *ipiv, int *row_at) {
    typedef scalar<T> S;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    const int kmin = m < n ? m : n;
    int pos[LU_CMAX]; // pos[c]: the position of row lane + 32c (rows >= m never move)
#pragma unroll
    for (int c = 0; c < LU_CMAX; c++) pos[c] = lane + 32 * c;
    int info = 0;
    lu_pivot<T> prev; // step k-1's pivot, when it was nonzero: warp 0 scales its column in step k
    bool scale_prev = false;
    for (int k = 0; k < kmin; k++) {
        const T *col = a + (i64)k * lds;
        T v[LU_CMAX];
#pragma unroll
        for (int c = 0; c < LU_CMAX; c++) {
            const int i = lane + 32 * c;
            v[c] = S::from_real(0);
            if (32 * c < m && i < m) v[c] = col[i];
        }
        const int bp = lu_warp_pivot(v, pos, k, m);
        const int p = bp & 0xffff, posp = bp >> 16;
        if (threadIdx.x == 0) ipiv[k] = posp + 1;
        const T piv = col[p];
        lu_interchange(pos, p, posp, k);
        // Rows with pos >= k are those below step k-1's pivot: scale its column there.
        if (warp == 0 && scale_prev) {
            T *pc = a + (i64)(k - 1) * lds;
#pragma unroll
            for (int c = 0; c < LU_CMAX; c++) {
                const int i = lane + 32 * c;
                if (32 * c >= m) break;
                if (i < m && pos[c] >= k) pc[i] = prev.scale(pc[i]);
            }
        }
        scale_prev = !lu_is_zero(piv);
        if (!scale_prev) {
            if (info == 0) info = k + 1;
        } else {
            prev.set(piv);
            T l[LU_CMAX];
#pragma unroll
            for (int c = 0; c < LU_CMAX; c++) l[c] = (pos[c] > k) ? prev.scale(v[c]) : S::from_real(0);
            // Unrolled by 4: the columns' load-FMA-store chains are independent; overlapped
            // they hide the shared-memory latency of a step.
#pragma unroll 4
            for (int j = k + 1 + warp; j < n; j += warps) {
                T *cj = a + (i64)j * lds;
                const T u = cj[p];
#pragma unroll
                for (int c = 0; c < LU_CMAX; c++) {
                    const int i = lane + 32 * c;
                    if (32 * c >= m) break;
                    if (i < m && pos[c] > k) cj[i] = S::sub_mul(cj[i], l[c], u);
                }
            }
        }
        __syncthreads();
    }
    if (warp == 0) {
#pragma unroll
        for (int c = 0; c < LU_CMAX; c++) {
            const int i = lane + 32 * c;
            if (32 * c >= m) break;
            if (i < m) {
                if (scale_prev && pos[c] >= kmin) a[(i64)(kmin - 1) * lds + i] = prev.scale(a[(i64)(kmin - 1) * lds + i]);
                row_at[pos[c]] = i;
            }
        }
    }
    __syncthreads();
    return info;
}

// lu_factor_warp factors the m-by-n matrix (m <= 32 RC, n <= NC) held by one warp, lane l
// holding rows l + 32c (c < RC) in r[c][] (r[c][j] = A(l + 32c, j)), with no shared memory
// and no barrier: the step loop is unrolled, so column k is the register r[c][k]; the
// pivot comes from lu_warp_best, the pivot row's entries from shuffles. Rows never move:
// pos[c] is the final row of row l + 32c. It writes the pivots (1-based) to the global
// ipiv (lane 0) and returns info in every lane. RC is 1 or 2.
template <typename T, int RC, int NC>
__device__ __forceinline__ int lu_factor_warp(T (&r)[RC][NC], int (&pos)[RC], int m, int n, int *ipiv) {
    typedef scalar<T> S;
    static_assert(RC == 1 || RC == 2, "rows l and l + 32 at most");
    const int lane = threadIdx.x & 31, kmin = m < n ? m : n;
#pragma unroll
    for (int c = 0; c < RC; c++) pos[c] = lane + 32 * c;
    int info = 0;
#pragma unroll
    for (int k = 0; k < NC; k++) {
        if (k >= kmin) break;
        T v[RC];
#pragma unroll
        for (int c = 0; c < RC; c++) v[c] = r[c][k];
        const int bp = lu_warp_pivot(v, pos, k, m);
        const int p = bp & 0xffff, posp = bp >> 16;
        if (lane == 0) ipiv[k] = posp + 1;
        // (A select on p >= 32, not on p >> 5 == c: see lu_factor_cta_regs.)
        const T piv = S::shfl(p >= 32 ? v[RC - 1] : v[0], p & 31);
        lu_interchange(pos, p, posp, k);
        if (lu_is_zero(piv)) {
            if (info == 0) info = k + 1;
            continue;
        }
        lu_pivot<T> pv;
        pv.set(piv);
        bool below[RC];
#pragma unroll
        for (int c = 0; c < RC; c++) {
            below[c] = lane + 32 * c < m && pos[c] > k;
            if (below[c]) r[c][k] = pv.scale(r[c][k]);
        }
#pragma unroll
        for (int j = k + 1; j < NC; j++) {
            if (j >= n) break;
            const T u = S::shfl(p >= 32 ? r[RC - 1][j] : r[0][j], p & 31);
#pragma unroll
            for (int c = 0; c < RC; c++)
                if (below[c]) r[c][j] = S::sub_mul(r[c][j], r[c][k], u);
        }
    }
    return info;
}

// LU_REG_COLS is the columns per thread of the register-resident block factorization: with
// w warps it takes n <= 8 w columns (w <= 8: n <= 64). More columns per thread would mean
// fewer warps, but more registers and fewer blocks per SM.
#define LU_REG_COLS 8

// lu_factor_cta_regs factors the m-by-n matrix held in the block's registers (m <= 32 RC,
// n <= LU_REG_COLS * warps), as lu_factor_cta but with no matrix in shared memory: lane l of
// warp w holds x[c][jj] = A(l + 32c, w + warps*jj). Step k: the warp owning column k finds
// the pivot (shuffles), scales the column in its registers and publishes the multipliers,
// the pivot row and a zero-pivot flag in shared memory (xch: 2*(32 RC) elements and 4 ints,
// double-buffered, so one __syncthreads per step); then every warp updates its columns right
// of k, the pivot row's entries coming by shuffles from the lane that holds them. Rows never
// move: pos[c] is the final row of row l + 32c (all warps keep the same copy). It writes
// the pivots (1-based) to the global ipiv and returns info in every thread. RC is 1 or 2.
template <typename T, int RC>
__device__ int lu_factor_cta_regs(T (&x)[RC][LU_REG_COLS], int (&pos)[RC], int m, int n, int *ipiv, T *xch) {
    typedef scalar<T> S;
    static_assert(RC == 1 || RC == 2, "rows l and l + 32 at most");
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    const int kmin = m < n ? m : n;
    int *flags = (int *)(xch + 2 * 32 * RC); // per buffer: (position << 16) | row, zero pivot
#pragma unroll
    for (int c = 0; c < RC; c++) pos[c] = lane + 32 * c;
    int info = 0;
    // Column k is column jk of warp owner (kept by counting, not by a division per step).
    for (int k = 0, owner = 0, jk = 0; k < kmin; k++, owner = owner + 1 == warps ? 0 : owner + 1, jk += owner == 0) {
        const int buf = k & 1;
        T *l = xch + buf * 32 * RC;
        if (warp == owner) {
            T v[RC];
#pragma unroll
            for (int c = 0; c < RC; c++) {
                v[c] = x[c][0];
#pragma unroll
                for (int jj = 1; jj < LU_REG_COLS; jj++)
                    if (jj == jk) v[c] = x[c][jj];
            }
            const int bp = lu_warp_pivot(v, pos, k, m);
            const int p = bp & 0xffff;
            // (A select on p >= 32, not on p >> 5 == c: nvcc turns the latter into an
            // indexed load and moves the whole register array to local memory.)
            const T piv = S::shfl(p >= 32 ? v[RC - 1] : v[0], p & 31);
            const bool zero = lu_is_zero(piv);
            lu_interchange(pos, p, bp >> 16, k);
            lu_pivot<T> pv;
            pv.set(piv);
#pragma unroll
            for (int c = 0; c < RC; c++) {
                const bool below = !zero && lane + 32 * c < m && pos[c] > k;
                if (below) v[c] = pv.scale(v[c]);
                l[lane + 32 * c] = below ? v[c] : S::from_real(0);
#pragma unroll
                for (int jj = 0; jj < LU_REG_COLS; jj++)
                    if (jj == jk) x[c][jj] = v[c];
            }
            if (lane == 0) {
                flags[2 * buf] = bp;
                flags[2 * buf + 1] = zero;
                ipiv[k] = (bp >> 16) + 1;
            }
        }
        __syncthreads();
        const int bp = flags[2 * buf], p = bp & 0xffff;
        if (warp != owner) lu_interchange(pos, p, bp >> 16, k);
        if (flags[2 * buf + 1]) {
            if (info == 0) info = k + 1;
            continue;
        }
        T lc[RC];
#pragma unroll
        for (int c = 0; c < RC; c++) lc[c] = l[lane + 32 * c];
#pragma unroll
        for (int jj = 0; jj < LU_REG_COLS; jj++) {
            const int j = warp + warps * jj;
            if (j > k && j < n) {
                const T u = S::shfl(p >= 32 ? x[RC - 1][jj] : x[0][jj], p & 31);
#pragma unroll
                for (int c = 0; c < RC; c++)
                    if (pos[c] > k && lane + 32 * c < m) x[c][jj] = S::sub_mul(x[c][jj], lc[c], u);
            }
        }
    }
    return info;
}

// lu_regs_load reads the m-by-n matrix g (leading dimension ld) into the registers of
// lu_factor_cta_regs's layout (zeros outside the matrix): each warp instruction reads 32
// consecutive rows of one column.
template <typename T, int RC>
__device__ __forceinline__ void lu_regs_load(T (&x)[RC][LU_REG_COLS], const T *g, i64 ld, int m, int n) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
#pragma unroll
    for (int jj = 0; jj < LU_REG_COLS; jj++) {
        const int j = warp + warps * jj;
#pragma unroll
        for (int c = 0; c < RC; c++) {
            const int i = lane + 32 * c;
            x[c][jj] = scalar<T>::from_real(0);
            if (j < n && i < m) x[c][jj] = g[(i64)j * ld + i];
        }
    }
}

// lu_regs_store writes the factors of lu_factor_cta_regs to g in LAPACK's row order: row
// l + 32c of the registers goes to row pos[c].
template <typename T, int RC>
__device__ __forceinline__ void lu_regs_store(T *g, i64 ld, const T (&x)[RC][LU_REG_COLS], const int (&pos)[RC], int m, int n) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
#pragma unroll
    for (int jj = 0; jj < LU_REG_COLS; jj++) {
        const int j = warp + warps * jj;
#pragma unroll
        for (int c = 0; c < RC; c++)
            if (j < n && lane + 32 * c < m) g[(i64)j * ld + pos[c]] = x[c][jj];
    }
}

// lu_pick returns x[c] for the runtime c, selecting among the compile-time indices.
template <typename T, int C> __device__ __forceinline__ T lu_pick(const T (&x)[C], int c) {
    T v = x[0];
#pragma unroll
    for (int d = 1; d < C; d++)
        if (d == c) v = x[d];
    return v;
}

// Transposes of lu_solve_warp: op(A) = A, A^T or A^H.
#define LU_NOTRANS 0
#define LU_TRANS 1
#define LU_CONJTRANS 2

// LU_SOLVE_VALUES is C*NB of lu_solve_warp: the right-hand-side entries a lane holds.
#define LU_SOLVE_VALUES 8

// lu_solve_warp solves op(L U) X = Y for NB columns at once with one warp, for the n-by-n
// factors in shared memory (leading dimension lds; row r of the factors is physical row
// row_at[r]; n <= 32 C): L unit lower triangular, U upper triangular. Lane l holds rows
// l, l + 32, ... of column b of Y (then X) in x[b][]. The row interchanges are the
// caller's: it passes P^T Y for op = A, and applies P to the result for the transposes.
// Each step reads its column (or row) of the factors from shared memory once for the NB
// columns, whose solved entries go to every lane by shuffles, NB independent chains; the
// divisions by U's diagonal are divisions (not reciprocals), as in LAPACK's trsm.
template <typename T, int C, int NB>
__device__ __forceinline__ void lu_solve_warp(T (&x)[NB][C], const T *a, int lds, const int *row_at, int n, int trans) {
    typedef scalar<T> S;
    const int lane = threadIdx.x & 31;
    int ph[C]; // the physical rows of this lane's rows
#pragma unroll
    for (int c = 0; c < C; c++) ph[c] = (lane + 32 * c < n) ? row_at[lane + 32 * c] : 0;
    T zk[NB];
    if (trans == LU_NOTRANS) {
        // L Z = Y, forward: row k of Z is final; Y(i,:) -= L(i,k) Z(k,:) below it.
        for (int k = 0; k + 1 < n; k++) {
#pragma unroll
            for (int b = 0; b < NB; b++) zk[b] = S::shfl(lu_pick(x[b], k >> 5), k & 31);
            const T *col = a + (i64)k * lds;
#pragma unroll
            for (int c = 0; c < C; c++) {
                const int i = lane + 32 * c;
                if (i > k && i < n) {
                    const T l = col[ph[c]];
#pragma unroll
                    for (int b = 0; b < NB; b++) x[b][c] = S::sub_mul(x[b][c], l, zk[b]);
                }
            }
        }
        // U X = Z, backward: X(k,:) = Z(k,:) / U(k,k); Z(i,:) -= U(i,k) X(k,:) above it.
        for (int k = n - 1; k >= 0; k--) {
            const T *col = a + (i64)k * lds;
#pragma unroll
            for (int c = 0; c < C; c++)
                if (lane + 32 * c == k) {
                    const T d = col[ph[c]];
#pragma unroll
                    for (int b = 0; b < NB; b++) x[b][c] = lu_div(x[b][c], d);
                }
#pragma unroll
            for (int b = 0; b < NB; b++) zk[b] = S::shfl(lu_pick(x[b], k >> 5), k & 31);
#pragma unroll
            for (int c = 0; c < C; c++) {
                if (lane + 32 * c < k) {
                    const T u = col[ph[c]];
#pragma unroll
                    for (int b = 0; b < NB; b++) x[b][c] = S::sub_mul(x[b][c], u, zk[b]);
                }
            }
        }
        return;
    }
    const bool cj = trans == LU_CONJTRANS;
    // op(U) Z = Y, forward: Z(k,:) = Y(k,:) / op(U(k,k)); Y(i,:) -= op(U(k,i)) Z(k,:), i > k.
    for (int k = 0; k < n; k++) {
        const T *row = a + row_at[k];
#pragma unroll
        for (int c = 0; c < C; c++)
            if (lane + 32 * c == k) {
                const T d = row[(i64)k * lds];
#pragma unroll
                for (int b = 0; b < NB; b++) x[b][c] = lu_div(x[b][c], cj ? S::conj(d) : d);
            }
#pragma unroll
        for (int b = 0; b < NB; b++) zk[b] = S::shfl(lu_pick(x[b], k >> 5), k & 31);
#pragma unroll
        for (int c = 0; c < C; c++) {
            const int i = lane + 32 * c;
            if (i > k && i < n) {
                const T u = row[(i64)i * lds];
#pragma unroll
                for (int b = 0; b < NB; b++) x[b][c] = S::sub_mul(x[b][c], cj ? S::conj(u) : u, zk[b]);
            }
        }
    }
    // op(L) X = Z, backward: X(k,:) is final; Z(i,:) -= op(L(k,i)) X(k,:), i < k.
    for (int k = n - 1; k > 0; k--) {
        const T *row = a + row_at[k];
#pragma unroll
        for (int b = 0; b < NB; b++) zk[b] = S::shfl(lu_pick(x[b], k >> 5), k & 31);
#pragma unroll
        for (int c = 0; c < C; c++) {
            const int i = lane + 32 * c;
            if (i < k) {
                const T l = row[(i64)i * lds];
#pragma unroll
                for (int b = 0; b < NB; b++) x[b][c] = S::sub_mul(x[b][c], cj ? S::conj(l) : l, zk[b]);
            }
        }
    }
}

// lu_solve_rhs solves op(A) X = B for the nrhs columns of the n-by-nrhs B in global memory
// (leading dimension ldb), with the factors of A in shared memory as lu_solve_warp takes
// them, each warp NB = LU_SOLVE_VALUES / C columns at a time (warp w the columns w*NB, ...).
// Row i of B is read from row gather[i] and row i of X written to row scatter[i] (nullptr:
// row i): the caller's row interchanges. Each column is read and written once.
template <typename T, int C>
__device__ __forceinline__ void lu_solve_rhs(const T *a, int lds, const int *row_at, int n, int trans, T *b, i64 ldb,
                                             int nrhs, const int *gather, const int *scatter) {
    typedef scalar<T> S;
    constexpr int NB = LU_SOLVE_VALUES / C;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    for (int j0 = warp * NB; j0 < nrhs; j0 += warps * NB) {
        T x[NB][C];
#pragma unroll
        for (int k = 0; k < NB; k++) {
            const T *bj = b + (i64)(j0 + k) * ldb;
#pragma unroll
            for (int c = 0; c < C; c++) {
                const int i = lane + 32 * c;
                x[k][c] = S::from_real(0);
                if (j0 + k < nrhs && i < n) x[k][c] = bj[gather ? gather[i] : i];
            }
        }
        lu_solve_warp<T, C, NB>(x, a, lds, row_at, n, trans);
#pragma unroll
        for (int k = 0; k < NB; k++) {
            T *bj = b + (i64)(j0 + k) * ldb;
#pragma unroll
            for (int c = 0; c < C; c++) {
                const int i = lane + 32 * c;
                if (j0 + k < nrhs && i < n) bj[scatter ? scatter[i] : i] = x[k][c];
            }
        }
    }
}

// lu_swaps_to_perm turns the n interchanges ipiv (1-based, LAPACK's) into the permutation
// q with (P^T b)[r] = b[q[r]], in shared memory; one thread does it, the caller syncs.
// A pivot outside [1, n] is skipped rather than followed out of bounds.
__device__ __forceinline__ void lu_swaps_to_perm(int *q, const int *ipiv, int n) {
    if (threadIdx.x != 0) return;
    for (int r = 0; r < n; r++) q[r] = r;
    for (int k = 0; k < n; k++) {
        const int p = ipiv[k] - 1;
        if (p < 0 || p >= n) continue;
        const int t = q[k];
        q[k] = q[p];
        q[p] = t;
    }
}
