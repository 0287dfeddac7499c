// The stand-in for librocblas: the handle functions and the strided-batched gemm, gemv and
// trsm that internal/hip resolves, each a loop of the system BLAS over the batch. Arguments
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
	}
OVERLOADS(s, float)
OVERLOADS(d, double)
OVERLOADS(c, cf)
OVERLOADS(z, cd)

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
}
