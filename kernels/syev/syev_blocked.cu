// syev "blocked": the eigenvalues, and optionally the eigenvectors, of a batch of n-by-n
// Hermitian (real symmetric) matrices of any order, one block per matrix, its working copy
// in global workspace.
//
// The steps are the cta kernel's (syev.cuh, described in syev_cta.cu): load the uplo
// triangle into an n-by-(n|1) copy as the lower triangle (NaN or Inf: NaN results and info
// n-1), scale by a power of two out of [2^-16, 2^16], reduce to real tridiagonal form by
// Householder reflections one column at a time (LAPACK's sytd2/hetd2, the block
// cooperating on each symv and rank-2 update), solve it by implicit QL/QR (tri=0:
// tridiag.cuh, 30n sweeps at most, LAPACK's info) with Z the identity in the output matrix,
// sorted ascending, or by bisection and inverse iteration (tri=1: bisect.cuh, stein's info,
// its inverse-iteration arrays in a second workspace), and back-transform V = Q Z. The reduction is not yet blocked (no latrd panel):
// the layout that the cta kernel keeps in shared memory lies here in the matrix's slot of
// the workspace, slot bytes apart (syev_cuda.go's syevBlockedSlot), so that n is bounded by
// the workspace alone (and by n (n|1) < 2^31, the copy's int indexing).
#include "syev.cuh"

#define SYEV_BLOCKED_THREADS 256

// The minimum of 2 blocks per SM gives ptxas a budget of 128 registers a thread: with the
// default, nvcc 13.0 capped sm_90 at 64 (80 for complex128) and spilled (float64 76 bytes,
// complex64 20, complex128 16); the kernel's occupancy is set by the batch and the memory
// traffic, not by more resident blocks.
//
// syev_blocked_<dtype> solves the tridiagonal form by QL/QR (tri=0), syev_blocked_bisect_<dtype>
// by bisection and inverse iteration (tri=1), its per-thread arrays at inv + blockIdx.x *
// invslot bytes.
#define SYEV_BLOCKED(SUFFIX, T)                                                                     \
    extern "C" __global__ void __launch_bounds__(SYEV_BLOCKED_THREADS, 2)                          \
        syev_blocked_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, scalar<T>::real *w, int *info, \
                              i64 flags, unsigned char *work, i64 slot) {                           \
        if ((i64)blockIdx.x >= batch) return; /* one block per matrix */                            \
        syev_solve<T, false>(a, ld, stride, (int)n, w, info, flags & 1, flags & 2, work + (i64)blockIdx.x * slot, nullptr); \
    }                                                                                               \
    extern "C" __global__ void __launch_bounds__(SYEV_BLOCKED_THREADS, 2)                          \
        syev_blocked_bisect_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, scalar<T>::real *w, int *info, \
                                     i64 flags, unsigned char *work, i64 slot, unsigned char *inv, i64 invslot) { \
        if ((i64)blockIdx.x >= batch) return;                                                       \
        syev_solve<T, true>(a, ld, stride, (int)n, w, info, flags & 1, flags & 2, work + (i64)blockIdx.x * slot, \
                            (scalar<T>::real *)(inv + (i64)blockIdx.x * invslot));                  \
    }

SYEV_BLOCKED(f32, float)
SYEV_BLOCKED(f64, double)
SYEV_BLOCKED(c64, cfloat)
SYEV_BLOCKED(c128, cdouble)
