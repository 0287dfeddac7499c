// Householder reflectors for the "cta" QR kernels (geqrf_cta.cu, orgqr_cta.cu, ormqr_cta.cu),
// one block per matrix: LAPACK's larfg for one column by one warp, and the application of
// H = I - t v v^H to columns, P lanes per column.
//
// Layout: a matrix held column-major in shared memory with leading dimension lds. A column is
// updated by a group of P lanes (P a power of two, at most 32, the group inside one warp),
// each lane owning the same rows at every step, so that a group's lanes never read one
// another's rows and need no barrier between two updates of one column. The Go side picks P
// and lds (qrCTALayout in geqrf_cuda.go).
//
// Two ways to hold the columns being updated: in shared memory (group_apply, any size that
// fits; lane p owns the rows i with i % P == p, and lds is P times an odd number (mod 32), so
// that the 32/P columns and P consecutive rows one warp touches fall in distinct banks), or,
// when every group has one column and no lane more than 32 rows, in the registers of its
// group (group_apply_regs, below): then a step reads only the reflector from shared memory,
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

// norm3 is sqrt(a^2 + b^2 + c^2) without overflow or underflow (LAPACK's lapy3): the plain
// sum where it is exact to rounding, else two hypots.
template <typename R> __device__ __forceinline__ R norm3(R a, R b, R c) {
    const R ssq = a * a + b * b + c * c;
    if (ssq >= qr_const<R>::ssq_lo() && ssq <= qr_const<R>::ssq_hi()) return sqrt(ssq);
    return hypot(R(hypot(a, b)), c);
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
    R beta = -copysign(norm3(ar, ai, xnorm), ar);
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
        beta = -copysign(norm3(ar, ai, xnorm), ar);
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
// constant: 4, 8, 16 or, but for complex128, 32) in x[RPL] of its lanes, the rows past the
// matrix's m being zero. The rows go out in chunks of W = 16 bytes' worth (4 floats, 2
// doubles or complex64s, 1 complex128), dealt to the lanes in turn (reg_row), so that a lane
// reads its chunks with 16-byte loads and the P lanes of a group read P consecutive chunks:
// no bank conflicts, and every group of a warp reads the same ones (a broadcast). The
// reflector v_j comes as a whole padded vector too: zero above j, one at j, zero past m. Then
// every step runs the same unrolled loop over all rows, with no tests and no dynamic register
// index: the zeros make the rows outside j..m-1 add nothing and change nothing. A column in
// shared memory that such a group reads or writes starts on a 16-byte boundary.

// qr_w is the elements of T in 16 bytes.
template <typename T> __host__ __device__ constexpr int qr_w() { return 16 / sizeof(T); }

// qr_pack is 16 bytes of T, for 16-byte shared memory accesses.
template <typename T> struct __align__(16) qr_pack { T e[qr_w<T>()]; };

// load16 and store16 move the 16 bytes at a (16-byte aligned; the CPU emulator checks).
template <typename T> __device__ __forceinline__ qr_pack<T> load16(const T *a) {
#ifdef BATCHLAS_EMU
    if (reinterpret_cast<unsigned long long>(a) & 15) __builtin_trap();
#endif
    return *reinterpret_cast<const qr_pack<T> *>(a);
}
template <typename T> __device__ __forceinline__ void store16(T *a, const qr_pack<T> &v) {
#ifdef BATCHLAS_EMU
    if (reinterpret_cast<unsigned long long>(a) & 15) __builtin_trap();
#endif
    *reinterpret_cast<qr_pack<T> *>(a) = v;
}

// reg_row is the row of x[r] of lane p of a group of P: chunks of W rows, dealt in turn.
template <typename T> __device__ __forceinline__ int reg_row(int p, int P, int r) {
    constexpr int W = qr_w<T>();
    return (r / W * P + p) * W + r % W;
}

// qr_rpl<N> carries a rows-per-lane count to a generic lambda (with_rpl).
template <int N> struct qr_rpl {
    static constexpr int value = N;
};

// with_rpl calls f(qr_rpl<rpl>()) when rpl is one of the register layouts T has, and reports
// whether it did: up to 32 rows for the real types, and 128 bytes of a column for the complex
// ones (16 rows of complex64, 8 of complex128), whose arithmetic needs more temporaries: with
// 256 bytes ptxas spilled them (sm_90). geqrf_cuda.go's qrCTAMaxRegRows is the same rule.
template <typename T, typename F> __device__ __forceinline__ bool with_rpl(int rpl, F f) {
    constexpr bool cplx = sizeof(typename scalar<T>::real) != sizeof(T);
    switch (rpl) {
    case 4: f(qr_rpl<4>()); return true;
    case 8: f(qr_rpl<8>()); return true;
    case 16:
        if constexpr (!cplx || sizeof(T) * 16 <= 128) {
            f(qr_rpl<16>());
            return true;
        }
        return false;
    case 32:
        if constexpr (!cplx) {
            f(qr_rpl<32>());
            return true;
        }
    }
    return false;
}

// regs_load reads lane p's rows of the column a (P*RPL rows, zero past the matrix) into x.
template <typename T, int RPL> __device__ __forceinline__ void regs_load(T (&x)[RPL], const T *a, int p, int P) {
    constexpr int W = qr_w<T>();
#pragma unroll
    for (int q = 0; q < RPL / W; q++) {
        const qr_pack<T> c = load16(a + (q * P + p) * W);
#pragma unroll
        for (int w = 0; w < W; w++) x[q * W + w] = c.e[w];
    }
}

// regs_store writes x to lane p's rows of the column a: all P*RPL of them, 16 bytes at a
// time, the rows past the matrix included (the caller's column has room for them and no
// use).
template <typename T, int RPL> __device__ __forceinline__ void regs_store(const T (&x)[RPL], T *a, int p, int P) {
    constexpr int W = qr_w<T>();
#pragma unroll
    for (int q = 0; q < RPL / W; q++) {
        qr_pack<T> c;
#pragma unroll
        for (int w = 0; w < W; w++) c.e[w] = x[q * W + w];
        store16(a + (q * P + p) * W, c);
    }
}

// group_apply_regs is group_apply on a column held in registers: x becomes (I - t v v^H) x,
// v the padded reflector (P*RPL rows) in shared memory. The same rules: every lane of the
// warp calls it; an inactive lane adds nothing and keeps x. The second pass reads v again (16
// bytes a load, a broadcast) rather than keep it in as many registers as x, which would cut
// the blocks an SM holds.
template <typename T, int RPL>
__device__ __forceinline__ void group_apply_regs(T (&x)[RPL], const T *v, T t, int p, int P, bool active) {
    typedef scalar<T> S;
    constexpr int W = qr_w<T>();
    T d = S::from_real(0), d1 = S::from_real(0); // two sums halve the chain of dependent adds
    if (active) {
#pragma unroll
        for (int q = 0; q < RPL / W; q++) {
            const qr_pack<T> c = load16(v + (q * P + p) * W);
#pragma unroll
            for (int w = 0; w < W; w++) {
                if ((q * W + w) & 1) d1 = S::fma_conj(d1, c.e[w], x[q * W + w]);
                else d = S::fma_conj(d, c.e[w], x[q * W + w]);
            }
        }
        d = S::add(d, d1);
    }
    for (int off = P >> 1; off > 0; off >>= 1) d = S::add(d, S::shfl_xor(d, off));
    if (!active) return;
    const T td = S::mul(t, d);
#pragma unroll
    for (int q = 0; q < RPL / W; q++) {
        const qr_pack<T> c = load16(v + (q * P + p) * W);
#pragma unroll
        for (int w = 0; w < W; w++) x[q * W + w] = S::sub_mul(x[q * W + w], td, c.e[w]);
    }
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
