// The block-tiled product engine of the level-3 kernels (gemm tiled, symm, syrk and its
// relatives, trmm): one block of TILE_THREADS threads computes a BM-by-BN tile of L * R, L
// an M-by-K and R a K-by-N operand, over a range of the reduction. The operands are small
// structs whose at(r, c) returns an element of op(X) (opnd below, or an op's own wrapper):
// the engine never sees transposes, triangles or symmetry, only elements, so one engine
// serves every op, each instantiating it with its operands.
//
// Layout: the threads form a 16-by-16 grid; thread (tr, tc) owns the TM-by-TN elements
// (tr + 16 r, tc + 16 s) of the tile, so that the 16 row fragments a warp reads from shared
// memory are consecutive (conflict-free) and the column fragments a broadcast. The k loop
// stages BK-deep slices of both operands in shared memory, double-buffered: the next slice
// goes to registers (global loads in flight) while the current one is multiplied, then to
// the other buffer, one barrier a slice. Each slice is loaded along the operand's contiguous
// direction (at_rows_fast), and the shared rows carry one element of padding so that the
// transposed stores are conflict-free too. Elements outside M, N or the reduction range are
// zero (predicated loads, no alignment assumed; every load is one element).
#pragma once
#include "../common/scalar.cuh"

#define TILE_THREADS 256

// mac returns c + a*b, the complex product written out (four real multiplies, no libcall).
__device__ __forceinline__ float mac(float c, float a, float b) { return fmaf(a, b, c); }
__device__ __forceinline__ double mac(double c, double a, double b) { return fma(a, b, c); }
template <typename C> __device__ __forceinline__ C cmac(C c, C a, C b) {
    c.re = fma_r(a.re, b.re, fma_r(-a.im, b.im, c.re));
    c.im = fma_r(a.re, b.im, fma_r(a.im, b.re, c.im));
    return c;
}
__device__ __forceinline__ cfloat mac(cfloat c, cfloat a, cfloat b) { return cmac(c, a, b); }
__device__ __forceinline__ cdouble mac(cdouble c, cdouble a, cdouble b) { return cmac(c, a, b); }

// Operand modes: a general matrix, a triangular one (the other triangle zero, a unit
// diagonal taken as ones), a symmetric or Hermitian one (the other triangle mirrored).
enum { OPND_GEN, OPND_TRI, OPND_SYM };

// opnd is op(X) for X stored column-major at p with leading dimension ld: op(X)(r, c) is
// X(r, c), X(c, r) (trans) or its conjugate (conj). Only the elements the mode references
// are read: TRI reads the lower or upper triangle of X, and not its diagonal when unit; SYM
// reads the stored triangle and, Hermitian, takes the diagonal's imaginary part as zero.
template <typename T, int MODE> struct opnd {
    const T *p;
    i64 ld;
    bool trans, conj, lower, unit, herm;

    __device__ __forceinline__ T load(i64 i, i64 j, bool cj) const {
        const T v = p[i + j * ld];
        return cj ? scalar<T>::conj(v) : v;
    }
    __device__ __forceinline__ T at(i64 r, i64 c) const {
        typedef scalar<T> S;
        i64 i = trans ? c : r, j = trans ? r : c;
        if (MODE == OPND_TRI) {
            if (lower ? i < j : i > j) return S::from_real(0);
            if (unit && i == j) return S::from_real(1);
        }
        if (MODE == OPND_SYM) {
            const bool mirror = lower ? i < j : i > j;
            if (mirror) {
                const i64 t = i;
                i = j, j = t;
            }
            if (herm && i == j) return S::from_real(S::re(p[i + j * ld]));
            return load(i, j, herm && mirror);
        }
        return load(i, j, conj);
    }
    // at_rows_fast says whether consecutive rows of op(X) are adjacent in memory.
    __device__ __forceinline__ bool at_rows_fast() const { return MODE == OPND_SYM || !trans; }
};

template <typename T> __device__ __forceinline__ T tile_zero() { return scalar<T>::from_real(0); }

// tile_stage is the engine's shared memory: two buffers of a BK-deep slice of each operand.
template <typename T, int TM, int TN, int BK> struct tile_stage {
    T l[2][BK][16 * TM + 1];
    T r[2][BK][16 * TN + 1];
};

// tile_fetch loads the slice of L at rows i0.., reduction k0.. into registers (BM*BK/threads
// elements a thread); elements past M or khi are zero. tile_put stores them to buffer l.
template <typename T, int ROWS, int BK, bool LEFT> struct tile_slice {
    static const int PER = ROWS * BK / TILE_THREADS;
    T v[PER];
    // coord is the (row of the tile, reduction index) of a thread's e-th element: the
    // operand's contiguous direction runs across consecutive threads.
    static __device__ __forceinline__ void coord(int e, bool rows_fast, int &x, int &p) {
        const int idx = threadIdx.x + e * TILE_THREADS;
        if (rows_fast) x = idx % ROWS, p = idx / ROWS;
        else p = idx % BK, x = idx / BK;
    }
    template <typename Op> __device__ __forceinline__ void fetch(const Op &op, i64 lim, i64 x0, i64 k0, i64 khi) {
        // L's rows run across; R's contiguous direction is its reduction index (rows of R).
        const bool fast = LEFT ? op.at_rows_fast() : !op.at_rows_fast();
#pragma unroll
        for (int e = 0; e < PER; e++) {
            int x, p;
            coord(e, fast, x, p);
            const i64 gx = x0 + x, gp = k0 + p;
            v[e] = tile_zero<T>();
            if (gx < lim && gp < khi) v[e] = LEFT ? op.at(gx, gp) : op.at(gp, gx);
        }
    }
    template <typename Op> __device__ __forceinline__ void put(const Op &op, T (*buf)[ROWS + 1]) const {
        const bool fast = LEFT ? op.at_rows_fast() : !op.at_rows_fast();
#pragma unroll
        for (int e = 0; e < PER; e++) {
            int x, p;
            coord(e, fast, x, p);
            buf[p][x] = v[e];
        }
    }
};

// tile_product adds L(i0.., klo..khi) * R(klo..khi, j0..) to acc, the thread's TM-by-TN
// elements. Every thread of the block calls it (it holds barriers); it ends with a barrier,
// after which no thread reads the operands or the stage any more.
template <typename T, int TM, int TN, int BK, typename LOp, typename ROp>
__device__ __forceinline__ void tile_product(const LOp &L, const ROp &R, i64 M, i64 N, i64 i0, i64 j0, i64 klo, i64 khi,
                                             tile_stage<T, TM, TN, BK> &st, T (&acc)[TM][TN]) {
    if (klo >= khi) return;
    const int tr = threadIdx.x % 16, tc = threadIdx.x / 16;
    // A thread with no element inside M by N (at the edges) only stages and keeps barriers.
    const bool owns = tr < M - i0 && tc < N - j0;
    tile_slice<T, 16 * TM, BK, true> ls;
    tile_slice<T, 16 * TN, BK, false> rs;
    ls.fetch(L, M, i0, klo, khi);
    rs.fetch(R, N, j0, klo, khi);
    ls.put(L, st.l[0]);
    rs.put(R, st.r[0]);
    __syncthreads();
    int buf = 0;
    for (i64 k0 = klo; k0 < khi; k0 += BK) {
        const bool more = k0 + BK < khi;
        if (more) {
            ls.fetch(L, M, i0, k0 + BK, khi);
            rs.fetch(R, N, j0, k0 + BK, khi);
        }
        if (owns) {
#pragma unroll
            for (int p = 0; p < BK; p++) {
                T a[TM], b[TN];
#pragma unroll
                for (int r = 0; r < TM; r++) a[r] = st.l[buf][p][tr + 16 * r];
#pragma unroll
                for (int s = 0; s < TN; s++) b[s] = st.r[buf][p][tc + 16 * s];
#pragma unroll
                for (int r = 0; r < TM; r++)
#pragma unroll
                    for (int s = 0; s < TN; s++) acc[r][s] = mac(acc[r][s], a[r], b[s]);
            }
        }
        if (more) {
            ls.put(L, st.l[buf ^ 1]);
            rs.put(R, st.r[buf ^ 1]);
        }
        __syncthreads();
        buf ^= 1;
    }
}

template <typename T, int TM, int TN> __device__ __forceinline__ void tile_clear(T (&acc)[TM][TN]) {
#pragma unroll
    for (int r = 0; r < TM; r++)
#pragma unroll
        for (int s = 0; s < TN; s++) acc[r][s] = tile_zero<T>();
}

// tile_each calls f(i, j, v) for each element (i, j) of the thread's part of the tile at
// (i0, j0) inside M by N, v its accumulated value.
template <typename T, int TM, int TN, typename F>
__device__ __forceinline__ void tile_each(i64 M, i64 N, i64 i0, i64 j0, const T (&acc)[TM][TN], F f) {
    const int tr = threadIdx.x % 16, tc = threadIdx.x / 16;
#pragma unroll
    for (int r = 0; r < TM; r++)
#pragma unroll
        for (int s = 0; s < TN; s++) {
            const i64 i = i0 + tr + 16 * r, j = j0 + tc + 16 * s;
            if (i < M && j < N) f(i, j, acc[r][s]);
        }
}

// axpby returns alpha v + beta c, reading c only when beta is not zero (BLAS's rule: NaN in
// C does not reach the result when beta = 0).
template <typename T> __device__ __forceinline__ T axpby(T alpha, T v, T beta, const T *c) {
    typedef scalar<T> S;
    const T x = S::mul(alpha, v);
    return S::is_zero(beta) ? x : S::add(x, S::mul(beta, *c));
}

// Packed kernel parameters (every parameter is 8 bytes, at most 16): two 32-bit sizes in one.
__device__ __forceinline__ i64 lo32(i64 x) { return x & 0xffffffffll; }
__device__ __forceinline__ i64 hi32(i64 x) { return (x >> 32) & 0xffffffffll; }

// Transpose flags of the gemm-like kernels (gemm_cuda.go's gemmTransFlags writes them).
enum { TF_A_TRANS = 1, TF_A_CONJ = 2, TF_B_TRANS = 4, TF_B_CONJ = 8 };

// gemm_tiles is C = alpha L R + beta C for the tile of C that block blockIdx.x names: the
// blocks run over (tile, matrix), tiles = tm * tn of them a matrix in grid x. L and R are
// the operands of that matrix. alpha = 0 reads neither operand.
template <typename T, int TM, int TN, int BK, typename LOp, typename ROp>
__device__ __forceinline__ void gemm_tile(const LOp &L, const ROp &R, T *c, i64 ldc, i64 M, i64 N, i64 K, i64 tile, T alpha,
                                          T beta) {
    __shared__ tile_stage<T, TM, TN, BK> st;
    const i64 tm = (M + 16 * TM - 1) / (16 * TM);
    const i64 i0 = (tile % tm) * 16 * TM, j0 = (tile / tm) * 16 * TN;
    T acc[TM][TN];
    tile_clear(acc);
    tile_product<T, TM, TN, BK>(L, R, M, N, i0, j0, 0, scalar<T>::is_zero(alpha) ? 0 : K, st, acc);
    tile_each(M, N, i0, j0, acc, [&](i64 i, i64 j, T v) { c[i + j * ldc] = axpby(alpha, v, beta, c + i + j * ldc); });
}
