// syev "cta": the eigenvalues, and optionally the eigenvectors, of a batch of n-by-n
// Hermitian (real symmetric) matrices, A = V diag(w) V^H, one block per matrix, the matrix
// in shared memory.
//
//   1. Load: the uplo triangle goes into a shared n-by-n tile as the lower triangle of A (an
//      upper triangle conjugated across), the imaginary parts of the diagonal dropped; the
//      block finds the largest part in magnitude. A matrix holding NaN or Inf ends here:
//      w and, with vectors, V are NaN and info = n-1. Outside [2^-16, 2^16] the tile is
//      scaled by a power of two into [0.5, 1) (exact), as syev_host.go's scaleExp.
//   2. Reduce to real symmetric tridiagonal form T = Q^H A Q, as LAPACK's sytd2/hetd2 with
//      uplo Lower: for each column i, warp 0 forms the reflector H(i) = I - tau v v^H that
//      annihilates A(i+2:n, i) (larfg, householder.cuh; for complex types it also makes the
//      off-diagonal element real, so that T is real), then y = tau A22 v,
//      y -= (tau/2)(y^H v) v and A22 -= v y^H + y v^H, A22 whole (both triangles) and a
//      thread a row of it, which the thread both reads and writes. The reflectors stay in
//      the tile below the subdiagonal.
//   3. Solve T = Z diag(d) Z^T by implicit QL/QR (tridiag.cuh): thread 0 runs the scalar
//      recurrences and hands each sweep's rotations to the block, which applies them to the
//      rows of Z, a thread a row. Z starts as the identity in the output matrix itself
//      (global memory), which the tile has freed. Double-buffered rotations: one barrier a
//      sweep. Then the eigenvalues are sorted ascending (selection sort, as steqr), the
//      columns of Z with them. This is the member tri=0 (syev_cta_<dtype>); tri=1
//      (syev_cta_bisect_<dtype>) solves T by bisection and inverse iteration instead
//      (bisect.cuh: every thread bisects its own eigenvalues, every cluster of close
//      eigenvalues gets its vectors from one thread, no O(n^2) chain on one thread), the
//      eigenvalues ascending by their ranks and every column of Z written by it, its
//      inverse-iteration arrays (4n reals a thread) in global workspace.
//   4. Back-transform V = Q Z = H(0) (H(1) ( ... H(n-2) Z)): a group of lanes a column of
//      Z (about 8 rows a lane; syev.cuh's syev_back), a warp's columns staged in shared
//      memory.
//
// With NoVectors only steps 1-3 run, without Z, and a is not written. info[b] = 0, or, when
// the 30n sweeps ran out, the count of off-diagonal elements of T not converged to zero
// (LAPACK's meaning; w is then not sorted); with tri=1 and vectors, the count of vectors whose
// inverse iteration did not converge (stein's).
//
// Shared memory (syev_cuda.go's syevCTAShared): the tile (n columns of lds = n|1 elements,
// odd so that a warp's row walk and column walk both miss bank conflicts), the staged
// columns of each warp (syev_back_cols elements), y and tau (n each), 32 elements of reduction scratch; then d, e and two
// buffers of rotations (6n reals); then n ints and two tri_rot records. tri=1 keeps its
// eigenvalues, the squared off-diagonal, their ranks and its failure count there instead of
// the rotations, the permutation and the records (syev_layout).
#include "syev.cuh"

#define SYEV_CTA_MAX_THREADS 256

// The minimum of 2 blocks per SM sets ptxas's register budget to 128: left to itself it chose
// 64 for float64 on sm_80 and spilled (16 bytes).
//
// syev_cta_<dtype> solves the tridiagonal form by QL/QR (tri=0), syev_cta_bisect_<dtype> by
// bisection and inverse iteration (tri=1), whose per-thread arrays lie in global workspace,
// inv + blockIdx.x * invslot bytes.
#define SYEV_CTA(SUFFIX, T)                                                                          \
    extern "C" __global__ void __launch_bounds__(SYEV_CTA_MAX_THREADS, 2)                            \
        syev_cta_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, scalar<T>::real *w, int *info, i64 flags) { \
        if ((i64)blockIdx.x >= batch) return; /* one block per matrix */                             \
        DYNAMIC_SHARED(unsigned char, smem);                                                         \
        syev_solve<T, false>(a, ld, stride, (int)n, w, info, flags & 1, flags & 2, smem, nullptr);   \
    }                                                                                                \
    extern "C" __global__ void __launch_bounds__(SYEV_CTA_MAX_THREADS, 2)                            \
        syev_cta_bisect_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, scalar<T>::real *w, int *info, \
                                 i64 flags, unsigned char *inv, i64 invslot) {                        \
        if ((i64)blockIdx.x >= batch) return;                                                        \
        DYNAMIC_SHARED(unsigned char, smem);                                                         \
        syev_solve<T, true>(a, ld, stride, (int)n, w, info, flags & 1, flags & 2, smem,              \
                            (scalar<T>::real *)(inv + (i64)blockIdx.x * invslot));                   \
    }

SYEV_CTA(f32, float)
SYEV_CTA(f64, double)
SYEV_CTA(c64, cfloat)
SYEV_CTA(c128, cdouble)
