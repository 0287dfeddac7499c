//go:build host && !novendor

package batchlas

import (
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/batchlas/batchlas/internal/dl"
)

// The host's vendor family calls the system LAPACK and BLAS (OpenBLAS or the reference
// libraries) through their Fortran entry points, which take every argument by reference and
// read column-major data as it is: no copies, no LAPACKE transposes. The library is opened on
// first use; when none is found the vendor family cannot run and the reason is kept for
// traces and errors. Install on Debian: apt-get install libopenblas0-pthread liblapack3.

// lapackNames are the libraries tried, in order, each by the loader's search and then in
// lapackDirs.
var (
	lapackNames = []string{"libopenblas.so.0", "libopenblas.so", "liblapack.so.3", "liblapack.so"}
	lapackDirs  = []string{"/usr/lib/x86_64-linux-gnu", "/usr/lib64"}
)

var syslapack struct {
	once sync.Once
	lib  *dl.Lib
	err  error
}

// lapackOpen opens the first library that answers. OpenBLAS carries LAPACK and BLAS in one
// library; a reference liblapack pulls in its libblas. OpenBLAS's own threads are turned off:
// the host backend is already parallel over the batch.
func lapackOpen() error {
	syslapack.once.Do(func() {
		syslapack.lib, syslapack.err = dl.Open("lapack", "no system LAPACK found", lapackDirs, lapackNames...)
		if syslapack.err != nil {
			syslapack.err = fmt.Errorf("batchlas: no system LAPACK found (tried %s); install libopenblas0 or liblapack3", strings.Join(lapackNames, ", "))
			return
		}
		if threads, err := syslapack.lib.Sym("openblas_set_num_threads"); err == nil {
			threads.Call(1)
		}
	})
	return syslapack.err
}

// lapackReady reports whether the host vendor family can run on q.
func lapackReady(q *Queue) bool { return q.isHost() && lapackOpen() == nil }

// lapackSym resolves the Fortran routine of T's precision, e.g. "potrf" -> dpotrf_.
func lapackSym[T Scalar](name string) (uintptr, error) {
	if err := lapackOpen(); err != nil {
		return 0, err
	}
	sym := lapackLetter[T]() + name + "_"
	p, err := syslapack.lib.Sym(sym)
	if err != nil {
		return 0, fmt.Errorf("batchlas: system LAPACK has no %s", sym)
	}
	return p.Addr(), nil
}

// lapackName is the routine's name for T: real for the real types, cplx for the complex ones
// (e.g. "syev" and "heev").
func lapackName[T Scalar](real, cplx string) string {
	if isComplex[T]() {
		return cplx
	}
	return real
}

// lapackPart is the host vendor part of an op that calls the routine name in T's precision:
// it can run on a host queue whose system library has that routine, and launch gets the
// routine's address.
func lapackPart[T Scalar, C any](name string, launch func(fn uintptr, c *C) error) family[C] {
	return lapackParts[T]([]string{name}, func(fns []uintptr, c *C) error { return launch(fns[0], c) })
}

// lapackParts is lapackPart for an op that calls several routines; launch gets their
// addresses in the order of names.
func lapackParts[T Scalar, C any](names []string, launch func(fns []uintptr, c *C) error) family[C] {
	resolve := func() ([]uintptr, error) {
		fns := make([]uintptr, len(names))
		for i, name := range names {
			fn, err := lapackSym[T](name)
			if err != nil {
				return nil, err
			}
			fns[i] = fn
		}
		return fns, nil
	}
	return family[C]{
		backend: Host,
		canRun: func(q *Queue, _ *C) bool {
			if !lapackReady(q) {
				return false
			}
			_, err := resolve()
			return err == nil
		},
		launch: func(_ *Queue, c *C) error {
			fns, err := resolve()
			if err != nil {
				return err
			}
			return launch(fns, c)
		},
		why: func(q *Queue) string {
			if !q.isHost() {
				return ""
			}
			if err := lapackOpen(); err != nil {
				return unprefixed(err.Error())
			}
			if _, err := resolve(); err != nil {
				return unprefixed(err.Error())
			}
			return ""
		},
	}
}

// fortranCall calls a Fortran subroutine. Every argument is a pointer; character arguments
// are followed, after the others, by their hidden lengths, as gfortran's ABI wants.
func fortranCall(fn uintptr, chars int, args ...unsafe.Pointer) {
	var a [32]uintptr
	n := 0
	for _, p := range args {
		a[n] = uintptr(p)
		n++
	}
	for range chars {
		a[n] = 1
		n++
	}
	dl.CallAddr(fn, a[:n]...)
	for _, p := range args {
		keepAlive(p)
	}
}

//go:noinline
func keepAlive(unsafe.Pointer) {}

// fval is a Fortran argument of any type, passed by reference.
func fval[E any](v E) unsafe.Pointer { p := new(E); *p = v; return unsafe.Pointer(p) }

// fchar is a Fortran CHARACTER*1 argument.
func fchar[E ~byte](c E) unsafe.Pointer { return fval(byte(c)) }

// fint is a Fortran INTEGER argument (LP64: 32 bits).
func fint(v int) unsafe.Pointer { return fval(int32(v)) }

// freal is a real scalar argument in T's real precision: float32 for float32 and complex64.
func freal[T Scalar](v float64) unsafe.Pointer {
	if isSingle[T]() {
		return fval(float32(v))
	}
	return fval(v)
}

// ftrans is a transposition argument. BLAS reads ConjTrans as Trans for real types, but some
// LAPACK routines (?ormqr) refuse it, so it is passed as Trans.
func ftrans[T Scalar](t Transpose) unsafe.Pointer {
	if t == ConjTrans && !isComplex[T]() {
		t = Trans
	}
	return fchar(t)
}

// lapackBatch runs one LAPACK call per matrix over the batch, in parallel; each call gets a
// fresh info and its result lands in info[b] (info may be nil for routines without one).
func lapackBatch(batch int, info []int32, call func(b int, info unsafe.Pointer)) {
	lapackEach(batch, info, func() func(int, unsafe.Pointer) { return call })
}

// lapackEach is lapackBatch with per-goroutine state: each goroutine calls start once (to
// allocate its workspace) and then the call it returns for every matrix of its share.
func lapackEach(batch int, info []int32, start func() func(b int, info unsafe.Pointer)) {
	hostBatch(batch, func(lo, hi int) {
		call := start()
		inf := new(int32)
		for b := lo; b < hi; b++ {
			*inf = 0
			call(b, unsafe.Pointer(inf))
			if info != nil {
				info[b] = *inf
			}
		}
	})
}

// elemPtr is the address of the first element of s, or of a dummy when s is empty (Fortran
// never reads it then, but the argument must be a valid pointer).
func elemPtr[E any](s []E) unsafe.Pointer {
	if len(s) == 0 {
		return unsafe.Pointer(new(E))
	}
	return unsafe.Pointer(&s[0])
}

// lapackWork asks a routine for its optimal workspace in elements of T: query calls it with
// lwork = -1 and work pointing to one element, where the routine leaves the size.
func lapackWork[T Scalar](query func(work, lwork unsafe.Pointer)) int {
	w := new(T)
	query(unsafe.Pointer(w), fint(-1))
	var size float64
	switch v := any(*w).(type) {
	case float32:
		size = float64(v)
	case float64:
		size = v
	case complex64:
		size = float64(real(v))
	case complex128:
		size = real(v)
	}
	return max(1, int(size))
}

// lapackWorkEach runs a routine that takes a workspace of T on every matrix, each goroutine
// with its own workspace of the size the routine asks for. call(b, work, lwork, info) calls
// the routine for matrix b; it is first called for matrix 0 with lwork = -1, the workspace
// query, in which the routine writes nothing but the size.
func lapackWorkEach[T Scalar](batch int, info []int32, call func(b int, work, lwork, info unsafe.Pointer)) {
	if batch == 0 {
		return
	}
	lwork := lapackWork[T](func(work, lw unsafe.Pointer) { call(0, work, lw, fint(0)) })
	lw := fint(lwork)
	lapackEach(batch, info, func() func(int, unsafe.Pointer) {
		work := make([]T, lwork)
		return func(b int, inf unsafe.Pointer) { call(b, elemPtr(work), lw, inf) }
	})
}
