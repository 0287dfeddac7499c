//go:build cuda

package batchlas

import (
	"strings"
	"testing"
)

// TestOpenLibMessage: a library that is nowhere gives an error whose first line is what is
// missing and what to do, followed by every path tried, each once, one a line.
func TestOpenLibMessage(t *testing.T) {
	const missing = "no test library: libnosuch.so.1 not found; use the host backend (batchlas.Host)"
	_, err := openLib("nosuch", missing, "libnosuch.so.1", "libnosuch.so")
	if err == nil {
		t.Fatal("libnosuch.so.1 opened")
	}
	lines := strings.Split(err.Error(), "\n")
	if lines[0] != "batchlas: "+missing {
		t.Errorf("first line %q, want %q", lines[0], "batchlas: "+missing)
	}
	paths := lines[2:]
	if want := 2 * (1 + len(cudaLibDirs)); len(paths) != want {
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
