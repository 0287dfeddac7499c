// potrf "cta": Cholesky factorization A = L L^H (or U^H U) of a batch of n-by-n matrices, one
// block per matrix, the matrix in shared memory.
//
// The named triangle is copied into a shared tile as the lower triangle of L's matrix (the
// upper case U^H U = A is the lower case of L = U^H), coalesced, with cp.async (every load
// of a thread in flight at once, none through registers; cta_load). The tile holds only the
// lower triangle of order NP (n rounded up to 8), packed by columns (ctile), about half a
// square tile, so that twice as many blocks fit an SM and n goes twice as far. Then, for
// each panel of 8 columns c0..c0+7 (right-looking, blocked):
//
//   1. thread 0 factors the 8x8 diagonal block D = L_D L_D^H (chol_left, left-looking: at
//      most 20 elements in registers; past n the block is padded with the identity) and
//      stores L_D and 1/diag(L_D);
//   2. each thread takes rows r >= c0+8 of the panel and solves x L_D^H = a (forward
//      substitution, L_D read by broadcast);
//   3. the trailing lower triangle A22 -= L21 L21^H in 4x4 register tiles, one tile per thread
//      at a time: 16 (complex: 64) FMAs per pair of 16-byte shared loads, tile loads and
//      stores 16 bytes wide. Tiles are numbered down the tile columns so that neighbouring
//      lanes touch neighbouring addresses.
//
// Three __syncthreads per panel. Elements past n are never copied in or out; the padding of
// the tile only ever feeds padding.
//
// info[b] = k + 1 when pivot k is not positive (or is NaN), as in LAPACK; the factorization of
// that matrix stops: columns before the failing panel hold the factor, the failing panel's
// diagonal block holds what potf2 leaves, the rest the trailing matrix as updated so far.
// Shared memory: ctile::size(NP) elements, then 8 reals and an int (potrf_cuda.go's
// potrfCTAShared).
#include "potrf_common.cuh"

#define CTA_PANEL 8
#define CTA_MAX_THREADS 256
#define CTA_STORE 8 // tile reads in flight per thread before its global stores

// ctile is the block's tile: the lower triangle of order NP (a multiple of 8), column j holding
// rows 4*(j/4) to NP-1, the columns one after another. Each column's length is a multiple of
// 4, so that 4 rows from a multiple of 4 are one 16-byte aligned run (4x4 diagonal tiles are
// stored whole).
template <typename T> struct ctile {
    T *s;
    int NP;
    // size is the elements of the tile: the sum over the column groups g < NP/4 of
    // 4*(NP - 4g).
    static __device__ __forceinline__ int size(int NP) { return NP * NP / 2 + 2 * NP; }
    // col(j)[i] is element (i, j), i >= 4*(j/4).
    __device__ __forceinline__ T *col(int j) const {
        const int g = j >> 2;
        return s + 4 * g * NP - 8 * g * (g - 1) + (j & 3) * (NP - 4 * g) - 4 * g;
    }
};

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

template <typename T> struct is_complex { static const bool v = false; };
template <> struct is_complex<cfloat> { static const bool v = true; };
template <> struct is_complex<cdouble> { static const bool v = true; };

// cta_load copies the named triangle of m into the tile t: tile element (i, j), i >= j, is L's
// (i, j), the stored (i, j) (lower) or the conjugate of the stored (j, i) (upper). Every copy
// of the thread is in flight at once; the caller's barrier publishes them.
template <typename T> __device__ __forceinline__ void cta_load(const T *m, i64 ld, int n, bool lower, ctile<T> t) {
    int i, j;
    for (cta_slots it(n, lower); it.more(); it.next()) {
        if (it.at(i, j)) cp_async(lower ? t.col(j) + i : t.col(i) + j, m + (i64)j * ld + i);
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

template <typename T>
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

    for (int c0 = 0; c0 < n; c0 += NB) {
        const int c1 = c0 + NB;
        if (tid == 0) {
            diag_block<T> D = {t, c0, n - c0};
            const int bad = chol_left<T, NB>(D, dinv);
            if (bad) *sbad = c0 + bad;
        }
        __syncthreads();
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

        // A22 -= L21 L21^H over the lower 4x4 tiles of rows and columns c1..NP-1. Tile number
        // q counts down the tile columns; u = last - q numbers the reversed triangle by rows,
        // which a square root inverts.
        const int NT = (NP - c1) / 4, last = NT * (NT + 1) / 2 - 1;
        for (int q = tid; q <= last; q += nt) {
            const int u = last - q;
            int ra = (int)((sqrtf(8.0f * u + 1.0f) - 1.0f) * 0.5f);
            while (ra * (ra + 1) / 2 > u) ra--;
            while ((ra + 1) * (ra + 2) / 2 <= u) ra++;
            const int tj = NT - 1 - ra, ti = NT - 1 - (u - ra * (ra + 1) / 2);
            const int i0 = c1 + 4 * ti, j0 = c1 + 4 * tj;
            T c[4][4];
#pragma unroll
            for (int jj = 0; jj < 4; jj++) ld4(t.col(j0 + jj) + i0, c[jj]);
#pragma unroll
            for (int k = 0; k < NB; k++) {
                T li[4], lj[4];
                const T *pk = t.col(c0 + k);
                ld4(pk + i0, li);
                ld4(pk + j0, lj);
#pragma unroll
                for (int jj = 0; jj < 4; jj++) {
#pragma unroll
                    for (int ii = 0; ii < 4; ii++) c[jj][ii] = S::sub_mul_conj(c[jj][ii], li[ii], lj[jj]);
                }
            }
#pragma unroll
            for (int jj = 0; jj < 4; jj++) st4(t.col(j0 + jj) + i0, c[jj]);
        }
        __syncthreads();
    }

    cta_store(m, ld, n, lower, t);
    if (tid == 0) info[b] = *sbad;
}

#define POTRF_CTA(NAME, T)                                                                     \
    extern "C" __global__ void __launch_bounds__(CTA_MAX_THREADS)                              \
        NAME(T *a, i64 ld, i64 stride, i64 n, i64 batch, int *info, i64 lower) {               \
        if ((i64)blockIdx.x >= batch) return; /* one block per matrix */                         \
        potrf_cta<T>(a, ld, stride, (int)n, info, lower != 0);                                 \
    }

POTRF_CTA(potrf_cta_f32, float)
POTRF_CTA(potrf_cta_f64, double)
POTRF_CTA(potrf_cta_c64, cfloat)
POTRF_CTA(potrf_cta_c128, cdouble)
