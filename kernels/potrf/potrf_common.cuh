// Device pieces shared by the potrf families (potrf_tiny.cu, potrf_warp.cu, potrf_cta.cu).
#pragma once
#include "../common/smem.cuh"

// rsqrt_r is 1/sqrt(x) of the real type: the hardware estimate for float (2 ulp), CUDA's
// rsqrt for double. The factor's tolerance is n*eps, so the pivots need no correctly
// rounded square root and division.
__device__ __forceinline__ float rsqrt_r(float x) { return rsqrtf(x); }
__device__ __forceinline__ double rsqrt_r(double x) { return rsqrt(x); }

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
