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

// warp_nrm2 returns the Euclidean norm of x[from:m] (every lane gets it), as LAPACK's nrm2:
// no overflow or underflow. The plain sum of squares serves unless it left the range where it
// is exact to rounding; then the elements are scaled by their largest part and summed again.
// NaN gives NaN; Inf gives NaN (Inf/Inf), and a NaN norm makes larfg's tau NaN.
template <typename T> __device__ typename scalar<T>::real warp_nrm2(const T *x, int from, int m, int lane) {
    typedef scalar<T> S;
    typedef typename S::real R;
    R ssq = 0;
    for (int i = from + lane; i < m; i += 32) ssq += S::abs2(x[i]);
    ssq = warp_sum(ssq);
    if (ssq >= qr_const<R>::ssq_lo() && ssq <= qr_const<R>::ssq_hi()) return sqrt(ssq);
    R big = 0;
    for (int i = from + lane; i < m; i += 32) big = nan_max(nan_max(big, R(fabs(S::re(x[i])))), R(fabs(S::im(x[i]))));
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) big = nan_max(big, __shfl_xor_sync(0xffffffffu, big, off));
    if (big == 0) return 0;
    ssq = 0;
    for (int i = from + lane; i < m; i += 32) {
        const R re = S::re(x[i]) / big, im = S::im(x[i]) / big;
        ssq += re * re + im * im;
    }
    return big * sqrt(warp_sum(ssq));
}

// warp_scale multiplies x[from:m] by s, lane by lane over the rows warp_nrm2 reads.
template <typename T> __device__ __forceinline__ void warp_scale(T *x, int from, int m, T s, int lane) {
    for (int i = from + lane; i < m; i += 32) x[i] = scalar<T>::mul(x[i], s);
}

// warp_larfg is LAPACK's larfg on column col of a shared matrix at step j, by one whole warp:
// with alpha = col[j] and x = col[j+1:m] it finds the real beta and tau with
// H^H (alpha; x) = (beta; 0), H = I - tau v v^H, v = (1; x/(alpha - beta)). col[j] becomes
// beta, x becomes v's tail, and lane 0 writes tau to *tau. tau = 0 (H = I, nothing written) when x = 0 and alpha is real. When
// |beta| < safmin, x and alpha are scaled up by 1/safmin (at most 20 times) before the
// reflector is formed, and beta scaled back, as LAPACK does. Lanes of other groups may have
// written col just before: the caller puts a __syncwarp between.
template <typename T> __device__ void warp_larfg(T *col, int j, int m, T *tau, int lane) {
    typedef scalar<T> S;
    typedef typename S::real R;
    const R safmin = qr_const<R>::safmin();
    R ar = S::re(col[j]), ai = S::im(col[j]);
    R xnorm = warp_nrm2(col, j + 1, m, lane);
    if (xnorm == 0 && ai == 0) {
        if (lane == 0) *tau = S::from_real(0);
        return;
    }
    R beta = -copysign(R(hypot(R(hypot(ar, ai)), xnorm)), ar);
    int knt = 0;
    if (fabs(beta) < safmin) {
        const R rsafmn = R(1) / safmin;
        do {
            warp_scale(col, j + 1, m, S::from_real(rsafmn), lane);
            beta *= rsafmn;
            ar *= rsafmn;
            ai *= rsafmn;
            knt++;
        } while (fabs(beta) < safmin && knt < 20);
        xnorm = warp_nrm2(col, j + 1, m, lane);
        beta = -copysign(R(hypot(R(hypot(ar, ai)), xnorm)), ar);
    }
    const T t = S::make((beta - ar) / beta, -ai / beta);
    warp_scale(col, j + 1, m, S::inv(S::make(ar - beta, ai)), lane);
    for (; knt > 0; knt--) beta *= safmin;
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
