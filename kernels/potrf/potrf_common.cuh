// Device pieces shared by the potrf families (potrf_tiny.cu, potrf_cta.cu).
#pragma once
#include "../common/scalar.cuh"

// rsqrt_r is 1/sqrt(x) of the real type: the hardware estimate for float (2 ulp), CUDA's
// rsqrt for double. The factor's tolerance is n*eps, so the pivots need no correctly
// rounded square root and division.
__device__ __forceinline__ float rsqrt_r(float x) { return rsqrtf(x); }
__device__ __forceinline__ double rsqrt_r(double x) { return rsqrt(x); }

// tri is the index of (i, j), i >= j, in an N-by-N lower triangle packed by columns.
template <int N> __device__ __forceinline__ constexpr int tri(int i, int j) {
    return j * N - j * (j - 1) / 2 + (i - j);
}

// chol_regs factors the Hermitian matrix whose lower triangle a holds (packed by columns,
// tri<N>) in place: A = L L^H, right-looking, all in registers (every index a compile-time
// constant once the loops unroll). The real parts of the diagonal are used. It returns 0, or
// k+1 when pivot k is not positive (or NaN); then columns 0..k-1 hold L, and the rest holds
// the updated trailing matrix, its diagonal element k the failing pivot, as LAPACK leaves it.
// dinv[k] receives 1/L(k, k) for the pivots factored.
template <typename T, int N>
__device__ __forceinline__ int chol_regs(T (&a)[N * (N + 1) / 2], typename scalar<T>::real (&dinv)[N]) {
    typedef scalar<T> S;
    typedef typename S::real R;
#pragma unroll
    for (int k = 0; k < N; k++) {
        const R d = S::re(a[tri<N>(k, k)]);
        if (!(d > 0)) return k + 1;
        const R inv = rsqrt_r(d);
        dinv[k] = inv;
        a[tri<N>(k, k)] = S::from_real(d * inv);
#pragma unroll
        for (int i = k + 1; i < N; i++) a[tri<N>(i, k)] = S::scale(a[tri<N>(i, k)], inv);
#pragma unroll
        for (int j = k + 1; j < N; j++) {
#pragma unroll
            for (int i = j; i < N; i++) a[tri<N>(i, j)] = S::sub_mul_conj(a[tri<N>(i, j)], a[tri<N>(i, k)], a[tri<N>(j, k)]);
        }
    }
    return 0;
}

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
