// The symmetric tridiagonal eigenproblem T = Z diag(w) Z^T by bisection and inverse
// iteration, as LAPACK's stebz and stein, for the syev kernels' tri=1 members (syev_cta.cu,
// syev_blocked.cu), every thread of the block at once: no O(n^2) chain runs on one thread.
//
//   1. Split (stebz): e_i is negligible where e_i^2 <= ulp^2 |d_i d_{i+1}| + safmin; e2 gets
//      e_i^2, or 0 there. The rows between two zeros of e2 form an unreduced block.
//   2. Eigenvalues (stebz, dlaebz): thread t takes the rows k = t, t + nt, ...; with lo..hi
//      the block holding row k, it finds the (k - lo)-th smallest eigenvalue of that block
//      (lam[k]) by bisection on its Gershgorin interval, widened by 2 (m ulp tnorm + pivmin)
//      as stebz: the count of negative pivots of T - x I (Sturm), each pivot of magnitude
//      below pivmin = safmin max(1, max e_i^2) taken as -pivmin, until the interval is below
//      max(ulp tnorm, pivmin, 2 ulp |x|) (stebz's tolerances with abstol 0: tnorm the
//      block's Gershgorin bound, ulp = 2 eps). Each bisection step halves the interval, so it
//      ends within log2(2 / ulp) + 2 steps. A block of order 1 is its diagonal element.
//   3. Order: rank[k] is the place of lam[k] in the ascending spectrum, ties broken by k, so
//      that the eigenvalues come out ascending without a sort and identical input gives
//      identical output.
//   4. With vectors, inverse iteration (stein) for each cluster of a block: eigenvalues
//      whose gaps to their neighbours in the block are at most 1e-3 ||T_block||_1 (stein's
//      ortol), one thread per cluster, its vectors in ascending order. A vector starts
//      pseudo-random in [-1, 1) (a hash of k and the row: the same in every run); each step
//      scales the right-hand side to 1-norm m ||T_block||_1 max(ulp, |u_mm|) and solves
//      (T_block - x I) y = b by the LU factorization of lagtf (partial pivoting, three
//      diagonals of U) and the back substitution of lagts with job -1 (pivots too small for
//      the solution to fit are perturbed by growing multiples of eps max |U|); then it
//      subtracts from y, by modified Gram-Schmidt, its components along the earlier vectors
//      of the cluster. Converged when max |y_i| >= sqrt(0.1/m), plus two more steps; at most
//      five steps, else the vector is counted as failed (stein's info). The shift of a
//      cluster member closer than 10 ulp |x| to the previous one is moved to that distance
//      (stein's pertol), so that equal eigenvalues get independent vectors. A cluster
//      member gets one more Gram-Schmidt pass at the end (stein has none). The vector is
//      normalized, its largest component made positive, and written with zeros outside its
//      block into column rank[k] of Z (in the output matrix), where the later members of its
//      cluster read it back.
//
// Why: steqr's QL/QR is a chain of O(n^2) dependent rotations on one thread (tridiag.cuh);
// here every eigenvalue and every cluster is independent work. The eigenvalues are as
// accurate as stebz's (to ulp ||T_block||, about eps ||A||), the vectors orthogonal as
// stein's: to working accuracy between clusters by the separation of their eigenvalues,
// within a cluster by Gram-Schmidt.
//
// The factorization's three diagonals and the iterate are one thread's, in global memory
// (inv, an array of 4n reals per thread, interleaved so that the threads of a warp touch
// consecutive addresses: element i of array a at inv[(a n + i) nt + t]); the factorization
// is recomputed each step with the forward elimination fused into it, so that its
// multipliers need no storage.
#pragma once
#include "tridiag.cuh"

// bis_maxit bounds the bisection steps: log2(2 / ulp) + 2 suffice (step 2 above); the bound
// is a guard.
template <typename R> __device__ __forceinline__ int bis_maxit() { return sizeof(R) == 4 ? 64 : 128; }

// bis_block is the unreduced block of rows lo..hi of T and what the solvers need of it.
template <typename R> struct bis_block {
    int lo, hi;
    R gl, gu;   // the widened Gershgorin interval
    R atol;     // ulp max(|gl|, |gu|): bisection's absolute tolerance
    R pivmin;   // safmin max(1, max e_i^2): the smallest pivot magnitude of a Sturm count
    R onenrm;   // ||T_block||_1
};

// bis_block_of is the block holding row k: rows lo..hi between zeros of e2.
template <typename R> __device__ __forceinline__ bis_block<R> bis_block_of(const R *d, const R *e, const R *e2, int n, int k) {
    typedef tri_const<R> K;
    const R ulp = 2 * K::eps();
    bis_block<R> b;
    b.lo = k, b.hi = k;
    while (b.lo > 0 && e2[b.lo - 1] != 0) b.lo--;
    while (b.hi < n - 1 && e2[b.hi] != 0) b.hi++;
    R gl = d[b.lo], gu = gl, on = 0, emax2 = 0;
    for (int i = b.lo; i <= b.hi; i++) {
        const R r = (i > b.lo ? fabs(e[i - 1]) : R(0)) + (i < b.hi ? fabs(e[i]) : R(0));
        gl = min(gl, d[i] - r), gu = max(gu, d[i] + r), on = max(on, fabs(d[i]) + r);
        if (i < b.hi) emax2 = max(emax2, e2[i]);
    }
    const R tnorm = max(fabs(gl), fabs(gu)), m = R(b.hi - b.lo + 1);
    b.pivmin = K::safmin() * max(R(1), emax2);
    b.gl = gl - 2 * (tnorm * ulp * m + b.pivmin), b.gu = gu + 2 * (tnorm * ulp * m + b.pivmin);
    b.atol = ulp * tnorm, b.onenrm = on;
    return b;
}

// bis_count is the number of eigenvalues of block b below x: the negative pivots of the
// LDL^T factorization of T_block - x I.
// float32 divides by __fdividef (2 ulp; exact IEEE division is a subroutine of about ten
// dependent instructions): the count is then the exact count of T with d and e2 perturbed by
// a few ulp, which moves the eigenvalues by a few ulp ||T||, within bisection's tolerance.
// The matrix is scaled into [2^-16, 2^16] (syev_solve) and |q| >= pivmin, so no quotient
// reaches the 2^126 where __fdividef fails.
__device__ __forceinline__ float bis_div(float a, float b) { return __fdividef(a, b); }
__device__ __forceinline__ double bis_div(double a, double b) { return a / b; }

template <typename R> __device__ __forceinline__ int bis_count(const R *d, const R *e2, const bis_block<R> &b, R x) {
    R q = d[b.lo] - x;
    if (fabs(q) <= b.pivmin) q = -b.pivmin;
    int c = q < 0;
    for (int i = b.lo + 1; i <= b.hi; i++) {
        q = (d[i] - x) - bis_div(e2[i - 1], q);
        if (fabs(q) <= b.pivmin) q = -b.pivmin;
        c += q < 0;
    }
    return c;
}

// bis_eigenvalue is the j-th smallest eigenvalue (from 0) of block b, by bisection.
template <typename R> __device__ __forceinline__ R bis_eigenvalue(const R *d, const R *e2, const bis_block<R> &b, int j) {
    const R rtol = 4 * tri_const<R>::eps(), tol0 = max(b.atol, b.pivmin);
    R l = b.gl, u = b.gu;
    for (int it = 0; it < bis_maxit<R>() && u - l > max(tol0, rtol * max(fabs(l), fabs(u))); it++) {
        const R x = l + R(0.5) * (u - l);
        if (bis_count(d, e2, b, x) > j) u = x;
        else l = x;
    }
    return l + R(0.5) * (u - l);
}

// bis_random is the pseudo-random start of inverse iteration, in (-1, 1): a hash of the
// vector's index k and the row i, in [-1, 1).
template <typename R> __device__ __forceinline__ R bis_random(int k, int i) {
    unsigned h = (unsigned)k * 0x9e3779b9u ^ ((unsigned)i + 0x7f4a7c15u) * 0x85ebca6bu;
    h ^= h >> 16, h *= 0x7feb352du, h ^= h >> 15, h *= 0x846ca68bu, h ^= h >> 16;
    return R((int)(h >> 8) - (1 << 23)) * R(0x1p-23);
}

// bis_inv is one thread's inverse-iteration arrays (y, and U's diagonals ua, ub, ud),
// interleaved with the other threads' (see the top).
template <typename R> struct bis_inv {
    R *base;
    int n, nt;
    __device__ __forceinline__ R &at(int a, int i) const { return base[(a * n + i) * nt]; }
    __device__ __forceinline__ R &y(int i) const { return at(0, i); }
    __device__ __forceinline__ R &ua(int i) const { return at(1, i); }
    __device__ __forceinline__ R &ub(int i) const { return at(2, i); }
    __device__ __forceinline__ R &ud(int i) const { return at(3, i); }
};

// BIS_PREFETCH is how many rows ahead of its step the inverse iteration asks the L1 cache for
// the arrays of bis_inv (bis_prefetch: no register held), and each step loads the next
// row's values before its own arithmetic. The arrays are in global memory, at n = 64 more
// than the L2 cache holds for a batch of 1024: a load issued when its row is reached
// stalled every step of a short chain of dependent arithmetic. Measured on an H200
// (bench/results/sm_90/issue26/round10_variants.txt) against rings of 2 to 8 rows in
// registers: as fast at n >= 64 (float32 n = 64, batch 1024: 0.96 ms against 1.14 before,
// 0.94 to 0.95 with the rings), faster at n = 16 and 32, and without the rings' spills
// (float64 spilled at 4 rows, and at 2 in the cta kernel). Float32 n = 16 is 5% slower than
// before the read-ahead (0.363 ms against 0.344: more registers, fewer blocks an SM).
#define BIS_PREFETCH 8
template <typename R> __device__ __forceinline__ void bis_prefetch(const R *p) {
#ifndef BATCHLAS_EMU
    asm volatile("prefetch.global.L1 [%0];" ::"l"(p));
#endif
}

// bis_factor factors T_block - x I = P L U as lagtf, U's diagonals into ua, ub, ud, and
// applies L^{-1} P to y at the same time (lagts's forward pass). It returns eps max |U|
// (eps when U is zero), lagts's perturbation for small pivots. y(k+1) is read a step before
// its own (before the step at k writes y(k)).
template <typename R> __device__ __forceinline__ R bis_factor(const R *d, const R *e, int lo, int m, R x, const bis_inv<R> &w) {
    R ak = d[lo] - x, bk = e[lo], scale1 = fabs(ak) + fabs(bk), yk = w.y(0), big = 0;
    R next = m > 1 ? w.y(1) : R(0);
#pragma unroll 1
    for (int k = 0; k < m - 1; k++) {
        R y1 = next, uak, ubk, udk;
        if (k + 2 < m) next = w.y(k + 2);
        if (k + 1 + BIS_PREFETCH < m) bis_prefetch(&w.y(k + 1 + BIS_PREFETCH));
        const R a1 = d[lo + k + 1] - x, ck = e[lo + k], bn = k < m - 2 ? e[lo + k + 1] : R(0);
        const R scale2 = fabs(ck) + fabs(a1) + fabs(bn);
        // lagtf interchanges rows k and k+1 when |c_k| / scale2 > |a_k| / scale1.
        if (ak == 0 ? ck != 0 : fabs(ck) * scale1 > fabs(ak) * scale2) {
            const R mult = ak / ck, t = yk;
            uak = ck, ubk = a1, udk = bn;
            ak = bk - mult * a1, bk = -mult * bn;
            yk = y1, y1 = t - mult * y1;
        } else {
            const R mult = ck == 0 ? R(0) : ck / ak;
            uak = ak, ubk = bk, udk = 0;
            ak = a1 - mult * bk, bk = bn;
            y1 -= mult * yk;
            scale1 = scale2;
        }
        w.ua(k) = uak, w.ub(k) = ubk, w.ud(k) = udk, w.y(k) = yk;
        big = max(big, max(fabs(uak), max(fabs(ubk), fabs(udk))));
        yk = y1;
    }
    w.ua(m - 1) = ak, w.ub(m - 1) = 0, w.ud(m - 1) = 0, w.y(m - 1) = yk;
    big = max(big, fabs(ak));
    return big == 0 ? tri_const<R>::eps() : big * tri_const<R>::eps();
}

// bis_solveu overwrites y with U^{-1} (s y), as lagts with job -1: a pivot too small for
// its quotient to fit is moved away from zero by tol, 2 tol, 4 tol, ... It returns the
// largest |y_i| (ymax, with its sign) and sum |y_i|. The steps run from row m-1 down, each
// reading the next row's four values before its own arithmetic and writing its own y(k).
template <typename R> __device__ __forceinline__ void bis_solveu(int m, R s, R tol, const bis_inv<R> &w, R &ymax, R &asum) {
    typedef tri_const<R> K;
    const R sfmin = K::safmin(), bignum = 1 / K::safmin();
    R y1 = 0, y2 = 0;
    R ny = w.y(m - 1), na = w.ua(m - 1), nb = w.ub(m - 1), nd = w.ud(m - 1);
    ymax = 0, asum = 0;
#pragma unroll 1
    for (int k = m - 1; k >= 0; k--) {
        R t = s * ny - nb * y1 - nd * y2, ak = na, pert = copysign(tol, ak);
        if (k > 0) ny = w.y(k - 1), na = w.ua(k - 1), nb = w.ub(k - 1), nd = w.ud(k - 1);
        if (k - BIS_PREFETCH >= 0) {
            const int r = k - BIS_PREFETCH;
            bis_prefetch(&w.y(r)), bis_prefetch(&w.ua(r)), bis_prefetch(&w.ub(r)), bis_prefetch(&w.ud(r));
        }
        for (;;) {
            const R absak = fabs(ak);
            if (absak < 1) {
                if (absak < sfmin) {
                    if (absak == 0 || fabs(t) * sfmin > absak) {
                        ak += pert, pert *= 2;
                        continue;
                    }
                    t *= bignum, ak *= bignum;
                } else if (fabs(t) > absak * bignum) {
                    ak += pert, pert *= 2;
                    continue;
                }
            }
            break;
        }
        const R yk = t / ak;
        w.y(k) = yk, y2 = y1, y1 = yk;
        if (fabs(yk) >= fabs(ymax)) ymax = yk; // >=: the first of equal magnitudes, as idamax
        asum += fabs(yk);
    }
}

// bis_gs subtracts from y, by modified Gram-Schmidt, its components along the columns
// rank[k0..k-1] of z (rows lo..lo+m-1: the cluster's earlier vectors, normalized), and
// returns the largest |y_i| (ymax, with its sign) and sum |y_i| of the result. Its loops
// have no chain between rows but the sums, so they are unrolled by four: four loads in
// flight at once.
template <typename T>
__device__ __forceinline__ void bis_gs(const T *z, i64 ld, const int *rank, int lo, int m, int k0, int k,
                                       const bis_inv<typename scalar<T>::real> &w, typename scalar<T>::real &ymax,
                                       typename scalar<T>::real &asum) {
    typedef scalar<T> S;
    typedef typename S::real R;
    for (int p = k0; p < k; p++) {
        const T *zp = z + (i64)rank[p] * ld + lo;
        R dot = 0;
#pragma unroll 4
        for (int i = 0; i < m; i++) dot += w.y(i) * S::re(zp[i]);
#pragma unroll 4
        for (int i = 0; i < m; i++) w.y(i) -= dot * S::re(zp[i]);
    }
    ymax = 0, asum = 0;
#pragma unroll 4
    for (int i = 0; i < m; i++) {
        const R v = w.y(i);
        if (fabs(v) > fabs(ymax)) ymax = v;
        asum += fabs(v);
    }
}

// bis_vectors computes by inverse iteration the vectors of the cluster k0..k1 of the block
// of rows lo..lo+m-1, ||T_block||_1 = onenrm (step 4 at the top), into the columns rank[k]
// of z, and returns how many failed. The loops over the rows that read global memory without
// a chain between steps (the norm, the store; bis_gs's) are unrolled by four, so that four
// loads are in flight at once; the others stay rolled (#pragma unroll 1): fully
// unrolled, float64 spilled at the 128-register budget of the kernels, and as a call
// (noinline) the registers live across it spilled in the blocked kernel. Only the rows
// outside the block are zeroed: the vector's own rows are written once, at the end.
template <typename T>
__device__ __forceinline__ int bis_vectors(T *z, i64 ld, int n, const typename scalar<T>::real *d,
                                           const typename scalar<T>::real *e, const typename scalar<T>::real *lam,
                                           const int *rank, int lo, int m, typename scalar<T>::real onenrm, int k0, int k1,
                                           bis_inv<typename scalar<T>::real> w) {
    typedef scalar<T> S;
    typedef typename S::real R;
    const R ulp = 2 * tri_const<R>::eps();
    const R dtpcrt = sqrt(R(0.1) / R(m));
    int failed = 0;
    R xjm = 0;
    for (int k = k0; k <= k1; k++) {
        T *zk = z + (i64)rank[k] * ld;
#pragma unroll 1
        for (int i = 0; i < n; i++) {
            if (i == lo) i += m;
            if (i < n) zk[i] = S::from_real(0);
        }
        if (m == 1) {
            zk[lo] = S::from_real(1);
            continue;
        }
        R x = lam[k];
        if (k > k0 && x - xjm < 10 * fabs(ulp * x)) x = xjm + 10 * fabs(ulp * x);
        xjm = x;
        R asum = 0, ymax = 0;
#pragma unroll 1
        for (int i = 0; i < m; i++) {
            const R v = bis_random<R>(k, i);
            w.y(i) = v, asum += fabs(v);
        }
        bool done = false;
        for (int its = 0, nrmchk = 0; its < 5 && !done; its++) {
            const R tol = bis_factor(d, e, lo, m, x, w);
            const R s = asum > 0 ? R(m) * onenrm * max(ulp, fabs(w.ua(m - 1))) / asum : R(1);
            bis_solveu(m, s, tol, w, ymax, asum);
            if (k > k0) bis_gs(z, ld, rank, lo, m, k0, k, w, ymax, asum);
            if (fabs(ymax) >= dtpcrt) done = ++nrmchk == 3;
        }
        failed += !done;
        // Twice is enough (Kahan, Parlett): the second pass restores the orthogonality that
        // the first lost to cancellation, where y was mostly along the earlier vectors (the
        // near-singular pivots of a large cluster amplify the same directions for every
        // member).
        if (k > k0) bis_gs(z, ld, rank, lo, m, k0, k, w, ymax, asum);
        if (ymax == 0) { // nothing left to normalize: the column is zero
#pragma unroll 1
            for (int i = 0; i < m; i++) zk[lo + i] = S::from_real(0);
            continue;
        }
        const R nrm = fabs(ymax);
        R ss = 0;
#pragma unroll 4
        for (int i = 0; i < m; i++) {
            const R v = w.y(i) / nrm;
            ss += v * v;
        }
        const R scl = copysign(1 / (nrm * sqrt(ss)), ymax);
#pragma unroll 4
        for (int i = 0; i < m; i++) zk[lo + i] = S::from_real(w.y(i) * scl);
    }
    return failed;
}

// bis_solve solves T = Z diag(w) Z^T (steps 1-4 at the top) for the tridiagonal d, e of
// order n, every thread of the block calling it. On return d holds the eigenvalues
// ascending and, with vectors, column i of z their eigenvectors; e2, lam and rank are n
// elements of scratch each, fails one int, inv the threads' inverse-iteration arrays (4 n
// blockDim.x reals, used with vectors alone). It returns the count of vectors whose
// inverse iteration did not converge (0 without vectors), the same in every thread.
template <typename T>
__device__ int bis_solve(T *z, i64 ld, int n, bool vectors, typename scalar<T>::real *d, typename scalar<T>::real *e,
                         typename scalar<T>::real *e2, typename scalar<T>::real *lam, int *rank, int *fails,
                         typename scalar<T>::real *inv) {
    typedef typename scalar<T>::real R;
    typedef tri_const<R> K;
    const int tid = threadIdx.x, nt = blockDim.x;
    const R ulp2 = 4 * K::eps() * K::eps();
    for (int i = tid; i < n - 1; i += nt) {
        const R t = e[i] * e[i];
        e2[i] = fabs(d[i] * d[i + 1]) * ulp2 + K::safmin() > t ? R(0) : t;
    }
    if (tid == 0) *fails = 0;
    __syncthreads();
    for (int k = tid; k < n; k += nt) {
        const bis_block<R> b = bis_block_of(d, e, e2, n, k);
        lam[k] = b.lo == b.hi ? d[k] : bis_eigenvalue(d, e2, b, k - b.lo);
    }
    __syncthreads();
    for (int k = tid; k < n; k += nt) {
        const R x = lam[k];
        int r = 0;
        for (int j = 0; j < n; j++) r += lam[j] < x || (lam[j] == x && j < k);
        rank[k] = r;
    }
    __syncthreads();
    if (vectors) {
        const bis_inv<R> w = {inv + tid, n, nt};
        int failed = 0;
        for (int k = tid; k < n; k += nt) {
            const bis_block<R> b = bis_block_of(d, e, e2, n, k);
            const R ortol = R(1e-3) * b.onenrm;
            if (k > b.lo && fabs(lam[k] - lam[k - 1]) <= ortol) continue; // not the first of its cluster
            int k1 = k;
            while (k1 < b.hi && fabs(lam[k1 + 1] - lam[k1]) <= ortol) k1++;
            failed += bis_vectors(z, ld, n, d, e, lam, rank, b.lo, b.hi - b.lo + 1, b.onenrm, k, k1, w);
        }
        if (failed) atomicAdd(fails, failed);
    }
    __syncthreads();
    const int bad = *fails;
    for (int k = tid; k < n; k += nt) d[rank[k]] = lam[k];
    __syncthreads();
    return bad;
}
