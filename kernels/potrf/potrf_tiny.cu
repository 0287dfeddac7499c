// potrf "tiny": Cholesky factorization A = L L^H (or U^H U) of a batch of n-by-n matrices,
// n <= 64, each matrix on chip (registers and shared memory). The launch (potrf_cuda.go)
// picks the kernel by n:
//
//   potrf_tiny_t4 (n <= 4): one thread per matrix. Global memory is read and written by
//     whole warps through shared memory: the 32 matrices of a warp are copied element by
//     element with consecutive lanes on consecutive addresses (fully coalesced when the batch
//     is packed; loads by cp.async, all in flight at once), each matrix at an odd pitch in
//     shared memory so that the threads' own accesses are free of bank conflicts. Each thread
//     then factors its matrix there, left-looking (chol_left, the order a compile-time
//     constant: a switch over n picks the unrolled code).
//
//   potrf_tiny_w8 (5 <= n <= 8: four matrices per warp), w16 (9..16: two), w32 (17..32: one),
//     w64 (33..64 but float: two warps, a block of its own): a group of N lanes per matrix,
//     lane i holding row i of the lower triangle in registers (indexed by compile-time
//     constants only), the order padded to N with the identity; one kernel per triangle (l,
//     u). Lane i copies row i of each stored column between global memory and the group's
//     shared tile, so that a group touches consecutive addresses (tiny_copy_in,
//     tiny_copy_out). Step k is right-looking: every lane stores its A(i, k) in a shared
//     column, and after one barrier (__syncwarp, or __syncthreads for the 64-lane group of
//     w64) each lane reads the pivot and the column below it with broadcast 16-byte loads, so
//     that one shared load feeds 4 (float) FMAs, and updates its row:
//       A(i, j) -= (A(i, k) / d) conj(A(j, k)),  j > k,   L(i, k) = A(i, k) / sqrt(d).
//     The column buffer alternates between two copies, so one barrier per step suffices.
//     At n = 8, a group of 8 lanes a matrix keeps 8 times the thread kernel's matrices in
//     flight: on the H200 at batch 8192, 0.005 ms against its 0.015 (float).
//
//   potrf_tiny_p64 (float, 33..64): the same kernel with a group of 32 lanes a matrix, lane i
//     holding rows i and i + 32 (two rows a lane, RPL = 2), so that the steps join one warp,
//     not a block, and nothing is spent on the zeros right of row i's diagonal: 2,512 FMAs a
//     matrix where w64 issues 4,032. On the H200 at n = 64, batch 8192: 0.112 ms, against
//     w64's 0.157 and potrf_warp's 0.135. float only: float64's rows would take 192
//     registers a lane.
//
// The upper case U^H U = A is the lower case of L = U^H: element (i, j) of L is the conjugate
// of the stored (j, i). Only the named triangle is read or written.
//
// info[b] = k + 1 when pivot k is not positive (or is NaN), as in LAPACK; the factorization of
// that matrix stops there: columns 0..k-1 hold the factor, and the rest holds A (thread
// kernel, as potf2 leaves it, with the failing pivot at (k, k)) or the trailing matrix as
// updated so far (group kernels). The other matrices go on.
#include "potrf_common.cuh"

#define TINY_THREAD_WARPS 2 // warps per block of the thread-per-matrix kernels
#define TINY_WARP_WARPS 4   // warps per block of the warp kernels with N <= 32 and of p64

// A group kernel's unit is the threads that one barrier joins: a warp when a matrix takes
// at most 32 lanes (N / RPL lanes, RPL rows a lane; 32 RPL / N matrices), the whole block of
// 64 threads (one matrix) above. One matrix per block keeps the barrier a plain
// __syncthreads, and small blocks (64 threads, 16-33 KB of shared memory) keep 6-13
// matrices in flight per SM.
template <int N, int RPL> struct tiny_unit {
    static const int LANES = N / RPL;                          // lanes of a matrix
    static const int THREADS = LANES > 32 ? LANES : 32;        // threads of a unit
    static const int UNITS = LANES > 32 ? 1 : TINY_WARP_WARPS; // units per block
    static const int M = THREADS / LANES;                      // matrices per unit
    static __device__ __forceinline__ void sync() {
        if (LANES > 32) __syncthreads();
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
        // A branch, not the copy's predicate: predicated, every address is formed whether used
        // or not, which took float from 56 registers to 80 on sm_90 and spilled float64 on
        // sm_80 and sm_89 (nvcc 13.0).
        if (m < left && (lower ? r >= c : r <= c)) cp_async_if(sh + m * P + rem, a + (b0 + m) * stride + c * ld + r, true);
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

// potrf_tiny_thread: the block's warps take 32 consecutive matrices each; 1 <= n <= 4.
template <typename T>
__device__ __forceinline__ void potrf_tiny_thread(T *a, i64 ld, i64 stride, int n, i64 batch, int *info, bool lower) {
    DYNAMIC_SHARED(T, shared);
    const int warp = threadIdx.x >> 5;
    const i64 b0 = ((i64)blockIdx.x * TINY_THREAD_WARPS + warp) * 32;
    if (b0 >= batch) return; // whole warps leave together
    T *sh = shared + warp * 32 * ((n * n) | 1);
#define TINY_CASE(K)                                                        \
    if (n == K) {                                                           \
        potrf_thread<T, K>(a, ld, stride, batch, info, lower, b0, sh);      \
        return;                                                             \
    }
    TINY_CASE(1)
    TINY_CASE(2)
    TINY_CASE(3)
    TINY_CASE(4)
#undef TINY_CASE
}

// A group's rows move between global memory and registers through its shared tile (pitch
// N + 1), in phases that a lane holding two rows (p64) runs for both rows before each
// barrier. Lane i copies row i of each stored column, so that a group's
// access to a column is consecutive addresses, and every copy is in flight at once without
// holding a register; its addresses come off one row pointer (col_at). Lower: that row is
// L's row i, at tile (i, j). Upper: it is U's row i, A(i, j) for j >= i, put at tile (j, i),
// so that L's row i, U's column i conjugated, is again at tile (i, j). An earlier form spent
// 1,190 of its 3,363 warp instructions per matrix (float, n = 32) on the copy in, re-forming
// 64-bit addresses and branching around each cp.async (ncu, session5_ncu_source.tgz);
// loading straight into registers instead left float64's loads in small dependent groups
// (n = 32: 0.208 ms became 0.315).
//
// tiny_place is where a lane's row i of its group's matrix lives: the row pointer p (mat + i)
// and i itself, both hidden from the compiler afresh for each pass (opaque_row), and row,
// whether the row exists (live: the matrix does).
template <typename T> struct tiny_place {
    T *p;
    int i;
    bool row;
};
template <typename T> __device__ __forceinline__ tiny_place<T> tiny_place_of(T *mat, int n, bool live, int i) {
    tiny_place<T> w = {mat + i, i, false};
    opaque_row(w.p, w.i);
    w.row = live && w.i < n;
    return w;
}

// The helpers below take a lane's row w.i as L entries r[0..L-1] (L > i, a compile-time
// constant once inlined: the group's lanes per row set times the set's number), so that a
// row that cannot reach past column L - 1 costs no code or registers beyond it.

// tiny_copy_in starts the copies of row w.i into the tile (ld < 2^32): the stored part of its
// first L columns (lower) or of all N (upper).
template <typename T, int N, bool LOWER>
__device__ __forceinline__ void tiny_copy_in(const tiny_place<T> &w, int L, unsigned ld, int n, T *tile) {
    const int P = N + 1, i = w.i;
#pragma unroll
    for (int j = 0; j < N; j++) {
        if (LOWER && j >= L) break;
        cp_async_if(LOWER ? tile + j * P + i : tile + i * P + j, col_at(w.p, ld, j), w.row && (LOWER ? j <= i : j >= i && j < n));
    }
}

// tiny_row_in reads L's row w.i, r[0..L-1] (the rest is zero and left alone), from the tile
// once the copies are done (and, upper, the other lanes' copies). Rows and columns beyond n
// are the identity's, so that the padded pivots are 1 and the padding never reaches the
// matrix.
template <typename T, int N, bool LOWER>
__device__ __forceinline__ void tiny_row_in(const tiny_place<T> &w, int L, const T *tile, T (&r)[N]) {
    typedef scalar<T> S;
    const int P = N + 1, i = w.i;
#pragma unroll
    for (int j = 0; j < N; j++) {
        if (j >= L) break;
        const T v = tile[j * P + i];
        r[j] = j == i ? S::from_real(w.row ? S::re(v) : 1) : w.row && j < i ? (LOWER ? v : S::conj(v)) : S::from_real(0);
    }
}

// tiny_row_out writes L's row w.i, r[0..L-1], back: lower straight to its place in the
// matrix; upper to the tile, conjugated at tile (j, i), for tiny_copy_out once every lane
// has put its rows.
template <typename T, int N, bool LOWER>
__device__ __forceinline__ void tiny_row_out(const tiny_place<T> &w, int L, unsigned ld, T *tile, const T (&r)[N]) {
    const int P = N + 1, i = w.i;
#pragma unroll
    for (int j = 0; j < N; j++) {
        if (j >= L) break;
        if (LOWER) {
            if (w.row && j <= i) *col_at(w.p, ld, j) = r[j];
        } else {
            if (j <= i) tile[j * P + i] = scalar<T>::conj(r[j]);
        }
    }
}

// tiny_copy_out (upper) writes U's row w.i, A(i, j) for j >= i, from the tile to the matrix,
// C elements at a time, read ahead of their stores.
template <typename T, int N>
__device__ __forceinline__ void tiny_copy_out(const tiny_place<T> &w, unsigned ld, int n, const T *tile) {
    const int P = N + 1, C = 8, i = w.i;
#pragma unroll
    for (int j0 = 0; j0 < N; j0 += C) {
        T v[C];
#pragma unroll
        for (int j = j0; j < j0 + C; j++) v[j - j0] = tile[i * P + j];
#pragma unroll
        for (int j = j0; j < j0 + C; j++) {
            if (w.row && j >= i && j < n) *col_at(w.p, ld, j) = v[j - j0];
        }
    }
}

// potrf_tiny_warp: a group of N / RPL lanes per matrix, M matrices per unit (tiny_unit),
// n <= N; lane i of a group holds rows i + c N / RPL (c < RPL) of the lower triangle, row c
// in r[c][0..(c + 1) N / RPL - 1] (its entries right of that are zero and never touched).
template <typename T, int N, bool LOWER, int RPL>
__device__ __forceinline__ void potrf_tiny_warp(T *a, i64 ld, i64 stride, int n, i64 batch, int *info) {
    typedef scalar<T> S;
    typedef typename S::real R;
    typedef tiny_unit<N, RPL> U;
    const int G = U::LANES, M = U::M;      // lanes and matrices of a unit
    const int P = N + 1;                    // column pitch of the shared tile
    const int CP = N + 16 / (int)sizeof(T); // pitch of the groups' column buffers (16 bytes apart)
    DYNAMIC_SHARED(T, shared);
    const int lane = threadIdx.x % U::THREADS, unit = threadIdx.x / U::THREADS;
    const int g = lane / G, i = lane % G;
    const i64 b0 = ((i64)blockIdx.x * U::UNITS + unit) * M;
    if (b0 >= batch) return; // whole units leave together
    const bool live = g < batch - b0;
    const unsigned lu = (unsigned)ld;                   // ld < 2^32: potrfTinyCanRun
    T *tile = shared + unit * M * N * P + g * N * P;    // this group's N*P elements
    T *col = shared + unit * M * N * P;                 // the unit's column buffers, in its tiles
    T *mat = a + (b0 + g) * stride;

    T r[RPL][N];
    tiny_place<T> in[RPL];
#pragma unroll
    for (int c = 0; c < RPL; c++) {
        in[c] = tiny_place_of(mat, n, live, i + G * c);
        tiny_copy_in<T, N, LOWER>(in[c], G * (c + 1), lu, n, tile);
    }
    cp_async_wait();
    if (!LOWER) U::sync();
#pragma unroll
    for (int c = 0; c < RPL; c++) tiny_row_in<T, N, LOWER>(in[c], G * (c + 1), tile, r[c]);
    U::sync(); // the tile's reads are done before it holds column buffers

    int bad = 0; // the same in every lane of a group
#pragma unroll
    for (int k = 0; k < N; k++) {
        T *cb = col + (k & 1) * M * CP + g * CP;
#pragma unroll
        for (int c = 0; c < RPL; c++)
            if (k < G * (c + 1)) cb[i + G * c] = r[c][k];
        U::sync();
        if (!bad) {
            // Column k from the pivot down, 16 bytes a load from the aligned chunk that holds
            // the pivot on, each chunk loaded just before its FMAs (few registers in flight).
            const int V = vec16<T>::V;
            T cv[N];
            vec16<T>::ld(cb + k / V * V, cv + k / V * V);
            const R d = S::re(cv[k]);
            if (!(d > 0)) {
                bad = k + 1;
            } else {
                const R inv = rsqrt_r(d);
                T t[RPL];
#pragma unroll
                for (int c = 0; c < RPL; c++) t[c] = k < G * (c + 1) ? S::scale(r[c][k], inv * inv) : S::from_real(0);
#pragma unroll
                for (int j = k + 1; j < N; j++) {
                    if (j % V == 0) vec16<T>::ld(cb + j, cv + j);
#pragma unroll
                    for (int c = 0; c < RPL; c++)
                        if (j < G * (c + 1)) r[c][j] = S::sub_mul_conj(r[c][j], t[c], cv[j]);
                }
#pragma unroll
                for (int c = 0; c < RPL; c++)
                    if (k < G * (c + 1)) r[c][k] = i + G * c == k ? S::from_real(d * inv) : S::scale(r[c][k], inv);
            }
        }
    }
    if (!LOWER) U::sync(); // the column buffers' reads are done before the tile takes rows
    tiny_place<T> out[RPL];
#pragma unroll
    for (int c = 0; c < RPL; c++) out[c] = tiny_place_of(mat, n, live, i + G * c);
#pragma unroll
    for (int c = 0; c < RPL; c++) tiny_row_out<T, N, LOWER>(out[c], G * (c + 1), lu, tile, r[c]);
    if (!LOWER) {
        U::sync();
#pragma unroll
        for (int c = 0; c < RPL; c++) tiny_copy_out<T, N>(out[c], lu, n, tile);
    }
    if (i == 0 && live) info[b0 + g] = bad;
}

// A group kernel per triangle, l and u: lower and upper move their rows differently
// (tiny_copy_in), and one kernel holding both took complex128 at N = 32 to 255 registers and a
// spill, where each alone takes 186. KIND names the kernel: wN (a row a lane) or p64 (two).
#define POTRF_TINY_GROUP(KIND, SUFFIX, T, N, RPL, THREADS, MINB_L, MINB_U)                              \
    extern "C" __global__ void __launch_bounds__(THREADS, MINB_L)                                       \
        potrf_tiny_##KIND##l_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, int *info) {          \
        potrf_tiny_warp<T, N, true, RPL>(a, ld, stride, (int)n, batch, info);                           \
    }                                                                                                   \
    extern "C" __global__ void __launch_bounds__(THREADS, MINB_U)                                       \
        potrf_tiny_##KIND##u_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, int *info) {          \
        potrf_tiny_warp<T, N, false, RPL>(a, ld, stride, (int)n, batch, info);                          \
    }
// The last two numbers are each kernel's minimum blocks per SM (__launch_bounds__; 0: none
// given). Left to itself, nvcc 13.0 spilled 4 to 20 bytes in six of these kernels on sm_90,
// choosing few registers; the minimums here raise their budgets just enough to spill nothing
// there. A minimum of 1 spelled out is not the same as none: it took w32 complex128 to 254
// registers and a spill, where none given takes 180. Lane i of w64 holds 64 elements of row
// i: 128 registers (f64, c64); c128's 256 would spill, so c128 stops at 32. p64's minimums
// of 3: with none, ptxas 11.8 took p64u to 188 registers, 2 blocks an SM (nvcc 13.0 with 3,
// sm_90: 153 and 157, no spill).
#define WT (32 * TINY_WARP_WARPS)
POTRF_TINY_GROUP(w8, f32, float, 8, 1, WT, 0, 0)
POTRF_TINY_GROUP(w16, f32, float, 16, 1, WT, 5, 0)
POTRF_TINY_GROUP(w32, f32, float, 32, 1, WT, 0, 5)
POTRF_TINY_GROUP(p64, f32, float, 64, 2, WT, 3, 3)
POTRF_TINY_GROUP(w8, f64, double, 8, 1, WT, 0, 0)
POTRF_TINY_GROUP(w16, f64, double, 16, 1, WT, 5, 5)
POTRF_TINY_GROUP(w32, f64, double, 32, 1, WT, 0, 0)
POTRF_TINY_GROUP(w64, f64, double, 64, 1, 64, 0, 0)
POTRF_TINY_GROUP(w8, c64, cfloat, 8, 1, WT, 0, 0)
POTRF_TINY_GROUP(w16, c64, cfloat, 16, 1, WT, 5, 0)
POTRF_TINY_GROUP(w32, c64, cfloat, 32, 1, WT, 0, 0)
POTRF_TINY_GROUP(w64, c64, cfloat, 64, 1, 64, 0, 2)
POTRF_TINY_GROUP(w8, c128, cdouble, 8, 1, WT, 0, 0)
POTRF_TINY_GROUP(w16, c128, cdouble, 16, 1, WT, 0, 3)
POTRF_TINY_GROUP(w32, c128, cdouble, 32, 1, WT, 0, 0)
#define POTRF_TINY_THREAD(SUFFIX, T)                                                                    \
    extern "C" __global__ void __launch_bounds__(32 * TINY_THREAD_WARPS)                                \
        potrf_tiny_t4_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, int *info, i64 lower) {      \
        potrf_tiny_thread<T>(a, ld, stride, (int)n, batch, info, lower != 0);                           \
    }
POTRF_TINY_THREAD(f32, float)
POTRF_TINY_THREAD(f64, double)
POTRF_TINY_THREAD(c64, cfloat)
POTRF_TINY_THREAD(c128, cdouble)
