// The symmetric tridiagonal eigenproblem T = Z diag(d) Z^T by implicit QL and QR with
// Wilkinson shifts, as LAPACK's steqr, for the syev kernels (syev_cta.cu). One thread runs
// the scalar recurrences (tri_step); the plane rotations of each sweep are handed out, so
// that the threads of a block can apply them to the rows of Z in parallel (tri_rotate).
#pragma once
#include "../common/scalar.cuh"

// Machine constants of steqr (LAPACK's lamch): eps the unit roundoff, safmin the smallest
// number whose reciprocal does not overflow.
template <typename R> struct tri_const;
template <> struct tri_const<float> {
    static __device__ __forceinline__ float eps() { return 0x1p-24f; }
    static __device__ __forceinline__ float safmin() { return 0x1p-126f; }
    // ssfmax = sqrt(1/safmin)/3 and ssfmin = sqrt(safmin)/eps^2: steqr's band for a block's
    // largest element, outside which it scales the block.
    static __device__ __forceinline__ float ssfmax() { return 0x1p63f / 3; }
    static __device__ __forceinline__ float ssfmin() { return 0x1p-15f; }
    // rtmin = sqrt(safmin), rtmax = sqrt(1/(2 safmin)): lartg's unscaled range.
    static __device__ __forceinline__ float rtmin() { return 0x1p-63f; }
    static __device__ __forceinline__ float rtmax() { return 0x1.6a09e6p+62f; }
};
template <> struct tri_const<double> {
    static __device__ __forceinline__ double eps() { return 0x1p-53; }
    static __device__ __forceinline__ double safmin() { return 0x1p-1022; }
    static __device__ __forceinline__ double ssfmax() { return 0x1p511 / 3; }
    static __device__ __forceinline__ double ssfmin() { return 0x1p-405; }
    static __device__ __forceinline__ double rtmin() { return 0x1p-511; }
    static __device__ __forceinline__ double rtmax() { return 0x1.6a09e667f3bcdp+510; }
};

// tri_lartg is LAPACK's lartg: c, s and r with [c s; -s c] [f; g] = [r; 0], scaled where f
// or g is near underflow or overflow.
template <typename R> __device__ __forceinline__ void tri_lartg(R f, R g, R &c, R &s, R &r) {
    typedef tri_const<R> K;
    const R f1 = fabs(f), g1 = fabs(g);
    if (g == 0) {
        c = 1, s = 0, r = f;
    } else if (f == 0) {
        c = 0, s = copysign(R(1), g), r = g1;
    } else if (f1 > K::rtmin() && f1 < K::rtmax() && g1 > K::rtmin() && g1 < K::rtmax()) {
        const R d = sqrt(f * f + g * g);
        c = f1 / d, r = copysign(d, f), s = g / r;
    } else {
        const R u = min(R(1) / K::safmin(), max(K::safmin(), max(f1, g1)));
        const R fs = f / u, gs = g / u, d = sqrt(fs * fs + gs * gs);
        c = fabs(fs) / d, r = copysign(d, f), s = gs / r, r *= u;
    }
}

// tri_laev2 is LAPACK's laev2: the eigenvalues rt1 (larger in magnitude) and rt2 of [a b; b
// c], and the rotation (cs, sn) with [cs sn; -sn cs] [a b; b c] [cs -sn; sn cs] = diag(rt1,
// rt2).
template <typename R> __device__ __forceinline__ void tri_laev2(R a, R b, R c, R &rt1, R &rt2, R &cs1, R &sn1) {
    const R sm = a + c, df = a - c, adf = fabs(df), tb = b + b, ab = fabs(tb);
    const R acmx = fabs(a) > fabs(c) ? a : c, acmn = fabs(a) > fabs(c) ? c : a;
    R rt;
    if (adf > ab) rt = adf * sqrt(1 + (ab / adf) * (ab / adf));
    else if (adf < ab) rt = ab * sqrt(1 + (adf / ab) * (adf / ab));
    else rt = ab * sqrt(R(2));
    R sgn1 = 1;
    if (sm < 0) {
        rt1 = R(0.5) * (sm - rt), sgn1 = -1;
        rt2 = (acmx / rt1) * acmn - (b / rt1) * b;
    } else if (sm > 0) {
        rt1 = R(0.5) * (sm + rt);
        rt2 = (acmx / rt1) * acmn - (b / rt1) * b;
    } else {
        rt1 = R(0.5) * rt, rt2 = R(-0.5) * rt;
    }
    const R sgn2 = df >= 0 ? 1 : -1, cs = df >= 0 ? df + rt : df - rt;
    if (fabs(cs) > ab) {
        const R ct = -tb / cs;
        sn1 = 1 / sqrt(1 + ct * ct), cs1 = ct * sn1;
    } else if (ab == 0) {
        cs1 = 1, sn1 = 0;
    } else {
        const R tn = -cs / tb;
        cs1 = 1 / sqrt(1 + tn * tn), sn1 = tn * cs1;
    }
    if (sgn1 == sgn2) {
        const R tn = cs1;
        cs1 = -sn1, sn1 = tn;
    }
}

// tri_rot is one batch of rotations for Z: rotation k (k = 0 .. cnt-2) acts on columns lo+k
// and lo+k+1 with c[lo+k], s[lo+k], in increasing k (fwd) or decreasing; LAPACK's lasr
// with side R, pivot V. done marks the end of the iteration instead.
struct tri_rot {
    int lo, cnt, fwd, done;
};

// tri_pow2 multiplies x by 2^k exactly (but for underflow).
__device__ __forceinline__ float tri_pow2(float x, int k) { return ldexpf(x, k); }
__device__ __forceinline__ double tri_pow2(double x, int k) { return ldexp(x, k); }

// tri_exp2 is the k for which 2^k x lies in [0.5, 1), x > 0 finite.
__device__ __forceinline__ int tri_exp2(float x) { return -ilogbf(x) - 1; }
__device__ __forceinline__ int tri_exp2(double x) { return -ilogb(x) - 1; }

// tri_state is steqr's progress through T (of order n, d its diagonal, e its off-diagonal),
// held by the one thread that runs tri_step. A block of T is the range of rows between two
// zero off-diagonal elements; it is solved by QL (ql, l climbing to lend) or by QR (l
// descending to lend), whichever starts at its end of smaller magnitude.
template <typename R> struct tri_state {
    int n, l1;           // the order; where the search for the next block starts
    int l, lend, lo, hi; // the block being solved (rows lo..hi) and its progress
    int scale;           // the block was scaled by 2^scale (0: not)
    int jtot, nmaxit;    // sweeps made; at most 30n of them
    bool active, ql, fail;
};

template <typename R> __device__ __forceinline__ void tri_init(tri_state<R> &st, int n) {
    st.n = n, st.l1 = 0, st.jtot = 0, st.nmaxit = 30 * n, st.active = false, st.fail = false;
}

// tri_block starts the next unreduced block at st.l1 (steqr's label 10): false when it is of
// order 1 or zero, which needs nothing. A block whose largest element lies outside [ssfmin,
// ssfmax] is scaled by a power of two (exact) to bring it into [0.5, 1).
template <typename R> __device__ __forceinline__ bool tri_block(tri_state<R> &st, R *d, R *e) {
    typedef tri_const<R> K;
    const int n = st.n;
    if (st.l1 > 0) e[st.l1 - 1] = 0;
    int m = st.l1;
    for (; m < n - 1; m++) {
        const R t = fabs(e[m]);
        if (t == 0) break;
        if (t <= sqrt(fabs(d[m])) * sqrt(fabs(d[m + 1])) * K::eps()) {
            e[m] = 0;
            break;
        }
    }
    st.lo = st.l1, st.hi = m, st.l1 = m + 1;
    if (st.hi == st.lo) return false;
    R anorm = fabs(d[m]);
    for (int i = st.lo; i < m; i++) anorm = max(anorm, max(fabs(d[i]), fabs(e[i])));
    if (anorm == 0) return false;
    st.scale = anorm > K::ssfmax() || anorm < K::ssfmin() ? tri_exp2(anorm) : 0;
    if (st.scale != 0) {
        for (int i = st.lo; i < m; i++) d[i] = tri_pow2(d[i], st.scale), e[i] = tri_pow2(e[i], st.scale);
        d[m] = tri_pow2(d[m], st.scale);
    }
    st.ql = fabs(d[st.hi]) >= fabs(d[st.lo]);
    st.l = st.ql ? st.lo : st.hi, st.lend = st.ql ? st.hi : st.lo;
    return true;
}

// tri_unblock ends the current block (steqr's label 140): undoes its scaling, and ends the
// iteration as failed when the sweeps are spent.
template <typename R> __device__ __forceinline__ void tri_unblock(tri_state<R> &st, R *d, R *e) {
    if (st.scale != 0) {
        for (int i = st.lo; i < st.hi; i++) d[i] = tri_pow2(d[i], -st.scale), e[i] = tri_pow2(e[i], -st.scale);
        d[st.hi] = tri_pow2(d[st.hi], -st.scale);
    }
    st.active = false;
    st.fail = st.jtot >= st.nmaxit;
}

// tri_step advances the iteration until it has made a batch of rotations for Z (when
// vectors; written to c, s and rot) or is done (rot.done). One step: an eigenvalue deflated,
// a 2-by-2 block solved, or one implicit QL or QR sweep with a Wilkinson shift.
template <typename R> __device__ __forceinline__ void tri_step(tri_state<R> &st, R *d, R *e, bool vectors, R *c, R *s, tri_rot &rot) {
    typedef tri_const<R> K;
    const R eps2 = K::eps() * K::eps(), safmin = K::safmin();
    rot.cnt = 0, rot.done = 0;
    for (;;) {
        if (!st.active) {
            if (st.fail || st.l1 >= st.n) {
                rot.done = st.fail ? 2 : 1;
                return;
            }
            st.active = tri_block(st, d, e);
            continue;
        }
        int l = st.l, m;
        const int lend = st.lend;
        if (st.ql ? l > lend : l < lend) {
            tri_unblock(st, d, e);
            continue;
        }
        // The first negligible off-diagonal element from l towards lend.
        if (st.ql) {
            for (m = l; m < lend; m++) {
                if (e[m] * e[m] <= (eps2 * fabs(d[m])) * fabs(d[m + 1]) + safmin) break;
            }
            if (m < lend) e[m] = 0;
        } else {
            for (m = l; m > lend; m--) {
                if (e[m - 1] * e[m - 1] <= (eps2 * fabs(d[m])) * fabs(d[m - 1]) + safmin) break;
            }
            if (m > lend) e[m - 1] = 0;
        }
        if (m == l) { // d[l] is an eigenvalue
            st.l = st.ql ? l + 1 : l - 1;
            continue;
        }
        const int dir = st.ql ? 1 : -1;
        if (m == l + dir) { // a 2-by-2 block: rows lo2, lo2+1
            const int lo2 = min(l, m);
            R rt1, rt2, cs, sn;
            tri_laev2(d[lo2], e[lo2], d[lo2 + 1], rt1, rt2, cs, sn);
            d[lo2] = rt1, d[lo2 + 1] = rt2, e[lo2] = 0;
            st.l = l + 2 * dir;
            if (vectors) {
                c[lo2] = cs, s[lo2] = sn;
                rot.lo = lo2, rot.cnt = 2, rot.fwd = !st.ql;
                return;
            }
            continue;
        }
        if (st.jtot == st.nmaxit) {
            tri_unblock(st, d, e);
            continue;
        }
        st.jtot++;
        // The shift: the eigenvalue of the 2-by-2 block at l nearer to d[l].
        const int l2 = l + dir, el = min(l, l2);
        R p = d[l], g = (d[l2] - p) / (2 * e[el]), r = hypot(g, R(1));
        g = d[m] - p + e[el] / (g + copysign(r, g));
        R sc = 1, cc = 1;
        p = 0;
        if (st.ql) {
            for (int i = m - 1; i >= l; i--) {
                const R f = sc * e[i], b = cc * e[i];
                tri_lartg(g, f, cc, sc, r);
                if (i != m - 1) e[i + 1] = r;
                g = d[i + 1] - p;
                r = (d[i] - g) * sc + 2 * cc * b;
                p = sc * r;
                d[i + 1] = g + p;
                g = cc * r - b;
                if (vectors) c[i] = cc, s[i] = -sc;
            }
            d[l] -= p, e[l] = g;
            rot.lo = l, rot.cnt = m - l + 1, rot.fwd = 0;
        } else {
            for (int i = m; i < l; i++) {
                const R f = sc * e[i], b = cc * e[i];
                tri_lartg(g, f, cc, sc, r);
                if (i != m) e[i - 1] = r;
                g = d[i] - p;
                r = (d[i + 1] - g) * sc + 2 * cc * b;
                p = sc * r;
                d[i] = g + p;
                g = cc * r - b;
                if (vectors) c[i] = cc, s[i] = sc;
            }
            d[l] -= p, e[l - 1] = g;
            rot.lo = m, rot.cnt = l - m + 1, rot.fwd = 1;
        }
        if (vectors) return;
        rot.cnt = 0;
    }
}

// tri_rotate applies a batch of rotations to row z[0], z[ld], ... of Z (LAPACK's lasr, side
// R, pivot V).
template <typename T, typename R> __device__ __forceinline__ void tri_rotate(T *z, i64 ld, const tri_rot &rot, const R *c, const R *s) {
    typedef scalar<T> S;
    for (int k = 0; k < rot.cnt - 1; k++) {
        const int j = rot.fwd ? rot.lo + k : rot.lo + rot.cnt - 2 - k;
        const R cj = c[j], sj = s[j];
        T *a0 = z + (i64)j * ld, *a1 = a0 + ld;
        const T t = *a1, u = *a0;
        *a1 = S::sub(S::scale(t, cj), S::scale(u, sj));
        *a0 = S::add(S::scale(t, sj), S::scale(u, cj));
    }
}

// tri_count is steqr's info after a failed iteration: the off-diagonal elements not zero.
template <typename R> __device__ __forceinline__ int tri_count(const R *e, int n) {
    int k = 0;
    for (int i = 0; i < n - 1; i++) k += e[i] != 0;
    return k;
}
