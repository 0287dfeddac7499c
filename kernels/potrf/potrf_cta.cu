// potrf "cta": Cholesky factorization A = L L^H (or U^H U) of a batch of n-by-n matrices, one
// block per matrix, the matrix in shared memory.
//
// The named triangle is copied into a shared tile as the lower triangle of L's matrix (the
// upper case U^H U = A is the lower case of L = U^H), coalesced, with cp.async (every load
// of a thread in flight at once, none through registers; cta_load). The tile holds only the
// lower triangle of order NP (n rounded up to 8), packed by columns (ctile): about half a
// square tile, so that twice as many blocks fit an SM and n reaches 1.4 times as far. Then,
// for each panel of 8 columns c0..c0+7 (right-looking, blocked):
//
//   1. thread 0 factors the 8x8 diagonal block D = L_D L_D^H (chol_left, left-looking: at
//      most 20 elements in registers; past n the block is padded with the identity) and
//      stores L_D and 1/diag(L_D) (diag_factor);
//   2. each thread takes rows r >= c0+8 of the panel and solves x L_D^H = a (forward
//      substitution, L_D read by broadcast);
//   3. the trailing lower triangle A22 -= L21 L21^H in 4x4 tiles (tile_update: 16, complex
//      64, FMAs per pair of 16-byte shared loads of the panel): first the tiles of the next
//      panel's 8 columns, then, while warp 0 already factors the next diagonal block (step 1
//      of the next panel, off the critical path), the rest by warps 1 on.
//      potrf_cta_reg (spelling cta:reg=1, while the tiles fit CTA_TPT per thread of warps 1
//      on in 256 threads: n <= 112) keeps each thread's tiles in registers from the start and
//      stores a tile to the shared tile only when its columns become the next panel;
//      potrf_cta (cta:reg=0) loads and stores each trailing tile around its update, for any n
//      the shared memory holds. Tiles are numbered down the tile columns so that neighbouring lanes
//      touch neighbouring addresses.
//
// Three __syncthreads per panel. Elements past n are never copied in or out; the padding of
// the tile only ever feeds padding.
//
// info[b] = k + 1 when pivot k is not positive (or is NaN), as in LAPACK; the factorization of
// that matrix stops: columns before the failing panel hold the factor, the failing panel's
// diagonal block holds what potf2 leaves, the rest the trailing matrix as updated so far
// (potrf_cta), or as updated so far in the failing panel and as given beyond it
// (potrf_cta_reg). Shared memory: ctile::size(NP) elements, then 8 reals and an int
// (potrf_cuda.go's potrfCTAShared).
#include "ctile.cuh"

#define CTA_MAX_THREADS 256
#define CTA_TPT 2 // 4x4 tiles a thread holds in registers in potrf_cta_reg
#define CTA_STORE 8 // tile reads in flight per thread before its global stores

// cta_slots walks the elements of the named triangle that a thread copies between global
// memory and the tile. The stored matrix is cut into slots of RB rows by 32/RB columns, a lane
// an element: RB = 32 (a column) for lower, whose tile accesses then run along a tile column;
// RB = 8 for upper, whose tile accesses run along tile rows (tile (i, j) is the stored
// (j, i)), while each column's 8 rows are still one 32-byte sector or more. Warp w takes slots
// w, w+nw, ... (column-major).
struct cta_slots {
    int n, lg, l, H, slots, dj, dh, CB, nw, q, j, h;
    bool lower;
    __device__ __forceinline__ cta_slots(int n_, bool lower_) : n(n_), lower(lower_) {
        const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
        nw = blockDim.x >> 5;
        lg = lower ? 5 : 3;
        const int RB = 1 << lg;
        CB = 32 >> lg;
        l = lane & (RB - 1);
        H = (n + RB - 1) >> lg;           // row chunks of a column
        slots = H * ((n + CB - 1) / CB);  // slot q: rows RB*(q%H).., columns CB*(q/H)..
        dj = nw / H * CB, dh = nw % H;    // the advance by nw slots
        q = warp, j = warp / H * CB + (lane >> lg), h = warp % H;
    }
    __device__ __forceinline__ bool more() const { return q < slots; }
    // at gives the lane's element of the current slot, row i of column jj of the stored
    // matrix; false when it is outside the triangle or the slots are done.
    __device__ __forceinline__ bool at(int &i, int &jj) const {
        i = (h << lg) + l, jj = j;
        return q < slots && i < n && j < n && (lower ? i >= j : i <= j);
    }
    __device__ __forceinline__ void next() {
        q += nw, h += dh, j += dj;
        if (h >= H) h -= H, j += CB;
    }
};

// cta_load copies the named triangle of m into the tile t: tile element (i, j), i >= j, is L's
// (i, j), the stored (i, j) (lower) or the conjugate of the stored (j, i) (upper). Every copy
// of the thread is in flight at once; the caller's barrier publishes them.
template <typename T> __device__ __forceinline__ void cta_load(const T *m, i64 ld, int n, bool lower, ctile<T> t) {
    int i, j;
    for (cta_slots it(n, lower); it.more(); it.next()) {
        const bool ok = it.at(i, j);
        cp_async_if(lower ? t.col(j) + i : t.col(i) + j, m + (i64)j * ld + i, ok);
    }
    cp_async_wait();
    if (is_complex<T>::v && !lower) {
        for (cta_slots it(n, lower); it.more(); it.next()) {
            if (it.at(i, j)) t.col(i)[j] = scalar<T>::conj(t.col(i)[j]);
        }
    }
}

// cta_store copies the tile back into the named triangle of m, CTA_STORE tile reads ahead of
// their global stores.
template <typename T> __device__ __forceinline__ void cta_store(T *m, i64 ld, int n, bool lower, ctile<T> t) {
    typedef scalar<T> S;
    const int U = CTA_STORE;
    for (cta_slots it(n, lower); it.more();) {
        T v[U];
        i64 at[U]; // the stored offset of v[u], or -1
#pragma unroll
        for (int u = 0; u < U; u++, it.next()) {
            int i, j;
            at[u] = -1;
            if (it.at(i, j)) {
                v[u] = lower ? t.col(j)[i] : S::conj(t.col(i)[j]);
                at[u] = (i64)j * ld + i;
            }
        }
#pragma unroll
        for (int u = 0; u < U; u++) {
            if (at[u] >= 0) m[at[u]] = v[u];
        }
    }
}

// diag_block is the 8x8 diagonal block from (c0, c0) of the tile as chol_left sees it, padded
// past order w = n - c0 with the identity, whose pivots are 1.
template <typename T> struct diag_block {
    ctile<T> t;
    int c0, w;
    __device__ __forceinline__ T get(int i, int j) const {
        typedef scalar<T> S;
        if (i >= w) return S::from_real(i == j ? 1 : 0);
        const T x = t.col(c0 + j)[c0 + i];
        return i == j ? S::from_real(S::re(x)) : x;
    }
    __device__ __forceinline__ void set(int i, int j, T v) const {
        if (i < w) t.col(c0 + j)[c0 + i] = v;
    }
};

// diag_factor factors the diagonal block at (c, c) of the tile (thread 0): L_D in place,
// 1/diag(L_D) in dinv, and *sbad = c + k + 1 when its pivot k fails.
template <typename T>
__device__ __forceinline__ void diag_factor(const ctile<T> &t, int c, int n, typename scalar<T>::real *dinv, int *sbad) {
    diag_block<T> D = {t, c, n - c};
    const int bad = chol_left<T, CTA_PANEL>(D, dinv);
    if (bad) *sbad = c + bad;
}

template <typename T, int TPT>
__device__ __forceinline__ void potrf_cta(T *a, i64 ld, i64 stride, int n, int *info, bool lower) {
    typedef scalar<T> S;
    typedef typename S::real R;
    const int NB = CTA_PANEL;
    const int NP = (n + NB - 1) / NB * NB;
    DYNAMIC_SHARED(T, s);
    const ctile<T> t = {s, NP};
    R *dinv = (R *)(s + ctile<T>::size(NP)); // 1/L_D(k, k)
    int *sbad = (int *)(dinv + NB);
    const int tid = threadIdx.x, nt = blockDim.x;
    const i64 b = blockIdx.x;
    T *m = a + b * stride;

    cta_load(m, ld, n, lower, t);
    if (tid == 0) *sbad = 0;
    __syncthreads();

    // TPT > 0: tile q of the whole triangle (NP/4 tiles a side) belongs to thread
    // 32 + q % (nt-32), which holds it in acc[q / (nt-32)]; warp 0 holds none, for it factors
    // the next diagonal block meanwhile. The launch gives at least 32 + tiles/TPT threads.
    // Tiles of the first panel are never updated and stay out.
    const int workers = nt - 32;
    T acc[TPT > 0 ? TPT : 1][4][4];
    int i0s[TPT > 0 ? TPT : 1], j0s[TPT > 0 ? TPT : 1];
#pragma unroll
    for (int o = 0; o < TPT; o++) {
        const int NT = NP / 4, q = tid - 32 + o * workers;
        int ti = 0, tj = 0;
        if (tid >= 32 && q < NT * (NT + 1) / 2) tile_of(q, NT, ti, tj);
        i0s[o] = 4 * ti, j0s[o] = 4 * tj; // tile (0, 0) when none: never updated
        if (j0s[o] >= NB) {
#pragma unroll
            for (int jj = 0; jj < 4; jj++) ld4(t.col(j0s[o] + jj) + i0s[o], acc[o][jj]);
        }
    }

    if (tid == 0) diag_factor(t, 0, n, dinv, sbad);
    __syncthreads();
    for (int c0 = 0; c0 < n; c0 += NB) {
        const int c1 = c0 + NB;
        if (*sbad) break; // the same in every thread

        // Rows below the diagonal block: x L_D^H = a, x_k = (a_k - sum_{j<k} x_j conj(L_D(k, j))) / L_D(k, k).
        for (int r = c1 + tid; r < n; r += nt) {
            T x[NB];
#pragma unroll
            for (int k = 0; k < NB; k++) {
                T *pk = t.col(c0 + k);
                T v = pk[r];
#pragma unroll
                for (int j = 0; j < k; j++) v = S::sub_mul_conj(v, x[j], t.col(c0 + j)[c0 + k]);
                x[k] = S::scale(v, dinv[k]);
                pk[r] = x[k];
            }
        }
        __syncthreads();

        // A22 -= L21 L21^H over the lower 4x4 tiles of rows and columns c1..NP-1: first the
        // tiles of the next panel's columns c1..c1+7 (B1), then, while warp 0 factors the next
        // diagonal block, the rest (B2). TPT > 0: the thread's own tiles, in registers from
        // the start, each stored to the shared tile when its columns become the next panel;
        // else tile q at a time, loaded and stored around its update.
        const int NT = (NP - c1) / 4;
        if (TPT > 0) {
#pragma unroll
            for (int o = 0; o < TPT; o++) {
                if (j0s[o] >= c1 && j0s[o] < c1 + NB) {
                    tile_update(acc[o], panel_at<T>{t, c0}, i0s[o], j0s[o]);
#pragma unroll
                    for (int jj = 0; jj < 4; jj++) st4(t.col(j0s[o] + jj) + i0s[o], acc[o][jj]);
                }
            }
        } else {
            for (int q = tid; q < 2 * NT - 1; q += nt) shared_tile_update(t, panel_at<T>{t, c0}, c1, NT, q);
        }
        __syncthreads();
        if (tid < 32) {
            if (tid == 0 && c1 < n) diag_factor(t, c1, n, dinv, sbad);
        } else if (TPT > 0) {
#pragma unroll
            for (int o = 0; o < TPT; o++) {
                if (j0s[o] >= c1 + NB) tile_update(acc[o], panel_at<T>{t, c0}, i0s[o], j0s[o]);
            }
        } else {
            const int NT2 = max(NT - 2, 0); // the last panel has no trailing tiles
            for (int q = tid - 32; q < NT2 * (NT2 + 1) / 2; q += workers) shared_tile_update(t, panel_at<T>{t, c0}, c1 + NB, NT2, q);
        }
        __syncthreads();
    }

    cta_store(m, ld, n, lower, t);
    if (tid == 0) info[b] = *sbad;
}

// MINB is __launch_bounds__'s blocks per SM, which sets ptxas's register budget: 2 (128
// registers) where the kernel fits that without spilling, as two blocks a multiprocessor run
// faster than one; 1 for complex128, which needs more. Left to itself, ptxas picks a budget
// that spills a few bytes (4 for float on sm_90).
#define POTRF_CTA(SUFFIX, T, MINB)                                                                \
    extern "C" __global__ void __launch_bounds__(CTA_MAX_THREADS, MINB)                           \
        potrf_cta_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, int *info, i64 lower) {    \
        if ((i64)blockIdx.x >= batch) return; /* one block per matrix */                            \
        potrf_cta<T, 0>(a, ld, stride, (int)n, info, lower != 0);                                 \
    }
#define POTRF_CTA_REG(SUFFIX, T)                                                                  \
    extern "C" __global__ void __launch_bounds__(CTA_MAX_THREADS)                                 \
        potrf_cta_reg_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, int *info, i64 lower) { \
        if ((i64)blockIdx.x >= batch) return;                                                     \
        potrf_cta<T, CTA_TPT>(a, ld, stride, (int)n, info, lower != 0);                           \
    }

POTRF_CTA(f32, float, 2)
POTRF_CTA(f64, double, 2)
POTRF_CTA(c64, cfloat, 2)
POTRF_CTA(c128, cdouble, 1)
// complex128 tiles do not fit the registers of potrf_cta_reg (ptxas on sm_90: 255 registers
// and 156 bytes spilled), so that dtype has no cta:reg=1.
POTRF_CTA_REG(f32, float)
POTRF_CTA_REG(f64, double)
POTRF_CTA_REG(c64, cfloat)
