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
	if err := l.Call("abs", 3); err == nil || !strings.Contains(err.Error(), "c: abs failed: ST!!! (3)") {
		t.Errorf("Call(abs, 3): %v", err)
	}
	var bad struct {
		x *Proc `sym:"no_such_function_anywhere"`
	}
	if err := l.Resolve(&bad); err == nil || !strings.Contains(err.Error(), "no_such_function_anywhere") {
		t.Errorf("Resolve of a missing symbol: %v", err)
	}
}
