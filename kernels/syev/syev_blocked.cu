// syev "blocked": the eigenvalues, and optionally the eigenvectors, of a batch of n-by-n
// Hermitian (real symmetric) matrices of any order, as LAPACK's syev with a blocked sytrd:
// the Go driver (syev_blocked_cuda.go) launches these kernels, one block per matrix, and
// routes the BLAS 3 steps through the package's public ops.
//
//   1. syev_blocked_load_<dtype>: the uplo triangle into the lower triangle of a working
//      copy (the tile, n columns of n|1 elements, in the matrix's slot of the workspace laid
//      out as syev_layout), scaled by a power of two out of [2^-16, 2^16] (exact) as the cta
//      kernel does; the exponent goes to scal[b]. A matrix holding NaN or Inf gets a zero
//      tile (its reduction is then trivial) and scal[b] = SYEV_NONFINITE.
//   2. Per panel of SYEV_NB columns, syev_blocked_panel_<dtype>: latrd (syev_latrd, below), the
//      panel's W to w, its block reflector's T to tm; then the trailing update by Syr2k or
//      Her2k (Go).
//   3. syev_blocked_solve_<dtype> (tri=0: implicit QL/QR, syev.cuh's syev_ql, Z from the
//      identity in the output matrix) or syev_blocked_bisect_<dtype> (tri=1: bisect.cuh,
//      its inverse-iteration arrays at inv + b invslot): w unscaled, info as LAPACK's; a
//      nonfinite matrix gets NaN in w and, with vectors, in Z, and info n-1.
//   4. Back-transform Z = Q Z panel by panel, last first, by Gemm (Go).
#include "syev.cuh"

// The panel (step 2): LAPACK's latrd with uplo Lower, by one block for one matrix in global
// memory, and the panel's block reflector (larft, forward and columnwise) for step 4.
//
// The panel is the kb columns j .. j+kb-1 of the matrix A (its lower triangle, lda = lds),
// of which the columns before j are already reduced and the trailing part is A at the
// panel's start. For each panel column c = j + i (i = 0 .. kb-1):
//
//   A(c:n, c) -= V(c:n, 0:i) W(c, 0:i)^H + W(c:n, 0:i) V(c, 0:i)^H  (the earlier columns'
//   updates), then the reflector H(c) = I - tau v v^H annihilating A(c+2:n, c), stored
//   there with A(c+1, c) = 1 and e[c] = beta, and
//   W(c+1:n, i) = tau (A22 v - W V^H v - V W^H v), W(:, i) += alpha v with alpha = -(tau/2)
//   (W(:, i)^H v): the column of W with A22 -= V W^H + W V^H.
//
// The column c = n-1 (in the last panel) has no reflector: its update gives d[n-1] alone.
// At the panel's end the entries above each reflector's unit (rows j+1 .. c of column c, the
// diagonal included, already saved in d) are zeroed, so that A(j+1:n, j:j+kr) is the
// explicit V of the panel's kr reflectors for Gemm, and the upper triangular T with H(j) ...
// H(j+kr-1) = I - V T V^H goes to tm (ld SYEV_NB). The trailing update A22 -= V W^H + W V^H
// of rows and columns j+kb .. n-1 is then Syr2k's or Her2k's (syev_blocked_cuda.go).
#define SYEV_NB 32 // the panel width nb

// latrd_rows is the rows of y that one pass of syev_latrd's symv gathers in shared memory:
// 8 KB of them.
template <typename T> __device__ __forceinline__ constexpr int latrd_rows() { return 8192 / (int)sizeof(T); }

// latrd_atomic_add adds x to *p (shared or global memory), a complex number part by part.
__device__ __forceinline__ void latrd_atomic_add(float *p, float x) { atomicAdd(p, x); }
__device__ __forceinline__ void latrd_atomic_add(double *p, double x) { atomicAdd(p, x); }
__device__ __forceinline__ void latrd_atomic_add(cfloat *p, cfloat x) { atomicAdd(&p->re, x.re), atomicAdd(&p->im, x.im); }
__device__ __forceinline__ void latrd_atomic_add(cdouble *p, cdouble x) { atomicAdd(&p->re, x.re), atomicAdd(&p->im, x.im); }

// latrd_sum adds x over the block (every thread gets the sum), red holding a value a warp.
template <typename T> __device__ __forceinline__ T latrd_sum(T x, T *red) {
    typedef scalar<T> S;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
    for (int off = 16; off > 0; off >>= 1) x = S::add(x, S::shfl_xor(x, off));
    if (lane == 0) red[warp] = x;
    __syncthreads();
    x = S::from_real(0);
    for (int k = 0; k < nw; k++) x = S::add(x, red[k]);
    __syncthreads();
    return x;
}

// latrd_dot_add adds sum over r in [lo, n) of conj(x[r]) y[r] to *dst, by one warp: each
// lane's partial sum by an atomic add (no chain of shuffles per sum).
template <typename T> __device__ __forceinline__ void latrd_dot_add(T *dst, const T *x, const T *y, int lo, int n, int lane) {
    typedef scalar<T> S;
    T s = S::from_real(0);
    for (int r = lo + lane; r < n; r += 32) s = S::fma_conj(s, x[r], y[r]);
    if (lo + lane < n) latrd_atomic_add(dst, s);
}

// syev_latrd reduces the panel of columns j .. j+kb-1 of a (lower triangle, leading
// dimension lds, order n), W (n-by-SYEV_NB, leading dimension n, rows indexed as A's)
// receiving its columns, d, e and tau the panel's part of the tridiagonal form, tm the
// panel's T. The whole block calls it.
template <typename T>
__device__ void syev_latrd(T *a, int lds, int n, int j, int kb, T *w, typename scalar<T>::real *d,
                           typename scalar<T>::real *e, T *tau, T *tm) {
    typedef scalar<T> S;
    typedef typename S::real R;
    const int tid = threadIdx.x, nt = blockDim.x, lane = tid & 31, warp = tid >> 5, nw = nt >> 5;
    __shared__ T xs[SYEV_NB], ys[SYEV_NB], red[32];
    __shared__ T gs[SYEV_NB * SYEV_NB], ts[SYEV_NB * SYEV_NB], ych[latrd_rows<T>()];
    for (int i = 0; i < kb; i++) {
        const int c = j + i;
        T *ac = a + (i64)c * lds, *wi = w + (i64)i * n;
        // The earlier panel columns' updates of A(c:n, c): conj(W(c, k)) and conj(V(c, k)) first.
        for (int k = tid; k < i; k += nt) {
            xs[k] = S::conj(w[(i64)k * n + c]);
            ys[k] = S::conj(a[(i64)(j + k) * lds + c]);
        }
        __syncthreads();
        for (int r = c + tid; r < n; r += nt) {
            T x = ac[r];
            for (int k = 0; k < i; k++) {
                x = S::sub_mul(x, a[(i64)(j + k) * lds + r], xs[k]);
                x = S::sub_mul(x, w[(i64)k * n + r], ys[k]);
            }
            if (r == c) {
                x = S::from_real(S::re(x));
                d[c] = S::re(x);
            }
            ac[r] = x;
        }
        __syncthreads();
        if (c == n - 1) break; // the last column: no reflector
        for (int k = tid; k < i; k += nt) xs[k] = ys[k] = S::from_real(0);
        if (warp == 0) {
            warp_larfg(ac, c + 1, n, tau + c, lane);
            if (lane == 0) {
                e[c] = S::re(ac[c + 1]);
                ac[c + 1] = S::from_real(1);
            }
        }
        __syncthreads();
        const T t = tau[c];
        const T *v = ac; // v[r], r = c+1 .. n-1, v[c+1] = 1
        // y = A22 v from the lower triangle in one pass, a warp a column k (coalesced):
        // A(r, k) v[k] goes to row r's sum, conj(A(r, k)) v[r] to column k's. Both gather in
        // shared memory by atomic adds, latrd_rows rows at a time, and are added to wi after
        // each chunk; a column above the chunk adds its part to wi[k] itself.
        for (int r = c + 1 + tid; r < n; r += nt) wi[r] = S::from_real(0);
        for (int r0 = c + 1; r0 < n; r0 += latrd_rows<T>()) {
            const int r1 = min(n, r0 + latrd_rows<T>());
            for (int r = tid; r < r1 - r0; r += nt) ych[r] = S::from_real(0);
            __syncthreads();
            for (int k = c + 1 + warp; k < r1; k += nw) {
                const T vk = v[k], *ak = a + (i64)k * lds;
                T s = S::from_real(0);
                for (int r = max(r0, k) + lane; r < r1; r += 32) {
                    const T x = ak[r];
                    if (r == k) {
                        latrd_atomic_add(ych + (r - r0), S::scale(vk, S::re(x)));
                    } else {
                        latrd_atomic_add(ych + (r - r0), S::mul(x, vk));
                        s = S::fma_conj(s, x, v[r]);
                    }
                }
                if (max(r0, k) + lane < r1) latrd_atomic_add(k >= r0 ? ych + (k - r0) : wi + k, s);
            }
            __syncthreads();
            for (int r = r0 + tid; r < r1; r += nt) wi[r] = S::add(wi[r], ych[r - r0]);
            __syncthreads();
        }
        // The corrections: xs = W(c+1:n, 0:i)^H v, ys = V(c+1:n, 0:i)^H v, then
        // y -= V xs + W ys.
        for (int k = warp; k < 2 * i; k += nw) {
            if (k < i) latrd_dot_add(xs + k, w + (i64)k * n, v, c + 1, n, lane);
            else latrd_dot_add(ys + k - i, a + (i64)(j + k - i) * lds, v, c + 1, n, lane);
        }
        __syncthreads();
        T dot = S::from_real(0);
        for (int r = c + 1 + tid; r < n; r += nt) {
            T y = wi[r];
            for (int k = 0; k < i; k++) {
                y = S::sub_mul(y, a[(i64)(j + k) * lds + r], xs[k]);
                y = S::sub_mul(y, w[(i64)k * n + r], ys[k]);
            }
            y = S::mul(t, y);
            wi[r] = y;
            dot = S::fma_conj(dot, y, v[r]);
        }
        // alpha = -(tau/2) (w^H v); w += alpha v.
        const T alpha = S::scale(S::mul(t, latrd_sum(dot, red)), R(-0.5));
        for (int r = c + 1 + tid; r < n; r += nt) wi[r] = S::add(wi[r], S::mul(alpha, v[r]));
        __syncthreads();
    }
    const int kr = min(kb, n - 1 - j); // the panel's reflectors
    if (kr <= 0) return;
    // V explicit: zeros above each unit (rows j+1 .. c of column c).
    for (int i = 0; i < kr; i++) {
        for (int r = j + 1 + tid; r <= j + i; r += nt) a[(i64)(j + i) * lds + r] = S::from_real(0);
    }
    __syncthreads();
    // T by larft: gs(k, i) = V(:, k)^H V(:, i) for k < i; T(0:i, i) = -tau_i T(0:i, 0:i) gs(0:i, i).
    for (int p = tid; p < SYEV_NB * SYEV_NB; p += nt) ts[p] = gs[p] = S::from_real(0);
    __syncthreads();
    for (int p = warp; p < kr * kr; p += nw) {
        const int k = p % kr, i = p / kr;
        if (k < i) latrd_dot_add(gs + k + i * SYEV_NB, a + (i64)(j + k) * lds, a + (i64)(j + i) * lds, j + i + 1, n, lane);
    }
    __syncthreads();
    for (int i = 0; i < kr; i++) {
        const T ti = tau[j + i];
        if (tid < i) {
            T s = S::from_real(0);
            for (int l = tid; l < i; l++) s = S::add(s, S::mul(ts[tid + l * SYEV_NB], gs[l + i * SYEV_NB]));
            ts[tid + i * SYEV_NB] = S::mul(S::sub(S::from_real(0), ti), s);
        }
        if (tid == 0) ts[i + i * SYEV_NB] = ti;
        __syncthreads();
    }
    for (int p = tid; p < kr * SYEV_NB; p += nt) tm[p] = ts[p];
}

// SYEV_NONFINITE in scal[b] marks a matrix that held NaN or Inf.
#define SYEV_NONFINITE 0x40000000

// Every kernel runs syevCTAThreads(n) threads (syev_cuda.go), the nw of the slot's
// syev_layout; at most 256. The minimum of 2 blocks per SM gives ptxas a budget of 128
// registers a thread (the solvers spilled at the default).
#define SYEV_BLOCKED_THREADS 256

template <typename T>
__device__ void syev_blocked_load(const T *a, i64 ld, i64 stride, int n, bool lower, unsigned char *work, i64 slot, int *scal) {
    typedef scalar<T> S;
    typedef typename S::real R;
    const i64 b = blockIdx.x;
    syev_layout<T> L(work + b * slot, n, blockDim.x >> 5);
    const R big = syev_load(a + b * stride, ld, n, lower, L);
    const bool bad = !isfinite(big);
    const int k = bad || big == 0 || (big >= R(0x1p-16) && big <= R(0x1p16)) ? 0 : tri_exp2(big);
    if (bad || k != 0) {
        for_each_element(n, n, [&](int i, int j) {
            if (i >= j) {
                T &x = L.a[i + j * L.lds];
                x = bad ? S::from_real(0) : S::make(tri_pow2(S::re(x), k), tri_pow2(S::im(x), k));
            }
        });
    }
    if (threadIdx.x == 0) scal[b] = bad ? SYEV_NONFINITE : k;
}

// syev_blocked_panel reduces the panel j .. j+kb-1 of matrix blockIdx.x: W at w + b wslot
// elements, T at tm + b tslot elements (the panel's own part: j/SYEV_NB T matrices in).
template <typename T>
__device__ void syev_blocked_panel(int n, int j, int kb, unsigned char *work, i64 slot, T *w, i64 wslot, T *tm, i64 tslot) {
    const i64 b = blockIdx.x;
    syev_layout<T> L(work + b * slot, n, blockDim.x >> 5);
    syev_latrd(L.a, L.lds, n, j, kb, w + b * wslot, L.d, L.e, L.tau, tm + b * tslot + (i64)(j / SYEV_NB) * SYEV_NB * SYEV_NB);
}

// syev_blocked_solve solves the tridiagonal form of matrix blockIdx.x (steps 3 above).
template <typename T, bool bisect>
__device__ void syev_blocked_solve(T *a, i64 ld, i64 stride, int n, typename scalar<T>::real *w, int *info, bool vectors,
                                   unsigned char *work, i64 slot, const int *scal, typename scalar<T>::real *inv) {
    typedef scalar<T> S;
    typedef typename S::real R;
    const i64 b = blockIdx.x;
    const int tid = threadIdx.x, nt = blockDim.x;
    T *m = a + b * stride;
    R *wb = w + b * n;
    syev_layout<T> L(work + b * slot, n, nt >> 5);
    const int k = scal[b];
    if (k == SYEV_NONFINITE) { // not iterated
        for (int i = tid; i < n; i += nt) wb[i] = syev_nan<R>();
        if (vectors) for_each_element(n, n, [&](int i, int j) { m[(i64)j * ld + i] = S::make(syev_nan<R>(), syev_nan<R>()); });
        if (tid == 0) info[b] = n - 1;
        return;
    }
    if (vectors && !bisect) for_each_element(n, n, [&](int i, int j) { m[(i64)j * ld + i] = S::from_real(i == j ? 1 : 0); });
    __syncthreads();
    const int bad = bisect ? bis_solve(m, ld, n, vectors, L.d, L.e, L.s, L.c, L.piv, (int *)L.rot, inv)
                           : syev_ql(m, ld, n, vectors, L);
    for (int i = tid; i < n; i += nt) wb[i] = tri_pow2(L.d[i], -k);
    if (tid == 0) info[b] = bad;
}

#define SYEV_BLOCKED(SUFFIX, T)                                                                     \
    extern "C" __global__ void __launch_bounds__(SYEV_BLOCKED_THREADS, 2)                          \
        syev_blocked_load_##SUFFIX(const T *a, i64 ld, i64 stride, i64 n, i64 batch, i64 lower,     \
                                   unsigned char *work, i64 slot, int *scal) {                      \
        if ((i64)blockIdx.x >= batch) return;                                                       \
        syev_blocked_load<T>(a, ld, stride, (int)n, lower != 0, work, slot, scal);                  \
    }                                                                                               \
    extern "C" __global__ void __launch_bounds__(SYEV_BLOCKED_THREADS, 2)                          \
        syev_blocked_panel_##SUFFIX(i64 n, i64 j, i64 kb, i64 batch, unsigned char *work, i64 slot, \
                                    T *w, i64 wslot, T *tm, i64 tslot) {                            \
        if ((i64)blockIdx.x >= batch) return;                                                       \
        syev_blocked_panel<T>((int)n, (int)j, (int)kb, work, slot, w, wslot, tm, tslot);            \
    }                                                                                               \
    extern "C" __global__ void __launch_bounds__(SYEV_BLOCKED_THREADS, 2)                          \
        syev_blocked_solve_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, scalar<T>::real *w, \
                                    int *info, i64 vectors, unsigned char *work, i64 slot, const int *scal) { \
        if ((i64)blockIdx.x >= batch) return;                                                       \
        syev_blocked_solve<T, false>(a, ld, stride, (int)n, w, info, vectors != 0, work, slot, scal, nullptr); \
    }                                                                                               \
    extern "C" __global__ void __launch_bounds__(SYEV_BLOCKED_THREADS, 2)                          \
        syev_blocked_bisect_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, scalar<T>::real *w, \
                                     int *info, i64 vectors, unsigned char *work, i64 slot, const int *scal, \
                                     unsigned char *inv, i64 invslot) {                             \
        if ((i64)blockIdx.x >= batch) return;                                                       \
        syev_blocked_solve<T, true>(a, ld, stride, (int)n, w, info, vectors != 0, work, slot, scal, \
                                    (scalar<T>::real *)(inv + (i64)blockIdx.x * invslot));          \
    }

SYEV_BLOCKED(f32, float)
SYEV_BLOCKED(f64, double)
SYEV_BLOCKED(c64, cfloat)
SYEV_BLOCKED(c128, cdouble)
