// The stand-in for librocblas: the handle functions and the strided-batched copy, gemm, gemv, trsm,
// trmm (ROCm 6's form, writing C), symm, hemm, syrk, herk, syr2k and her2k that internal/hip
// resolves, each a loop of the system BLAS over the batch. Arguments
// are rocBLAS's (rocblas_int sizes, rocblas_stride strides in elements, host scalars).
#include "roc.h"

namespace {
#define OVERLOADS(p, T)                                                                                                 \
	void gemm(char ta, char tb, int m, int n, int k, const T *al, const T *a, int lda, const T *b, int ldb,        \
		  const T *be, T *c, int ldc) {                                                                          \
		p##gemm_(&ta, &tb, &m, &n, &k, al, a, &lda, b, &ldb, be, c, &ldc, 1, 1);                                 \
	}                                                                                                              \
	void gemv(char t, int m, int n, const T *al, const T *a, int lda, const T *x, int incx, const T *be, T *y,    \
		  int incy) {                                                                                            \
		p##gemv_(&t, &m, &n, al, a, &lda, x, &incx, be, y, &incy, 1);                                            \
	}                                                                                                              \
	void trsm(char s, char u, char t, char d, int m, int n, const T *al, const T *a, int lda, T *b, int ldb) {    \
		p##trsm_(&s, &u, &t, &d, &m, &n, al, a, &lda, b, &ldb, 1, 1, 1, 1);                                      \
	}                                                                                                              \
	void trmm(char s, char u, char t, char d, int m, int n, const T *al, const T *a, int lda, T *b, int ldb) {    \
		p##trmm_(&s, &u, &t, &d, &m, &n, al, a, &lda, b, &ldb, 1, 1, 1, 1);                                      \
	}                                                                                                              \
	void symm(char s, char u, int m, int n, const T *al, const T *a, int lda, const T *b, int ldb, const T *be,   \
		  T *c, int ldc) {                                                                                       \
		p##symm_(&s, &u, &m, &n, al, a, &lda, b, &ldb, be, c, &ldc, 1, 1);                                       \
	}                                                                                                              \
	void syrk(char u, char t, int n, int k, const T *al, const T *a, int lda, const T *be, T *c, int ldc) {       \
		p##syrk_(&u, &t, &n, &k, al, a, &lda, be, c, &ldc, 1, 1);                                                \
	}                                                                                                              \
	void syr2k(char u, char t, int n, int k, const T *al, const T *a, int lda, const T *b, int ldb, const T *be,  \
		   T *c, int ldc) {                                                                                      \
		p##syr2k_(&u, &t, &n, &k, al, a, &lda, b, &ldb, be, c, &ldc, 1, 1);                                      \
	}
OVERLOADS(s, float)
OVERLOADS(d, double)
OVERLOADS(c, cf)
OVERLOADS(z, cd)
#define HERMITIAN(p, T, R)                                                                                              \
	void hemm(char s, char u, int m, int n, const T *al, const T *a, int lda, const T *b, int ldb, const T *be,   \
		  T *c, int ldc) {                                                                                       \
		p##hemm_(&s, &u, &m, &n, al, a, &lda, b, &ldb, be, c, &ldc, 1, 1);                                       \
	}                                                                                                              \
	void herk(char u, char t, int n, int k, const R *al, const T *a, int lda, const R *be, T *c, int ldc) {       \
		p##herk_(&u, &t, &n, &k, al, a, &lda, be, c, &ldc, 1, 1);                                                \
	}                                                                                                              \
	void her2k(char u, char t, int n, int k, const T *al, const T *a, int lda, const T *b, int ldb, const R *be,  \
		   T *c, int ldc) {                                                                                      \
		p##her2k_(&u, &t, &n, &k, al, a, &lda, b, &ldb, be, c, &ldc, 1, 1);                                      \
	}
HERMITIAN(c, cf, float)
HERMITIAN(z, cd, double)

template <class T>
rocblas_status gemmSB(rocblas_handle h, int ta, int tb, int m, int n, int k, const T *al, const T *a, int lda,
		      rocblas_stride sa, const T *b, int ldb, rocblas_stride sb, const T *be, T *c, int ldc,
		      rocblas_stride sc, int batch) {
	if (!h) return rocblas_status_invalid_handle;
	if (m < 0 || n < 0 || k < 0 || batch < 0) return rocblas_status_invalid_size;
	for (int i = 0; i < batch; i++)
		gemm(opChar(ta), opChar(tb), m, n, k, al, a + i * sa, lda, b + i * sb, ldb, be, c + i * sc, ldc);
	return rocblas_status_success;
}

template <class T>
rocblas_status gemvSB(rocblas_handle h, int t, int m, int n, const T *al, const T *a, int lda, rocblas_stride sa,
		      const T *x, int incx, rocblas_stride sx, const T *be, T *y, int incy, rocblas_stride sy, int batch) {
	if (!h) return rocblas_status_invalid_handle;
	if (m < 0 || n < 0 || batch < 0) return rocblas_status_invalid_size;
	for (int i = 0; i < batch; i++) gemv(opChar(t), m, n, al, a + i * sa, lda, x + i * sx, incx, be, y + i * sy, incy);
	return rocblas_status_success;
}

template <class T>
rocblas_status trsmSB(rocblas_handle h, int side, int uplo, int t, int diag, int m, int n, const T *al, const T *a,
		      int lda, rocblas_stride sa, T *b, int ldb, rocblas_stride sb, int batch) {
	if (!h) return rocblas_status_invalid_handle;
	if (m < 0 || n < 0 || batch < 0) return rocblas_status_invalid_size;
	for (int i = 0; i < batch; i++)
		trsm(sideChar(side), fillChar(uplo), opChar(t), diagChar(diag), m, n, al, a + i * sa, lda, b + i * sb, ldb);
	return rocblas_status_success;
}

// trmmSB is rocBLAS 4's trmm: C := alpha op(A) B (or alpha B op(A)), in place when C is B.
template <class T>
rocblas_status trmmSB(rocblas_handle h, int side, int uplo, int t, int diag, int m, int n, const T *al, const T *a,
		      int lda, rocblas_stride sa, const T *b, int ldb, rocblas_stride sb, T *c, int ldc, rocblas_stride sc,
		      int batch) {
	if (!h) return rocblas_status_invalid_handle;
	if (m < 0 || n < 0 || batch < 0) return rocblas_status_invalid_size;
	for (int i = 0; i < batch; i++) {
		T *ci = c + i * sc;
		const T *bi = b + i * sb;
		if (ci != bi)
			for (int j = 0; j < n; j++)
				for (int r = 0; r < m; r++) ci[r + j * ldc] = bi[r + j * ldb];
		trmm(sideChar(side), fillChar(uplo), opChar(t), diagChar(diag), m, n, al, a + i * sa, lda, ci, ldc);
	}
	return rocblas_status_success;
}

// symmSB is symm, or hemm when herm: C := alpha A B + beta C (or alpha B A + beta C).
template <bool herm, class T>
rocblas_status symmSB(rocblas_handle h, int side, int uplo, int m, int n, const T *al, const T *a, int lda,
		      rocblas_stride sa, const T *b, int ldb, rocblas_stride sb, const T *be, T *c, int ldc,
		      rocblas_stride sc, int batch) {
	if (!h) return rocblas_status_invalid_handle;
	if (m < 0 || n < 0 || batch < 0) return rocblas_status_invalid_size;
	for (int i = 0; i < batch; i++) {
		if constexpr (herm)
			hemm(sideChar(side), fillChar(uplo), m, n, al, a + i * sa, lda, b + i * sb, ldb, be, c + i * sc, ldc);
		else
			symm(sideChar(side), fillChar(uplo), m, n, al, a + i * sa, lda, b + i * sb, ldb, be, c + i * sc, ldc);
	}
	return rocblas_status_success;
}

// rankSB is syrk, herk, syr2k or her2k (two: B is read), with alpha of type S and beta of
// type R as rocBLAS declares them.
template <bool herm, bool two, class T, class S, class R>
rocblas_status rankSB(rocblas_handle h, int uplo, int t, int n, int k, const S *al, const T *a, int lda,
		      rocblas_stride sa, const T *b, int ldb, rocblas_stride sb, const R *be, T *c, int ldc,
		      rocblas_stride sc, int batch) {
	if (!h) return rocblas_status_invalid_handle;
	if (n < 0 || k < 0 || batch < 0) return rocblas_status_invalid_size;
	for (int i = 0; i < batch; i++) {
		const T *ai = a + i * sa;
		T *ci = c + i * sc;
		if constexpr (herm && two)
			her2k(fillChar(uplo), opChar(t), n, k, al, ai, lda, b + i * sb, ldb, be, ci, ldc);
		else if constexpr (herm)
			herk(fillChar(uplo), opChar(t), n, k, al, ai, lda, be, ci, ldc);
		else if constexpr (two)
			syr2k(fillChar(uplo), opChar(t), n, k, al, ai, lda, b + i * sb, ldb, be, ci, ldc);
		else
			syrk(fillChar(uplo), opChar(t), n, k, al, ai, lda, be, ci, ldc);
	}
	return rocblas_status_success;
}
} // namespace

extern "C" {
rocblas_status rocblas_create_handle(rocblas_handle *h) { *h = new Handle{nullptr}; return 0; }
rocblas_status rocblas_destroy_handle(rocblas_handle h) { delete static_cast<Handle *>(h); return 0; }
rocblas_status rocblas_set_stream(rocblas_handle h, hipStream_t s) {
	if (!h) return rocblas_status_invalid_handle;
	static_cast<Handle *>(h)->stream = s;
	return 0;
}
#define ENTRIES(p, T)                                                                                                   \
	rocblas_status rocblas_##p##copy_strided_batched(rocblas_handle h, int n, const T *x, int incx,                 \
							 rocblas_stride sx, T *y, int incy, rocblas_stride sy,           \
							 int batch) {                                                    \
		if (!h) return rocblas_status_invalid_handle;                                                            \
		if (n < 0 || batch < 0) return rocblas_status_invalid_size;                                              \
		for (int b = 0; b < batch; b++)                                                                          \
			for (int i = 0; i < n; i++) y[b * sy + i * incy] = x[b * sx + i * incx];                         \
		return rocblas_status_success;                                                                           \
	}                                                                                                              \
	rocblas_status rocblas_##p##gemm_strided_batched(rocblas_handle h, int ta, int tb, int m, int n, int k,         \
							 const T *al, const T *a, int lda, rocblas_stride sa, const T *b, \
							 int ldb, rocblas_stride sb, const T *be, T *c, int ldc,         \
							 rocblas_stride sc, int batch) {                                 \
		return gemmSB(h, ta, tb, m, n, k, al, a, lda, sa, b, ldb, sb, be, c, ldc, sc, batch);                    \
	}                                                                                                              \
	rocblas_status rocblas_##p##gemv_strided_batched(rocblas_handle h, int t, int m, int n, const T *al,            \
							 const T *a, int lda, rocblas_stride sa, const T *x, int incx,   \
							 rocblas_stride sx, const T *be, T *y, int incy,                 \
							 rocblas_stride sy, int batch) {                                 \
		return gemvSB(h, t, m, n, al, a, lda, sa, x, incx, sx, be, y, incy, sy, batch);                          \
	}                                                                                                              \
	rocblas_status rocblas_##p##trsm_strided_batched(rocblas_handle h, int side, int uplo, int t, int diag, int m,  \
							 int n, const T *al, const T *a, int lda, rocblas_stride sa,     \
							 T *b, int ldb, rocblas_stride sb, int batch) {                  \
		return trsmSB(h, side, uplo, t, diag, m, n, al, a, lda, sa, b, ldb, sb, batch);                          \
	}
ENTRIES(s, float)
ENTRIES(d, double)
ENTRIES(c, cf)
ENTRIES(z, cd)
#define LEVEL3(p, T)                                                                                                    \
	rocblas_status rocblas_##p##trmm_strided_batched(rocblas_handle h, int side, int uplo, int t, int diag, int m,  \
							 int n, const T *al, const T *a, int lda, rocblas_stride sa,     \
							 const T *b, int ldb, rocblas_stride sb, T *c, int ldc,          \
							 rocblas_stride sc, int batch) {                                 \
		return trmmSB(h, side, uplo, t, diag, m, n, al, a, lda, sa, b, ldb, sb, c, ldc, sc, batch);              \
	}                                                                                                              \
	rocblas_status rocblas_##p##symm_strided_batched(rocblas_handle h, int side, int uplo, int m, int n,            \
							 const T *al, const T *a, int lda, rocblas_stride sa, const T *b, \
							 int ldb, rocblas_stride sb, const T *be, T *c, int ldc,         \
							 rocblas_stride sc, int batch) {                                 \
		return symmSB<false>(h, side, uplo, m, n, al, a, lda, sa, b, ldb, sb, be, c, ldc, sc, batch);            \
	}                                                                                                              \
	rocblas_status rocblas_##p##syrk_strided_batched(rocblas_handle h, int uplo, int t, int n, int k, const T *al,  \
							 const T *a, int lda, rocblas_stride sa, const T *be, T *c,      \
							 int ldc, rocblas_stride sc, int batch) {                        \
		return rankSB<false, false>(h, uplo, t, n, k, al, a, lda, sa, (const T *)nullptr, 0, 0, be, c, ldc, sc,  \
					    batch);                                                                      \
	}                                                                                                              \
	rocblas_status rocblas_##p##syr2k_strided_batched(rocblas_handle h, int uplo, int t, int n, int k,              \
							  const T *al, const T *a, int lda, rocblas_stride sa,           \
							  const T *b, int ldb, rocblas_stride sb, const T *be, T *c,     \
							  int ldc, rocblas_stride sc, int batch) {                       \
		return rankSB<false, true>(h, uplo, t, n, k, al, a, lda, sa, b, ldb, sb, be, c, ldc, sc, batch);         \
	}
LEVEL3(s, float)
LEVEL3(d, double)
LEVEL3(c, cf)
LEVEL3(z, cd)
#define HERMITIAN3(p, T, R)                                                                                             \
	rocblas_status rocblas_##p##hemm_strided_batched(rocblas_handle h, int side, int uplo, int m, int n,            \
							 const T *al, const T *a, int lda, rocblas_stride sa, const T *b, \
							 int ldb, rocblas_stride sb, const T *be, T *c, int ldc,         \
							 rocblas_stride sc, int batch) {                                 \
		return symmSB<true>(h, side, uplo, m, n, al, a, lda, sa, b, ldb, sb, be, c, ldc, sc, batch);             \
	}                                                                                                              \
	rocblas_status rocblas_##p##herk_strided_batched(rocblas_handle h, int uplo, int t, int n, int k, const R *al,  \
							 const T *a, int lda, rocblas_stride sa, const R *be, T *c,      \
							 int ldc, rocblas_stride sc, int batch) {                        \
		return rankSB<true, false>(h, uplo, t, n, k, al, a, lda, sa, (const T *)nullptr, 0, 0, be, c, ldc, sc,   \
					   batch);                                                                       \
	}                                                                                                              \
	rocblas_status rocblas_##p##her2k_strided_batched(rocblas_handle h, int uplo, int t, int n, int k,              \
							  const T *al, const T *a, int lda, rocblas_stride sa,           \
							  const T *b, int ldb, rocblas_stride sb, const R *be, T *c,     \
							  int ldc, rocblas_stride sc, int batch) {                       \
		return rankSB<true, true>(h, uplo, t, n, k, al, a, lda, sa, b, ldb, sb, be, c, ldc, sc, batch);          \
	}
HERMITIAN3(c, cf, float)
HERMITIAN3(z, cd, double)
}
