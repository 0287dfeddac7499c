package dl

import (
	"errors"
	"strings"
	"testing"
)

// TestOpenMessage: a library that is nowhere gives an error whose first line is what is
// missing and what to do, followed by every path tried, each once, one a line.
func TestOpenMessage(t *testing.T) {
	const missing = "no test library: libnosuch.so.1 not found; use the host backend (batchlas.Host)"
	dirs := []string{"/nonexistent/a", "/nonexistent/b"}
	_, err := Open("nosuch", missing, dirs, "libnosuch.so.1", "libnosuch.so")
	if err == nil {
		t.Fatal("libnosuch.so.1 opened")
	}
	lines := strings.Split(err.Error(), "\n")
	if lines[0] != "batchlas: "+missing {
		t.Errorf("first line %q, want %q", lines[0], "batchlas: "+missing)
	}
	paths := lines[2:]
	if want := 2 * (1 + len(dirs)); len(paths) != want {
		t.Fatalf("%d paths listed, want %d:\n%s", len(paths), want, err)
	}
	seen := map[string]bool{}
	for _, l := range paths {
		p, _, _ := strings.Cut(strings.TrimSpace(l), ": ")
		if seen[p] || !strings.Contains(p, "libnosuch.so") {
			t.Errorf("path line %q: repeated, or not a path tried", l)
		}
		seen[p] = true
	}
	if strings.Count(err.Error(), "batchlas:") != 1 {
		t.Errorf("%q: more than one prefix", err)
	}
}

// libc opens the C library, which every Linux machine that runs these tests has.
func libc(t *testing.T) *Lib {
	l, err := Open("c", "no libc", nil, "libc.so.6")
	if err != nil {
		t.Skip(err)
	}
	return l
}

// TestResolveAndStatus: Resolve fills a table's tagged fields once, a missing symbol is an
// error naming it, and a nonzero status becomes an *Error naming library, call and status.
func TestResolveAndStatus(t *testing.T) {
	l := libc(t)
	l.StatusName = func(st int32) string { return "ST" + strings.Repeat("!", int(st)) }
	var tab struct {
		abs   *Proc `sym:"abs"`
		other int
	}
	if err := l.Resolve(&tab); err != nil || tab.abs == nil {
		t.Fatalf("Resolve: %v", err)
	}
	if r := int32(tab.abs.Call(0xfffffff9)); r != 7 { // -7 as a 32-bit int
		t.Errorf("abs(-7) = %d", r)
	}
	if err := tab.abs.Status(0); err != nil {
		t.Errorf("abs(0) as a status: %v", err)
	}
	var de *Error
	if err := tab.abs.Status(2); !errors.As(err, &de) || *de != (Error{Library: "c", Call: "abs", Status: 2, Name: "ST!!"}) {
		t.Errorf("abs(2) as a status: %v", err)
	}
	if p, err := l.Sym("abs"); err != nil || p.Status(3) == nil || !strings.Contains(p.Status(3).Error(), "c: abs failed: ST!!! (3)") {
		t.Errorf("Sym(abs).Status(3): %v", err)
	}
	var bad struct {
		x *Proc `sym:"no_such_function_anywhere"`
	}
	if err := l.Resolve(&bad); err == nil || !strings.Contains(err.Error(), "no_such_function_anywhere") {
		t.Errorf("Resolve of a missing symbol: %v", err)
	}
}

// TestExpandDtypes: a Procs tag's {T} is S, D, C, Z in turn, {t} s, d, c, z, and {real|complex} splits the
// real dtypes from the complex ones; any other brace is an error naming the tag.
func TestExpandDtypes(t *testing.T) {
	for _, c := range []struct {
		tag  string
		want [4]string
	}{
		{"cublas{T}gemmStridedBatched", [4]string{"cublasSgemmStridedBatched", "cublasDgemmStridedBatched", "cublasCgemmStridedBatched", "cublasZgemmStridedBatched"}},
		{"cusolverDn{T}{syevj|heevj}Batched", [4]string{"cusolverDnSsyevjBatched", "cusolverDnDsyevjBatched", "cusolverDnCheevjBatched", "cusolverDnZheevjBatched"}},
		{"cusolverDn{T}{orgqr|ungqr}_bufferSize", [4]string{"cusolverDnSorgqr_bufferSize", "cusolverDnDorgqr_bufferSize", "cusolverDnCungqr_bufferSize", "cusolverDnZungqr_bufferSize"}},
		{"rocblas_{t}{symm|hemm}_strided_batched", [4]string{"rocblas_ssymm_strided_batched", "rocblas_dsymm_strided_batched", "rocblas_chemm_strided_batched", "rocblas_zhemm_strided_batched"}},
		{"{abs|labs}", [4]string{"abs", "abs", "labs", "labs"}},
		{"x{|_c}", [4]string{"x", "x", "x_c", "x_c"}},
		{"plain", [4]string{"plain", "plain", "plain", "plain"}},
	} {
		got, err := expandDtypes(c.tag)
		if err != nil || got != c.want {
			t.Errorf("expandDtypes(%q) = %q, %v; want %q", c.tag, got, err, c.want)
		}
	}
	for _, tag := range []string{"a{T", "a{u}b", "a{x}", "a{b|c|d}", "a{b{T}|c}", "{}"} {
		if _, err := expandDtypes(tag); err == nil || !strings.Contains(err.Error(), tag) {
			t.Errorf("expandDtypes(%q): %v, want an error naming the tag", tag, err)
		}
	}
}

// TestResolveProcs: a Procs field gets the four functions its tag names; a missing one fails
// the table unless the field is optional, when its Proc's Err and Status name the library and
// the symbol and nothing is called.
func TestResolveProcs(t *testing.T) {
	l := libc(t)
	var tab struct {
		abs     Procs `sym:"{abs|labs}"`
		partial Procs `sym:"{abs|no_such_function_anywhere}" optional:"true"`
		one     *Proc `sym:"no_such_function_anywhere" optional:"true"`
	}
	if err := l.Resolve(&tab); err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	for i, want := range []string{"abs", "abs", "labs", "labs"} {
		p := tab.abs[i]
		if p == nil || p.Name() != want || p.Err() != nil || p.Addr() == 0 {
			t.Fatalf("abs[%d] = %+v, want %s resolved", i, p, want)
		}
		if r := int32(p.Call(^uintptr(6))); r != 7 { // -7 as a 64-bit long, and as a 32-bit int in the low half
			t.Errorf("%s(-7) = %d", want, r)
		}
	}
	for i := range 2 {
		if p := tab.partial[i]; p.Err() != nil || p.Status(0) != nil {
			t.Errorf("partial[%d] (%s): %v", i, p.Name(), p.Err())
		}
	}
	for i := 2; i < 4; i++ {
		p, name := tab.partial[i], "no_such_function_anywhere"
		if p.Name() != name || p.Addr() != 0 || p.Err() == nil {
			t.Fatalf("partial[%d] = %+v, want %s missing", i, p, name)
		}
		if err := p.Status(1, 2); err != p.Err() || !strings.Contains(err.Error(), "c: symbol "+name+" not found") {
			t.Errorf("partial[%d].Status: %v", i, err)
		}
	}
	if err := tab.one.Status(); err == nil || !strings.Contains(err.Error(), "c: symbol no_such_function_anywhere not found") {
		t.Errorf("missing optional *Proc: Status gives %v", err)
	}
	func() {
		defer func() {
			if r := recover(); r != tab.one.Err() {
				t.Errorf("Call of a missing optional function: recovered %v, want its Err", r)
			}
		}()
		tab.one.Call()
	}()
	var bad struct {
		x Procs `sym:"{abs|no_such_function_anywhere}"`
	}
	if err := l.Resolve(&bad); err == nil || !strings.Contains(err.Error(), "no_such_function_anywhere") {
		t.Errorf("Resolve of a required Procs with a missing symbol: %v", err)
	}
	var malformed struct {
		x Procs `sym:"abs{x}"`
	}
	if err := l.Resolve(&malformed); err == nil || !strings.Contains(err.Error(), "abs{x}") {
		t.Errorf("Resolve of a malformed Procs tag: %v", err)
	}
}
