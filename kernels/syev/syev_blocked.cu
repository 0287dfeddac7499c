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
//   2. Per panel of SYEV_NB columns, syev_blocked_panel_<dtype>: latrd (latrd.cuh), the
//      panel's W to w, its block reflector's T to tm; then the trailing update by Syr2k or
//      Her2k (Go).
//   3. syev_blocked_solve_<dtype> (tri=0: implicit QL/QR, syev.cuh's syev_ql, Z from the
//      identity in the output matrix) or syev_blocked_bisect_<dtype> (tri=1: bisect.cuh,
//      its inverse-iteration arrays at inv + b invslot): w unscaled, info as LAPACK's; a
//      nonfinite matrix gets NaN in w and, with vectors, in Z, and info n-1.
//   4. Back-transform Z = Q Z panel by panel, last first, by Gemm (Go).
#include "latrd.cuh"
#include "syev.cuh"

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
