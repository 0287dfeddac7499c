// potrf "tiny": Cholesky factorization of a batch of n-by-n matrices, n <= 32, one warp per
// matrix, the matrix held in registers.
//
// Lane i holds row i of the lower triangle, L(i, 0..n-1), in a register array indexed only
// by compile-time constants (the loops are unrolled to 32 and leave early when n is
// smaller), so nothing goes to local memory. The upper case U^H U = A is the lower case of
// L = U^H: lane i reads column i of the upper triangle conjugated and writes it back
// conjugated. Step k is right-looking: the pivot comes from lane k by a shuffle, column k is
// scaled, and the trailing lower triangle takes the rank-one update, each lane reading
// L(j, k) from lane j.
//
// info[b] = k + 1 when the pivot of step k is not positive (or is NaN), as in LAPACK; the
// factorization of that matrix stops there. Only the named triangle is read or written.
#include "../common/scalar.cuh"

#define TINY_MAX 32
#define TINY_WARPS 4 // matrices per block

template <typename T>
__device__ __forceinline__ void potrf_tiny(T *a, i64 ld, i64 stride, int n, i64 batch, int *info, bool lower) {
    typedef scalar<T> S;
    typedef typename S::real R;
    const int lane = threadIdx.x & 31;
    const i64 b = (i64)blockIdx.x * TINY_WARPS + (threadIdx.x >> 5);
    if (b >= batch) return; // whole warps leave together
    T *m = a + b * stride;
    const bool row = lane < n;

    T r[TINY_MAX];
#pragma unroll
    for (int j = 0; j < TINY_MAX; j++) {
        r[j] = S::from_real(0);
        if (j < n && row && j <= lane) {
            r[j] = lower ? m[(i64)j * ld + lane] : S::conj(m[(i64)lane * ld + j]);
        }
    }
#pragma unroll
    for (int j = 0; j < TINY_MAX; j++) {
        if (j == lane) r[j] = S::from_real(S::re(r[j])); // the diagonal is taken as real
    }

    int bad = 0;
#pragma unroll
    for (int k = 0; k < TINY_MAX; k++) {
        if (k >= n) break;
        const R d = S::re(S::shfl(r[k], k));
        if (!(d > 0)) { // also NaN
            bad = k + 1;
            break;
        }
        const R s = sqrt(d);
        const R inv = R(1) / s;
        if (lane == k) r[k] = S::from_real(s);
        else if (lane > k) r[k] = S::scale(r[k], inv);
#pragma unroll
        for (int j = k + 1; j < TINY_MAX; j++) {
            if (j >= n) break;
            const T ljk = S::shfl(r[k], j);
            if (lane >= j) r[j] = S::sub_mul_conj(r[j], r[k], ljk);
        }
    }

#pragma unroll
    for (int j = 0; j < TINY_MAX; j++) {
        if (j < n && row && j <= lane) {
            if (lower) m[(i64)j * ld + lane] = r[j];
            else m[(i64)lane * ld + j] = S::conj(r[j]);
        }
    }
    if (lane == 0) info[b] = bad;
}

#define POTRF_TINY(NAME, T)                                                                      \
    extern "C" __global__ void __launch_bounds__(32 * TINY_WARPS)                                \
        NAME(T *a, i64 ld, i64 stride, i64 n, i64 batch, int *info, i64 lower) {                 \
        potrf_tiny<T>(a, ld, stride, (int)n, batch, info, lower != 0);                           \
    }

POTRF_TINY(potrf_tiny_f32, float)
POTRF_TINY(potrf_tiny_f64, double)
POTRF_TINY(potrf_tiny_c64, cfloat)
POTRF_TINY(potrf_tiny_c128, cdouble)
