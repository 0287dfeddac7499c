// Small helpers of the CUDA backend's own: the device pointer arrays that the vendor
// libraries' batched calls read.
#include "../common/scalar.cuh"

// fill_ptrs sets out[b] = base + b*stride_bytes for b < batch.
extern "C" __global__ void fill_ptrs(char **out, char *base, i64 stride_bytes, i64 batch) {
    const i64 b = (i64)blockIdx.x * blockDim.x + threadIdx.x;
    if (b < batch) out[b] = base + b * stride_bytes;
}
