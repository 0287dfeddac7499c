// syev "blocked": the eigenvalues, and optionally the eigenvectors, of a batch of n-by-n
// Hermitian (real symmetric) matrices of any order, one block per matrix, its working copy
// in global workspace.
//
// The steps are the cta kernel's (syev.cuh, described in syev_cta.cu): load the uplo
// triangle into an n-by-(n|1) copy as the lower triangle (NaN or Inf: NaN results and info
// n-1), scale by a power of two out of [2^-16, 2^16], reduce to real tridiagonal form by
// Householder reflections one column at a time (LAPACK's sytd2/hetd2, the block
// cooperating on each symv and rank-2 update), solve it by implicit QL/QR (tridiag.cuh,
// 30n sweeps at most, LAPACK's info) with Z the identity in the output matrix, sort
// ascending, and back-transform V = Q Z. The reduction is not yet blocked (no latrd panel):
// the layout that the cta kernel keeps in shared memory lies here in the matrix's slot of
// the workspace, slot bytes apart (syev_cuda.go's syevBlockedSlot), so that n is bounded by
// the workspace alone (and by n (n|1) < 2^31, the copy's int indexing).
#include "syev.cuh"

#define SYEV_BLOCKED_THREADS 256

#define SYEV_BLOCKED(SUFFIX, T)                                                                     \
    extern "C" __global__ void __launch_bounds__(SYEV_BLOCKED_THREADS)                             \
        syev_blocked_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, scalar<T>::real *w, int *info, \
                              i64 flags, unsigned char *work, i64 slot) {                           \
        if ((i64)blockIdx.x >= batch) return; /* one block per matrix */                            \
        syev_solve<T>(a, ld, stride, (int)n, w, info, flags & 1, flags & 2, work + (i64)blockIdx.x * slot); \
    }

SYEV_BLOCKED(f32, float)
SYEV_BLOCKED(f64, double)
SYEV_BLOCKED(c64, cfloat)
SYEV_BLOCKED(c128, cdouble)
