// The stand-in's shared declarations: the types of HIP, rocBLAS and rocSOLVER as the Go
// bindings (internal/hip) pass them, and the Fortran BLAS/LAPACK routines of the system that
// do the work on the CPU. "Device" memory is host memory; a stream runs each call at once.
#pragma once
#include <dlfcn.h>
#include <complex>
#include <cstddef>
#include <cstdint>

typedef int hipError_t;
typedef void *hipStream_t;
typedef void *hipEvent_t;
typedef int rocblas_status;
typedef int rocblas_int;
typedef int64_t rocblas_stride;
typedef void *rocblas_handle;

enum { rocblas_status_success = 0, rocblas_status_invalid_handle = 1, rocblas_status_invalid_size = 4 };
enum { rocblas_operation_none = 111, rocblas_operation_transpose = 112, rocblas_operation_conjugate_transpose = 113 };
enum { rocblas_fill_upper = 121, rocblas_fill_lower = 122 };
enum { rocblas_diagonal_non_unit = 131, rocblas_diagonal_unit = 132 };
enum { rocblas_side_left = 141, rocblas_side_right = 142 };
enum { rocblas_evect_original = 211, rocblas_evect_none = 213 };
enum { rocblas_svect_all = 191, rocblas_svect_singular = 192, rocblas_svect_none = 194 };

typedef std::complex<float> cf;
typedef std::complex<double> cd;

// Fortran character arguments, and their hidden lengths (gfortran's size_t after the others).
inline char opChar(int op) { return op == rocblas_operation_none ? 'N' : op == rocblas_operation_transpose ? 'T' : 'C'; }
inline char fillChar(int f) { return f == rocblas_fill_upper ? 'U' : 'L'; }
inline char sideChar(int s) { return s == rocblas_side_right ? 'R' : 'L'; }
inline char diagChar(int d) { return d == rocblas_diagonal_unit ? 'U' : 'N'; }
inline char svectChar(int v) { return v == rocblas_svect_all ? 'A' : v == rocblas_svect_singular ? 'S' : 'N'; }

#define FL size_t
extern "C" {
#define BLAS3(p, T)                                                                                              \
	void p##gemm_(const char *, const char *, const int *, const int *, const int *, const T *, const T *,      \
		      const int *, const T *, const int *, const T *, T *, const int *, FL, FL);                        \
	void p##gemv_(const char *, const int *, const int *, const T *, const T *, const int *, const T *,         \
		      const int *, const T *, T *, const int *, FL);                                                    \
	void p##trsm_(const char *, const char *, const char *, const char *, const int *, const int *, const T *, \
		      const T *, const int *, T *, const int *, FL, FL, FL, FL);                                        \
	void p##potrf_(const char *, const int *, T *, const int *, int *, FL);                                     \
	void p##getrf_(const int *, const int *, T *, const int *, int *, int *);                                   \
	void p##getrs_(const char *, const int *, const int *, const T *, const int *, const int *, T *,            \
		       const int *, int *, FL);                                                                         \
	void p##getri_(const int *, T *, const int *, const int *, T *, const int *, int *);                        \
	void p##geqrf_(const int *, const int *, T *, const int *, T *, T *, const int *, int *);              \
	void p##trmm_(const char *, const char *, const char *, const char *, const int *, const int *, const T *, \
		      const T *, const int *, T *, const int *, FL, FL, FL, FL);                                        \
	void p##symm_(const char *, const char *, const int *, const int *, const T *, const T *, const int *,      \
		      const T *, const int *, const T *, T *, const int *, FL, FL);                                     \
	void p##syrk_(const char *, const char *, const int *, const int *, const T *, const T *, const int *,      \
		      const T *, T *, const int *, FL, FL);                                                             \
	void p##syr2k_(const char *, const char *, const int *, const int *, const T *, const T *, const int *,     \
		       const T *, const int *, const T *, T *, const int *, FL, FL);                                    \
	void p##potrs_(const char *, const int *, const int *, const T *, const int *, T *, const int *, int *, FL); \
	void p##gels_(const char *, const int *, const int *, const int *, T *, const int *, T *, const int *, T *,  \
		      const int *, int *, FL);
BLAS3(s, float)
BLAS3(d, double)
BLAS3(c, cf)
BLAS3(z, cd)
#define HERM(p, T, R)                                                                                            \
	void p##hemm_(const char *, const char *, const int *, const int *, const T *, const T *, const int *,      \
		      const T *, const int *, const T *, T *, const int *, FL, FL);                                     \
	void p##herk_(const char *, const char *, const int *, const int *, const R *, const T *, const int *,      \
		      const R *, T *, const int *, FL, FL);                                                             \
	void p##her2k_(const char *, const char *, const int *, const int *, const T *, const T *, const int *,     \
		       const T *, const int *, const R *, T *, const int *, FL, FL);
HERM(c, cf, float)
HERM(z, cd, double)
#define QR(p, T, g, m)                                                                                           \
	void p##g##_(const int *, const int *, const int *, T *, const int *, const T *, T *, const int *, int *);  \
	void p##m##_(const char *, const char *, const int *, const int *, const int *, const T *, const int *,     \
		     const T *, T *, const int *, T *, const int *, int *, FL, FL);
QR(s, float, orgqr, ormqr)
QR(d, double, orgqr, ormqr)
QR(c, cf, ungqr, unmqr)
QR(z, cd, ungqr, unmqr)
void ssyev_(const char *, const char *, const int *, float *, const int *, float *, float *, const int *, int *, FL, FL);
void dsyev_(const char *, const char *, const int *, double *, const int *, double *, double *, const int *, int *, FL, FL);
void cheev_(const char *, const char *, const int *, cf *, const int *, float *, cf *, const int *, float *, int *, FL, FL);
void zheev_(const char *, const char *, const int *, cd *, const int *, double *, cd *, const int *, double *, int *, FL, FL);
void sgesvd_(const char *, const char *, const int *, const int *, float *, const int *, float *, float *, const int *,
	     float *, const int *, float *, const int *, int *, FL, FL);
void dgesvd_(const char *, const char *, const int *, const int *, double *, const int *, double *, double *, const int *,
	     double *, const int *, double *, const int *, int *, FL, FL);
void cgesvd_(const char *, const char *, const int *, const int *, cf *, const int *, float *, cf *, const int *, cf *,
	     const int *, cf *, const int *, float *, int *, FL, FL);
void zgesvd_(const char *, const char *, const int *, const int *, cd *, const int *, double *, cd *, const int *, cd *,
	     const int *, cd *, const int *, double *, int *, FL, FL);
}

// The stream a handle is bound to (hip.cc runs everything at once, so it is only kept).
struct Handle {
	hipStream_t stream;
};

// oneBLASThread runs when a stand-in library is loaded: with OpenBLAS as the system BLAS it
// sets one thread, so that a call gives the same bits every time, as a GPU library does for
// the same calls in the same order. A threaded BLAS may split a call's work differently from
// run to run, and the suite compares results bit for bit (Getrf's factors against Gesv's,
// one call alone against two at once); once, in a whole-suite run, Gesv's factors differed
// from Getrf's in the last bit. Other BLAS libraries lack the symbol and are left as they are.
__attribute__((constructor)) static void oneBLASThread() {
	if (auto set = reinterpret_cast<void (*)(int)>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) set(1);
}
