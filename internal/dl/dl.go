// Package dl opens shared libraries at run time (purego: no cgo) and resolves their functions
// into Procs, each once. A Proc's status call turns a nonzero C status into an *Error that
// names the library, the call and the status' name. It has no build tag: the CUDA driver and
// libraries (internal/cu) and the system LAPACK of the host tag open through it alike.
package dl

import (
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Error reports a failed driver or library call.
type Error struct {
	Library string // e.g. "cuda", "cublas", "cusolver"
	Call    string // the function that failed
	Status  int    // its status code
	Name    string // the status' name, e.g. "CUDA_ERROR_OUT_OF_MEMORY"
}

func (e *Error) Error() string {
	if e == nil {
		return "batchlas: <nil DeviceError>"
	}
	return fmt.Sprintf("batchlas: %s: %s failed: %s (%d)", e.Library, e.Call, e.Name, e.Status)
}

// Lib is a shared library opened at run time.
type Lib struct {
	name   string // used in errors, e.g. "cuda" or "cublas"
	handle uintptr
	// StatusName names a status for errors; nil gives "status N". Set it once, before the
	// library's first failing call.
	StatusName func(status int32) string
	procs      sync.Map // name -> *Proc, for Sym's names built at run time
}

// Open opens the first of names that loads, trying each bare name (the loader's search) and
// then each name in every folder of dirs. The error's first line is "batchlas: " and missing,
// which says what is absent and what to do; the loader's answer for every path tried
// follows, one a line.
func Open(lib, missing string, dirs []string, names ...string) (*Lib, error) {
	var tried []string
	for _, n := range names {
		paths := []string{n}
		for _, d := range dirs {
			paths = append(paths, d+"/"+n)
		}
		for _, p := range paths {
			h, err := purego.Dlopen(p, purego.RTLD_NOW|purego.RTLD_GLOBAL)
			if err == nil {
				return &Lib{name: lib, handle: h}, nil
			}
			tried = append(tried, fmt.Sprintf("%s: %v", p, err))
		}
	}
	return nil, fmt.Errorf("batchlas: %s\ntried %d paths:\n\t%s", missing, len(tried), strings.Join(tried, "\n\t"))
}

// Name is the library's name in errors.
func (l *Lib) Name() string { return l.name }

// Proc is one function of a library, resolved.
type Proc struct {
	lib  *Lib
	name string
	addr uintptr
	err  error // set for an optional function the library lacks (see Resolve); addr is 0
}

// Procs is one routine in the four scalar types, indexed 0..3 for s, d, c and z (float32,
// float64, complex64, complex128).
type Procs [4]*Proc

// Proc resolves the function name.
func (l *Lib) Proc(name string) (*Proc, error) {
	p, err := purego.Dlsym(l.handle, name)
	if err != nil || p == 0 {
		return nil, fmt.Errorf("batchlas: %s: symbol %s not found: %v", l.name, name, err)
	}
	return &Proc{lib: l, name: name, addr: p}, nil
}

// Resolve fills every *Proc and Procs field of the struct that table points to with the
// functions that the field's `sym` tag names: a set of bindings resolved once, when the
// library opens. A Procs tag names its four functions at once: {T} stands for S, D, C and Z
// in turn, {t} for s, d, c and z, and {real|complex} for real in the s and d names and complex in the c and z ones,
// e.g. "cusolverDn{T}{orgqr|ungqr}". A missing symbol is an error, unless the field is also
// tagged `optional:"true"` (a function that older versions of the library lack): then the
// field gets a Proc whose Err and Status return the lookup's error.
func (l *Lib) Resolve(table any) error {
	return resolve(l, table)
}

// Sym is the function name, resolved on its first use and kept (a lock-free read after
// that): for functions whose names are built at run time, e.g. from a scalar type's letter.
func (l *Lib) Sym(name string) (*Proc, error) {
	if p, ok := l.procs.Load(name); ok {
		return p.(*Proc), nil
	}
	p, err := l.Proc(name)
	if err != nil {
		return nil, err
	}
	q, _ := l.procs.LoadOrStore(name, p)
	return q.(*Proc), nil
}

// CallAddr calls the function at addr, which a Proc gave, and returns its first result
// register: for callers that keep bare addresses (the Fortran routines of the host tag).
//
//go:uintptrescapes
func CallAddr(addr uintptr, args ...uintptr) uintptr {
	r, _, _ := purego.SyscallN(addr, args...)
	return r
}

// Name is the function's name.
func (p *Proc) Name() string { return p.name }

// Addr is the function's address; 0 for a missing optional function.
func (p *Proc) Addr() uintptr { return p.addr }

// Err is nil for a resolved function, and for a missing optional one the error that says
// which library lacks which symbol.
func (p *Proc) Err() error { return p.err }

// Call calls the function and returns its first result register. A missing optional
// function has no result to give: Call panics with its Err (calling address 0 would
// crash the process instead); check Err first, or use Status.
//
//go:uintptrescapes
func (p *Proc) Call(args ...uintptr) uintptr {
	if p.err != nil {
		panic(p.err)
	}
	r, _, _ := purego.SyscallN(p.addr, args...)
	return r
}

// Status calls a function that returns a C int status and turns a nonzero one into an
// *Error. For a missing optional function it calls nothing and returns Err.
//
//go:uintptrescapes
func (p *Proc) Status(args ...uintptr) error {
	if p.err != nil {
		return p.err
	}
	r, _, _ := purego.SyscallN(p.addr, args...)
	if st := int32(r); st != 0 {
		return p.lib.Err(p.name, st)
	}
	return nil
}

// Err is the *Error of call's status st.
func (l *Lib) Err(call string, st int32) error {
	n := fmt.Sprintf("status %d", st)
	if l.StatusName != nil {
		n = l.StatusName(st)
	}
	return &Error{Library: l.name, Call: call, Status: int(st), Name: n}
}

// GoString copies a NUL-terminated C string.
func GoString(p uintptr) string {
	if p == 0 {
		return ""
	}
	base := *(*unsafe.Pointer)(unsafe.Pointer(&p))
	var b []byte
	for i := 0; ; i++ {
		c := *(*byte)(unsafe.Add(base, i))
		if c == 0 {
			return string(b)
		}
		b = append(b, c)
	}
}
