// Two-sided Jacobi rotations of a Hermitian (symmetric, for real types) matrix, shared by the
// syev "tiny" (syev_tiny.cu) and "jacobi" (syev_jacobi.cu) kernels.
//
// The rotation of the pair (p, q), with a_pq = |a_pq| u (|u| = 1, u = +-1 for real types), is
// J = D R: D = diag(1, conj(u)) on (p, q) makes the 2-by-2 block real, [[app, g], [g, aqq]]
// with g = |a_pq|, and R = [[c, s], [-s, c]] is the symmetric Schur rotation that diagonalizes
// it (Golub and Van Loan, Algorithm 8.5.1):
//
//	theta = (aqq - app) / (2 g),  t = sign(theta) / (|theta| + sqrt(1 + theta^2)),
//	c = 1 / sqrt(1 + t^2),  s = t c,
//	app' = app - t g,  aqq' = aqq + t g,  a_pq' = 0.
//
// The rotation is applied as x - (1 - c) x - s y with 1 - c = s^2 / (1 + c), never with c
// itself: for small angles c rounds to 1 while s does not, so c^2 + s^2 exceeds 1 and every
// such rotation would grow the eigenvector columns the same way (the one-sided Jacobi of
// kernels/gesvd/jacobi.cuh showed it as V drifting 27 N eps from orthonormal at order 256).
//
// t is the smaller root of t^2 + 2 theta t - 1 = 0, |t| <= 1, so the rotation angle is at most
// pi/4 and the iteration converges quadratically; for |theta| beyond 1/sqrt(ulp),
// sqrt(1 + theta^2) is |theta| to working precision and is taken as such, which keeps
// theta^2 from overflowing. No step forms a product of two matrix elements, so no scaling of
// A is needed anywhere in the float or double range.
//
// A pair is skipped when |a_pq| <= ulp sqrt(|app|) sqrt(|aqq|), the relative criterion of
// Demmel and Veselic (which keeps the small eigenvalues of a graded positive definite matrix
// accurate to high relative accuracy), and its a_pq is set to zero, as Rutishauser's
// Jacobi does: a perturbation below ulp ||A||. A sweep that skips every pair ends the
// iteration. NaN is never
// negligible, so a NaN that arises in the iteration runs it to its bound of sweeps and shows
// in info.
#pragma once
#include "../common/scalar.cuh"

// SYEV_SWEEPS bounds the sweeps (every pair once) of the iteration; it converges in well
// under 15 at n <= 64.
#define SYEV_SWEEPS 30

// syev_ulp is the unit roundoff of R (LAPACK's lamch('E')).
template <typename R> __device__ __forceinline__ R syev_ulp();
template <> __device__ __forceinline__ float syev_ulp<float>() { return 0x1p-24f; }
template <> __device__ __forceinline__ double syev_ulp<double>() { return 0x1p-53; }

// syev_abs is |x|, for complex x without overflow or underflow of |x|^2.
__device__ __forceinline__ float syev_abs(float x) { return fabsf(x); }
__device__ __forceinline__ double syev_abs(double x) { return fabs(x); }
__device__ __forceinline__ float syev_abs(cfloat x) { return hypotf(x.re, x.im); }
__device__ __forceinline__ double syev_abs(cdouble x) { return hypot(x.re, x.im); }

// syev_negligible reports whether a_pq, of modulus g, is negligible beside app and aqq.
template <typename R> __device__ __forceinline__ bool syev_negligible(R g, R app, R aqq) {
    return g <= syev_ulp<R>() * sqrt(fabs(app)) * sqrt(fabs(aqq));
}

// syev_rot is the rotation J of one pair; a skipped pair has the identity (cm = 0, s = 0,
// u = 1, tg = 0).
template <typename T> struct syev_rot {
    typedef typename scalar<T>::real R;
    R cm, s, tg; // cm = 1 - c; tg = t g: app' = app - tg, aqq' = aqq + tg
    T u;        // the phase of a_pq
    bool on;    // not skipped
};

// syev_rotation is the rotation of the pair with diagonal app, aqq and a_pq = apq.
template <typename T>
__device__ __forceinline__ syev_rot<T> syev_rotation(typename scalar<T>::real app, typename scalar<T>::real aqq, T apq) {
    typedef scalar<T> S;
    typedef typename S::real R;
    syev_rot<T> r;
    const R g = syev_abs(apq);
    r.on = !syev_negligible(g, app, aqq);
    r.cm = 0;
    r.s = 0;
    r.tg = 0;
    r.u = S::from_real(1);
    if (!r.on) return r;
    const R theta = R(0.5) * ((aqq - app) / g), at = fabs(theta);
    R t = R(1) / (at + (at > R(1) / sqrt(syev_ulp<R>()) ? at : sqrt(R(1) + theta * theta)));
    if (theta < 0) t = -t;
    const R c = R(1) / sqrt(R(1) + t * t);
    r.s = t * c;
    r.cm = r.s * r.s / (R(1) + c);
    r.tg = t * g;
    r.u = S::make(S::re(apq) / g, S::im(apq) / g);
    return r;
}

// syev_apply sets x' = c x - s w y, y' = s x + c w y for the phase w, as
// x - (1 - c) x - s w y and w y - (1 - c) w y + s x.
template <typename T> __device__ __forceinline__ void syev_apply(const syev_rot<T> &r, T w, T &x, T &y) {
    typedef scalar<T> S;
    const T wy = S::mul(w, y), nx = S::sub(S::sub(x, S::scale(x, r.cm)), S::scale(wy, r.s));
    y = S::add(S::sub(wy, S::scale(wy, r.cm)), S::scale(x, r.s));
    x = nx;
}

// syev_right applies J from the right to x = M(k, p), y = M(k, q):
// x' = c x - s conj(u) y, y' = s x + c conj(u) y.
template <typename T> __device__ __forceinline__ void syev_right(const syev_rot<T> &r, T &x, T &y) {
    syev_apply(r, scalar<T>::conj(r.u), x, y);
}

// syev_left applies J^H from the left to x = M(p, j), y = M(q, j):
// x' = c x - s u y, y' = s x + c u y.
template <typename T> __device__ __forceinline__ void syev_left(const syev_rot<T> &r, T &x, T &y) {
    syev_apply(r, r.u, x, y);
}

// syev_finite reports whether x holds no NaN or Inf: x - x is zero exactly for finite x.
template <typename T> __device__ __forceinline__ bool syev_finite(T x) {
    typedef scalar<T> S;
    return S::re(x) - S::re(x) == 0 && S::im(x) - S::im(x) == 0;
}

// syev_nan is a NaN of R.
template <typename R> __device__ __forceinline__ R syev_nan() { return R(__longlong_as_double(0x7ff8000000000000LL)); }

// syev_before reports whether the eigenvalue dj of index j sorts before di of index i: by value,
// ties by index, NaN last; a strict total order, so that the ranks it gives are a permutation.
template <typename R> __device__ __forceinline__ bool syev_before(R dj, int j, R di, int i) {
    const bool nj = dj != dj, ni = di != di;
    if (nj || ni) return nj == ni ? j < i : ni;
    return dj < di || (dj == di && j < i);
}
