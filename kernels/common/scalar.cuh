// Scalar traits shared by the native kernels: one kernel template serves float, double and
// the two complex types. Complex arithmetic is written out by hand on plain structs, so that
// no header beyond the compiler's own is needed.
#pragma once

struct cfloat { float re, im; };
struct cdouble { double re, im; };

template <typename T> struct scalar;

// fma_r is the fused multiply-add of the real type (fmaf for float, fma for double).
__device__ __forceinline__ float fma_r(float a, float b, float c) { return fmaf(a, b, c); }
__device__ __forceinline__ double fma_r(double a, double b, double c) { return fma(a, b, c); }

// rscalar is the traits of a real type R, float or double.
template <typename R> struct rscalar {
    typedef R real;
    static __device__ __forceinline__ R re(R x) { return x; }
    static __device__ __forceinline__ R from_real(R x) { return x; }
    static __device__ __forceinline__ R conj(R x) { return x; }
    static __device__ __forceinline__ R abs2(R x) { return x * x; }
    // sub_mul_conj returns c - a*conj(b).
    static __device__ __forceinline__ R sub_mul_conj(R c, R a, R b) { return fma_r(-a, b, c); }
    static __device__ __forceinline__ R scale(R x, R s) { return x * s; }
    static __device__ __forceinline__ R shfl(R x, int lane) { return __shfl_sync(0xffffffffu, x, lane); }
    static __device__ __forceinline__ R im(R) { return 0; }
    // make(re, im) is re + i im; a real type drops im.
    static __device__ __forceinline__ R make(R re, R) { return re; }
    static __device__ __forceinline__ R add(R a, R b) { return a + b; }
    static __device__ __forceinline__ R sub(R a, R b) { return a - b; }
    static __device__ __forceinline__ R mul(R a, R b) { return a * b; }
    // fma_conj returns c + conj(a)*b; sub_mul returns c - a*b.
    static __device__ __forceinline__ R fma_conj(R c, R a, R b) { return fma_r(a, b, c); }
    static __device__ __forceinline__ R sub_mul(R c, R a, R b) { return fma_r(-a, b, c); }
    static __device__ __forceinline__ R inv(R x) { return R(1) / x; }
    static __device__ __forceinline__ R shfl_xor(R x, int mask) { return __shfl_xor_sync(0xffffffffu, x, mask); }
    static __device__ __forceinline__ bool is_zero(R x) { return x == R(0); }
    // from_bits is a kernel parameter: the bit patterns of the real and imaginary parts as
    // doubles (every floating kernel parameter travels as i64).
    static __device__ __forceinline__ R from_bits(long long re, long long) { return (R)__longlong_as_double(re); }
};

template <> struct scalar<float> : rscalar<float> {};
template <> struct scalar<double> : rscalar<double> {};

template <typename C, typename R> struct cscalar {
    typedef R real;
    static __device__ __forceinline__ R re(C x) { return x.re; }
    static __device__ __forceinline__ C from_real(R x) { C c; c.re = x; c.im = 0; return c; }
    static __device__ __forceinline__ C conj(C x) { x.im = -x.im; return x; }
    static __device__ __forceinline__ R abs2(C x) { return x.re * x.re + x.im * x.im; }
    // c - a*conj(b) = c - (a.re*b.re + a.im*b.im) - i (a.im*b.re - a.re*b.im)
    static __device__ __forceinline__ C sub_mul_conj(C c, C a, C b) {
        C r;
        r.re = c.re - a.re * b.re - a.im * b.im;
        r.im = c.im - a.im * b.re + a.re * b.im;
        return r;
    }
    static __device__ __forceinline__ C scale(C x, R s) { x.re *= s; x.im *= s; return x; }
    static __device__ __forceinline__ C shfl(C x, int lane) {
        x.re = __shfl_sync(0xffffffffu, x.re, lane);
        x.im = __shfl_sync(0xffffffffu, x.im, lane);
        return x;
    }
    static __device__ __forceinline__ R im(C x) { return x.im; }
    static __device__ __forceinline__ C make(R re, R im) { C c; c.re = re; c.im = im; return c; }
    static __device__ __forceinline__ C add(C a, C b) { a.re += b.re; a.im += b.im; return a; }
    static __device__ __forceinline__ C sub(C a, C b) { a.re -= b.re; a.im -= b.im; return a; }
    static __device__ __forceinline__ C mul(C a, C b) { return make(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); }
    // c + conj(a)*b = c + (a.re*b.re + a.im*b.im) + i (a.re*b.im - a.im*b.re)
    static __device__ __forceinline__ C fma_conj(C c, C a, C b) {
        c.re += a.re * b.re + a.im * b.im;
        c.im += a.re * b.im - a.im * b.re;
        return c;
    }
    // c - a*b
    static __device__ __forceinline__ C sub_mul(C c, C a, C b) {
        c.re -= a.re * b.re - a.im * b.im;
        c.im -= a.re * b.im + a.im * b.re;
        return c;
    }
    // inv is 1/x by Smith's method: the ratio of the smaller part to the larger keeps |x|^2
    // from overflowing or underflowing.
    static __device__ __forceinline__ C inv(C x) {
        if (fabs(x.re) >= fabs(x.im)) {
            const R r = x.im / x.re, d = x.re + x.im * r;
            return make(R(1) / d, -r / d);
        }
        const R r = x.re / x.im, d = x.im + x.re * r;
        return make(r / d, R(-1) / d);
    }
    static __device__ __forceinline__ C shfl_xor(C x, int mask) {
        x.re = __shfl_xor_sync(0xffffffffu, x.re, mask);
        x.im = __shfl_xor_sync(0xffffffffu, x.im, mask);
        return x;
    }
    static __device__ __forceinline__ bool is_zero(C x) { return x.re == 0 && x.im == 0; }
    static __device__ __forceinline__ C from_bits(long long re, long long im) {
        return make((R)__longlong_as_double(re), (R)__longlong_as_double(im));
    }
};

template <> struct scalar<cfloat> : cscalar<cfloat, float> {};
template <> struct scalar<cdouble> : cscalar<cdouble, double> {};

// Sizes and offsets are 64-bit everywhere: a batch of matrices may span more than 2^31
// elements, and the batch index comes from grid x, which has no 65535 limit.
typedef long long i64;

// DYNAMIC_SHARED(T, name) declares name as a T* to the block's dynamic shared memory (the
// launch's shared bytes), 16-byte aligned. The CPU emulator (kernels/emu) supplies its own.
#ifdef BATCHLAS_EMU
#define DYNAMIC_SHARED(T, name) T *name = (T *)emu::dynamic_shared()
#else
#define DYNAMIC_SHARED(T, name)                                                                   \
    extern __shared__ __align__(16) unsigned char dynamic_shared_raw[];                            \
    T *name = (T *)dynamic_shared_raw
#endif
