// The kernels of the blocked LU (getrf "blocked", getrs "blocked"): the factorization of a
// panel of any height in global memory, and LAPACK's laswp, the panel's row interchanges
// applied to the columns outside it (or a solve's to its right-hand sides). Between them the
// Go side runs the Trsm and Gemm steps. Pivoting is lu.cuh's (LAPACK's getf2).
#include "lu.cuh"

// PANEL_THREADS is the block of getrf_panel: one matrix's panel, 8 warps.
#define PANEL_THREADS 256

// getrf_panel factors the rows-by-cols panel at a (element (j, j) of each matrix of the
// batch, rows >= cols) as getf2, with physical row interchanges inside the panel: one block
// per matrix. Pivot k is written as ipiv[b*pstride + off + k] = off + p + 1 (p the panel row
// of the pivot), so that ipiv holds the matrix's row numbers; a first zero pivot k sets
// info[b] = off + k + 1 unless info[b] is already set by an earlier panel.
template <typename T>
__device__ __forceinline__ void getrf_panel(T *a, i64 ld, i64 stride, i64 rows, i64 cols, i64 batch, int *ipiv,
                                            i64 pstride, i64 off, int *info) {
    typedef scalar<T> S;
    typedef typename S::real R;
    __shared__ R wkey[PANEL_THREADS / 32];
    __shared__ int wpos[PANEL_THREADS / 32];
    __shared__ int pivot;
    const i64 b = blockIdx.x;
    if (b >= batch) return;
    T *A = a + b * stride;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    int first = 0; // thread 0's first zero pivot, 1-based within the panel
    for (i64 k = 0; k < cols; k++) {
        T *ck = A + k * ld;
        // The pivot: the largest lu_key from row k down, ties to the earlier row (a total
        // order, so that the tree of the reduction does not matter).
        R best = R(-2); // below every key
        int pos = 0x7fffffff;
        for (i64 i = k + tid; i < rows; i += PANEL_THREADS) {
            const R key = lu_key(ck[i], i == k);
            if (lu_better(key, (int)i, best, pos)) best = key, pos = (int)i;
        }
        for (int m = 16; m > 0; m >>= 1) {
            const R ob = __shfl_xor_sync(0xffffffffu, best, m);
            const int op = __shfl_xor_sync(0xffffffffu, pos, m);
            if (lu_better(ob, op, best, pos)) best = ob, pos = op;
        }
        if (lane == 0) wkey[warp] = best, wpos[warp] = pos;
        __syncthreads();
        if (tid == 0) {
            for (int w = 1; w < PANEL_THREADS / 32; w++)
                if (lu_better(wkey[w], wpos[w], best, pos)) best = wkey[w], pos = wpos[w];
            pivot = pos;
            ipiv[b * pstride + off + k] = (int)(off + pos + 1);
        }
        __syncthreads();
        const i64 p = pivot;
        if (p != k)
            for (i64 j = tid; j < cols; j += PANEL_THREADS) {
                const T t = A[j * ld + k];
                A[j * ld + k] = A[j * ld + p];
                A[j * ld + p] = t;
            }
        __syncthreads();
        const T piv = ck[k];
        if (lu_is_zero(piv)) {
            if (tid == 0 && first == 0) first = (int)k + 1;
            continue; // every thread reads the same pivot: none waits at a barrier alone
        }
        lu_pivot<T> pp;
        pp.set(piv);
        for (i64 i = k + 1 + tid; i < rows; i += PANEL_THREADS) ck[i] = pp.scale(ck[i]);
        __syncthreads();
        const i64 r = rows - k - 1, c = cols - k - 1;
        for (i64 t = tid; t < r * c; t += PANEL_THREADS) {
            const i64 i = k + 1 + t % r, j = k + 1 + t / r;
            A[j * ld + i] = S::sub_mul(A[j * ld + i], ck[i], A[j * ld + k]);
        }
        __syncthreads();
    }
    if (tid == 0 && first != 0 && info[b] == 0) info[b] = (int)off + first;
}

#define GETRF_PANEL(NAME, T)                                                                               \
    extern "C" __global__ void NAME(T *a, i64 ld, i64 stride, i64 rows, i64 cols, i64 batch, int *ipiv, i64 pstride, i64 off, int *info) { \
        getrf_panel<T>(a, ld, stride, rows, cols, batch, ipiv, pstride, off, info);                      \
    }

GETRF_PANEL(getrf_panel_f32, float)
GETRF_PANEL(getrf_panel_f64, double)
GETRF_PANEL(getrf_panel_c64, cfloat)
GETRF_PANEL(getrf_panel_c128, cdouble)

// lu_laswp applies the interchanges k1, ..., k2-1 of ipiv (row k with row ipiv[k] - 1,
// ipiv[b*pstride + k] for matrix b) to the cols columns at a, in that order, or in reverse
// order when reverse is set (LAPACK's laswp with incx 1 or -1): one thread per column of a
// matrix, grid x covering cols*batch. The elements are moved as bits, E of their size.
template <typename E>
__device__ __forceinline__ void lu_laswp(E *a, i64 ld, i64 stride, i64 cols, i64 batch, const int *ipiv, i64 pstride,
                                         i64 k1, i64 k2, i64 reverse) {
    const i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    if (cols == 0 || t >= cols * batch) return;
    const i64 b = t / cols;
    E *col = a + b * stride + (t - b * cols) * ld;
    const int *p = ipiv + b * pstride;
    for (i64 s = 0; s < k2 - k1; s++) {
        const i64 k = reverse ? k2 - 1 - s : k1 + s, r = p[k] - 1;
        if (r != k) {
            const E x = col[k];
            col[k] = col[r];
            col[r] = x;
        }
    }
}

#define LU_LASWP(NAME, E)                                                                                    \
    extern "C" __global__ void NAME(E *a, i64 ld, i64 stride, i64 cols, i64 batch, const int *ipiv, i64 pstride, \
                                    i64 k1, i64 k2, i64 reverse) {                                           \
        lu_laswp<E>(a, ld, stride, cols, batch, ipiv, pstride, k1, k2, reverse);                             \
    }

LU_LASWP(lu_laswp_4, unsigned)
LU_LASWP(lu_laswp_8, unsigned long long)
LU_LASWP(lu_laswp_16, double2)
