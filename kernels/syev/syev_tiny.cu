// syev "tiny": all eigenvalues and optionally the eigenvectors of a batch of n-by-n Hermitian
// (symmetric) matrices of small order (float up to 8, double and complex float 6, complex
// double 4), a thread per matrix, everything in registers; a kernel per order n
// (syev_tiny<n>_<dtype>), so that a small order is not held to the registers, and so the
// occupancy, of the largest.
//
// A block takes TINY_THREADS consecutive matrices, and its global traffic goes through shared
// memory so that consecutive threads move consecutive elements: the block copies its matrices
// into a tile (a matrix per thread, n*n elements at an odd pitch, n*n | 1, so that the
// threads' accesses at the same (i, j) fall in distinct banks); when ld = n and stride = n*n
// the block's matrices are one contiguous span, copied element by element, else each element
// is found from its matrix and (i, j), so that no gap between columns or matrices is touched.
// Thread b then loads the uplo triangle of its matrix into the upper triangle of a register
// array (the diagonal's imaginary parts dropped), runs cyclic Jacobi (jacobi.cuh: the pairs
// (p, q), p < q, in row order, each rotation applied at once to A and to V, which starts at I)
// until a sweep skips every pair or SYEV_SWEEPS sweeps have run, sorts the eigenvalues
// ascending with their vectors, and puts w (and V, with jobz Vectors) in the tile; the block
// then copies w, and V over A, out the same way. Every loop runs over compile-time bounds and
// is unrolled, so that every index is a constant and the arrays stay in registers.
//
// Only the uplo triangle matters: the contiguous copy reads the other one into the tile, where
// nothing reads it. With jobz NoVectors, A is not written. info[b] is 0 on convergence, else
// the number of rows p < n - 1 still holding a non-negligible element right of the diagonal;
// a matrix holding NaN or Inf is not iterated: w and V are NaN and info is n - 1.
#include "../common/smem.cuh"
#include "jacobi.cuh"

#define TINY_THREADS 128 // threads (matrices) of a block
#define TINY_CHUNK 32    // bytes a thread loads ahead of storing them (tiny_copy_as)

template <typename T, int N> struct tiny_mat {
    T a[N][N]; // the upper triangle: a[i][j], i <= j
    // get is A(i, j) for any i, j.
    __device__ __forceinline__ T get(int i, int j) const { return i <= j ? a[i][j] : scalar<T>::conj(a[j][i]); }
    __device__ __forceinline__ void set(int i, int j, T v) {
        if (i <= j) a[i][j] = v;
        else a[j][i] = scalar<T>::conj(v);
    }
};

// syev_thread solves the matrix a (in the tile: A(i, j) at a[j * N + i]), overwriting it with V
// when vectors, and puts its eigenvalues in w[0..N-1] and its info in *info.
template <typename T, int N>
__device__ __forceinline__ void syev_thread(T *a, int *info, typename scalar<T>::real *w, bool vectors, bool lower) {
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
            const T x = lower ? S::conj(a[i * N + j]) : a[j * N + i];
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
                for (int i = 0; i < N; i++) a[j * N + i] = S::make(syev_nan<R>(), syev_nan<R>());
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
            for (int i = 0; i < N; i++) a[j * N + i] = v[i][j];
        }
    }
    *info = bad;
}

// tiny_copy_as is tiny_copy with packed a constant. A thread's loads go out TINY_CHUNK bytes
// at a time (all of a matrix under twice that) ahead of their stores to the tile: all at once
// held up to NN elements and the general path's NN 64-bit addresses (ptxas 11.8: float
// n = 8 took 212 registers, double n = 6 168, against 128 and 151 so).
// The thread index and a are made opaque afresh in each pass, lest the compiler keep the load
// pass's addresses alive through the solve for the store pass.
template <typename T, int N, bool LOAD, bool PACKED>
__device__ __forceinline__ void tiny_copy_as(T *a, i64 ld, i64 stride, int cnt, T *tile) {
    constexpr int NN = N * N, P = NN | 1, C0 = TINY_CHUNK / (int)sizeof(T), C = NN < 2 * C0 ? NN : C0;
    int t = threadIdx.x;
    opaque_row(a, t);
#pragma unroll
    for (int k0 = 0; k0 < NN; k0 += C) {
        T v[C];
#pragma unroll
        for (int k = k0; k < k0 + C && k < NN; k++) {
            const int e = k * TINY_THREADS + t, m = e / NN, r = e % NN;
            if (e >= NN * cnt) continue;
            T *g = a + (PACKED ? (i64)e : m * stride + (r / N) * ld + r % N);
            if (LOAD) v[k - k0] = *g;
            else *g = tile[m * P + r];
        }
        if (!LOAD) continue;
#pragma unroll
        for (int k = k0; k < k0 + C && k < NN; k++) {
            const int e = k * TINY_THREADS + t;
            if (e < NN * cnt) tile[e / NN * P + e % NN] = v[k - k0];
        }
        asm volatile("" ::: "memory"); // the next chunk's loads stay behind these stores
    }
}

// tiny_copy moves the block's cnt matrices between global memory (a: the block's first matrix,
// leading dimension ld, stride between matrices; packed when ld = N and stride = N*N) and
// the tile, LOAD from global. Element e of the block's N*N*cnt goes to thread e mod
// TINY_THREADS, so that a warp moves 32 consecutive elements of the packed span.
template <typename T, int N, bool LOAD>
__device__ __forceinline__ void tiny_copy(T *a, i64 ld, i64 stride, bool packed, int cnt, T *tile) {
    if (packed) tiny_copy_as<T, N, LOAD, true>(a, ld, stride, cnt, tile);
    else tiny_copy_as<T, N, LOAD, false>(a, ld, stride, cnt, tile);
}

// syev_tiny: block x solves matrices x * TINY_THREADS on, thread t the t-th of them.
template <typename T, int N>
__device__ __forceinline__ void syev_tiny(T *a, i64 ld, i64 stride, i64 batch, typename scalar<T>::real *w, int *info,
                                          bool vectors, bool lower) {
    typedef typename scalar<T>::real R;
    constexpr int P = N * N | 1, PW = N | 1; // the pitches of a matrix and of its w in the tiles
    __shared__ T tile[TINY_THREADS * P];
    __shared__ R wtile[TINY_THREADS * PW];
    const i64 b0 = (i64)blockIdx.x * TINY_THREADS;
    const int cnt = (int)(batch - b0 < TINY_THREADS ? batch - b0 : TINY_THREADS), t = threadIdx.x;
    const bool packed = ld == N && stride == N * N;
    a += b0 * stride;
    tiny_copy<T, N, true>(a, ld, stride, packed, cnt, tile);
    __syncthreads();
    if (t < cnt) syev_thread<T, N>(tile + t * P, info + b0 + t, wtile + t * PW, vectors, lower);
    __syncthreads();
    if (vectors) tiny_copy<T, N, false>(a, ld, stride, packed, cnt, tile);
    w += b0 * N;
#pragma unroll
    for (int k = 0; k < N; k++) {
        const int e = k * TINY_THREADS + t;
        if (e < N * cnt) w[e] = wtile[e / N * PW + e % N];
    }
}

// The kernel of order N; its n argument is N (syevLaunch passes every family the same
// arguments).
#define SYEV_TINY(SUFFIX, T, N)                                                                                        \
    extern "C" __global__ void __launch_bounds__(TINY_THREADS)                                                         \
        syev_tiny##N##_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, scalar<T>::real *w, int *info, i64 vectors, \
                                i64 lower) {                                                                           \
        syev_tiny<T, N>(a, ld, stride, batch, w, info, vectors != 0, lower != 0);                                      \
    }
#define SYEV_TINY_TO4(SUFFIX, T) SYEV_TINY(SUFFIX, T, 1) SYEV_TINY(SUFFIX, T, 2) SYEV_TINY(SUFFIX, T, 3) SYEV_TINY(SUFFIX, T, 4)
#define SYEV_TINY_TO6(SUFFIX, T) SYEV_TINY_TO4(SUFFIX, T) SYEV_TINY(SUFFIX, T, 5) SYEV_TINY(SUFFIX, T, 6)
// Each dtype up to its largest order (syevTinyMax in syev_cuda.go): A's upper triangle and
// V, n(n+1)/2 + n^2 elements, held within about 150 registers and no spill (ptxas 11.8,
// sm_80 and sm_90: float n = 8 136 registers, double and complex float n = 6 151 and 153,
// complex double n = 4 139). One order more spills or nearly: complex double n = 5 took 196,
// double n = 8 241, complex float n = 8 254.
SYEV_TINY_TO6(f32, float) SYEV_TINY(f32, float, 7) SYEV_TINY(f32, float, 8)
SYEV_TINY_TO6(f64, double)
SYEV_TINY_TO6(c64, cfloat)
SYEV_TINY_TO4(c128, cdouble)
