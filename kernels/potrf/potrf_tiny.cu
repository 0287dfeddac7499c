// potrf "tiny": Cholesky factorization A = L L^H (or U^H U) of a batch of n-by-n matrices,
// n <= 64, each matrix on chip (registers and shared memory). Two shapes, five kernels per
// scalar type (four for c128, which stops at n = 32); the launch (potrf_cuda.go) picks the kernel by n:
//
//   potrf_tiny_t4 (n <= 4), potrf_tiny_t8 (5 <= n <= 8): one thread per matrix. Global
//     memory is read and written by whole warps through shared memory: the 32 matrices of a
//     warp are copied element by element with consecutive lanes on consecutive addresses
//     (fully coalesced when the batch is packed; loads by cp.async, all in flight at once), each matrix at an odd pitch in shared
//     memory so that the threads' own accesses are free of bank conflicts. Each thread then
//     factors its matrix there, left-looking (chol_left, the order a compile-time constant: a
//     switch over n picks the unrolled code), with at most n*n/4 elements in registers.
//
//   potrf_tiny_w16 (9 <= n <= 16: two matrices per warp), potrf_tiny_w32 (17 <= n <= 32),
//     potrf_tiny_w64 (33 <= n <= 64: two warps, a block of its own): a group of N lanes per
//     matrix, lane i holding row i of the lower triangle in registers
//     (indexed by compile-time constants only), the order padded to N with the identity.
//     Step k is right-looking: every lane stores its A(i, k) in a shared column, and after one
//     barrier (__syncwarp, or __syncthreads for the 64-lane group of w64) each lane reads the
//     pivot and the column below it with broadcast 16-byte loads, so that one shared load
//     feeds 4 (float) FMAs, and updates its row:
//       A(i, j) -= (A(i, k) / d) conj(A(j, k)),  j > k,   L(i, k) = A(i, k) / sqrt(d).
//     The column buffer alternates between two copies, so one barrier per step suffices.
//     Global memory goes through a shared tile (column pitch N+1, no bank conflicts) with
//     consecutive lanes on consecutive rows of a column, loads by cp.async.
//
// The upper case U^H U = A is the lower case of L = U^H: element (i, j) of L is the conjugate
// of the stored (j, i). Only the named triangle is read or written.
//
// info[b] = k + 1 when pivot k is not positive (or is NaN), as in LAPACK; the factorization of
// that matrix stops there: columns 0..k-1 hold the factor, and the rest holds A (thread
// kernels, as potf2 leaves it, with the failing pivot at (k, k)) or the trailing matrix as
// updated so far (warp kernels). The other matrices go on.
#include "potrf_common.cuh"

#define TINY_THREAD_WARPS 2 // warps per block of the thread-per-matrix kernels
#define TINY_WARP_WARPS 4   // warps per block of the warp kernels with N <= 32

// A warp kernel's unit is the threads that one barrier joins: a warp for N <= 32 (32/N
// matrices), the whole block of N = 64 threads (one matrix) above. One matrix per block
// keeps the barrier a plain __syncthreads, and small blocks (64 threads, 16-33 KB of shared
// memory) keep 6-13 matrices in flight per SM.
template <int N> struct tiny_unit {
    static const int THREADS = N > 32 ? N : 32;            // threads of a unit
    static const int UNITS = N > 32 ? 1 : TINY_WARP_WARPS; // units per block
    static const int M = THREADS / N;                      // matrices per unit
    static __device__ __forceinline__ void sync() {
        if (N > 32) __syncthreads();
        else __syncwarp();
    }
};

// thread_mat is a thread's matrix in its shared slot (column-major, pitch N) as chol_left
// sees it: L's (i, j) is the stored (i, j) (lower) or the conjugate of the stored (j, i).
template <typename T, int N> struct thread_mat {
    T *p;
    bool lower;
    __device__ __forceinline__ T get(int i, int j) const {
        typedef scalar<T> S;
        if (i == j) return S::from_real(S::re(p[j * N + i]));
        return lower ? p[j * N + i] : S::conj(p[i * N + j]);
    }
    __device__ __forceinline__ void set(int i, int j, T v) const {
        if (lower) p[j * N + i] = v;
        else p[i * N + j] = scalar<T>::conj(v);
    }
};

// potrf_thread factors the warp's 32 matrices b0..b0+31, one per lane; sh is the warp's
// 32*P elements of shared memory.
template <typename T, int N>
__device__ __forceinline__ void potrf_thread(T *a, i64 ld, i64 stride, i64 batch, int *info, bool lower, i64 b0, T *sh) {
    typedef scalar<T> S;
    const int NN = N * N, P = NN | 1; // odd pitch: lane l reads bank (l*P + e) % 32, distinct
    const int lane = threadIdx.x & 31;
    const i64 left = batch - b0; // matrices of this warp that exist (may exceed 32)

    // Element e of the warp's span (matrix e/NN, column-major within it) goes through lane
    // e % 32: consecutive lanes read consecutive addresses of a column.
#pragma unroll
    for (int t = 0; t < NN; t++) {
        const int e = lane + 32 * t, m = e / NN, rem = e % NN, c = rem / N, r = rem % N;
        if (m < left && (lower ? r >= c : r <= c)) cp_async(sh + m * P + rem, a + (b0 + m) * stride + c * ld + r);
    }
    cp_async_wait();
    __syncwarp();
    typename S::real dinv[N];
    thread_mat<T, N> mine = {sh + lane * P, lower};
    const int bad = chol_left<T, N>(mine, dinv);
    __syncwarp();
    // The stores, 16 slots at a time, their shared reads all ahead of them (a global store
    // through a generic pointer would otherwise hold back the next shared read).
    const int U = 16;
#pragma unroll
    for (int t0 = 0; t0 < NN; t0 += U) {
        T v[U];
#pragma unroll
        for (int t = t0; t < t0 + U && t < NN; t++) v[t - t0] = sh[(lane + 32 * t) / NN * P + (lane + 32 * t) % NN];
#pragma unroll
        for (int t = t0; t < t0 + U && t < NN; t++) {
            const int e = lane + 32 * t, m = e / NN, rem = e % NN, c = rem / N, r = rem % N;
            if (m < left && (lower ? r >= c : r <= c)) a[(b0 + m) * stride + c * ld + r] = v[t - t0];
        }
    }
    if (lane < left) info[b0 + lane] = bad;
}

// potrf_tiny_thread: the block's warps take 32 consecutive matrices each; n in [LO, HI].
template <typename T, int LO, int HI>
__device__ __forceinline__ void potrf_tiny_thread(T *a, i64 ld, i64 stride, int n, i64 batch, int *info, bool lower) {
    DYNAMIC_SHARED(T, shared);
    const int warp = threadIdx.x >> 5;
    const i64 b0 = ((i64)blockIdx.x * TINY_THREAD_WARPS + warp) * 32;
    if (b0 >= batch) return; // whole warps leave together
    T *sh = shared + warp * 32 * ((n * n) | 1);
    static_assert(HI - LO <= 3, "one case per order below");
#define TINY_CASE(K)                                                                             \
    if (LO + K <= HI && n == LO + K) {                                                           \
        potrf_thread<T, (LO + K <= HI ? LO + K : HI)>(a, ld, stride, batch, info, lower, b0, sh); \
        return;                                                                                  \
    }
    TINY_CASE(0)
    TINY_CASE(1)
    TINY_CASE(2)
    TINY_CASE(3)
#undef TINY_CASE
}

// warp_tile_copy copies the named triangles of a unit's M matrices, mat[0..M-1] (those below
// left), between global memory and the shared tile (matrix m at m*N*P, column pitch P = N+1),
// LOAD from global. Lane (g, i) takes row i of column (M t) % N + g of matrix M t / N in slot
// t, so that a warp's access is whole columns (or half of one, N = 64), and the slot's matrix
// and column offset are compile-time constants.
template <typename T, int N, bool LOAD>
__device__ __forceinline__ void warp_tile_copy(T *mat, i64 ld, i64 stride, int n, i64 left, bool lower, int g, int i, T *tile) {
    const int M = tiny_unit<N>::M, P = N + 1;
    T *base = mat + g * ld + i;
    T v[N]; // the stores' values, all read from the tile ahead of the first store
#pragma unroll
    for (int t = 0; t < N; t++) {
        const int m = M * t / N, c0 = M * t % N, c = c0 + g;
        if (LOAD) {
            if (m < left && i < n && c < n && (lower ? i >= c : i <= c)) cp_async(tile + m * N * P + c * P + i, base + m * stride + c0 * ld);
        } else {
            v[t] = tile[m * N * P + c * P + i];
        }
    }
    if (LOAD) {
        cp_async_wait();
        return;
    }
#pragma unroll
    for (int t = 0; t < N; t++) {
        const int m = M * t / N, c0 = M * t % N, c = c0 + g;
        if (m < left && i < n && c < n && (lower ? i >= c : i <= c)) base[m * stride + c0 * ld] = v[t];
    }
}

// potrf_tiny_warp: a group of N lanes per matrix, M matrices per unit (tiny_unit), n <= N.
template <typename T, int N>
__device__ __forceinline__ void potrf_tiny_warp(T *a, i64 ld, i64 stride, int n, i64 batch, int *info, bool lower) {
    typedef scalar<T> S;
    typedef typename S::real R;
    typedef tiny_unit<N> U;
    const int M = U::M;                     // matrices per unit
    const int P = N + 1;                    // column pitch of the shared tile
    const int CP = N + 16 / (int)sizeof(T); // pitch of the groups' column buffers (16 bytes apart)
    DYNAMIC_SHARED(T, shared);
    const int lane = threadIdx.x % U::THREADS, unit = threadIdx.x / U::THREADS;
    const int g = lane / N, i = lane % N;
    const i64 b0 = ((i64)blockIdx.x * U::UNITS + unit) * M;
    if (b0 >= batch) return; // whole units leave together
    const i64 left = batch - b0;
    T *tile = shared + unit * U::THREADS * P; // M matrices of N*P elements
    T *col = tile;                    // reused for the column buffers once the rows are loaded

    T *mat = a + b0 * stride;
    warp_tile_copy<T, N, true>(mat, ld, stride, n, left, lower, g, i, tile);
    U::sync();
    // Row i of the lower triangle; rows and columns beyond n are the identity's, so that the
    // padded pivots are 1 and the padding never reaches the matrix. Entries right of the
    // diagonal are never stored and never feed an entry left of it.
    const T *mt = tile + g * N * P;
    T r[N];
#pragma unroll
    for (int j = 0; j < N; j++) {
        r[j] = S::from_real(j == i ? 1 : 0);
        if (i < n && j <= i) r[j] = j == i ? S::from_real(S::re(mt[j * P + i])) : lower ? mt[j * P + i] : S::conj(mt[i * P + j]);
    }
    U::sync();

    int bad = 0; // the same in every lane of a group
#pragma unroll
    for (int k = 0; k < N; k++) {
        T *cb = col + (k & 1) * M * CP + g * CP;
        cb[i] = r[k];
        U::sync();
        if (!bad) {
            // Column k from the pivot down, 16 bytes a load from the aligned chunk that holds
            // the pivot on, each chunk loaded just before its FMAs (few registers in flight).
            const int V = vec16<T>::V;
            T c[N];
            vec16<T>::ld(cb + k / V * V, c + k / V * V);
            const R d = S::re(c[k]);
            if (!(d > 0)) {
                bad = k + 1;
            } else {
                const R inv = rsqrt_r(d);
                const T t = S::scale(r[k], inv * inv);
#pragma unroll
                for (int j = k + 1; j < N; j++) {
                    if (j % V == 0) vec16<T>::ld(cb + j, c + j);
                    r[j] = S::sub_mul_conj(r[j], t, c[j]);
                }
                r[k] = i == k ? S::from_real(d * inv) : S::scale(r[k], inv);
            }
        }
    }
    U::sync();

    T *out = tile + g * N * P;
#pragma unroll
    for (int j = 0; j < N; j++) {
        if (i < n && j <= i) {
            if (lower) out[j * P + i] = r[j];
            else out[i * P + j] = S::conj(r[j]);
        }
    }
    U::sync();
    warp_tile_copy<T, N, false>(mat, ld, stride, n, left, lower, g, i, tile);
    if (i == 0 && g < left) info[b0 + g] = bad;
}

#define POTRF_TINY(SUFFIX, T)                                                                           \
    extern "C" __global__ void __launch_bounds__(32 * TINY_THREAD_WARPS)                                \
        potrf_tiny_t4_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, int *info, i64 lower) {      \
        potrf_tiny_thread<T, 1, 4>(a, ld, stride, (int)n, batch, info, lower != 0);                     \
    }                                                                                                   \
    extern "C" __global__ void __launch_bounds__(32 * TINY_THREAD_WARPS)                                \
        potrf_tiny_t8_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, int *info, i64 lower) {      \
        potrf_tiny_thread<T, 5, 8>(a, ld, stride, (int)n, batch, info, lower != 0);                     \
    }                                                                                                   \
    extern "C" __global__ void __launch_bounds__(32 * TINY_WARP_WARPS)                                  \
        potrf_tiny_w16_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, int *info, i64 lower) {     \
        potrf_tiny_warp<T, 16>(a, ld, stride, (int)n, batch, info, lower != 0);                         \
    }                                                                                                   \
    extern "C" __global__ void __launch_bounds__(32 * TINY_WARP_WARPS)                                  \
        potrf_tiny_w32_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, int *info, i64 lower) {     \
        potrf_tiny_warp<T, 32>(a, ld, stride, (int)n, batch, info, lower != 0);                         \
    }
#define POTRF_TINY_W64(SUFFIX, T)                                                                       \
    extern "C" __global__ void __launch_bounds__(64)                                                    \
        potrf_tiny_w64_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, int *info, i64 lower) {     \
        potrf_tiny_warp<T, 64>(a, ld, stride, (int)n, batch, info, lower != 0);                         \
    }

POTRF_TINY(f32, float)
POTRF_TINY(f64, double)
POTRF_TINY(c64, cfloat)
POTRF_TINY(c128, cdouble)
// Lane i of w64 holds 64 elements of row i: 64 registers (f32), 128 (f64, c64); c128's 256
// would spill, so c128 stops at n = 32.
POTRF_TINY_W64(f32, float)
POTRF_TINY_W64(f64, double)
POTRF_TINY_W64(c64, cfloat)
