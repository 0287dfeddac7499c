// probe.cu: where the time of the syev cta kernel goes, one block per matrix, on a GPU.
// Build and run on the device machine (bench/syevprobe/run.sh):
//   nvcc -O3 -std=c++17 -arch=sm_90 -o probe probe.cu && ./probe
// For each dtype and order it times the shipped kernel (syev_cta_bisect_<dtype>, vectors,
// lower) with CUDA events, then a copy of syev_solve that reads clock64() between its
// steps (load and scale, reduction, tridiagonal solve, back-transform) and prints the
// mean cycles of each step over the blocks, and the largest residual
// max |A v - lambda v| / (n eps ||A||) of the first matrices checked on the host.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
#include "../../kernels/syev/syev_cta.cu"

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));    \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

// back_cols: the back-transform V = Q Z with a thread per column of Z, Z staged as Z^T
// (row-major, zt[r ldz + c]) in the given buffer, so that a warp's threads touch consecutive
// elements and no step needs a reduction across lanes.
template <typename T> __device__ void back_cols(T *m, i64 ld, int n, T *zt, int ldz, syev_layout<T> &L) {
    typedef scalar<T> S;
    const int tid = threadIdx.x, nt = blockDim.x, lds = L.lds;
    for_each_element(n, n, [&](int i, int c) { zt[(i64)i * ldz + c] = m[(i64)c * ld + i]; });
    __syncthreads();
    for (int c = tid; c < n; c += nt) {
        T *z = zt + c;
        for (int i = n - 2; i >= 0; i--) {
            const T tau = L.tau[i];
            if (S::is_zero(tau)) continue;
            const T *v = L.a + i * lds;
            T d = z[(i64)(i + 1) * ldz];
            for (int r = i + 2; r < n; r++) d = S::fma_conj(d, v[r], z[(i64)r * ldz]);
            const T td = S::mul(tau, d);
            z[(i64)(i + 1) * ldz] = S::sub(z[(i64)(i + 1) * ldz], td);
            for (int r = i + 2; r < n; r++) z[(i64)r * ldz] = S::sub_mul(z[(i64)r * ldz], td, v[r]);
        }
    }
    __syncthreads();
    for_each_element(n, n, [&](int i, int c) { m[(i64)c * ld + i] = zt[(i64)i * ldz + c]; });
}

// tridiag_rows is syev_tridiag with a thread per row of the trailing matrix, kept whole
// (both triangles): y = tau A22 v reads row r by its thread, the rank-2 update writes it; no
// branch per element and no lane idle while its row is in the trailing matrix.
template <typename T> __device__ void tridiag_rows(int n, syev_layout<T> &L) {
    typedef scalar<T> S;
    typedef typename S::real R;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, nt = blockDim.x, nw = nt >> 5, lds = L.lds;
    for_each_element(n, n, [&](int i, int j) {
        if (i > j) L.a[j + i * lds] = S::conj(L.a[i + j * lds]);
    });
    __syncthreads();
    for (int i = 0; i < n - 1; i++) {
        T *v = L.a + i * lds;
        if (warp == 0) {
            warp_larfg(v, i + 1, n, L.tau + i, lane);
            if (lane == 0) {
                L.e[i] = S::re(v[i + 1]);
                v[i + 1] = S::from_real(1);
                L.d[i] = S::re(v[i]);
            }
        }
        __syncthreads();
        const T tau = L.tau[i];
        if (S::is_zero(tau)) continue;
        T dot = S::from_real(0);
        for (int r = i + 1 + tid; r < n; r += nt) {
            T acc = S::from_real(0), acc1 = S::from_real(0);
            int c = i + 1;
            for (; c + 1 < n; c += 2) {
                acc = S::add(acc, S::mul(L.a[r + c * lds], v[c]));
                acc1 = S::add(acc1, S::mul(L.a[r + (c + 1) * lds], v[c + 1]));
            }
            if (c < n) acc = S::add(acc, S::mul(L.a[r + c * lds], v[c]));
            acc = S::mul(tau, S::add(acc, acc1));
            L.y[r] = acc;
            dot = S::fma_conj(dot, acc, v[r]);
        }
        for (int off = 16; off > 0; off >>= 1) dot = S::add(dot, S::shfl_xor(dot, off));
        if (lane == 0) L.red[warp] = dot;
        __syncthreads();
        dot = S::from_real(0);
        for (int k = 0; k < nw; k++) dot = S::add(dot, L.red[k]);
        const T alpha = S::scale(S::mul(tau, dot), R(-0.5));
        for (int r = i + 1 + tid; r < n; r += nt) {
            const T vr = v[r], yr = S::add(L.y[r], S::mul(alpha, vr));
            for (int c = i + 1; c < n; c++) {
                const T vc = v[c], yc = S::add(L.y[c], S::mul(alpha, vc));
                L.a[r + c * lds] = S::sub_mul_conj(S::sub_mul_conj(L.a[r + c * lds], vr, yc), yr, vc);
            }
            L.a[r + r * lds] = S::from_real(S::re(L.a[r + r * lds]));
        }
        __syncthreads();
    }
    if (tid == 0) L.d[n - 1] = S::re(L.a[(n - 1) + (n - 1) * lds]);
    __syncthreads();
}

// back_groups is syev_back with groups of P lanes (rows per lane about 8) for a column, 32/P
// columns of a warp at once, each staged in shared memory at cols + (its group) ldc, ldc = P
// times an odd number, so that the warp's groups read distinct banks.
template <typename T> __device__ void back_groups(T *m, i64 ld, int n, T *cols, syev_layout<T> &L) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
    int P = 1;
    while (P < 32 && P * 8 < n) P *= 2;
    const int G = 32 / P, g = lane / P, p = lane % P;
    int q = (n + P - 1) / P;
    q |= 1;
    const int ldc = P * q;
    T *z = cols + (warp * G + g) * ldc;
    for (int k0 = warp * G; k0 < n; k0 += nw * G) {
        const int k = k0 + g;
        const bool active = k < n;
        T *mk = m + (i64)k * ld;
        if (active) for (int r = p; r < n; r += P) z[r] = mk[r];
        for (int i = n - 2; i >= 0; i--) {
            const T tau = L.tau[i];
            if (!scalar<T>::is_zero(tau)) group_apply(z, L.a + i * L.lds, i + 1, n, tau, p, P, active);
        }
        if (active) for (int r = p; r < n; r += P) mk[r] = z[r];
    }
}

// timed is syev_solve<T, true> for finite lower input with vectors, clock64() read by
// thread 0 after each step into clk[5 b .. 5 b + 4].
template <typename T, int V, int RV>
__global__ void __launch_bounds__(SYEV_CTA_MAX_THREADS, 2)
    timed(T *a, i64 ld, i64 stride, int n, typename scalar<T>::real *w, int *info, unsigned char *invb, i64 invslot,
          long long *clk, int extra) {
    typedef scalar<T> S;
    typedef typename S::real R;
    DYNAMIC_SHARED(unsigned char, smem);
    const i64 b = blockIdx.x;
    const int tid = threadIdx.x, nt = blockDim.x, nw = nt >> 5;
    T *m = a + b * stride;
    R *wb = w + b * n;
    R *inv = (R *)(invb + b * invslot);
    syev_layout<T> L(smem, n, nw);
    long long t0 = clock64();
    const R big = syev_load(m, ld, n, true, L);
    const int k = big == 0 || (big >= R(0x1p-16) && big <= R(0x1p16)) ? 0 : tri_exp2(big);
    __syncthreads();
    long long t1 = clock64();
    if (RV == 0) syev_tridiag(n, L);
    else tridiag_rows(n, L);
    long long t2 = clock64();
    const int bad = bis_solve(m, ld, n, true, L.d, L.e, L.s, L.c, L.piv, (int *)L.rot, inv);
    for (int i = tid; i < n; i += nt) wb[i] = tri_pow2(L.d[i], -k);
    if (tid == 0) info[b] = bad;
    long long t3 = clock64();
    if (V == 0) syev_back(m, ld, n, L);
    else if (V == 1) back_cols(m, ld, n, (T *)inv, n, L);
    else if (V == 2) back_cols(m, ld, n, (T *)(smem + extra), n, L);
    else back_groups(m, ld, n, (T *)(smem + extra), L);
    __syncthreads();
    long long t4 = clock64();
    if (tid == 0) {
        long long *c = clk + 5 * b;
        c[0] = t0, c[1] = t1, c[2] = t2, c[3] = t3, c[4] = t4;
    }
}

template <typename T> const char *name();
template <> const char *name<float>() { return "f32"; }
template <> const char *name<double>() { return "f64"; }

int threadsFor(int n) { return std::min(SYEV_CTA_MAX_THREADS, std::max(32, (n + 31) / 32 * 32)); }

template <typename T> size_t sharedFor(int n) {
    typedef typename scalar<T>::real R;
    int nw = threadsFor(n) / 32;
    return (size_t)(n * (n | 1) + nw * n + 2 * n + 32) * sizeof(T) + 6 * n * sizeof(R) + (n + 8) * 4;
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
    CK(cudaMalloc(&clk, 5 * sizeof(long long) * batch));
    CK(cudaMemcpy(a0, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    CK(cudaFuncSetAttribute(shipped, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sh));
    const int extra = (int)((sh + 15) / 16 * 16);
    const size_t sh2 = extra + (size_t)n * n * sizeof(T);
    // back_groups' columns: nw * 32 / P of ldc <= P (n / P + 2) elements.
    const size_t sh3 = extra + (size_t)(nt / 32) * 32 * (n + 64) * sizeof(T) / 8;
    typedef void (*K)(T *, i64, i64, int, typename scalar<T>::real *, int *, unsigned char *, i64, long long *, int);
    struct { K k; size_t sh; const char *what; } vs[] = {
        {timed<T, 0, 0>, sh, "reduce=cols back=warp"},
        {timed<T, 0, 1>, sh, "reduce=rows back=warp"},
        {timed<T, 1, 1>, sh, "reduce=rows back=thread,global"},
        {timed<T, 2, 1>, sh2, "reduce=rows back=thread,shared"},
        {timed<T, 3, 0>, sh3, "reduce=cols back=groups"},
        {timed<T, 3, 1>, sh3, "reduce=rows back=groups"},
    };
    for (auto &v : vs) CK(cudaFuncSetAttribute(v.k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)std::max(v.sh, sh2)));
    for (int variant = 0; variant < 6; variant++) {
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    float best = 1e30f;
    float bestTimed = 1e30f;
    for (int rep = 0; rep < 7; rep++) {
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
        vs[variant].k<<<batch, nt, vs[variant].sh>>>(a, n, stride, n, w, info, inv, invslot, clk, extra);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        CK(cudaGetLastError());
        CK(cudaEventElapsedTime(&ms, e0, e1));
        bestTimed = std::min(bestTimed, ms);
    }
    std::vector<long long> c(5 * batch);
    CK(cudaMemcpy(c.data(), clk, c.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    double s[4] = {0, 0, 0, 0}, mx[4] = {0, 0, 0, 0};
    for (int b = 0; b < batch; b++)
        for (int k = 0; k < 4; k++) {
            double d = double(c[5 * b + k + 1] - c[5 * b + k]);
            s[k] += d / batch, mx[k] = std::max(mx[k], d);
        }
    // Residuals of the timed kernel's output for the first 4 matrices.
    std::vector<T> v(stride * 4), wv((size_t)n * 4);
    std::vector<int> iv(batch);
    CK(cudaMemcpy(v.data(), a, v.size() * sizeof(T), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(wv.data(), w, wv.size() * sizeof(T), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(iv.data(), info, batch * sizeof(int), cudaMemcpyDeviceToHost));
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
    printf("%-32s %s n=%d batch=%d threads=%d shared=%zu: shipped %.3f ms, timed %.3f ms; cycles mean (max): load %.0f (%.0f) "
           "reduce %.0f (%.0f) solve %.0f (%.0f) back %.0f (%.0f); residual %.2f orth %.2f infos %d\n",
           vs[variant].what, name<T>(), n, batch, nt, vs[variant].sh, best, bestTimed, s[0], mx[0], s[1], mx[1], s[2], mx[2], s[3], mx[3], worst, worstOrth,
           infos);
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
