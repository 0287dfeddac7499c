// The stand-in for librocsolver: the strided-batched potrf, potrs, getrf, getrs, getri,
// geqrf, gels, syev/heev and gesvd, and the single-matrix orgqr/ungqr and ormqr/unmqr, that
// internal/hip resolves, each a loop of the system LAPACK over the
// batch with rocSOLVER's arguments (strides in elements, 1-based int32 pivots, an info per
// matrix where rocSOLVER has one, the caller's E array as the off-diagonal workspace).
#include <algorithm>
#include <vector>
#include "roc.h"

namespace {
template <class T> struct Real { typedef T type; };
template <class R> struct Real<std::complex<R>> { typedef R type; };

#define LU(p, T)                                                                                                        \
	void potrf(char u, int n, T *a, int lda, int *info) { p##potrf_(&u, &n, a, &lda, info, 1); }                   \
	void getrf(int m, int n, T *a, int lda, int *ipiv, int *info) { p##getrf_(&m, &n, a, &lda, ipiv, info); }      \
	void getrs(char t, int n, int nrhs, const T *a, int lda, const int *ipiv, T *b, int ldb) {                      \
		int info;                                                                                              \
		p##getrs_(&t, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info, 1);                                            \
	}                                                                                                              \
	void getri(int n, T *a, int lda, const int *ipiv, T *work, int lwork, int *info) {                            \
		p##getri_(&n, a, &lda, ipiv, work, &lwork, info);                                                      \
	}                                                                                                              \
	void geqrf(int m, int n, T *a, int lda, T *tau, T *work, int lwork) {                                          \
		int info;                                                                                              \
		p##geqrf_(&m, &n, a, &lda, tau, work, &lwork, &info);                                                  \
	}                                                                                                              \
	void gels(char t, int m, int n, int nrhs, T *a, int lda, T *b, int ldb, T *work, int lwork, int *info) {      \
		p##gels_(&t, &m, &n, &nrhs, a, &lda, b, &ldb, work, &lwork, info, 1);                                  \
	}                                                                                                              \
	void potrs(char u, int n, int nrhs, const T *a, int lda, T *b, int ldb) {                                      \
		int info;                                                                                              \
		p##potrs_(&u, &n, &nrhs, a, &lda, b, &ldb, &info, 1);                                                  \
	}
LU(s, float)
LU(d, double)
LU(c, cf)
LU(z, cd)
#define ORTH(p, T, g, m)                                                                                                \
	void orgqr(int m, int n, int k, T *a, int lda, const T *tau, T *work, int lwork) {                             \
		int info;                                                                                              \
		p##g##_(&m, &n, &k, a, &lda, tau, work, &lwork, &info);                                                \
	}                                                                                                              \
	void ormqr(char s, char t, int m, int n, int k, const T *a, int lda, const T *tau, T *c, int ldc, T *work,    \
		   int lwork) {                                                                                          \
		int info;                                                                                              \
		p##m##_(&s, &t, &m, &n, &k, a, &lda, tau, c, &ldc, work, &lwork, &info, 1, 1);                         \
	}
ORTH(s, float, orgqr, ormqr)
ORTH(d, double, orgqr, ormqr)
ORTH(c, cf, ungqr, unmqr)
ORTH(z, cd, ungqr, unmqr)

void syev(char j, char u, int n, float *a, int lda, float *w, float *work, int lwork, float *, int *info) {
	ssyev_(&j, &u, &n, a, &lda, w, work, &lwork, info, 1, 1);
}
void syev(char j, char u, int n, double *a, int lda, double *w, double *work, int lwork, double *, int *info) {
	dsyev_(&j, &u, &n, a, &lda, w, work, &lwork, info, 1, 1);
}
void syev(char j, char u, int n, cf *a, int lda, float *w, cf *work, int lwork, float *rw, int *info) {
	cheev_(&j, &u, &n, a, &lda, w, work, &lwork, rw, info, 1, 1);
}
void syev(char j, char u, int n, cd *a, int lda, double *w, cd *work, int lwork, double *rw, int *info) {
	zheev_(&j, &u, &n, a, &lda, w, work, &lwork, rw, info, 1, 1);
}
void gesvd(char ju, char jv, int m, int n, float *a, int lda, float *s, float *u, int ldu, float *v, int ldv,
	   float *work, int lwork, float *, int *info) {
	sgesvd_(&ju, &jv, &m, &n, a, &lda, s, u, &ldu, v, &ldv, work, &lwork, info, 1, 1);
}
void gesvd(char ju, char jv, int m, int n, double *a, int lda, double *s, double *u, int ldu, double *v, int ldv,
	   double *work, int lwork, double *, int *info) {
	dgesvd_(&ju, &jv, &m, &n, a, &lda, s, u, &ldu, v, &ldv, work, &lwork, info, 1, 1);
}
void gesvd(char ju, char jv, int m, int n, cf *a, int lda, float *s, cf *u, int ldu, cf *v, int ldv, cf *work,
	   int lwork, float *rw, int *info) {
	cgesvd_(&ju, &jv, &m, &n, a, &lda, s, u, &ldu, v, &ldv, work, &lwork, rw, info, 1, 1);
}
void gesvd(char ju, char jv, int m, int n, cd *a, int lda, double *s, cd *u, int ldu, cd *v, int ldv, cd *work,
	   int lwork, double *rw, int *info) {
	zgesvd_(&ju, &jv, &m, &n, a, &lda, s, u, &ldu, v, &ldv, work, &lwork, rw, info, 1, 1);
}

// lwork is the workspace a LAPACK query (lwork = -1) answers.
// Private is a host copy of one rows-by-cols matrix at leading dimension ld, with a page of
// slack after it, that a LAPACK routine works on instead of the "device" memory, copied back
// by back(). The system's OpenBLAS reads past the arrays it is given, by more than hip.cc's
// slack under cheev (a whole-suite run faulted at the guard page after a 4096-byte slack),
// so the routines that reach its complex gemv run on these.
template <class T> struct Private {
	T *dev;
	int rows, cols, ld;
	std::vector<T> buf;
	Private(T *d, int r, int c, int l)
	    : dev(d), rows(r), cols(c), ld(l), buf(size_t(l) * size_t(std::max(c, 1)) + 4096 / sizeof(T)) {
		for (int j = 0; d && j < c; j++) std::copy(d + size_t(j) * l, d + size_t(j) * l + r, buf.begin() + size_t(j) * l);
	}
	T *ptr() { return dev ? buf.data() : nullptr; }
	void back() {
		for (int j = 0; dev && j < cols; j++)
			std::copy(buf.begin() + size_t(j) * ld, buf.begin() + size_t(j) * ld + rows, dev + size_t(j) * ld);
	}
};

template <class T, class F> int lwork(F query) {
	T w{};
	query(&w);
	return std::max(1, int(std::real(w)));
}

template <class T>
rocblas_status potrfSB(rocblas_handle h, int uplo, int n, T *a, int lda, rocblas_stride sa, int *info, int batch) {
	if (!h) return rocblas_status_invalid_handle;
	for (int b = 0; b < batch; b++) potrf(fillChar(uplo), n, a + b * sa, lda, info + b);
	return 0;
}

template <class T>
rocblas_status potrsSB(rocblas_handle h, int uplo, int n, int nrhs, const T *a, int lda, rocblas_stride sa, T *bm,
		       int ldb, rocblas_stride sb, int batch) {
	if (!h) return rocblas_status_invalid_handle;
	for (int b = 0; b < batch; b++) potrs(fillChar(uplo), n, nrhs, a + b * sa, lda, bm + b * sb, ldb);
	return 0;
}

// gelsSB: rocSOLVER's info is the index of the first zero on R's (L's) diagonal, so an all-zero
// A_b reports 1, where LAPACK's xgels would return X = 0 and info 0.
template <class T>
rocblas_status gelsSB(rocblas_handle h, int t, int m, int n, int nrhs, T *a, int lda, rocblas_stride sa, T *bm,
		      int ldb, rocblas_stride sb, int *info, int batch) {
	if (!h) return rocblas_status_invalid_handle;
	char tc = opChar(t);
	int inf;
	int lw = lwork<T>([&](T *w) { gels(tc, m, n, nrhs, a, lda, bm, ldb, w, -1, &inf); });
	std::vector<T> work(lw);
	for (int b = 0; b < batch; b++) {
		T *ab = a + b * sa;
		bool zero = m > 0 && n > 0;
		for (int j = 0; j < n && zero; j++)
			for (int i = 0; i < m && zero; i++) zero = ab[i + j * lda] == T(0);
		if (zero) {
			info[b] = 1;
			continue;
		}
		gels(tc, m, n, nrhs, ab, lda, bm + b * sb, ldb, work.data(), lw, info + b);
	}
	return 0;
}

template <class T>
rocblas_status orgqrOne(rocblas_handle h, int m, int n, int k, T *a, int lda, const T *tau) {
	if (!h) return rocblas_status_invalid_handle;
	if (m < 0 || n < 0 || n > m || k < 0 || k > n || lda < std::max(1, m)) return rocblas_status_invalid_size;
	if (n == 0) return 0;
	int lw = lwork<T>([&](T *w) { orgqr(m, n, k, a, lda, tau, w, -1); });
	std::vector<T> work(lw);
	orgqr(m, n, k, a, lda, tau, work.data(), lw);
	return 0;
}

template <class T>
rocblas_status ormqrOne(rocblas_handle h, int side, int t, int m, int n, int k, const T *a, int lda, const T *tau,
			T *c, int ldc) {
	if (!h) return rocblas_status_invalid_handle;
	int nq = side == rocblas_side_left ? m : n;
	if (m < 0 || n < 0 || k < 0 || k > nq || lda < std::max(1, nq) || ldc < std::max(1, m))
		return rocblas_status_invalid_size;
	if (m == 0 || n == 0 || k == 0) return 0;
	char s = sideChar(side), tc = opChar(t);
	int lw = lwork<T>([&](T *w) { ormqr(s, tc, m, n, k, a, lda, tau, c, ldc, w, -1); });
	std::vector<T> work(lw);
	ormqr(s, tc, m, n, k, a, lda, tau, c, ldc, work.data(), lw);
	return 0;
}

template <class T>
rocblas_status getrfSB(rocblas_handle h, int m, int n, T *a, int lda, rocblas_stride sa, int *ipiv, rocblas_stride sp,
		       int *info, int batch) {
	if (!h) return rocblas_status_invalid_handle;
	for (int b = 0; b < batch; b++) getrf(m, n, a + b * sa, lda, ipiv + b * sp, info + b);
	return 0;
}

template <class T>
rocblas_status getrsSB(rocblas_handle h, int t, int n, int nrhs, T *a, int lda, rocblas_stride sa, const int *ipiv,
		       rocblas_stride sp, T *bm, int ldb, rocblas_stride sb, int batch) {
	if (!h) return rocblas_status_invalid_handle;
	for (int b = 0; b < batch; b++) getrs(opChar(t), n, nrhs, a + b * sa, lda, ipiv + b * sp, bm + b * sb, ldb);
	return 0;
}

template <class T>
rocblas_status getriSB(rocblas_handle h, int n, T *a, int lda, rocblas_stride sa, const int *ipiv, rocblas_stride sp,
		       int *info, int batch) {
	if (!h) return rocblas_status_invalid_handle;
	int inf;
	int lw = lwork<T>([&](T *w) { getri(n, a, lda, ipiv, w, -1, &inf); });
	std::vector<T> work(lw);
	for (int b = 0; b < batch; b++) getri(n, a + b * sa, lda, ipiv + b * sp, work.data(), lw, info + b);
	return 0;
}

template <class T>
rocblas_status geqrfSB(rocblas_handle h, int m, int n, T *a, int lda, rocblas_stride sa, T *tau, rocblas_stride st,
		       int batch) {
	if (!h) return rocblas_status_invalid_handle;
	int lw = lwork<T>([&](T *w) { geqrf(m, n, a, lda, tau, w, -1); });
	std::vector<T> work(lw);
	for (int b = 0; b < batch; b++) geqrf(m, n, a + b * sa, lda, tau + b * st, work.data(), lw);
	return 0;
}

template <class T, class R>
rocblas_status syevSB(rocblas_handle h, int evect, int uplo, int n, T *a, int lda, rocblas_stride sa, R *d,
		      rocblas_stride sd, R *, rocblas_stride, int *info, int batch) {
	if (!h) return rocblas_status_invalid_handle;
	char j = evect == rocblas_evect_original ? 'V' : 'N', u = fillChar(uplo);
	int inf;
	std::vector<R> rw(std::max(1, 3 * n - 2));
	int lw = lwork<T>([&](T *w) { syev(j, u, n, a, lda, d, w, -1, rw.data(), &inf); });
	std::vector<T> work(lw);
	for (int b = 0; b < batch; b++) {
		Private<T> pa(a + b * sa, n, n, lda);
		Private<R> pd(d + b * sd, n, 1, n);
		syev(j, u, n, pa.ptr(), lda, pd.ptr(), work.data(), lw, rw.data(), info + b);
		pa.back();
		pd.back();
	}
	return 0;
}

template <class T, class R>
rocblas_status gesvdSB(rocblas_handle h, int ls, int rs, int m, int n, T *a, int lda, rocblas_stride sa, R *s,
		       rocblas_stride ss, T *u, int ldu, rocblas_stride su, T *v, int ldv, rocblas_stride sv, R *,
		       rocblas_stride, int, int *info, int batch) {
	if (!h) return rocblas_status_invalid_handle;
	char ju = svectChar(ls), jv = svectChar(rs);
	int inf;
	std::vector<R> rw(std::max(1, 5 * std::min(m, n)));
	int lw = lwork<T>([&](T *w) { gesvd(ju, jv, m, n, a, lda, s, u, ldu, v, ldv, w, -1, rw.data(), &inf); });
	std::vector<T> work(lw);
	const int k = std::min(m, n), ucols = ju == 'A' ? m : ju == 'S' ? k : 0, vrows = jv == 'A' ? n : jv == 'S' ? k : 0;
	for (int b = 0; b < batch; b++) {
		Private<T> pa(a + b * sa, m, n, lda), pu(ucols ? u + b * su : nullptr, m, ucols, ldu),
		    pv(vrows ? v + b * sv : nullptr, vrows, n, ldv);
		Private<R> ps(s + b * ss, k, 1, k);
		gesvd(ju, jv, m, n, pa.ptr(), lda, ps.ptr(), pu.ptr() ? pu.ptr() : u, ldu, pv.ptr() ? pv.ptr() : v, ldv,
		      work.data(), lw, rw.data(), info + b);
		for (auto *x : {&pa, &pu, &pv}) x->back();
		ps.back();
	}
	return 0;
}
} // namespace

extern "C" {
#define ENTRIES(p, T, R, ev)                                                                                            \
	rocblas_status rocsolver_##p##potrf_strided_batched(rocblas_handle h, int uplo, int n, T *a, int lda,           \
							    rocblas_stride sa, int *info, int batch) {                  \
		return potrfSB(h, uplo, n, a, lda, sa, info, batch);                                                    \
	}                                                                                                              \
	rocblas_status rocsolver_##p##getrf_strided_batched(rocblas_handle h, int m, int n, T *a, int lda,              \
							    rocblas_stride sa, int *ipiv, rocblas_stride sp, int *info, \
							    int batch) {                                                \
		return getrfSB(h, m, n, a, lda, sa, ipiv, sp, info, batch);                                             \
	}                                                                                                              \
	rocblas_status rocsolver_##p##getrs_strided_batched(rocblas_handle h, int t, int n, int nrhs, T *a, int lda,    \
							    rocblas_stride sa, const int *ipiv, rocblas_stride sp,      \
							    T *b, int ldb, rocblas_stride sb, int batch) {              \
		return getrsSB(h, t, n, nrhs, a, lda, sa, ipiv, sp, b, ldb, sb, batch);                                 \
	}                                                                                                              \
	rocblas_status rocsolver_##p##getri_strided_batched(rocblas_handle h, int n, T *a, int lda, rocblas_stride sa,  \
							    const int *ipiv, rocblas_stride sp, int *info, int batch) { \
		return getriSB(h, n, a, lda, sa, ipiv, sp, info, batch);                                                \
	}                                                                                                              \
	rocblas_status rocsolver_##p##geqrf_strided_batched(rocblas_handle h, int m, int n, T *a, int lda,              \
							    rocblas_stride sa, T *tau, rocblas_stride st, int batch) {  \
		return geqrfSB(h, m, n, a, lda, sa, tau, st, batch);                                                    \
	}                                                                                                              \
	rocblas_status rocsolver_##ev##_strided_batched(rocblas_handle h, int evect, int uplo, int n, T *a, int lda,    \
							rocblas_stride sa, R *d, rocblas_stride sd, R *e,               \
							rocblas_stride se, int *info, int batch) {                      \
		return syevSB(h, evect, uplo, n, a, lda, sa, d, sd, e, se, info, batch);                                \
	}                                                                                                              \
	rocblas_status rocsolver_##p##gesvd_strided_batched(                                                           \
	    rocblas_handle h, int ls, int rs, int m, int n, T *a, int lda, rocblas_stride sa, R *s, rocblas_stride ss,  \
	    T *u, int ldu, rocblas_stride su, T *v, int ldv, rocblas_stride sv, R *e, rocblas_stride se, int fast,     \
	    int *info, int batch) {                                                                                    \
		return gesvdSB(h, ls, rs, m, n, a, lda, sa, s, ss, u, ldu, su, v, ldv, sv, e, se, fast, info, batch);   \
	}
#define ORTHO(p, T, g, m)                                                                                               \
	rocblas_status rocsolver_##p##potrs_strided_batched(rocblas_handle h, int uplo, int n, int nrhs, const T *a,    \
							    int lda, rocblas_stride sa, T *b, int ldb,                  \
							    rocblas_stride sb, int batch) {                             \
		return potrsSB(h, uplo, n, nrhs, a, lda, sa, b, ldb, sb, batch);                                        \
	}                                                                                                              \
	rocblas_status rocsolver_##p##gels_strided_batched(rocblas_handle h, int t, int m, int n, int nrhs, T *a,       \
							   int lda, rocblas_stride sa, T *b, int ldb, rocblas_stride sb, \
							   int *info, int batch) {                                      \
		return gelsSB(h, t, m, n, nrhs, a, lda, sa, b, ldb, sb, info, batch);                                   \
	}                                                                                                              \
	rocblas_status rocsolver_##p##g(rocblas_handle h, int m, int n, int k, T *a, int lda, const T *tau) {           \
		return orgqrOne(h, m, n, k, a, lda, tau);                                                               \
	}                                                                                                              \
	rocblas_status rocsolver_##p##m(rocblas_handle h, int side, int t, int m, int n, int k, const T *a, int lda,    \
					const T *tau, T *c, int ldc) {                                                  \
		return ormqrOne(h, side, t, m, n, k, a, lda, tau, c, ldc);                                              \
	}
ORTHO(s, float, orgqr, ormqr)
ORTHO(d, double, orgqr, ormqr)
ORTHO(c, cf, ungqr, unmqr)
ORTHO(z, cd, ungqr, unmqr)
ENTRIES(s, float, float, ssyev)
ENTRIES(d, double, double, dsyev)
ENTRIES(c, cf, float, cheev)
ENTRIES(z, cd, double, zheev)
}
