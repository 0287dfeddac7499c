//go:build host && !novendor

package batchlas

import (
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// The host's vendor family calls the system LAPACK and BLAS (OpenBLAS or the reference
// libraries) through their Fortran entry points, which take every argument by reference and
// read column-major data as it is: no copies, no LAPACKE transposes. The library is opened on
// first use; when none is found the vendor family cannot run and the reason is kept for
// traces and errors. Install on Debian: apt-get install libopenblas0-pthread liblapack3.

var lapackLibs = []string{
	"libopenblas.so.0", "libopenblas.so", "liblapack.so.3", "liblapack.so",
	"/usr/lib/x86_64-linux-gnu/libopenblas.so.0", "/usr/lib/x86_64-linux-gnu/liblapack.so.3",
	"/usr/lib64/libopenblas.so.0", "/usr/lib64/liblapack.so.3",
}

var syslapack struct {
	once    sync.Once
	handles []uintptr
	err     error
	mu      sync.Mutex
	syms    map[string]uintptr
}

// lapackOpen opens the first libraries that answer. OpenBLAS carries LAPACK and BLAS in one
// library; a reference liblapack pulls in its libblas. OpenBLAS's own threads are turned off:
// the host backend is already parallel over the batch.
func lapackOpen() error {
	syslapack.once.Do(func() {
		var tried []string
		for _, name := range lapackLibs {
			h, err := purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL)
			if err != nil {
				tried = append(tried, name)
				continue
			}
			syslapack.handles = append(syslapack.handles, h)
			if fn, err := purego.Dlsym(h, "openblas_set_num_threads"); err == nil && fn != 0 {
				purego.SyscallN(fn, 1)
			}
			break
		}
		if len(syslapack.handles) == 0 {
			syslapack.err = fmt.Errorf("batchlas: no system LAPACK found (tried %s); install libopenblas0 or liblapack3", strings.Join(tried, ", "))
		}
		syslapack.syms = map[string]uintptr{}
	})
	return syslapack.err
}

// lapackReady reports whether the host vendor family can run on q.
func lapackReady(q *Queue) bool { return q.isHost() && lapackOpen() == nil }

// lapackSym resolves the Fortran routine of T's precision, e.g. "potrf" -> dpotrf_.
func lapackSym[T Scalar](name string) (uintptr, error) {
	sym := string("sdcz"[dtypeIndex[T]()]) + name + "_"
	syslapack.mu.Lock()
	defer syslapack.mu.Unlock()
	if fn, ok := syslapack.syms[sym]; ok {
		return fn, nil
	}
	for _, h := range syslapack.handles {
		if fn, err := purego.Dlsym(h, sym); err == nil && fn != 0 {
			syslapack.syms[sym] = fn
			return fn, nil
		}
	}
	return 0, fmt.Errorf("batchlas: system LAPACK has no %s", sym)
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
	purego.SyscallN(fn, a[:n]...)
	for _, p := range args {
		keepAlive(p)
	}
}

//go:noinline
func keepAlive(unsafe.Pointer) {}

// fchar is a Fortran CHARACTER*1 argument.
func fchar(b byte) unsafe.Pointer { c := new(byte); *c = b; return unsafe.Pointer(c) }

// fint is a Fortran INTEGER argument (LP64: 32 bits).
func fint(v int) unsafe.Pointer { c := new(int32); *c = int32(v); return unsafe.Pointer(c) }

// lapackBatch runs one LAPACK call per matrix over the batch, in parallel; each call gets a
// fresh info and its result lands in info[b].
func lapackBatch(batch int, info []int32, call func(b int, info unsafe.Pointer)) {
	hostBatch(batch, func(lo, hi int) {
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

func potrfLAPACK[T Scalar]() family[potrfCall[T]] {
	return family[potrfCall[T]]{
		canRun: func(q *Queue, _ *potrfCall[T]) bool { return lapackReady(q) },
		launch: func(q *Queue, c *potrfCall[T]) error {
			fn, err := lapackSym[T]("potrf")
			if err != nil {
				return err
			}
			a := c.a
			uplo, n, lda := fchar(byte(c.uplo)), fint(a.rows), fint(a.ld)
			lapackBatch(a.batch, c.info.host(), func(b int, info unsafe.Pointer) {
				fortranCall(fn, 1, uplo, n, elemPtr(a.mat(b)), lda, info)
			})
			return nil
		},
	}
}
