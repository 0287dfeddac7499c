// probe.cu: where the time of the syev cta kernel (tri=1: bisection and inverse iteration)
// goes, one block per matrix, on a GPU, and what this round's change to bisect.cuh bought.
// Build and run on the device machine (bench/syevprobe/run.sh, which first writes
// bisect_before.cuh: the bisect.cuh of an earlier commit, put in namespace before).
// For each dtype and n it times the shipped kernel (syev_cta_bisect_<dtype>, vectors,
// lower) with CUDA events, then a copy of syev_solve that reads clock64() between its steps
// (load, reduction, eigenvalues by bisection, ranks, vectors by inverse iteration,
// back-transform) with the tridiagonal solver of bisect.cuh ("now") and of the earlier one
// ("before"), and prints the mean and largest cycles of each step over the blocks and the
// largest residual max |A v - lambda v| / (n eps ||A||) and orthogonality
// max |V^T V - I| / (n eps) of the first matrices, checked on the host.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
#include "../../kernels/syev/syev_cta.cu"
namespace before {
#include "bisect_before.cuh"
}
namespace now {
using ::bis_block;
using ::bis_block_of;
using ::bis_eigenvalue;
using ::bis_inv;
using ::bis_vectors;
}

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));    \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

// SOLVE is bis_solve's body with vectors, the functions taken from namespace NS, clock64()
// read into t[2..4] after the eigenvalues, the ranks and the vectors.
#define SOLVE(NS)                                                                                  \
    {                                                                                              \
        typedef tri_const<R> K;                                                                    \
        R *d = L.d, *e = L.e, *e2 = L.s, *lam = L.c;                                               \
        int *rank = L.piv, *fails = (int *)L.rot;                                                  \
        const R ulp2 = 4 * K::eps() * K::eps();                                                    \
        for (int i = tid; i < n - 1; i += nt) {                                                    \
            const R q = e[i] * e[i];                                                               \
            e2[i] = fabs(d[i] * d[i + 1]) * ulp2 + K::safmin() > q ? R(0) : q;                     \
        }                                                                                          \
        if (tid == 0) *fails = 0;                                                                  \
        __syncthreads();                                                                           \
        for (int k = tid; k < n; k += nt) {                                                        \
            const NS::bis_block<R> b = NS::bis_block_of(d, e, e2, n, k);                           \
            lam[k] = b.lo == b.hi ? d[k] : NS::bis_eigenvalue(d, e2, b, k - b.lo);                 \
        }                                                                                          \
        __syncthreads();                                                                           \
        t[2] = clock64();                                                                          \
        for (int k = tid; k < n; k += nt) {                                                        \
            const R x = lam[k];                                                                    \
            int r = 0;                                                                             \
            for (int j = 0; j < n; j++) r += lam[j] < x || (lam[j] == x && j < k);                 \
            rank[k] = r;                                                                           \
        }                                                                                          \
        __syncthreads();                                                                           \
        t[3] = clock64();                                                                          \
        const NS::bis_inv<R> w = {inv + tid, n, nt};                                               \
        int failed = 0;                                                                            \
        for (int k = tid; k < n; k += nt) {                                                        \
            const NS::bis_block<R> b = NS::bis_block_of(d, e, e2, n, k);                           \
            const R ortol = R(1e-3) * b.onenrm;                                                    \
            if (k > b.lo && fabs(lam[k] - lam[k - 1]) <= ortol) continue;                          \
            int k1 = k;                                                                            \
            while (k1 < b.hi && fabs(lam[k1 + 1] - lam[k1]) <= ortol) k1++;                        \
            failed += NS::bis_vectors(m, ld, n, d, e, lam, rank, b.lo, b.hi - b.lo + 1, b.onenrm, k, k1, w); \
        }                                                                                          \
        if (failed) atomicAdd(fails, failed);                                                      \
        __syncthreads();                                                                           \
        t[4] = clock64();                                                                          \
        bad = *fails;                                                                              \
        for (int k = tid; k < n; k += nt) d[rank[k]] = lam[k];                                     \
        __syncthreads();                                                                           \
    }

// timed is syev_solve<T, true> for finite lower input with vectors, the tridiagonal solver
// of bisect.cuh (NOW) or of bisect_before.cuh, clock64() read by thread 0 after each step
// into clk[7 b .. 7 b + 6].
template <typename T, bool NOW>
__global__ void __launch_bounds__(SYEV_CTA_MAX_THREADS, 2)
    timed(T *a, i64 ld, i64 stride, int n, typename scalar<T>::real *w, int *info, unsigned char *invb, i64 invslot,
          long long *clk) {
    typedef scalar<T> S;
    typedef typename S::real R;
    DYNAMIC_SHARED(unsigned char, smem);
    const i64 b = blockIdx.x;
    const int tid = threadIdx.x, nt = blockDim.x, nw = nt >> 5;
    T *m = a + b * stride;
    R *wb = w + b * n;
    R *inv = (R *)(invb + b * invslot);
    syev_layout<T> L(smem, n, nw);
    long long t[7];
    t[0] = clock64();
    const R big = syev_load(m, ld, n, true, L);
    const int k = big == 0 || (big >= R(0x1p-16) && big <= R(0x1p16)) ? 0 : tri_exp2(big);
    __syncthreads();
    t[1] = clock64();
    syev_tridiag(n, L);
    int bad = 0;
    if (NOW) SOLVE(now) else SOLVE(before)
    for (int i = tid; i < n; i += nt) wb[i] = tri_pow2(L.d[i], -k);
    if (tid == 0) info[b] = bad;
    syev_back(m, ld, n, L);
    __syncthreads();
    t[5] = clock64();
    // t[1] -> t[2] is the reduction and the bisection; reduce_only times the reduction alone.
    if (tid == 0) {
        long long *c = clk + 7 * b;
        for (int i = 0; i < 6; i++) c[i] = t[i];
    }
}

// reduce_only times the load and the reduction alone (the split of t[1] -> t[2] above).
template <typename T>
__global__ void __launch_bounds__(SYEV_CTA_MAX_THREADS, 2)
    reduce_only(T *a, i64 ld, i64 stride, int n, long long *clk) {
    typedef typename scalar<T>::real R;
    DYNAMIC_SHARED(unsigned char, smem);
    const i64 b = blockIdx.x;
    syev_layout<T> L(smem, n, blockDim.x >> 5);
    syev_load(a + b * stride, ld, n, true, L);
    __syncthreads();
    long long t1 = clock64();
    syev_tridiag(n, L);
    long long t2 = clock64();
    if (threadIdx.x == 0) clk[7 * b + 6] = t2 - t1;
}

template <typename T> const char *name();
template <> const char *name<float>() { return "f32"; }
template <> const char *name<double>() { return "f64"; }

int threadsFor(int n) { return std::min(SYEV_CTA_MAX_THREADS, std::max(32, (n + 31) / 32 * 32)); }

// sharedFor is syev_cuda.go's syevCTAShared.
template <typename T> size_t sharedFor(int n) {
    typedef typename scalar<T>::real R;
    int nw = threadsFor(n) / 32;
    int P = 1;
    while (P < 32 && P * SYEV_BACK_ROWS < n) P *= 2;
    const int cols = 32 / P * P * (((n + P - 1) / P) | 1);
    return (size_t)(n * (n | 1) + nw * cols + 2 * n + 32) * sizeof(T) + 6 * n * sizeof(R) + (n + 8) * 4;
}

template <typename T> void probe(int n, int batch, void (*shipped)(T *, i64, i64, i64, i64, T *, int *, i64, unsigned char *, i64)) {
    const int nt = threadsFor(n);
    const size_t sh = sharedFor<T>(n);
    const i64 invslot = ((4 * (i64)n * nt * sizeof(T)) + 255) / 256 * 256;
    const i64 stride = (i64)n * n;
    std::vector<T> h(stride * batch);
    srand(7);
    for (int b = 0; b < batch; b++)
        for (int j = 0; j < n; j++)
            for (int i = j; i < n; i++) {
                T x = T(rand()) / T(RAND_MAX) * 2 - 1;
                h[b * stride + j * n + i] = x, h[b * stride + i * n + j] = x;
            }
    T *a0, *a, *w;
    int *info;
    unsigned char *inv;
    long long *clk;
    CK(cudaMalloc(&a0, h.size() * sizeof(T)));
    CK(cudaMalloc(&a, h.size() * sizeof(T)));
    CK(cudaMalloc(&w, (size_t)n * batch * sizeof(T)));
    CK(cudaMalloc(&info, batch * sizeof(int)));
    CK(cudaMalloc(&inv, invslot * batch));
    CK(cudaMalloc(&clk, 7 * sizeof(long long) * batch));
    CK(cudaMemcpy(a0, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    typedef void (*K)(T *, i64, i64, int, typename scalar<T>::real *, int *, unsigned char *, i64, long long *);
    struct { K k; const char *what; } vs[] = {{timed<T, false>, "before"}, {timed<T, true>, "now"}};
    CK(cudaFuncSetAttribute(shipped, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sh));
    CK(cudaFuncSetAttribute(reduce_only<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sh));
    for (auto &v : vs) CK(cudaFuncSetAttribute(v.k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sh));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int variant = 0; variant < 2; variant++) {
        float best = 1e30f, bestTimed = 1e30f;
        for (int rep = 0; rep < 9; rep++) { // alternated, the best of each
            float ms;
            CK(cudaMemcpy(a, a0, h.size() * sizeof(T), cudaMemcpyDeviceToDevice));
            CK(cudaEventRecord(e0));
            shipped<<<batch, nt, sh>>>(a, n, stride, n, batch, w, info, 3, inv, invslot);
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            CK(cudaGetLastError());
            CK(cudaEventElapsedTime(&ms, e0, e1));
            best = std::min(best, ms);
            CK(cudaMemcpy(a, a0, h.size() * sizeof(T), cudaMemcpyDeviceToDevice));
            CK(cudaEventRecord(e0));
            vs[variant].k<<<batch, nt, sh>>>(a, n, stride, n, w, info, inv, invslot, clk);
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            CK(cudaGetLastError());
            CK(cudaEventElapsedTime(&ms, e0, e1));
            bestTimed = std::min(bestTimed, ms);
        }
        // The residuals are of the timed kernel's output; the reduction's split follows.
        std::vector<T> v(stride * 4), wv((size_t)n * 4);
        std::vector<int> iv(batch);
        CK(cudaMemcpy(v.data(), a, v.size() * sizeof(T), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(wv.data(), w, wv.size() * sizeof(T), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(iv.data(), info, batch * sizeof(int), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(a, a0, h.size() * sizeof(T), cudaMemcpyDeviceToDevice));
        reduce_only<T><<<batch, nt, sh>>>(a, n, stride, n, clk);
        CK(cudaDeviceSynchronize());
        std::vector<long long> c(7 * batch);
        CK(cudaMemcpy(c.data(), clk, c.size() * sizeof(long long), cudaMemcpyDeviceToHost));
        // Steps: load, reduce, bisect (t1->t2 less the reduction), rank, vectors, back.
        double s[6] = {0}, mx[6] = {0};
        for (int b = 0; b < batch; b++) {
            const long long *cb = &c[7 * b];
            double st[6] = {double(cb[1] - cb[0]), double(cb[6]), double(cb[2] - cb[1] - cb[6]),
                            double(cb[3] - cb[2]), double(cb[4] - cb[3]), double(cb[5] - cb[4])};
            for (int k = 0; k < 6; k++) s[k] += st[k] / batch, mx[k] = std::max(mx[k], st[k]);
        }
        int infos = 0;
        for (int b = 0; b < batch; b++) infos += iv[b] != 0;
        double worst = 0, worstOrth = 0;
        const double eps = sizeof(T) == 4 ? 0x1p-24 : 0x1p-53;
        for (int b = 0; b < 4; b++) {
            const T *A = &h[b * stride], *V = &v[b * stride];
            double anrm = 0;
            for (int i = 0; i < n * n; i++) anrm = std::max(anrm, (double)fabs(A[i]));
            for (int j = 0; j < n; j++) {
                for (int i = 0; i < n; i++) {
                    double r = -double(wv[b * n + j]) * V[j * n + i];
                    for (int k = 0; k < n; k++) r += double(A[k * n + i]) * V[j * n + k];
                    worst = std::max(worst, fabs(r) / (n * eps * anrm));
                }
                for (int l = 0; l < n; l++) {
                    double d = l == j ? -1 : 0;
                    for (int k = 0; k < n; k++) d += double(V[j * n + k]) * V[l * n + k];
                    worstOrth = std::max(worstOrth, fabs(d) / (n * eps));
                }
            }
        }
        printf("%-6s %s n=%d batch=%d threads=%d shared=%zu: shipped %.3f ms, timed %.3f ms; kcycles mean (max): load %.0f (%.0f) "
               "reduce %.0f (%.0f) bisect %.0f (%.0f) rank %.0f (%.0f) vectors %.0f (%.0f) back %.0f (%.0f); residual %.2f orth %.2f infos %d\n",
               vs[variant].what, name<T>(), n, batch, nt, sh, best, bestTimed, s[0] / 1e3, mx[0] / 1e3, s[1] / 1e3, mx[1] / 1e3,
               s[2] / 1e3, mx[2] / 1e3, s[3] / 1e3, mx[3] / 1e3, s[4] / 1e3, mx[4] / 1e3, s[5] / 1e3, mx[5] / 1e3, worst, worstOrth, infos);
    }
    CK(cudaFree(a0));
    CK(cudaFree(a));
    CK(cudaFree(w));
    CK(cudaFree(info));
    CK(cudaFree(inv));
    CK(cudaFree(clk));
}

int main() {
    int ns[] = {16, 32, 64, 96, 128};
    int bs[] = {8192, 8192, 1024, 512, 512};
    for (int i = 0; i < 5; i++) probe<float>(ns[i], bs[i], syev_cta_bisect_f32);
    for (int i = 0; i < 5; i++) probe<double>(ns[i], bs[i], syev_cta_bisect_f64);
    return 0;
}
