// syev "jacobi": all eigenvalues and optionally the eigenvectors of a batch of n-by-n
// Hermitian (symmetric) matrices, n <= 64 (a lane computes each of a step's n/2 rotations), a
// warp per matrix in shared memory, by parallel two-sided Jacobi (jacobi.cuh).
//
// The order is m = n rounded up to even; an odd n gets a zero row and column n, whose pairs
// are always skipped. A sweep is m - 1 steps of the round-robin (chess tournament) ordering:
// at step r, index m - 1 meets (r mod (m - 1)), and (r + k) meets (r - k) mod (m - 1) for k =
// 1 .. m/2 - 1, so that every pair meets once a sweep and the m/2 pairs of a step are
// disjoint. A step is two phases, each ended by __syncwarp:
//
//   1. lane k computes the rotation J_k of pair k from A's current (p, p), (q, q), (p, q);
//   2. the lanes update every 2-by-2 block A({r, s}, {p, q}) of pairs P = (p, q) and Q = (r, s)
//      to J_Q^H A_block J_P (the blocks are disjoint, so they need no order), the diagonal
//      blocks to their exact result diag(app - tg, aqq + tg), and, with vectors, the columns p,
//      q of V (V starts at I) to V J_P.
//
// The iteration ends after a sweep that skips every pair, or after SYEV_SWEEPS sweeps. The
// eigenvalues are ranked (ties by index) and written ascending; with vectors, column i of V
// goes to column rank(i) of A.
//
// Shared memory per warp (syevJacobiSlot in syev_cuda.go must agree): A, and with vectors V,
// at pitch m + 1 (an odd pitch spreads a row over the banks), then the m/2 phases u, the m/2
// c, s and tg, and m ints (the pairs of a step, then the ranks), rounded up to 16 bytes.
//
// Only the uplo triangle of A is read (the diagonal's imaginary parts dropped); with jobz
// NoVectors A is not written. info[b] is 0 on convergence, else the number of rows p < n - 1
// still holding a non-negligible element right of the diagonal; a matrix holding NaN or Inf
// is not iterated: w and V are NaN and info is n - 1.
#include "jacobi.cuh"

// jacobi_slot is the shared memory of one warp's matrix, in bytes.
template <typename T> __device__ __forceinline__ i64 jacobi_slot(int m, bool vectors) {
    typedef typename scalar<T>::real R;
    const i64 bytes = (i64)sizeof(T) * ((i64)m * (m + 1) * (vectors ? 2 : 1) + m / 2) + (i64)sizeof(R) * 3 * (m / 2) + 4 * m;
    return (bytes + 15) / 16 * 16;
}

template <typename T>
__device__ __forceinline__ void syev_jacobi(T *a, i64 ld, i64 stride, int n, i64 batch, typename scalar<T>::real *w, int *info,
                                            bool vectors, bool lower) {
    typedef scalar<T> S;
    typedef typename S::real R;
    DYNAMIC_SHARED(unsigned char, shared);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const i64 b = (i64)blockIdx.x * (blockDim.x >> 5) + warp;
    if (b >= batch) return; // whole warps leave together
    const int m = n + (n & 1), pitch = m + 1, half = m / 2;
    unsigned char *slot = shared + warp * jacobi_slot<T>(m, vectors);
    T *sa = (T *)slot, *sv = sa + m * pitch, *su = sv + (vectors ? m * pitch : 0);
    R *scm = (R *)(su + half), *ss = scm + half, *stg = ss + half;
    int *spair = (int *)(stg + half);
    a += b * stride;
    w += b * n;

    // Load: each stored element of the triangle and its mirror; the pad row and column zero.
    bool finite = true;
    for (int j = 0; j < n; j++) {
        const int lo = lower ? j : 0, hi = lower ? n : j + 1;
        for (int i = lo + lane; i < hi; i += 32) {
            T x = a[j * ld + i];
            if (i == j) x = S::from_real(S::re(x)); // its imaginary part is taken as zero, unread
            finite = finite && syev_finite(x);
            sa[j * pitch + i] = x;
            sa[i * pitch + j] = S::conj(x);
        }
    }
    for (int i = lane; i < m && m > n; i += 32) sa[n * pitch + i] = sa[i * pitch + n] = S::from_real(0);
    if (__any_sync(0xffffffffu, !finite)) {
        for (int i = lane; i < n; i += 32) w[i] = syev_nan<R>();
        if (vectors) {
            for (int j = 0; j < n; j++) {
                for (int i = lane; i < n; i += 32) a[j * ld + i] = S::make(syev_nan<R>(), syev_nan<R>());
            }
        }
        if (lane == 0) info[b] = n - 1;
        return;
    }
    if (vectors) {
        for (int j = 0; j < m; j++) {
            for (int i = lane; i < m; i += 32) sv[j * pitch + i] = S::from_real(i == j ? 1 : 0);
        }
    }
    __syncwarp();

    bool rotated = true;
    for (int sweep = 0; sweep < SYEV_SWEEPS && rotated; sweep++) {
        rotated = false;
        for (int r = 0; r < m - 1; r++) {
            if (lane < half) {
                int p = (r + lane) % (m - 1), q = lane == 0 ? m - 1 : (r - lane + m - 1) % (m - 1);
                const syev_rot<T> rot = syev_rotation(S::re(sa[p * pitch + p]), S::re(sa[q * pitch + q]), sa[q * pitch + p]);
                rotated = rotated || rot.on;
                su[lane] = rot.u;
                scm[lane] = rot.cm;
                ss[lane] = rot.s;
                stg[lane] = rot.tg;
                spair[lane] = p;
                spair[half + lane] = q;
            }
            __syncwarp();
            for (int e = lane; e < half * half; e += 32) {
                const int kp = e % half, kq = e / half; // the block's column pair P and row pair Q
                const int p = spair[kp], q = spair[half + kp], rr = spair[kq], s = spair[half + kq];
                T *cp = sa + p * pitch, *cq = sa + q * pitch;
                if (kp == kq) {
                    const R app = S::re(cp[p]), aqq = S::re(cq[q]);
                    cp[p] = S::from_real(app - stg[kp]);
                    cq[q] = S::from_real(aqq + stg[kp]);
                    cp[q] = cq[p] = S::from_real(0);
                    continue;
                }
                syev_rot<T> jp, jq;
                jp.cm = scm[kp], jp.s = ss[kp], jp.u = su[kp];
                jq.cm = scm[kq], jq.s = ss[kq], jq.u = su[kq];
                T x0 = cp[rr], y0 = cq[rr], x1 = cp[s], y1 = cq[s];
                syev_right(jp, x0, y0); // row r of A J_P
                syev_right(jp, x1, y1); // row s
                syev_left(jq, x0, x1);  // column p of J_Q^H (A J_P)
                syev_left(jq, y0, y1);  // column q
                cp[rr] = x0, cq[rr] = y0, cp[s] = x1, cq[s] = y1;
            }
            if (vectors) {
                for (int e = lane; e < half * n; e += 32) {
                    const int k = e % half, i = e / half;
                    syev_rot<T> jp;
                    jp.cm = scm[k], jp.s = ss[k], jp.u = su[k];
                    syev_right(jp, sv[spair[k] * pitch + i], sv[spair[half + k] * pitch + i]);
                }
            }
            __syncwarp();
        }
        rotated = __any_sync(0xffffffffu, rotated);
    }

    // info: the rows not converged, when the bound was reached.
    int bad = 0;
    if (rotated) {
        for (int p0 = 0; p0 < n - 1; p0 += 32) { // the same rounds in every lane, for the ballot
            const int p = p0 + lane;
            bool row = false;
            for (int q = p + 1; q < n && p < n - 1; q++)
                row = row || !syev_negligible(syev_abs(sa[q * pitch + p]), S::re(sa[p * pitch + p]), S::re(sa[q * pitch + q]));
            bad += __popc(__ballot_sync(0xffffffffu, row));
        }
    }
    // Ranks: eigenvalue i goes to position rank(i).
    for (int i = lane; i < n; i += 32) {
        const R di = S::re(sa[i * pitch + i]);
        int rank = 0;
        for (int j = 0; j < n; j++) rank += syev_before(S::re(sa[j * pitch + j]), j, di, i);
        spair[i] = rank;
        w[rank] = di;
    }
    __syncwarp();
    if (vectors) {
        for (int j = 0; j < n; j++) {
            T *out = a + spair[j] * ld;
            for (int i = lane; i < n; i += 32) out[i] = sv[j * pitch + i];
        }
    }
    if (lane == 0) info[b] = bad;
}

#define SYEV_JACOBI(SUFFIX, T)                                                                                         \
    extern "C" __global__ void syev_jacobi_##SUFFIX(T *a, i64 ld, i64 stride, i64 n, i64 batch, scalar<T>::real *w,     \
                                                    int *info, i64 vectors, i64 lower) {                               \
        syev_jacobi<T>(a, ld, stride, (int)n, batch, w, info, vectors != 0, lower != 0);                               \
    }
SYEV_JACOBI(f32, float)
SYEV_JACOBI(f64, double)
SYEV_JACOBI(c64, cfloat)
SYEV_JACOBI(c128, cdouble)
