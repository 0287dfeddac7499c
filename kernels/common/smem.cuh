// Moving elements between global memory, shared memory and registers: shared by the kernels
// that keep their matrices in shared memory (potrf, getrf_warp's smem kernel).
#pragma once
#include "scalar.cuh"

// cp_async_if copies one element from global to shared memory when ok, without holding it
// in a register (sm_80's cp.async, 4, 8 or 16 bytes, aligned as the element); cp_async_wait
// waits for the thread's copies. The predicate goes to the copy itself (one setp and a
// predicated cp.async): an if around the copy compiled to a branch and a convergence barrier
// an element. src is not read when !ok, so it may point anywhere. The CPU emulator copies
// at once.
template <typename T> __device__ __forceinline__ void cp_async_if(T *dst, const T *src, bool ok) {
#ifdef BATCHLAS_EMU
    if (ok) *dst = *src;
#else
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %2, 0;\n @p cp.async.ca.shared.global [%0], [%1], %3;\n}\n" ::"r"(d), "l"(src),
                 "r"((int)ok), "n"((int)sizeof(T)));
#endif
}
__device__ __forceinline__ void cp_async_wait() {
#ifndef BATCHLAS_EMU
    asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

// A group kernel that walks a lane's row across its matrix's columns wants one 64-bit row
// pointer and a 32-bit ld, so that column j's element is one wide multiply-add away
// (col_at). Left to itself the compiler folds the row pointer back into an element index
// off the kernel's base pointer (seven instructions an element to re-form each address),
// and keeps the load pass's addresses and predicates alive through the whole kernel for
// the store pass (float, n = 32: 245 registers). opaque_row hides the row pointer and the
// row index from it, afresh at each pass.
template <typename T> __device__ __forceinline__ void opaque_row(T *&p, int &i) {
#ifndef BATCHLAS_EMU
    asm volatile("" : "+l"(p), "+r"(i));
#endif
}
template <typename T> __device__ __forceinline__ T *col_at(T *p, unsigned ld, int j) { return p + (unsigned long long)ld * j; }

// vec16 moves 16 bytes of T (V elements) between shared memory and registers with one
// 128-bit access; p must be 16-byte aligned.
template <typename T> struct vec16;
template <> struct vec16<float> {
    static const int V = 4;
    static __device__ __forceinline__ void ld(const float *p, float *o) {
        const float4 v = *(const float4 *)p;
        o[0] = v.x, o[1] = v.y, o[2] = v.z, o[3] = v.w;
    }
    static __device__ __forceinline__ void st(float *p, const float *o) { *(float4 *)p = make_float4(o[0], o[1], o[2], o[3]); }
};
template <> struct vec16<double> {
    static const int V = 2;
    static __device__ __forceinline__ void ld(const double *p, double *o) {
        const double2 v = *(const double2 *)p;
        o[0] = v.x, o[1] = v.y;
    }
    static __device__ __forceinline__ void st(double *p, const double *o) { *(double2 *)p = make_double2(o[0], o[1]); }
};
template <> struct vec16<cfloat> {
    static const int V = 2;
    static __device__ __forceinline__ void ld(const cfloat *p, cfloat *o) {
        const float4 v = *(const float4 *)p;
        o[0].re = v.x, o[0].im = v.y, o[1].re = v.z, o[1].im = v.w;
    }
    static __device__ __forceinline__ void st(cfloat *p, const cfloat *o) {
        *(float4 *)p = make_float4(o[0].re, o[0].im, o[1].re, o[1].im);
    }
};
template <> struct vec16<cdouble> {
    static const int V = 1;
    static __device__ __forceinline__ void ld(const cdouble *p, cdouble *o) {
        const double2 v = *(const double2 *)p;
        o[0].re = v.x, o[0].im = v.y;
    }
    static __device__ __forceinline__ void st(cdouble *p, const cdouble *o) { *(double2 *)p = make_double2(o[0].re, o[0].im); }
};

// ld4 and st4 move 4 consecutive elements (16-byte aligned) with 128-bit accesses.
template <typename T> __device__ __forceinline__ void ld4(const T *p, T (&o)[4]) {
#pragma unroll
    for (int c = 0; c < 4; c += vec16<T>::V) vec16<T>::ld(p + c, o + c);
}
template <typename T> __device__ __forceinline__ void st4(T *p, const T (&o)[4]) {
#pragma unroll
    for (int c = 0; c < 4; c += vec16<T>::V) vec16<T>::st(p + c, o + c);
}
