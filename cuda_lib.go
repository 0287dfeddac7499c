//go:build cuda

package batchlas

import (
	"fmt"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// cudaLibDirs are the folders tried, after the loader's own search, for the CUDA libraries:
// the driver's usual homes and the toolkit's.
var cudaLibDirs = []string{
	"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/local/nvidia/lib64", "/usr/local/nvidia/lib",
	"/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib", "/usr/lib/wsl/lib",
}

// dynLib is a shared library opened at run time, with its symbols resolved on first use.
type dynLib struct {
	name   string // library name used in errors, e.g. "cuda" or "cublas"
	handle uintptr
	nameOf func(status int32) string // a status' name; nil: "status N"
	mu     sync.Mutex
	syms   map[string]uintptr
}

// openLib opens the first of names that loads, trying each bare name (the loader's search)
// and then each name in cudaLibDirs. The error's first line is "batchlas: " and missing, which
// says what is absent and what to do; the loader's answer for every path tried follows, one
// a line.
func openLib(lib, missing string, names ...string) (*dynLib, error) {
	var tried []string
	for _, n := range names {
		for _, p := range append([]string{n}, dirPaths(n)...) {
			h, err := purego.Dlopen(p, purego.RTLD_NOW|purego.RTLD_GLOBAL)
			if err == nil {
				return &dynLib{name: lib, handle: h, syms: map[string]uintptr{}}, nil
			}
			tried = append(tried, fmt.Sprintf("%s: %v", p, err))
		}
	}
	return nil, fmt.Errorf("batchlas: %s\ntried %d paths:\n\t%s", missing, len(tried), strings.Join(tried, "\n\t"))
}

func dirPaths(name string) []string {
	var ps []string
	for _, d := range cudaLibDirs {
		ps = append(ps, d+"/"+name)
	}
	return ps
}

// sym resolves a function.
func (l *dynLib) sym(name string) (uintptr, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if p, ok := l.syms[name]; ok {
		return p, nil
	}
	p, err := purego.Dlsym(l.handle, name)
	if err != nil {
		return 0, fmt.Errorf("batchlas: %s: symbol %s not found: %v", l.name, name, err)
	}
	l.syms[name] = p
	return p, nil
}

// call calls the function name and returns its status (the C int result).
func (l *dynLib) call(name string, args ...uintptr) (int32, error) {
	fn, err := l.sym(name)
	if err != nil {
		return 0, err
	}
	r, _, _ := purego.SyscallN(fn, args...)
	return int32(r), nil
}

// goString copies a NUL-terminated C string.
func goString(p uintptr) string {
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
