// The steps of the one-block-per-matrix syev kernels (syev_cta.cu, syev_blocked.cu): the
// algorithm and the layout are described at the top of syev_cta.cu. The layout is a base
// address: the cta kernel puts it in shared memory, the blocked kernel in global workspace;
// the same barriers make either visible to the whole block.
#pragma once
#include "../common/householder.cuh"
#include "bisect.cuh"

template <typename R> __device__ __forceinline__ R syev_nan();
template <> __device__ __forceinline__ float syev_nan<float>() { return __int_as_float(0x7fffffff); }
template <> __device__ __forceinline__ double syev_nan<double>() { return __longlong_as_double(0x7ff8000000000000ll); }

// The back-transform (syev_back) gives each column of Z a group of P lanes, about
// SYEV_BACK_ROWS rows a lane, so that a warp works on 32/P columns at once; the columns are
// staged at a stride of P times an odd number (syev_back_ld), so that the warp's groups and
// lanes read distinct banks. syev_cuda.go's syevBackCols is the same rule.
#define SYEV_BACK_ROWS 8
__device__ __forceinline__ int syev_back_group(int n) {
    int P = 1;
    while (P < 32 && P * SYEV_BACK_ROWS < n) P *= 2;
    return P;
}
__device__ __forceinline__ int syev_back_ld(int n) {
    const int P = syev_back_group(n);
    return P * (((n + P - 1) / P) | 1);
}
// syev_back_cols is the staging space of one warp: 32/P columns of syev_back_ld elements.
__device__ __forceinline__ int syev_back_cols(int n) { return 32 / syev_back_group(n) * syev_back_ld(n); }

// syev_layout carves the dynamic shared memory, as the comment at the top of syev_cta.cu
// says. The bisection (bisect.cuh) uses c for its eigenvalues in block order, s for the
// squared off-diagonal, piv for their ranks and the first int of rot for its count of failed
// vectors.
template <typename T> struct syev_layout {
    typedef typename scalar<T>::real R;
    T *a, *col, *y, *tau, *red;
    R *d, *e, *c, *s; // c and s: two buffers of n
    int *piv;
    tri_rot *rot;
    int lds;
    __device__ __forceinline__ syev_layout(unsigned char *base, int n, int nw) {
        lds = n | 1;
        a = (T *)base;
        col = a + (i64)n * lds;
        y = col + nw * syev_back_cols(n);
        tau = y + n;
        red = tau + n;
        d = (R *)(red + 32);
        e = d + n;
        c = e + n;
        s = c + 2 * n;
        piv = (int *)(s + 2 * n);
        rot = (tri_rot *)(piv + n);
    }
};

// syev_load copies the uplo triangle of m into the lower triangle of the tile and returns
// the largest real or imaginary part in magnitude over the block (NaN when there is a NaN;
// Inf when an Inf).
template <typename T>
__device__ __forceinline__ typename scalar<T>::real syev_load(const T *m, i64 ld, int n, bool lower, syev_layout<T> &L) {
    typedef scalar<T> S;
    typedef typename S::real R;
    R big = 0;
    for_each_element(n, n, [&](int i, int j) {
        if (lower ? i < j : i > j) return;
        T x = m[(i64)j * ld + i];
        if (i == j) x = S::from_real(S::re(x));
        big = nan_max(big, nan_max(R(fabs(S::re(x))), R(fabs(S::im(x)))));
        if (lower) L.a[i + j * L.lds] = x;
        else L.a[j + i * L.lds] = S::conj(x);
    });
    big = warp_max(big);
    const int warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
    if ((threadIdx.x & 31) == 0) L.red[warp] = S::from_real(big);
    __syncthreads();
    big = 0;
    for (int k = 0; k < nw; k++) big = nan_max(big, S::re(L.red[k]));
    return big;
}

// syev_tridiag reduces the tile to T = Q^H A Q: d and e get T, the tile's column i below the
// subdiagonal and tau[i] the reflector H(i), with v(i+1) = 1 stored. The trailing matrix is
// kept whole (the lower triangle is first copied, conjugated, into the upper) and every row
// of it belongs to one thread: y = tau A22 v reads row r, the rank-2 update writes it, with
// no branch per element. Two half sums shorten the chain of dependent adds in y.
template <typename T> __device__ void syev_tridiag(int n, syev_layout<T> &L) {
    typedef scalar<T> S;
    typedef typename S::real R;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, nt = blockDim.x, nw = nt >> 5, lds = L.lds;
    for_each_element(n, n, [&](int i, int j) {
        if (i > j) L.a[j + i * lds] = S::conj(L.a[i + j * lds]);
    });
    __syncthreads();
    for (int i = 0; i < n - 1; i++) {
        T *v = L.a + i * lds; // column i; v[i+1..n-1] becomes the reflector
        if (warp == 0) {
            warp_larfg(v, i + 1, n, L.tau + i, lane);
            if (lane == 0) {
                L.e[i] = S::re(v[i + 1]);
                v[i + 1] = S::from_real(1);
                L.d[i] = S::re(v[i]);
            }
        }
        __syncthreads();
        const T tau = L.tau[i];
        if (S::is_zero(tau)) continue; // H(i) = I: A22 stays
        // y = tau A22 v, a thread a row, with the partial sums of y^H v.
        T dot = S::from_real(0);
        for (int r = i + 1 + tid; r < n; r += nt) {
            const T *ar = L.a + r;
            T acc = S::from_real(0), acc1 = S::from_real(0);
            int c = i + 1;
            for (; c + 1 < n; c += 2) {
                acc = S::add(acc, S::mul(ar[c * lds], v[c]));
                acc1 = S::add(acc1, S::mul(ar[(c + 1) * lds], v[c + 1]));
            }
            if (c < n) acc = S::add(acc, S::mul(ar[c * lds], v[c]));
            acc = S::mul(tau, S::add(acc, acc1));
            L.y[r] = acc;
            dot = S::fma_conj(dot, acc, v[r]);
        }
        for (int off = 16; off > 0; off >>= 1) dot = S::add(dot, S::shfl_xor(dot, off));
        if (lane == 0) L.red[warp] = dot;
        __syncthreads();
        dot = S::from_real(0);
        for (int k = 0; k < nw; k++) dot = S::add(dot, L.red[k]);
        // alpha = -(tau/2) y^H v; y' = y + alpha v; A22 -= v y'^H + y' v^H, row r by its thread.
        const T alpha = S::scale(S::mul(tau, dot), R(-0.5));
        // Element (r, c) and (c, r) are computed in the same order, (hi, lo) = (max, min):
        // A(hi, lo) - v_hi y'_lo^H - y'_hi v_lo^H, the upper one conjugated, so that A22 stays
        // Hermitian bit for bit.
        for (int r = i + 1 + tid; r < n; r += nt) {
            T *ar = L.a + r;
            const T vr = v[r], yr = S::add(L.y[r], S::mul(alpha, vr));
            for (int c = i + 1; c <= r; c++) {
                const T vc = v[c], yc = S::add(L.y[c], S::mul(alpha, vc));
                ar[c * lds] = S::sub_mul_conj(S::sub_mul_conj(ar[c * lds], vr, yc), yr, vc);
            }
            ar[r * lds] = S::from_real(S::re(ar[r * lds]));
            for (int c = r + 1; c < n; c++) {
                const T vc = v[c], yc = S::add(L.y[c], S::mul(alpha, vc));
                ar[c * lds] = S::conj(S::sub_mul_conj(S::sub_mul_conj(S::conj(ar[c * lds]), vc, yr), yc, vr));
            }
        }
        __syncthreads();
    }
    if (tid == 0) L.d[n - 1] = S::re(L.a[(n - 1) + (n - 1) * lds]);
    __syncthreads();
}

// syev_sort sorts d ascending by selection, as steqr, recording in piv[i] the index
// swapped with i (thread 0).
template <typename R> __device__ __forceinline__ void syev_sort(R *d, int *piv, int n) {
    for (int i = 0; i < n - 1; i++) {
        int k = i;
        R p = d[i];
        for (int j = i + 1; j < n; j++) {
            if (d[j] < p) k = j, p = d[j];
        }
        piv[i] = k;
        d[k] = d[i], d[i] = p;
    }
}

// syev_back overwrites Z in m with Q Z: a group of P lanes (syev_back_group) a column, the
// warp's 32/P columns staged in its part of L.col at stride syev_back_ld. A lane owns the
// rows r = p (mod P) in the staging, the load and the store alike, so the steps need no
// barrier.
template <typename T> __device__ void syev_back(T *m, i64 ld, int n, syev_layout<T> &L) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
    const int P = syev_back_group(n), G = 32 / P, g = lane / P, p = lane % P;
    T *z = L.col + warp * syev_back_cols(n) + g * syev_back_ld(n);
    for (int k = warp * G + g; k - g < n; k += nw * G) {
        const bool active = k < n;
        T *mk = m + (i64)k * ld;
        if (active) for (int r = p; r < n; r += P) z[r] = mk[r];
        for (int i = n - 2; i >= 0; i--) {
            const T tau = L.tau[i];
            if (!scalar<T>::is_zero(tau)) group_apply(z, L.a + i * L.lds, i + 1, n, tau, p, P, active);
        }
        if (active) for (int r = p; r < n; r += P) mk[r] = z[r];
    }
}

// syev_ql solves the tridiagonal d, e by implicit QL/QR (tridiag.cuh), its rotations applied
// to Z in m (the identity on entry), then sorts the eigenvalues ascending in d and the
// columns of Z with them (step 3 at the top of syev_cta.cu). It returns steqr's info, the
// same in every thread.
template <typename T> __device__ int syev_ql(T *m, i64 ld, int n, bool vectors, syev_layout<T> &L) {
    typedef typename scalar<T>::real R;
    const int tid = threadIdx.x, nt = blockDim.x;
    tri_state<R> st;
    tri_init(st, n);
    int done; // tri_rot's done: 1 converged, 2 failed
    if (!vectors) {
        if (tid == 0) tri_step(st, L.d, L.e, false, L.c, L.s, L.rot[0]);
        __syncthreads();
        done = L.rot[0].done;
    } else {
        for (int buf = 0;; buf ^= 1) {
            R *c = L.c + buf * n, *s = L.s + buf * n;
            if (tid == 0) tri_step(st, L.d, L.e, true, c, s, L.rot[buf]);
            __syncthreads();
            const tri_rot rot = L.rot[buf];
            if (rot.done) {
                done = rot.done;
                break;
            }
            for (int r = tid; r < n; r += nt) tri_rotate(m + r, ld, rot, c, s);
        }
    }
    const int bad = done == 2 ? tri_count(L.e, n) : 0;
    if (tid == 0 && bad == 0) syev_sort(L.d, L.piv, n);
    __syncthreads();
    if (vectors && bad == 0) {
        for (int r = tid; r < n; r += nt) {
            T *zr = m + r;
            for (int i = 0; i < n - 1; i++) {
                const int p = L.piv[i];
                if (p != i) {
                    const T t = zr[(i64)i * ld];
                    zr[(i64)i * ld] = zr[(i64)p * ld];
                    zr[(i64)p * ld] = t;
                }
            }
        }
        __syncthreads();
    }
    return bad;
}

// syev_solve runs steps 1-4 on matrix blockIdx.x of the batch, its layout (syev_layout) at
// base: the block's dynamic shared memory (cta) or the matrix's slot of global workspace
// (blocked). The tridiagonal solver is implicit QL/QR (bisect false: syev_ql) or bisection
// and inverse iteration (bisect true: bisect.cuh's bis_solve, its inverse-iteration arrays
// at inv, 4 n blockDim.x reals, with vectors).
template <typename T, bool bisect>
__device__ void syev_solve(T *a, i64 ld, i64 stride, int n, typename scalar<T>::real *w, int *info, bool lower, bool vectors,
                           unsigned char *base, typename scalar<T>::real *inv) {
    typedef scalar<T> S;
    typedef typename S::real R;
    const i64 b = blockIdx.x;
    const int tid = threadIdx.x, nt = blockDim.x, nw = nt >> 5;
    T *m = a + b * stride;
    R *wb = w + b * n;
    syev_layout<T> L(base, n, nw);

    const R big = syev_load(m, ld, n, lower, L);
    if (!isfinite(big)) { // NaN or Inf: not iterated
        for (int i = tid; i < n; i += nt) wb[i] = syev_nan<R>();
        if (vectors) for_each_element(n, n, [&](int i, int j) { m[(i64)j * ld + i] = S::make(syev_nan<R>(), syev_nan<R>()); });
        if (tid == 0) info[b] = n - 1;
        return;
    }
    const int k = big == 0 || (big >= R(0x1p-16) && big <= R(0x1p16)) ? 0 : tri_exp2(big);
    if (k != 0) {
        for_each_element(n, n, [&](int i, int j) {
            if (i >= j) {
                T &x = L.a[i + j * L.lds];
                x = S::make(tri_pow2(S::re(x), k), tri_pow2(S::im(x), k));
            }
        });
    }
    // QL/QR rotates the identity; bisection writes every column of Z itself.
    if (vectors && !bisect) for_each_element(n, n, [&](int i, int j) { m[(i64)j * ld + i] = S::from_real(i == j ? 1 : 0); });
    __syncthreads();
    syev_tridiag(n, L);
    // The bisection's scratch takes the place of the rotation buffers and the sort's
    // permutation, which it does not use (syev_layout).
    const int bad = bisect ? bis_solve(m, ld, n, vectors, L.d, L.e, L.s, L.c, L.piv, (int *)L.rot, inv)
                           : syev_ql(m, ld, n, vectors, L);
    for (int i = tid; i < n; i += nt) wb[i] = tri_pow2(L.d[i], -k);
    if (tid == 0) info[b] = bad;
    if (vectors) syev_back(m, ld, n, L);
}
