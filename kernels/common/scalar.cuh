// Scalar traits shared by the native kernels: one kernel template serves float, double and
// the two complex types. Complex arithmetic is written out by hand on plain structs, so that
// no header beyond the compiler's own is needed.
#pragma once

struct cfloat { float re, im; };
struct cdouble { double re, im; };

template <typename T> struct scalar;

template <> struct scalar<float> {
    typedef float real;
    static __device__ __forceinline__ float re(float x) { return x; }
    static __device__ __forceinline__ float from_real(float x) { return x; }
    static __device__ __forceinline__ float conj(float x) { return x; }
    static __device__ __forceinline__ float abs2(float x) { return x * x; }
    // sub_mul_conj returns c - a*conj(b).
    static __device__ __forceinline__ float sub_mul_conj(float c, float a, float b) { return fmaf(-a, b, c); }
    static __device__ __forceinline__ float scale(float x, float s) { return x * s; }
    static __device__ __forceinline__ float shfl(float x, int lane) { return __shfl_sync(0xffffffffu, x, lane); }
    // sub_mul returns c - a*b; mul a*b; inv 1/x (Inf for 0, as a division gives).
    static __device__ __forceinline__ float sub_mul(float c, float a, float b) { return fmaf(-a, b, c); }
    static __device__ __forceinline__ float mul(float a, float b) { return a * b; }
    static __device__ __forceinline__ float inv(float x) { return 1.0f / x; }
    static __device__ __forceinline__ bool is_zero(float x) { return x == 0.0f; }
    // from_bits is a kernel parameter: the bit patterns of the real and imaginary parts as
    // doubles (every floating kernel parameter travels as i64).
    static __device__ __forceinline__ float from_bits(long long re, long long) { return (float)__longlong_as_double(re); }
};

template <> struct scalar<double> {
    typedef double real;
    static __device__ __forceinline__ double re(double x) { return x; }
    static __device__ __forceinline__ double from_real(double x) { return x; }
    static __device__ __forceinline__ double conj(double x) { return x; }
    static __device__ __forceinline__ double abs2(double x) { return x * x; }
    static __device__ __forceinline__ double sub_mul_conj(double c, double a, double b) { return fma(-a, b, c); }
    static __device__ __forceinline__ double scale(double x, double s) { return x * s; }
    static __device__ __forceinline__ double shfl(double x, int lane) { return __shfl_sync(0xffffffffu, x, lane); }
    static __device__ __forceinline__ double sub_mul(double c, double a, double b) { return fma(-a, b, c); }
    static __device__ __forceinline__ double mul(double a, double b) { return a * b; }
    static __device__ __forceinline__ double inv(double x) { return 1.0 / x; }
    static __device__ __forceinline__ bool is_zero(double x) { return x == 0.0; }
    static __device__ __forceinline__ double from_bits(long long re, long long) { return __longlong_as_double(re); }
};

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
    // c - a*b = c - (a.re*b.re - a.im*b.im) - i (a.re*b.im + a.im*b.re)
    static __device__ __forceinline__ C sub_mul(C c, C a, C b) {
        C r;
        r.re = c.re - a.re * b.re + a.im * b.im;
        r.im = c.im - a.re * b.im - a.im * b.re;
        return r;
    }
    static __device__ __forceinline__ C mul(C a, C b) {
        C r;
        r.re = a.re * b.re - a.im * b.im;
        r.im = a.re * b.im + a.im * b.re;
        return r;
    }
    // inv is 1/x by Smith's scaling, which neither overflows nor underflows where 1/x is
    // representable; 1/0 is NaN.
    static __device__ __forceinline__ C inv(C x) {
        C r;
        if (fabs(x.re) >= fabs(x.im)) {
            const R t = x.im / x.re, d = x.re + x.im * t;
            r.re = R(1) / d;
            r.im = -t / d;
        } else {
            const R t = x.re / x.im, d = x.re * t + x.im;
            r.re = t / d;
            r.im = R(-1) / d;
        }
        return r;
    }
    static __device__ __forceinline__ bool is_zero(C x) { return x.re == 0 && x.im == 0; }
    static __device__ __forceinline__ C from_bits(long long re, long long im) {
        C c;
        c.re = (R)__longlong_as_double(re);
        c.im = (R)__longlong_as_double(im);
        return c;
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
