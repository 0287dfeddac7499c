// The one-sided (Hestenes) Jacobi singular value decomposition of gesvd's families "jacobi"
// (gesvd_jacobi.cu: one block per matrix, its work arrays in shared memory) and "blocked"
// (gesvd_blocked.cu: one block per matrix, its work arrays in global workspace, for shapes
// that shared memory cannot hold).
//
// The block works on an Mw-by-N matrix W with Mw >= N: A itself (m >= n), its conjugate
// transpose (m < n, WIDE: A = W^H swaps the roles of the two factors), or the upper
// triangle R of a QR factorization that gesvd_cuda.go made first (UPPER). Each sweep applies
// plane rotations from the right to every pair of columns (p, q) whose Gram entries
// g = w_p^H w_q, a = ||w_p||^2, b = ||w_q||^2 have |g| > tol sqrt(a) sqrt(b), tol = sqrt(Mw) eps
// (the tolerance of LAPACK's xGESVJ), until a sweep rotates none whose cosine exceeds
// JACOBI_NOISE tol (or JACOBI_SWEEPS sweeps): then W = U S with orthogonal columns, and
// W = U S V^H where V is the product of the rotations. The N/2 pairs of a sweep's round are disjoint (round-robin order: N-1 rounds a
// sweep, N rounded up to even, the extra column a skip), so a round rotates them all at
// once, a group of G lanes per pair, the Gram entries summed by butterfly shuffles.
//
// The rotation of a pair, with e = g/|g|, zeta = (b - a)/(2|g|), t the smaller root of
// t^2 + 2 zeta t - 1 = 0 (t = |g|/(b - a) once |zeta| > 1/eps, as xGESVJ), c = 1/sqrt(1+t^2),
// s = c t:  w_p <- c w_p - s conj(e) w_q,  w_q <- s e w_p + c w_q  (a unitary 2x2 from the
// right; afterwards w_p^H w_q = 0 in exact arithmetic).
//
// W is first scaled by a power of two (exact) that brings its largest real or imaginary
// part into [1/2, 1), so that the sums of squares neither overflow nor lose the small
// columns; a matrix holding NaN or Inf is found there and gets NaN in s and in every
// computed factor, and info = N. Otherwise: s_j = ||w_j|| scaled back, sorted descending
// with the columns (a column's rank is the number of columns before it in that order);
// U's columns are the w_j / ||w_j||, and where a column is zero (||w_j||^2 below the
// smallest normal over eps) or U has more columns than W (SVDAll), the rest of U is
// completed by Gram-Schmidt (twice) of the unit vector e_i whose row of U has the least
// norm, which keeps at least 1/Mw of e_i. V's columns are the rotations' columns, permuted
// alike. info = 0, or the number of rotations above the noise level in the last sweep (at
// most N) when the sweep limit is reached.
//
// Outputs (gesvd_cuda.go's gesvdJacobiLaunch): the left factor L is Mo-by-RL, the right factor
// Rf N-by-N when asked for (RIGHT). Without WIDE, L is U (stored plain in u) and Rf is V
// (stored as vt = V^H); with WIDE, L is V (stored as vt = L^H) and Rf is U. Rows Mw..Mo-1 of
// L's first Mw columns are zero and its columns Mw..RL-1 are e_j: the block [U_R 0; 0 I]
// that the QR path multiplies by Q.
//
// Work arrays (gesvdJacobiShape), in shared memory (jacobi) or in the matrix's slice of the
// workspace (blocked): W (ld Mw|1), V (N*N, when RIGHT), x and coef (Mw each) of T, then the
// column norms (N), the row norms (Mw) and 32 reduction slots of the real type, then N ranks
// and a counter. A round's pairs go to groups of G lanes, as many at a time as the block has
// groups: jacobi's G fits every pair in one pass, blocked's is a warp (at most Mw rounded up
// to a power of two), so that a group reads its columns' global memory coalesced.
#pragma once
#include "../common/scalar.cuh"

#define JACOBI_THREADS 256 // the most threads a block: pairs * lanes a pair
#define JACOBI_SWEEPS 40
// A rotation of a pair whose cosine |g|/sqrt(a b) is at most JACOBI_NOISE tol is made but
// does not keep the sweeps going: rounding leaves cosines of a few eps after a rotation, and
// between pairs of nearly equal norms it can keep recreating them above tol (a random 3x3
// in a thousand went to the sweep limit that way). LAPACK's xGESVJ stops on a like test.
#define JACOBI_NOISE 4

#define JACOBI_WIDE 1     // W = A^H: L goes to vt, Rf to u
#define JACOBI_ADJOINT 2  // load W as the conjugate transpose of the stored matrix
#define JACOBI_UPPER 4    // load only the upper triangle (the rest of W is zero)
#define JACOBI_RIGHT 8    // accumulate and store the right factor

__device__ __forceinline__ float ldexp_r(float x, int e) { return ldexpf(x, e); }
__device__ __forceinline__ double ldexp_r(double x, int e) { return ldexp(x, e); }
__device__ __forceinline__ float frexp_r(float x, int *e) { return frexpf(x, e); }
__device__ __forceinline__ double frexp_r(double x, int *e) { return frexp(x, e); }
__device__ __forceinline__ float hypot_r(float x, float y) { return hypotf(x, y); }
__device__ __forceinline__ double hypot_r(double x, double y) { return hypot(x, y); }

template <typename R> struct rlimits;
template <> struct rlimits<float> {
    static __device__ __forceinline__ float eps() { return 5.9604645e-08f; } // 2^-24
    static __device__ __forceinline__ float tiny() { return 1.17549435e-38f / 5.9604645e-08f; }
    static __device__ __forceinline__ float nan() { return __int_as_float(0x7fc00000); }
};
template <> struct rlimits<double> {
    static __device__ __forceinline__ double eps() { return 1.1102230246251565e-16; } // 2^-53
    static __device__ __forceinline__ double tiny() { return 2.2250738585072014e-308 / 1.1102230246251565e-16; }
    static __device__ __forceinline__ double nan() { return __longlong_as_double(0x7ff8000000000000LL); }
};

// block_reduce combines every thread's v with op; every thread gets the result. All the
// block's threads call it (blockDim.x is a multiple of 32); red holds 32 slots.
template <typename R, typename F> __device__ __forceinline__ R block_reduce(R v, R *red, F op) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, off));
    __syncthreads(); // red is free: every thread has read the last reduction's slots
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = v;
    __syncthreads();
    v = red[0];
    for (int w = 1; w < (int)(blockDim.x >> 5); w++) v = op(v, red[w]);
    return v;
}

// group_sum sums v over the G lanes (a power of two) of the caller's group.
template <typename R> __device__ __forceinline__ R group_sum(R v, int G) {
    for (int off = G >> 1; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
    return v;
}

// factor is an output factor: element (i, j) at p[i + j*ld], or with trans the conjugate of
// p[j + i*ld] (the factor stored as its conjugate transpose).
template <typename T> struct factor {
    T *p;
    i64 ld;
    bool trans;
    __device__ __forceinline__ T *at(int i, int j) const { return trans ? p + j + (i64)i * ld : p + i + (i64)j * ld; }
    __device__ __forceinline__ void set(int i, int j, T v) const { *at(i, j) = trans ? scalar<T>::conj(v) : v; }
    __device__ __forceinline__ T get(int i, int j) const { return trans ? scalar<T>::conj(*at(i, j)) : *at(i, j); }
};

// rotate_cols applies the pair's rotation to columns x and y of n elements, lanes lg, lg+G,
// ...: x <- x - st x - conj(se) y, y <- y - st y + se x, where st = 1 - c = s^2/(1+c). c itself
// is never applied: for t^2 below eps it rounds to 1 while c^2 + s^2 = 1 + t^2, and the
// columns' norms grow by t^2 at every such rotation, the same way each time; over the
// sweeps of order N in float that left V's columns some 25 N eps from orthonormal.
template <typename T>
__device__ __forceinline__ void rotate_cols(T *x, T *y, int n, int lg, int G, typename scalar<T>::real st, T se) {
    typedef scalar<T> S;
    const T nse = S::make(-S::re(se), -S::im(se)), rst = S::from_real(st);
    for (int i = lg; i < n; i += G) {
        const T a = x[i], b = y[i];
        x[i] = S::sub_mul(S::sub_mul(a, rst, a), S::conj(se), b);
        y[i] = S::sub_mul(S::sub_mul(b, rst, b), nse, a);
    }
}

// rotate_pair applies the rotation of pair k of round r, G lanes to a pair; cnt counts those
// rotated above the noise level. Every lane runs every shuffle: a group without a pair (the
// skip column, or past the pairs) sums nothing and writes nothing.
template <typename T>
__device__ __forceinline__ void rotate_pair(T *W, int ldw, T *V, int Mw, int N, int r, int k, int G, typename scalar<T>::real tol,
                                            int *cnt) {
    typedef scalar<T> S;
    typedef typename S::real R;
    const int Ne = N + (N & 1), n1 = Ne - 1;
    const int lg = threadIdx.x % G;
    int p = k == 0 ? n1 : (r + k) % n1, q = k == 0 ? r : (r - k + n1) % n1;
    const bool live = k < Ne / 2 && p < N && q < N;
    if (!live) p = q = 0;
    T *wp = W + (i64)p * ldw, *wq = W + (i64)q * ldw;
    R a = 0, b = 0, gr = 0, gi = 0;
    for (int i = live ? lg : Mw; i < Mw; i += G) {
        const T x = wp[i], y = wq[i];
        a += S::abs2(x);
        b += S::abs2(y);
        const T xy = S::fma_conj(S::from_real(0), x, y); // conj(x) y
        gr += S::re(xy);
        gi += S::im(xy);
    }
    a = group_sum(a, G), b = group_sum(b, G), gr = group_sum(gr, G), gi = group_sum(gi, G);
    // |g| by hypot, not the root of the squares: between small columns g's square underflows
    // (a rank-one float matrix's rounding-level columns of norms 2e-11 and 2e-8 at cosine
    // 3e-5 have |g| ~ 1e-23, its square below the smallest subnormal), and the pair would
    // stay unrotated however far from orthogonal.
    const R ga = hypot_r(gr, gi);
    const R scale = sqrt(a) * sqrt(b);
    if (!live || !(ga > tol * scale)) return;
    if (lg == 0 && ga > JACOBI_NOISE * tol * scale) atomicAdd(cnt, 1);
    const R d = b - a;
    R t;
    if (fabs(d) > 2 * ga / rlimits<R>::eps()) {
        t = ga / d;
    } else {
        const R zeta = d / (2 * ga);
        t = (zeta >= 0 ? R(1) : R(-1)) / (fabs(zeta) + sqrt(1 + zeta * zeta));
    }
    const R c = 1 / sqrt(1 + t * t), s = c * t, st = s * s / (1 + c); // st = 1 - c
    const T se = S::make(s * gr / ga, s * gi / ga); // s e
    rotate_cols(wp, wq, Mw, lg, G, st, se);
    if (V) rotate_cols(V + (i64)p * N, V + (i64)q * N, N, lg, G, st, se);
}

// rotate_round applies the rotations of round r, the block's groups taking the N/2 pairs in
// passes (one pass for jacobi). The passes are as many for every lane, for the shuffles.
template <typename T>
__device__ __forceinline__ void rotate_round(T *W, int ldw, T *V, int Mw, int N, int r, int G, typename scalar<T>::real tol, int *cnt) {
    const int pairs = (N + 1) / 2, groups = blockDim.x / G;
    for (int k0 = 0; k0 < pairs; k0 += groups) rotate_pair(W, ldw, V, Mw, N, r, k0 + (int)threadIdx.x / G, G, tol, cnt);
}

// complete writes L's column c (nz <= c < RL) orthogonal to its columns before it: e_c past
// Mw, else the unit vector of the least-norm row of L, orthogonalized twice.
template <typename T>
__device__ __forceinline__ void complete(const factor<T> &L, int Mw, int Mo, int c, T *x, T *coef, typename scalar<T>::real *rn,
                                         typename scalar<T>::real *red) {
    typedef scalar<T> S;
    typedef typename S::real R;
    const int tid = threadIdx.x, nt = blockDim.x;
    if (c >= Mw) {
        for (int i = tid; i < Mo; i += nt) L.set(i, c, S::from_real(i == c ? 1 : 0));
        return;
    }
    R lo = (R)(Mw + 1); // above every row norm: L's entries are at most 1
    for (int i = tid; i < Mw; i += nt) {
        R v = 0;
        for (int j = 0; j < c; j++) v += S::abs2(L.get(i, j));
        rn[i] = v;
        lo = min(lo, v);
    }
    lo = block_reduce(lo, red, [](R u, R v) { return min(u, v); });
    R first = (R)Mw;
    for (int i = tid; i < Mw; i += nt)
        if (rn[i] == lo) first = min(first, (R)i);
    const int e = (int)block_reduce(first, red, [](R u, R v) { return min(u, v); });
    for (int i = tid; i < Mw; i += nt) x[i] = S::from_real(i == e ? 1 : 0);
    for (int pass = 0; pass < 2; pass++) {
        __syncthreads();
        for (int j = tid; j < c; j += nt) {
            T h = S::from_real(0);
            for (int i = 0; i < Mw; i++) h = S::fma_conj(h, L.get(i, j), x[i]);
            coef[j] = h;
        }
        __syncthreads();
        for (int i = tid; i < Mw; i += nt) {
            T v = x[i];
            for (int j = 0; j < c; j++) v = S::sub_mul(v, L.get(i, j), coef[j]);
            x[i] = v;
        }
    }
    R ss = 0;
    for (int i = tid; i < Mw; i += nt) ss += S::abs2(x[i]);
    const R inv = 1 / sqrt(block_reduce(ss, red, [](R u, R v) { return u + v; }));
    for (int i = tid; i < Mo; i += nt) L.set(i, c, i < Mw ? S::scale(x[i], inv) : S::from_real(0));
    __syncthreads(); // the column is read by the next one's row norms
}

// gesvd_onesided decomposes matrix blockIdx.x; with GLOBAL its work arrays are at
// ws + blockIdx.x*wss (bytes), else in dynamic shared memory.
template <typename T, bool GLOBAL>
__device__ __forceinline__ void gesvd_onesided(const T *a, i64 lda, i64 sa, i64 dims, i64 outs, i64 flags, typename scalar<T>::real *s,
                                               int *info, T *lp, i64 ldl, i64 sl, T *rp, i64 ldr, i64 sr, char *ws, i64 wss) {
    typedef scalar<T> S;
    typedef typename S::real R;
    const int Mw = (int)(dims & 0xffffffff), N = (int)(dims >> 32), Mo = (int)(outs & 0xffffffff), RL = (int)(outs >> 32);
    const bool wide = flags & JACOBI_WIDE, right = flags & JACOBI_RIGHT;
    const i64 b = blockIdx.x;
    const int tid = threadIdx.x, nt = blockDim.x, ldw = Mw | 1;
    // G: lanes a pair, a power of two (gesvd_cuda.go's gesvdJacobiShape).
    const int P = (N + 1) / 2, G = min(GLOBAL ? 32 : 1 << (31 - __clz(JACOBI_THREADS / P)), min(32, 1 << (32 - __clz(Mw - 1))));

    T *W;
    if (GLOBAL) {
        W = (T *)(ws + b * wss);
    } else {
        DYNAMIC_SHARED(T, sh);
        W = sh;
    }
    T *V = W + (i64)ldw * N;
    T *x = V + (right ? (i64)N * N : 0), *coef = x + Mw;
    R *nrm = (R *)(coef + Mw), *rn = nrm + N, *red = rn + Mw;
    int *rank = (int *)(red + 32), *cnt = rank + N;

    a += b * sa;
    const factor<T> L = {lp + b * sl, ldl, wide}, Rf = {rp + b * sr, ldr, !wide};
    s += b * N;

    // Load W, find its largest part (+Inf for NaN or Inf).
    R amax = 0;
    for (i64 idx = tid; idx < (i64)Mw * N; idx += nt) {
        int i, j;
        T v;
        if (flags & JACOBI_ADJOINT) { // W(i, j) = conj(A(j, i)), A stored N-by-Mw
            j = (int)(idx % N), i = (int)(idx / N);
            v = S::conj(a[j + i * lda]);
        } else {
            i = (int)(idx % Mw), j = (int)(idx / Mw);
            v = (flags & JACOBI_UPPER) && i > j ? S::from_real(0) : a[i + j * lda];
        }
        W[i + (i64)j * ldw] = v;
        const R re = S::re(v), im = S::im(v);
        amax = (re - re != 0 || im - im != 0) ? R(INFINITY) : max(amax, max(fabs(re), fabs(im)));
    }
    if (right)
        for (i64 idx = tid; idx < (i64)N * N; idx += nt) V[idx] = S::from_real(idx % N == idx / N ? 1 : 0);
    amax = block_reduce(amax, red, [](R u, R v) { return max(u, v); });

    if (!(amax < R(INFINITY))) {
        const T nan = S::make(rlimits<R>::nan(), rlimits<R>::nan());
        for (int j = tid; j < N; j += nt) s[j] = rlimits<R>::nan();
        for (i64 idx = tid; idx < (i64)Mo * RL; idx += nt) L.set((int)(idx % Mo), (int)(idx / Mo), nan);
        if (right)
            for (i64 idx = tid; idx < (i64)N * N; idx += nt) Rf.set((int)(idx % N), (int)(idx / N), nan);
        if (tid == 0) info[b] = N;
        return;
    }
    int e = 0;
    if (amax > 0) frexp_r(amax, &e);
    for (i64 idx = tid; idx < (i64)Mw * N; idx += nt) {
        T &w = W[idx % Mw + idx / Mw * ldw];
        w = S::make(ldexp_r(S::re(w), -e), ldexp_r(S::im(w), -e));
    }

    const R tol = sqrt((R)Mw) * rlimits<R>::eps();
    int sweep = 0, last = 0;
    for (; sweep < JACOBI_SWEEPS; sweep++) {
        if (tid == 0) *cnt = 0;
        __syncthreads();
        for (int r = 0; r < N + (N & 1) - 1; r++) {
            rotate_round(W, ldw, right ? V : (T *)0, Mw, N, r, G, tol, cnt);
            __syncthreads();
        }
        last = *cnt;
        __syncthreads();
        if (last == 0) break;
    }

    // Singular values and their order.
    for (int j = tid; j < N; j += nt) {
        R v = 0;
        for (int i = 0; i < Mw; i++) v += S::abs2(W[i + (i64)j * ldw]);
        nrm[j] = v;
    }
    __syncthreads();
    int nz = 0;
    for (int j = 0; j < N; j++) nz += nrm[j] >= rlimits<R>::tiny();
    for (int j = tid; j < N; j += nt) {
        int k = 0;
        for (int i = 0; i < N; i++) k += nrm[i] > nrm[j] || (nrm[i] == nrm[j] && i < j);
        rank[j] = k;
        s[k] = nrm[j] >= rlimits<R>::tiny() ? ldexp_r(sqrt(nrm[j]), e) : R(0);
    }
    __syncthreads();

    // L's columns from W, then the completion; Rf's from V.
    if (RL > 0) {
        for (i64 idx = tid; idx < (i64)Mo * N; idx += nt) {
            const int i = (int)(idx % Mo), j = (int)(idx / Mo), k = rank[j];
            if (k >= nz || k >= RL) continue;
            L.set(i, k, i < Mw ? S::scale(W[i + (i64)j * ldw], 1 / sqrt(nrm[j])) : S::from_real(0));
        }
        __syncthreads();
        for (int c = nz; c < RL; c++) complete(L, Mw, Mo, c, x, coef, rn, red);
    }
    if (right)
        for (i64 idx = tid; idx < (i64)N * N; idx += nt) Rf.set((int)(idx % N), rank[idx / N], V[idx]);
    if (tid == 0) info[b] = last == 0 ? 0 : min(last, N);
}
