// Device pieces shared by the potrf families (potrf_tiny.cu, potrf_cta.cu).
#pragma once
#include "../common/scalar.cuh"

// rsqrt_r is 1/sqrt(x) of the real type: the hardware estimate for float (2 ulp), CUDA's
// rsqrt for double. The factor's tolerance is n*eps, so the pivots need no correctly
// rounded square root and division.
__device__ __forceinline__ float rsqrt_r(float x) { return rsqrtf(x); }
__device__ __forceinline__ double rsqrt_r(double x) { return rsqrt(x); }

// cp_async copies one element from global to shared memory without holding it in a register
// (sm_80's cp.async, 4, 8 or 16 bytes, aligned as the element); cp_async_wait waits for the
// thread's copies. The CPU emulator copies at once.
template <typename T> __device__ __forceinline__ void cp_async(T *dst, const T *src) {
#ifdef BATCHLAS_EMU
    *dst = *src;
#else
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(d), "l"(src), "n"((int)sizeof(T)));
#endif
}
__device__ __forceinline__ void cp_async_wait() {
#ifndef BATCHLAS_EMU
    asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

// chol_left factors the N-by-N Hermitian matrix that the accessor m holds, A = L L^H,
// left-looking as LAPACK's potf2: m.get(i, j) returns A(i, j) for i >= j (m supplies real
// diagonals), m.set(i, j, v) stores L(i, j). Column k:
//
//	v_i = A(i, k) - sum_{j<k} L(i, j) conj(L(k, j)),  i >= k;   L(k, k) = sqrt(v_k),  L(i, k) = v_i / L(k, k).
//
// All indices are compile-time constants once the loops unroll, so l lives in registers, and
// at step k only L(i, j) with i >= k > j is live (at most N*N/4 elements): A is read from m
// a column at a time, one step ahead of its use. dinv[k] receives 1/L(k, k). It returns 0, or k+1 when v_k is not positive
// (or NaN); then, as potf2 leaves it, columns 0..k-1 hold L, A(k, k) holds v_k and the rest
// is A.
template <typename T, int N, typename M>
__device__ __forceinline__ int chol_left(M &m, typename scalar<T>::real *dinv) {
    typedef scalar<T> S;
    typedef typename S::real R;
    T l[N][N];
    T next[N]; // column k of A, read a step ahead (ahead of the step's stores, which the
               // compiler may not move the reads across)
#pragma unroll
    for (int i = 0; i < N; i++) next[i] = m.get(i, 0);
#pragma unroll
    for (int k = 0; k < N; k++) {
        T v[N];
#pragma unroll
        for (int i = k; i < N; i++) v[i] = next[i];
        if (k + 1 < N) {
#pragma unroll
            for (int i = k + 1; i < N; i++) next[i] = m.get(i, k + 1);
        }
#pragma unroll
        for (int j = 0; j < k; j++) {
#pragma unroll
            for (int i = k; i < N; i++) v[i] = S::sub_mul_conj(v[i], l[i][j], l[k][j]);
        }
        const R d = S::re(v[k]);
        if (!(d > 0)) {
            m.set(k, k, S::from_real(d));
            return k + 1;
        }
        const R inv = rsqrt_r(d);
        dinv[k] = inv;
        l[k][k] = S::from_real(d * inv);
        m.set(k, k, l[k][k]);
#pragma unroll
        for (int i = k + 1; i < N; i++) {
            l[i][k] = S::scale(v[i], inv);
            m.set(i, k, l[i][k]);
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
