// geqrf "tiny": Householder QR (LAPACK's geqr2) of a batch of m-by-n matrices with m, n <= N
// (N = 8 or 16; 8 for complex128), a group of N lanes per matrix, 32/N matrices a warp, and
// no barrier wider than a warp. Lane c of a group holds the active rows of column c of its
// matrix in registers: at step j, rows j..N-1 in x[0..N-1-j], zeros below m and past them
// (a lane without a column holds zeros and idles), so that every register index is a
// compile-time constant although j is not.
//
// The matrices go through a shared tile of N columns of pitch N+1 a group: read from global
// memory a column at a time by the group's lanes (consecutive lanes on consecutive rows), then
// each lane takes its column from the tile, conflict-free at the odd pitch. Finished rows go
// back to the tile as they are done, and the tile goes out in reverse. Step j:
//
//   1. the lane that holds column j (the owner) forms reflector j from x by itself
//      (reg_larfg: alpha = A(j, j), x = A(j+1:m, j)), publishes v padded (one at row j, zero
//      from m on) in one of two buffers that alternate by step, and stores its column's last
//      values to the tile: beta at row j, v's tail below;
//   2. after a __syncwarp, every lane holding a column c > j applies H_j^H = I - conj(tau_j)
//      v v^H to it: w = v^H a_c, a_c -= (conj(tau_j) w) v, over all N registers with no
//      tests (v's zeros leave the others as they are), v read 16 bytes at a time, the same
//      addresses for every lane of a group (a broadcast); then it stores R(j, c) to the tile
//      and moves its rows up by one.
//
// Each step's reflector is one lane's serial work, but 32/N matrices share a warp and a block
// holds TINY_QR_WARPS warps, so that many matrices are in flight per SM and hide that
// latency; the one-block-per-matrix "cta" kernels wait on a block-wide barrier each step.
// Tau_c ends in lane c's register and is written with the columns. Shared memory: the tiles
// of the block's matrices, then two reflector buffers of N elements per matrix.
#include "../common/householder.cuh"
#include "../common/smem.cuh"

#define TINY_QR_WARPS 4 // warps per block

// reg_larfg is larfg by one lane on the active rows of its column, x[0..N-1], whose rows past
// the matrix are zero: alpha = x[0], x is x[1..N-1]. x[0] becomes beta and x[1..N-1] v's
// tail; it returns tau. The zeros past the matrix add nothing to the norm and stay zero when
// scaled, so no row is masked (masks cost two selects an element for double, on the path
// that the other lanes wait for); every row index is a compile-time constant, so that x
// stays in registers.
template <typename T, int N> __device__ __forceinline__ T reg_larfg(T (&x)[N]) {
    typedef scalar<T> S;
    typedef typename S::real R;
    auto each = [&](auto f) {
#pragma unroll
        for (int i = 1; i < N; i++) f(S::re(x[i]), S::im(x[i]));
    };
    auto same = [](R v) { return v; };
    auto nrm2 = [&] { return team_nrm2<R>(each, same, same); };
    auto scale = [&](T s) {
#pragma unroll
        for (int i = 1; i < N; i++) x[i] = S::mul(x[i], s);
    };
    T tau;
    x[0] = S::from_real(larfg(S::re(x[0]), S::im(x[0]), nrm2, scale, tau));
    return tau;
}

// tiny_qr_copy moves the group's matrix between global memory (mat, m-by-n, leading dimension
// ld < 2^32; nothing when the matrix does not exist) and the tile (column j at j*(N+1)), LOAD
// from global; lane i of the group takes row i of every column, its addresses formed off one
// row pointer (col_at). Loading writes zeros where the matrix has no element. The reads of
// 32 bytes' worth of columns go ahead of their writes.
template <typename T, int N, bool LOAD>
__device__ __forceinline__ void tiny_qr_copy(T *mat, unsigned ld, int m, int n, bool live, int i, T *tile) {
    constexpr int U = 32 / (int)sizeof(T) < N ? 32 / (int)sizeof(T) : N;
    T *p = mat + i;
    opaque_row(p, i);
#pragma unroll
    for (int j0 = 0; j0 < N; j0 += U) {
        T v[U];
#pragma unroll
        for (int j = j0; j < j0 + U; j++) {
            const bool ok = live && i < m && j < n;
            if (LOAD) v[j - j0] = ok ? *col_at(p, ld, j) : scalar<T>::from_real(0);
            else if (ok) v[j - j0] = tile[j * (N + 1) + i];
        }
#pragma unroll
        for (int j = j0; j < j0 + U; j++) {
            if (LOAD) tile[j * (N + 1) + i] = v[j - j0];
            else if (live && i < m && j < n) *col_at(p, ld, j) = v[j - j0];
        }
    }
}

template <typename T, int N>
__device__ __forceinline__ void geqrf_tiny(T *a, i64 ld, i64 stride, int m, int n, T *tau, i64 batch) {
    typedef scalar<T> S;
    constexpr int G = 32 / N, W = qr_w<T>();
    DYNAMIC_SHARED(T, shared);
    const int lane = threadIdx.x & 31, g = lane / N, c = lane % N;
    const i64 b0 = ((i64)blockIdx.x * TINY_QR_WARPS + (threadIdx.x >> 5)) * G;
    if (b0 >= batch) return; // a whole warp
    const i64 b = b0 + g;
    const bool live = b < batch;
    const int k = m < n ? m : n;
    T *tile = shared + ((threadIdx.x >> 5) * G + g) * N * (N + 1);
    T *mat = a + b * stride;

    tiny_qr_copy<T, N, true>(mat, (unsigned)ld, m, n, live, c, tile); // ld < 2^32: geqrfTinyCanRun
    __syncwarp();
    // x holds the active rows of this lane's column: rows j..N-1 at step j, row j in x[0].
    T x[N];
    T *mine = tile + c * (N + 1); // this lane's column in the tile, where finished rows go
#pragma unroll
    for (int i = 0; i < N; i++) x[i] = mine[i];
    T *vbuf = shared + TINY_QR_WARPS * G * N * (N + 1) + ((threadIdx.x >> 5) * G + g) * 2 * N;

    T t = S::from_real(0); // tau of this lane's column
    for (int j = 0; j < k; j++) {
        T *v = vbuf + (j & 1) * N;
        if (c == j) {
            // The reflector, and the column's last values: beta at row j, v's tail below.
            t = reg_larfg(x);
#pragma unroll
            for (int i0 = 0; i0 < N; i0 += W) {
                qr_pack<T> p;
#pragma unroll
                for (int e = 0; e < W; e++) {
                    const int i = i0 + e;
                    p.e[e] = i == 0 ? S::from_real(1) : x[i]; // zero from row m on
                }
                store16(v + i0, p);
            }
#pragma unroll
            for (int i = 0; i < N; i++) {
                if (i < m - j) mine[j + i] = x[i];
            }
        }
        const T tj = S::conj(S::shfl(t, g * N + j));
        __syncwarp();
        if (c > j && c < n) {
            T w = S::from_real(0);
#pragma unroll
            for (int i0 = 0; i0 < N; i0 += W) {
                const qr_pack<T> p = load16(v + i0);
#pragma unroll
                for (int e = 0; e < W; e++) w = S::fma_conj(w, p.e[e], x[i0 + e]);
            }
            const T s = S::mul(tj, w);
#pragma unroll
            for (int i0 = 0; i0 < N; i0 += W) {
                const qr_pack<T> p = load16(v + i0);
#pragma unroll
                for (int e = 0; e < W; e++) x[i0 + e] = S::sub_mul(x[i0 + e], s, p.e[e]);
            }
            // Row j of R is done: out to the tile, and the rows below move up.
            mine[j] = x[0];
#pragma unroll
            for (int i = 0; i + 1 < N; i++) x[i] = x[i + 1];
            x[N - 1] = S::from_real(0);
        }
    }
    __syncwarp();
    tiny_qr_copy<T, N, false>(mat, (unsigned)ld, m, n, live, c, tile);
    if (live && c < k) tau[b * k + c] = t;
}

// MINB 4 (__launch_bounds__'s blocks per SM) gives ptxas 128 registers: left to itself, it
// held double at N = 8 to 64 and spilled.
#define GEQRF_TINY(SUFFIX, T, N)                                                                              \
    extern "C" __global__ void __launch_bounds__(32 * TINY_QR_WARPS, 4)                                       \
        geqrf_tiny_n##N##_##SUFFIX(T *a, i64 ld, i64 stride, i64 m, i64 n, T *tau, i64 batch) {               \
        geqrf_tiny<T, N>(a, ld, stride, (int)m, (int)n, tau, batch);                                          \
    }
// N = 32 (in an earlier form of this kernel) ran slower than geqrf_cta at n = 32 on the H200
// (float 0.247 against 0.191 ms, batch 8192); complex128 at N = 16 spills at 128 registers.
GEQRF_TINY(f32, float, 8)
GEQRF_TINY(f32, float, 16)
GEQRF_TINY(f64, double, 8)
GEQRF_TINY(f64, double, 16)
GEQRF_TINY(c64, cfloat, 8)
GEQRF_TINY(c64, cfloat, 16)
GEQRF_TINY(c128, cdouble, 8)
