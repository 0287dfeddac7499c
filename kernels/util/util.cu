// Small helpers of the CUDA backend's own: the device pointer arrays that the vendor
// libraries' batched calls read, and a batched strided matrix copy.
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
