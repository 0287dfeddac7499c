// The device side of the CPU emulator (see README.md): the CUDA C++ keywords, built-in
// variables and intrinsics that the kernels use, mapped onto plain C++ so that g++ compiles
// the kernel sources unchanged. Each CUDA thread of a block runs as a fiber on one OS
// thread; a barrier or a shuffle switches to the next fiber (driver.cc).
#pragma once
#include <math.h>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <type_traits>

#define BATCHLAS_EMU 1
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)
#define __restrict__ __restrict
// Shared memory is static storage: one block runs at a time, and its fibers all see it.
#define __shared__ static
#define __constant__
#define __align__(n) alignas(n)

struct uint3 { unsigned x, y, z; };
struct dim3 { unsigned x, y, z; };
struct alignas(8) float2 { float x, y; };
struct alignas(16) float4 { float x, y, z, w; };
struct alignas(16) double2 { double x, y; };
struct alignas(16) int4 { int x, y, z, w; };
struct alignas(8) int2 { int x, y; };
inline float2 make_float2(float x, float y) { return {x, y}; }
inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
inline double2 make_double2(double x, double y) { return {x, y}; }

namespace emu {
struct Thread {
    uint3 tid;
    unsigned idx, lane, warp; // idx: the thread's linear index in its block
};
extern Thread *cur;
extern uint3 block_idx, block_dim, grid_dim;
void syncthreads();
void syncwarp();
// exchange publishes size bytes of v as this lane's value and copies lane src's into out.
void exchange(const void *v, void *out, int src, int size);
void *dynamic_shared();
long long clock();
} // namespace emu

#define threadIdx (emu::cur->tid)
#define blockIdx (emu::block_idx)
#define blockDim (emu::block_dim)
#define gridDim (emu::grid_dim)
#define warpSize 32

inline void __syncthreads() { emu::syncthreads(); }
inline void __syncwarp(unsigned = 0xffffffffu) { emu::syncwarp(); }
inline void __threadfence() {}
inline void __threadfence_block() {}
inline unsigned __activemask() { return 0xffffffffu; }
inline void __nanosleep(unsigned) {}
inline long long clock64() { return emu::clock(); }

// Shuffles follow CUDA's rules for width: the source lane is taken within the width-sized
// segment of the caller, and shfl_up/down keep the caller's value when the source falls
// outside it.
template <typename T> inline T emu_shfl(T v, int src) {
    T out;
    emu::exchange(&v, &out, src, sizeof(T));
    return out;
}
template <typename T> inline T __shfl_sync(unsigned, T v, int src, int width = 32) {
    const int lane = emu::cur->lane, base = lane & ~(width - 1);
    return emu_shfl(v, base + (src & (width - 1)));
}
template <typename T> inline T __shfl_xor_sync(unsigned, T v, int mask, int width = 32) {
    const int lane = emu::cur->lane, base = lane & ~(width - 1);
    return emu_shfl(v, base + ((lane ^ mask) & (width - 1)));
}
template <typename T> inline T __shfl_down_sync(unsigned, T v, unsigned d, int width = 32) {
    const int lane = emu::cur->lane, base = lane & ~(width - 1);
    const int src = lane + (int)d;
    T out = emu_shfl(v, src < base + width ? src : lane);
    return out;
}
template <typename T> inline T __shfl_up_sync(unsigned, T v, unsigned d, int width = 32) {
    const int lane = emu::cur->lane, base = lane & ~(width - 1);
    const int src = lane - (int)d;
    return emu_shfl(v, src >= base ? src : lane);
}
unsigned emu_ballot(int pred);
inline unsigned __ballot_sync(unsigned, int pred) { return emu_ballot(pred); }
inline int __any_sync(unsigned, int pred) { return emu_ballot(pred) != 0; }
inline int __all_sync(unsigned m, int pred) { return emu_ballot(!pred) == 0; }
// The warp reductions of sm_80 (redux.sync), over the 32 lanes: a butterfly of shuffles.
inline unsigned __reduce_max_sync(unsigned, unsigned v) {
    for (int off = 16; off > 0; off >>= 1) v = std::max(v, emu_shfl(v, emu::cur->lane ^ off));
    return v;
}
inline unsigned __reduce_min_sync(unsigned, unsigned v) {
    for (int off = 16; off > 0; off >>= 1) v = std::min(v, emu_shfl(v, emu::cur->lane ^ off));
    return v;
}

inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
template <typename T> inline T __ldg(const T *p) { return *p; }
inline double __longlong_as_double(long long x) { double d; memcpy(&d, &x, 8); return d; }
inline long long __double_as_longlong(double d) { long long x; memcpy(&x, &d, 8); return x; }
inline float __int_as_float(int x) { float f; memcpy(&f, &x, 4); return f; }
inline int __float_as_int(float f) { int x; memcpy(&x, &f, 4); return x; }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / ::sqrt(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline double __drcp_rn(double x) { return 1.0 / x; }
inline double __dsqrt_rn(double x) { return ::sqrt(x); }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
template <typename T> inline T atomicAdd(T *p, T v) { T o = *p; *p = o + v; return o; }
template <typename T> inline T atomicMax(T *p, T v) { T o = *p; if (v > o) *p = v; return o; }
template <typename T> inline T atomicMin(T *p, T v) { T o = *p; if (v < o) *p = v; return o; }

// CUDA's overloads for float arguments and its mixed-type min and max.
using std::abs;
using std::fabs;
using std::fma;
using std::isfinite;
using std::isinf;
using std::isnan;
using std::sqrt;
// The result is a value: decltype of a conditional on two lvalues of one type is a
// reference, which would refer to a parameter that no longer lives.
template <typename A, typename B> inline auto min(A a, B b) -> typename std::common_type<A, B>::type { return a < b ? a : b; }
template <typename A, typename B> inline auto max(A a, B b) -> typename std::common_type<A, B>::type { return a < b ? b : a; }
