// Small helpers of the CUDA backend's own: the device pointer arrays that the vendor
// libraries' batched calls read, a batched strided matrix copy, BLAS's C = beta C on a
// matrix or a triangle, scans for NaN and Inf, the search for a zero on a triangular
// factor's diagonal, and the info of a blocked factorization's steps.
#include "../common/scalar.cuh"

// fill_ptrs sets out[b] = base + b*stride_bytes for b < batch.
extern "C" __global__ void fill_ptrs(char **out, char *base, i64 stride_bytes, i64 batch) {
    const i64 b = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    if (b < batch) out[b] = base + b * stride_bytes;
}

// Modes of copy_mat.
#define COPY_IF_OK 1     // only matrices with info[b] == 0
#define COPY_IF_FAILED 2 // only matrices with info[b] != 0
#define COPY_TRANSPOSE 4 // dst(i, j) = src(j, i)
#define COPY_CONJ 8      // negate the second half of each element (complex data only)
#define COPY_LOWER 16    // only the elements of dst with i >= j (square matrices)
#define COPY_UPPER 32    // only the elements of dst with i <= j (square matrices)

template <typename E> __device__ __forceinline__ E conj_bits(E x);
template <> __device__ __forceinline__ unsigned conj_bits(unsigned x) { return x; }
template <> __device__ __forceinline__ float2 conj_bits(float2 x) { x.y = -x.y; return x; }
template <> __device__ __forceinline__ double2 conj_bits(double2 x) { x.y = -x.y; return x; }

// copy_mat copies rows-by-cols matrices of a batch between two strided layouts, one thread
// per element; grid x covers rows*cols*batch, so a large batch meets no 65535 grid limit.
// Transposed, dst is rows-by-cols and src cols-by-rows. For 8-byte elements COPY_CONJ treats
// them as complex64 (the caller never sets it for float64).
template <typename E>
__device__ __forceinline__ void copy_mat(E *dst, i64 dld, i64 dstride, const E *src, i64 sld, i64 sstride,
                                         i64 rows, i64 cols, i64 batch, const int *info, i64 mode) {
    const i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    const i64 per = rows * cols;
    if (per == 0 || t >= per * batch) return;
    const i64 b = t / per, k = t - b * per, j = k / rows, i = k - j * rows;
    if ((mode & COPY_IF_OK) && info[b] != 0) return;
    if ((mode & COPY_IF_FAILED) && info[b] == 0) return;
    if (((mode & COPY_LOWER) && i < j) || ((mode & COPY_UPPER) && i > j)) return;
    E x = (mode & COPY_TRANSPOSE) ? src[b * sstride + i * sld + j] : src[b * sstride + j * sld + i];
    if (mode & COPY_CONJ) x = conj_bits(x);
    dst[b * dstride + j * dld + i] = x;
}

#define COPY_MAT(NAME, E)                                                                         \
    extern "C" __global__ void NAME(E *dst, i64 dld, i64 dstride, const E *src, i64 sld, i64 sstride, \
                                    i64 rows, i64 cols, i64 batch, const int *info, i64 mode) {   \
        copy_mat<E>(dst, dld, dstride, src, sld, sstride, rows, cols, batch, info, mode);         \
    }

COPY_MAT(copy_mat_4, unsigned)
COPY_MAT(copy_mat_8, float2)
COPY_MAT(copy_mat_16, double2)

// Parts of a matrix that scale_mat writes (none of these: all of it).
#define SCALE_LOWER 1 // only the elements with i >= j
#define SCALE_UPPER 2 // only the elements with i <= j; with SCALE_LOWER, the diagonal alone
#define SCALE_HERM 4  // beta is real (its imaginary part unused) and the diagonal becomes real

// scale_mat sets the part mode names of each rows-by-cols matrix of a batch (matrix b at
// c + b*stride, leading dimension ld) to beta c, one thread per element; grid x covers
// rows*cols*batch. It is BLAS's C = beta C where the product is absent (alpha = 0): beta 0
// writes zeros without reading c, so that a NaN there does not survive, and nothing outside
// the part is read or written. With SCALE_HERM the diagonal is a Hermitian matrix's: it
// becomes re(beta) re(c), its imaginary part 0 and never read.
template <typename T>
__device__ __forceinline__ void scale_mat(T *c, i64 ld, i64 stride, i64 rows, i64 cols, i64 batch, i64 mode, T beta) {
    typedef scalar<T> S;
    typedef typename S::real R;
    const i64 t = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    const i64 per = rows * cols;
    if (per == 0 || t >= per * batch) return;
    const i64 b = t / per, k = t - b * per, j = k / rows, i = k - j * rows;
    if (((mode & SCALE_LOWER) && i < j) || ((mode & SCALE_UPPER) && i > j)) return;
    T *x = c + b * stride + j * ld + i;
    if (S::is_zero(beta)) {
        *x = S::from_real(R(0));
    } else if (!(mode & SCALE_HERM)) {
        *x = S::mul(beta, *x);
    } else if (i == j) {
        *x = S::from_real(S::re(beta) * S::re(*x));
    } else {
        *x = S::scale(*x, S::re(beta));
    }
}

#define SCALE_MAT(NAME, T)                                                                         \
    extern "C" __global__ void NAME(T *c, i64 ld, i64 stride, i64 rows, i64 cols, i64 batch, i64 mode, \
                                    i64 beta_re, i64 beta_im) {                                    \
        scale_mat<T>(c, ld, stride, rows, cols, batch, mode, scalar<T>::from_bits(beta_re, beta_im)); \
    }

SCALE_MAT(scale_mat_f32, float)
SCALE_MAT(scale_mat_f64, double)
SCALE_MAT(scale_mat_c64, cfloat)
SCALE_MAT(scale_mat_c128, cdouble)

// Parts of a matrix that lane_nonfinite scans.
#define SCAN_ALL 0
#define SCAN_LOWER 1 // i >= j
#define SCAN_UPPER 2 // i <= j

// lane_nonfinite reports whether the elements of the rows-by-cols matrix m (leading dimension
// ld, elements of PARTS reals R) that this lane of its warp reads hold a NaN or an Inf: the
// lanes split the elements (i, j) of the part tri, in column order, so a warp's loads are
// consecutive. A triangle (SCAN_LOWER, SCAN_UPPER) is a Hermitian one's: the imaginary parts
// of its diagonal are taken as zero and not read.
template <typename R, int PARTS>
__device__ __forceinline__ bool lane_nonfinite(const R *m, i64 ld, i64 rows, i64 cols, int tri) {
    bool bad = false;
    for (i64 k = threadIdx.x & 31; k < rows * cols; k += 32) {
        const i64 j = k / rows, i = k - j * rows;
        if ((tri == SCAN_LOWER && i < j) || (tri == SCAN_UPPER && i > j)) continue;
        const int parts = (tri != SCAN_ALL && i == j) ? 1 : PARTS;
        for (int p = 0; p < parts; p++) bad |= !isfinite(m[(j * ld + i) * PARTS + p]);
    }
    return bad;
}

// nonfinite_mark marks the matrices whose uplo triangle holds a NaN or an Inf, one warp per
// matrix: their n values at vals + b*n (real type R) and, when vecs is not null, their packed
// n-by-n matrix at vecs + b*n*n (of T) become NaN, and info[b] becomes n - 1, LAPACK's count
// of unconverged off-diagonals. syev uses it after cuSOLVER's Jacobi solver, which iterates
// past a NaN (every comparison with it is false) and reports convergence.
template <typename R, int PARTS>
__device__ __forceinline__ void nonfinite_mark(const R *a, i64 ld, i64 stride, i64 n, i64 batch, i64 lower,
                                               R *vals, R *vecs, int *info) {
    const int lane = threadIdx.x & 31;
    const i64 b = (i64)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (b >= batch) return;
    const bool bad = lane_nonfinite<R, PARTS>(a + b * stride * PARTS, ld, n, n, lower ? SCAN_LOWER : SCAN_UPPER);
    if (!__any_sync(0xffffffffu, bad)) return;
    const R nan = R(0) / R(0);
    for (i64 i = lane; i < n; i += 32) vals[b * n + i] = nan;
    if (vecs)
        for (i64 k = lane; k < n * n * PARTS; k += 32) vecs[b * n * n * PARTS + k] = nan;
    if (lane == 0) info[b] = (int)(n - 1);
}

#define NONFINITE_MARK(NAME, R, PARTS)                                                            \
    extern "C" __global__ void NAME(const R *a, i64 ld, i64 stride, i64 n, i64 batch, i64 lower,  \
                                    R *vals, R *vecs, int *info) {                                 \
        nonfinite_mark<R, PARTS>(a, ld, stride, n, batch, lower, vals, vecs, info);                \
    }

NONFINITE_MARK(nonfinite_mark_f32, float, 1)
NONFINITE_MARK(nonfinite_mark_f64, double, 1)
NONFINITE_MARK(nonfinite_mark_c64, float, 2)
NONFINITE_MARK(nonfinite_mark_c128, double, 2)

// nonfinite_new sets flag[b] to 1 for the matrices whose result holds a NaN or an Inf although
// their input did not, and to 0 for the others, one warp per matrix: the input is the
// rows-by-cols matrix at in + b*istride, the result the rows-by-cols matrix at out + b*ostride
// and the nv values at vec + b*nv (strides in elements of T, PARTS reals R each). The vendor
// QR uses it to find the matrices that cublas<t>geqrfBatched lost to overflow, and refactors
// those alone.
template <typename R, int PARTS>
__device__ __forceinline__ void nonfinite_new(const R *in, i64 ild, i64 istride, const R *out, i64 old, i64 ostride,
                                              const R *vec, i64 nv, i64 rows, i64 cols, i64 batch, int *flag) {
    const i64 b = (i64)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    if (b >= batch) return;
    const bool in_bad = __any_sync(0xffffffffu, lane_nonfinite<R, PARTS>(in + b * istride * PARTS, ild, rows, cols, SCAN_ALL));
    bool out_bad = false;
    if (!in_bad)
        out_bad = __any_sync(0xffffffffu, lane_nonfinite<R, PARTS>(out + b * ostride * PARTS, old, rows, cols, SCAN_ALL) ||
                                              lane_nonfinite<R, PARTS>(vec + b * nv * PARTS, nv, nv, 1, SCAN_ALL));
    if ((threadIdx.x & 31) == 0) flag[b] = out_bad;
}

#define NONFINITE_NEW(NAME, R, PARTS)                                                                               \
    extern "C" __global__ void NAME(const R *in, i64 ild, i64 istride, const R *out, i64 old, i64 ostride,          \
                                    const R *vec, i64 nv, i64 rows, i64 cols, i64 batch, int *flag) {               \
        nonfinite_new<R, PARTS>(in, ild, istride, out, old, ostride, vec, nv, rows, cols, batch, flag);             \
    }

NONFINITE_NEW(nonfinite_new_f32, float, 1)
NONFINITE_NEW(nonfinite_new_f64, double, 1)
NONFINITE_NEW(nonfinite_new_c64, float, 2)
NONFINITE_NEW(nonfinite_new_c128, double, 2)

// zero_diag sets info[b] to the 1-based index of the first exactly zero element on the
// diagonal of the k-by-k leading part of matrix b (at a + b*stride, leading dimension ld), or
// to 0: LAPACK's rank test of a triangular factor (xTRTRS, as xGELS runs it). One thread per
// matrix; grid x covers the batch.
template <typename T>
__device__ __forceinline__ void zero_diag(const T *a, i64 ld, i64 stride, i64 k, i64 batch, int *info) {
    const i64 b = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= batch) return;
    int first = 0;
    for (i64 i = 0; i < k && first == 0; i++)
        if (scalar<T>::is_zero(a[b * stride + i * ld + i])) first = (int)(i + 1);
    info[b] = first;
}

#define ZERO_DIAG(NAME, T)                                                                         \
    extern "C" __global__ void NAME(const T *a, i64 ld, i64 stride, i64 k, i64 batch, int *info) { \
        zero_diag<T>(a, ld, stride, k, batch, info);                                               \
    }

ZERO_DIAG(zero_diag_f32, float)
ZERO_DIAG(zero_diag_f64, double)
ZERO_DIAG(zero_diag_c64, cfloat)
ZERO_DIAG(zero_diag_c128, cdouble)

// info_step folds a blocked factorization's step into its info: the step factored the
// diagonal block at column offset off of each matrix, its own info in step[b] (0, or the
// 1-based column where it failed); a matrix that had not failed before (info[b] == 0) and
// failed there gets info[b] = off + step[b], as the unblocked factorization would give.
extern "C" __global__ void info_step(int *info, const int *step, i64 off, i64 batch) {
    const i64 b = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    if (b < batch && info[b] == 0 && step[b] > 0) info[b] = (int)(off + step[b]);
}

// spin keeps the stream busy for about cycles clock ticks of one multiprocessor. Queue.Elapsed
// enqueues it before its start event, so that the host's enqueuing of the timed work overlaps
// it and the events measure the device's work alone.
extern "C" __global__ void spin(i64 cycles) {
    const long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}
