// syev "tiny": all eigenvalues and optionally the eigenvectors of a batch of n-by-n Hermitian
// (symmetric) matrices of small order (float up to 8, double and complex float 6, complex
// double 4), a thread per matrix, everything in registers.
//
// Thread b loads the uplo triangle of matrix b into the upper triangle of a register array
// (the diagonal's imaginary parts dropped), runs cyclic Jacobi (jacobi.cuh: the pairs (p, q),
// p < q, in row order, each rotation applied at once to A and to V, which starts at I) until a
// sweep skips every pair or SYEV_SWEEPS sweeps have run, sorts the eigenvalues ascending with
// their vectors, and writes w (and V over A, with jobz Vectors). Every loop runs over
// compile-time bounds and is unrolled, so that every index is a constant and the arrays stay
// in registers: syev_order picks the instance for n.
//
// Only the uplo triangle is read; with jobz NoVectors, A is not written. info[b]
// is 0 on convergence, else the number of rows p < n - 1 still holding a non-negligible
// element right of the diagonal; a matrix holding NaN or Inf is not iterated: w and V are NaN
// and info is n - 1.
#include "jacobi.cuh"

#define TINY_THREADS 128 // threads (matrices) of a block

template <typename T, int N> struct tiny_mat {
    T a[N][N]; // the upper triangle: a[i][j], i <= j
    // get is A(i, j) for any i, j.
    __device__ __forceinline__ T get(int i, int j) const { return i <= j ? a[i][j] : scalar<T>::conj(a[j][i]); }
    __device__ __forceinline__ void set(int i, int j, T v) {
        if (i <= j) a[i][j] = v;
        else a[j][i] = scalar<T>::conj(v);
    }
};

template <typename T, int N>
__device__ __forceinline__ void syev_thread(T *a, i64 ld, int *info, typename scalar<T>::real *w, bool vectors, bool lower) {
    typedef scalar<T> S;
    typedef typename S::real R;
    tiny_mat<T, N> m;
    bool finite = true;
#pragma unroll
    for (int j = 0; j < N; j++) {
#pragma unroll
        for (int i = 0; i <= j; i++) {
            // Upper: A(i, j) is stored at (i, j); lower: at (j, i), conjugated.
            // The imaginary part of the diagonal is taken as zero, so it is not checked.
            const T x = lower ? S::conj(a[i * ld + j]) : a[j * ld + i];
            m.a[i][j] = i == j ? S::from_real(S::re(x)) : x;
            finite = finite && syev_finite(m.a[i][j]);
        }
    }
    if (!finite) {
#pragma unroll
        for (int i = 0; i < N; i++) w[i] = syev_nan<R>();
        if (vectors) {
#pragma unroll
            for (int j = 0; j < N; j++) {
#pragma unroll
                for (int i = 0; i < N; i++) a[j * ld + i] = S::make(syev_nan<R>(), syev_nan<R>());
            }
        }
        *info = N - 1;
        return;
    }
    T v[N][N];
#pragma unroll
    for (int j = 0; j < N; j++) {
#pragma unroll
        for (int i = 0; i < N; i++) v[i][j] = S::from_real(i == j ? 1 : 0);
    }
    bool rotated = true;
    for (int sweep = 0; sweep < SYEV_SWEEPS && rotated; sweep++) {
        rotated = false;
#pragma unroll
        for (int p = 0; p < N - 1; p++) {
#pragma unroll
            for (int q = p + 1; q < N; q++) {
                const syev_rot<T> r = syev_rotation(S::re(m.a[p][p]), S::re(m.a[q][q]), m.a[p][q]);
                m.a[p][q] = S::from_real(0);
                if (!r.on) continue;
                rotated = true;
#pragma unroll
                for (int k = 0; k < N; k++) {
                    if (k == p || k == q) continue;
                    T x = m.get(k, p), y = m.get(k, q);
                    syev_right(r, x, y);
                    m.set(k, p, x);
                    m.set(k, q, y);
                }
                m.a[p][p] = S::from_real(S::re(m.a[p][p]) - r.tg);
                m.a[q][q] = S::from_real(S::re(m.a[q][q]) + r.tg);
#pragma unroll
                for (int k = 0; k < N; k++) syev_right(r, v[k][p], v[k][q]);
            }
        }
    }
    int bad = 0;
    if (rotated) { // the bound was reached: count the rows not converged
#pragma unroll
        for (int p = 0; p < N - 1; p++) {
            bool row = false;
#pragma unroll
            for (int q = p + 1; q < N; q++) row = row || !syev_negligible(syev_abs(m.a[p][q]), S::re(m.a[p][p]), S::re(m.a[q][q]));
            bad += row;
        }
    }
    R d[N];
#pragma unroll
    for (int i = 0; i < N; i++) d[i] = S::re(m.a[i][i]);
    // Bubble sort: N(N-1)/2 compare-exchanges at constant indices.
#pragma unroll
    for (int e = N - 1; e > 0; e--) {
#pragma unroll
        for (int i = 0; i < e; i++) {
            if (syev_before(d[i + 1], i + 1, d[i], i)) {
                const R t = d[i];
                d[i] = d[i + 1];
                d[i + 1] = t;
#pragma unroll
                for (int k = 0; k < N; k++) {
                    const T x = v[k][i];
                    v[k][i] = v[k][i + 1];
                    v[k][i + 1] = x;
                }
            }
        }
    }
#pragma unroll
    for (int i = 0; i < N; i++) w[i] = d[i];
    if (vectors) {
#pragma unroll
        for (int j = 0; j < N; j++) {
#pragma unroll
            for (int i = 0; i < N; i++) a[j * ld + i] = v[i][j];
        }
    }
    *info = bad;
}

// syev_order calls syev_thread with the compile-time order n, 1 <= n <= N.
template <typename T, int N>
__device__ __forceinline__ void syev_order(int n, T *a, i64 ld, int *info, typename scalar<T>::real *w, bool vectors, bool lower) {
    if (n == N) syev_thread<T, N>(a, ld, info, w, vectors, lower);
    else if (N > 1) syev_order<T, (N > 1 ? N - 1 : 1)>(n, a, ld, info, w, vectors, lower);
}

// syev_tiny: thread b of the grid solves matrix b; 1 <= n <= N.
template <typename T, int N>
__device__ __forceinline__ void syev_tiny(T *a, i64 ld, i64 stride, int n, i64 batch, typename scalar<T>::real *w, int *info,
                                          bool vectors, bool lower) {
    const i64 b = (i64)blockIdx.x * TINY_THREADS + threadIdx.x;
    if (b >= batch) return;
    syev_order<T, N>(n, a + b * stride, ld, info + b, w + b * n, vectors, lower);
}

#define SYEV_TINY(SUFFIX, T, N)                                                                                        \
    extern "C" __global__ void __launch_bounds__(TINY_THREADS)                                                         \
        syev_tiny_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, scalar<T>::real *w, int *info, i64 vectors,      \
                           i64 lower) {                                                                                \
        syev_tiny<T, N>(a, ld, stride, (int)n, batch, w, info, vectors != 0, lower != 0);                              \
    }
// The last number is the dtype's largest order (syevTinyMax in syev_cuda.go): A's upper
// triangle and V, n(n+1)/2 + n^2 elements, held within about 150 registers and no spill
// (ptxas 11.8, sm_80 and sm_90: float n = 8 136 registers, double and complex float n = 6 151
// and 153, complex double n = 4 139). One order more spills or nearly: complex double n = 5
// took 196, double n = 8 241, complex float n = 8 254.
SYEV_TINY(f32, float, 8)
SYEV_TINY(f64, double, 6)
SYEV_TINY(c64, cfloat, 6)
SYEV_TINY(c128, cdouble, 4)
