// Householder reflectors for the "cta" QR kernels (geqrf_cta.cu, orgqr_cta.cu, ormqr_cta.cu),
// one block per matrix: LAPACK's larfg for one column by one warp, and the application of
// H = I - t v v^H to columns, P lanes per column.
//
// Layout: a matrix held column-major in shared memory with leading dimension lds. A column is
// updated by a group of P lanes (P a power of two, at most 32, the group inside one warp):
// lane p of the group owns the rows i with i % P == p at every step, so that a group's lanes
// never read one another's rows and need no barrier between two updates of one column. The
// Go side picks P and lds (qrCTALayout in geqrf_cuda.go): lds is P times an odd number
// (mod 32), so that the 32/P columns and P consecutive rows that one warp touches fall in
// distinct banks.
//
// Two ways to hold the columns being updated: in shared memory (group_apply, any size that
// fits), or, when every group has one column and no lane more than 16 rows, in the registers
// of its group (group_apply_regs): then a step reads only the reflector from shared memory,
// and each element of the column is loaded and stored once per kernel instead of twice per
// step.
#pragma once
#include "scalar.cuh"

// for_each_element calls f(i, c) for the elements of a column-major m-by-n matrix that fall
// to this thread, thread t taking elements t, t + threads, ...: consecutive threads touch
// consecutive rows, so global accesses coalesce. One division in all, not one per element.
template <typename F> __device__ __forceinline__ void for_each_element(int m, int n, F f) {
    const int nt = blockDim.x, dc = nt / m, di = nt - dc * m;
    int c = threadIdx.x / m, i = threadIdx.x - c * m;
    while (c < n) {
        f(i, c);
        c += dc;
        i += di;
        if (i >= m) {
            i -= m;
            c++;
        }
    }
}

// Machine constants of LAPACK's larfg, for float and double.
template <typename R> struct qr_const;
template <> struct qr_const<float> {
    // safmin = slamch('S') / slamch('E'): below it larfg rescales.
    static __device__ __forceinline__ float safmin() { return 0x1p-102f; }
    // A sum of squares in [ssq_lo, ssq_hi] was summed without harmful underflow or
    // overflow: squares below the smallest normal lose at most m * eps^2 of it.
    static __device__ __forceinline__ float ssq_lo() { return 0x1p-78f; }
    static __device__ __forceinline__ float ssq_hi() { return 0x1.fffffep+127f; }
};
template <> struct qr_const<double> {
    static __device__ __forceinline__ double safmin() { return 0x1p-969; }
    static __device__ __forceinline__ double ssq_lo() { return 0x1p-916; }
    static __device__ __forceinline__ double ssq_hi() { return 0x1.fffffffffffffp+1023; }
};

// warp_sum returns the sum of x over the 32 lanes, the same bits in every lane (each
// butterfly step adds the same two numbers in both partners).
template <typename R> __device__ __forceinline__ R warp_sum(R x) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) x += __shfl_xor_sync(0xffffffffu, x, off);
    return x;
}

// nan_max is the larger of a and b, or NaN when either is NaN (fmax would drop the NaN).
template <typename R> __device__ __forceinline__ R nan_max(R a, R b) { return (a > b || a != a) ? a : b; }

// warp_max is nan_max over the 32 lanes, in every lane.
template <typename R> __device__ __forceinline__ R warp_max(R x) {
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) x = nan_max(x, __shfl_xor_sync(0xffffffffu, x, off));
    return x;
}

// team_nrm2 returns the Euclidean norm of a vector spread over a team of lanes, as LAPACK's
// nrm2: no overflow or underflow. each(f) calls f(re, im) on the parts of each element this
// lane holds; sum(x) and max(x) combine one value per lane over the team and return the
// team's result to every lane of the warp, the same bits in all (so that every branch below
// goes the same way in the whole warp). The plain sum of squares serves unless it left the
// range where it is exact to rounding; then the parts are scaled by the largest and summed
// again. NaN gives NaN; Inf gives NaN (Inf/Inf), which makes larfg's tau NaN.
template <typename R, typename Each, typename Sum, typename Max>
__device__ __forceinline__ R team_nrm2(Each each, Sum sum, Max max) {
    R ssq = 0;
    each([&](R re, R im) { ssq += re * re + im * im; });
    ssq = sum(ssq);
    if (ssq >= qr_const<R>::ssq_lo() && ssq <= qr_const<R>::ssq_hi()) return sqrt(ssq);
    R big = 0;
    each([&](R re, R im) { big = nan_max(nan_max(big, R(fabs(re))), R(fabs(im))); });
    big = max(big);
    if (big == 0) return 0;
    ssq = 0;
    each([&](R re, R im) {
        re /= big;
        im /= big;
        ssq += re * re + im * im;
    });
    return big * sqrt(sum(ssq));
}

// larfg is LAPACK's larfg for alpha = ar + i ai and a vector x that the caller holds: nrm2()
// returns ||x|| (the same in every lane), scale(s) multiplies x by s. It returns the real beta
// and sets tau, with H^H (alpha; x) = (beta; 0), H = I - tau v v^H, v = (1; x/(alpha - beta)),
// x becoming v's tail. tau = 0 (H = I, x unchanged, beta = ar) when x = 0 and alpha is real.
// When |beta| < safmin, x and alpha are scaled up by 1/safmin (at most 20 times) before the
// reflector is formed, and beta scaled back, as LAPACK does.
template <typename T, typename Nrm2, typename Scale>
__device__ __forceinline__ typename scalar<T>::real larfg(typename scalar<T>::real ar, typename scalar<T>::real ai, Nrm2 nrm2,
                                                          Scale scale, T &tau) {
    typedef scalar<T> S;
    typedef typename S::real R;
    const R safmin = qr_const<R>::safmin();
    R xnorm = nrm2();
    if (xnorm == 0 && ai == 0) {
        tau = S::from_real(0);
        return ar;
    }
    R beta = -copysign(R(hypot(R(hypot(ar, ai)), xnorm)), ar);
    int knt = 0;
    if (fabs(beta) < safmin) {
        const R rsafmn = R(1) / safmin;
        do {
            scale(S::from_real(rsafmn));
            beta *= rsafmn;
            ar *= rsafmn;
            ai *= rsafmn;
            knt++;
        } while (fabs(beta) < safmin && knt < 20);
        xnorm = nrm2();
        beta = -copysign(R(hypot(R(hypot(ar, ai)), xnorm)), ar);
    }
    tau = S::make((beta - ar) / beta, -ai / beta);
    scale(S::inv(S::make(ar - beta, ai)));
    for (; knt > 0; knt--) beta *= safmin;
    return beta;
}

// warp_larfg is larfg on column col of a shared matrix at step j, by one whole warp: alpha =
// col[j], x = col[j+1:m]. col[j] becomes beta, x becomes v's tail, and lane 0 writes tau to
// *tau. Lanes of other groups may have written col just before: the caller puts a __syncwarp
// between.
template <typename T> __device__ void warp_larfg(T *col, int j, int m, T *tau, int lane) {
    typedef scalar<T> S;
    typedef typename S::real R;
    auto each = [&](auto f) {
        for (int i = j + 1 + lane; i < m; i += 32) f(S::re(col[i]), S::im(col[i]));
    };
    auto nrm2 = [&] { return team_nrm2<R>(each, [](R v) { return warp_sum(v); }, [](R v) { return warp_max(v); }); };
    auto scale = [&](T s) {
        for (int i = j + 1 + lane; i < m; i += 32) col[i] = S::mul(col[i], s);
    };
    T t;
    const R beta = larfg(S::re(col[j]), S::im(col[j]), nrm2, scale, t);
    if (lane == 0) {
        *tau = t;
        col[j] = S::from_real(beta);
    }
}

// group_apply overwrites the column a by (I - t v v^H) a on rows j..m-1, where v(j) = 1
// (v[j] is not read) and v(j+1:m) = v[j+1:m], by the P lanes of a group; p is the lane's
// place in it. Every lane of the warp must call it together (the dot product is summed by
// shuffles); a lane with active false contributes nothing and writes nothing.
template <typename T>
__device__ __forceinline__ void group_apply(T *a, const T *v, int j, int m, T t, int p, int P, bool active) {
    typedef scalar<T> S;
    const int first = j + ((p - j) & (P - 1)); // this lane's first row at or below j
    const bool top = first == j;               // the lane that holds row j, where v is 1
    T d = S::from_real(0);
    if (active) {
        int i = first;
        if (top) {
            d = a[j];
            i += P;
        }
        for (; i < m; i += P) d = S::fma_conj(d, v[i], a[i]);
    }
    for (int off = P >> 1; off > 0; off >>= 1) d = S::add(d, S::shfl_xor(d, off));
    if (!active) return;
    const T td = S::mul(t, d);
    int i = first;
    if (top) {
        a[j] = S::sub(a[j], td);
        i += P;
    }
    for (; i < m; i += P) a[i] = S::sub_mul(a[i], td, v[i]);
}

// Columns in registers. A group of P lanes holds a column of P*RPL rows (RPL a template
// constant: 4, 8 or 16), lane p rows p + P r in x[r], the rows past the matrix's m being zero.
// The reflector v_j comes as a whole padded vector too: zero above j, one at j, zero past m.
// Then every step runs the same unrolled loop over all rows, with no tests and no dynamic
// register index: the zeros make the rows outside j..m-1 add nothing and change nothing.

// regs_load reads lane p's rows of the column a (P*RPL rows, zero past the matrix) into x.
template <typename T, int RPL> __device__ __forceinline__ void regs_load(T (&x)[RPL], const T *a, int p, int P) {
#pragma unroll
    for (int r = 0; r < RPL; r++) x[r] = a[p + P * r];
}

// regs_store writes lane p's rows below m of x to the column a.
template <typename T, int RPL> __device__ __forceinline__ void regs_store(const T (&x)[RPL], T *a, int m, int p, int P) {
#pragma unroll
    for (int r = 0; r < RPL; r++) {
        if (p + P * r < m) a[p + P * r] = x[r];
    }
}

// group_apply_regs is group_apply on a column held in registers: x becomes (I - t v v^H) x,
// v the padded reflector (P*RPL rows) in shared memory. The same rules: every lane of the
// warp calls it; an inactive lane adds nothing and keeps x. float keeps v in registers
// between the two passes; the 8- and 16-byte types read it again (a broadcast read) rather
// than double the registers a thread needs, which would halve the blocks an SM holds.
template <typename T, int RPL>
__device__ __forceinline__ void group_apply_regs(T (&x)[RPL], const T *v, T t, int p, int P, bool active) {
    typedef scalar<T> S;
    constexpr bool keep = sizeof(T) <= 4;
    T vr[keep ? RPL : 1];
    T d = S::from_real(0);
    if (active) {
#pragma unroll
        for (int r = 0; r < RPL; r++) {
            const T vi = v[p + P * r];
            if (keep) vr[keep ? r : 0] = vi;
            d = S::fma_conj(d, vi, x[r]);
        }
    }
    for (int off = P >> 1; off > 0; off >>= 1) d = S::add(d, S::shfl_xor(d, off));
    if (!active) return;
    const T td = S::mul(t, d);
#pragma unroll
    for (int r = 0; r < RPL; r++) x[r] = S::sub_mul(x[r], td, keep ? vr[keep ? r : 0] : v[p + P * r]);
}

// warp_has_column_after reports whether a group of this warp owns a column c with j < c < n,
// given one column per group (c = g): the same answer in every lane, so that a warp with no
// work skips a step whole.
__device__ __forceinline__ bool warp_has_column_after(int j, int n, int warp, int P) {
    return min(n - 1, (warp * 32 + 31) / P) > j;
}

// pad_row is row i of the padded form of a reflector stored LAPACK's way in column col
// (v(j) = 1 implicit, v(j+1:m) below it): zero above j and from m on. Only rows j+1..m-1
// of col are read.
template <typename T> __device__ __forceinline__ T pad_row(const T *col, int i, int j, int m) {
    return i > j && i < m ? col[i] : scalar<T>::from_real(i == j ? 1 : 0);
}

// group_larfg_regs is larfg on the column that a group holds in registers (regs_load's
// layout), at row j: alpha is row j, x the rows below. Every lane of the warp runs it, so
// that the reductions can shuffle; only the lanes with mine set (the group whose first lane is
// src) change their x, and every lane gets that group's beta and tau. Rows above j stay; x's
// rows below j become v's tail (the padding stays zero); row j is left for the caller, who
// writes beta there.
template <typename T, int RPL>
__device__ __forceinline__ typename scalar<T>::real group_larfg_regs(T (&x)[RPL], int j, int p, int P, int src, bool mine, T &tau) {
    typedef scalar<T> S;
    typedef typename S::real R;
    T alpha = S::from_real(0);
#pragma unroll
    for (int r = 0; r < RPL; r++) {
        if (p + P * r == j) alpha = x[r];
    }
    alpha = S::shfl(alpha, src + (j & (P - 1)));
    auto each = [&](auto f) {
#pragma unroll
        for (int r = 0; r < RPL; r++) {
            if (mine && p + P * r > j) f(S::re(x[r]), S::im(x[r]));
        }
    };
    auto sum = [&](R v) {
        for (int off = P >> 1; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
        return __shfl_sync(0xffffffffu, v, src);
    };
    auto max = [&](R v) {
        for (int off = P >> 1; off > 0; off >>= 1) v = nan_max(v, __shfl_xor_sync(0xffffffffu, v, off));
        return __shfl_sync(0xffffffffu, v, src);
    };
    auto nrm2 = [&] { return team_nrm2<R>(each, sum, max); };
    auto scale = [&](T s) {
#pragma unroll
        for (int r = 0; r < RPL; r++) {
            if (mine && p + P * r > j) x[r] = S::mul(x[r], s);
        }
    };
    return larfg(S::re(alpha), S::im(alpha), nrm2, scale, tau);
}
