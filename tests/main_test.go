package tests

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/batchlas/batchlas/route"
)

// TestMain flushes the coverage rows (BATCHLAS_COVERAGE_OUT) that queues still open at exit
// hold, and fails the run when any call met a bad tuned table: an entry that is not a family
// of its op, or keys that differ from the op's call key.
func TestMain(m *testing.M) {
	code := m.Run()
	if err := route.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "route.Flush:", err)
		code = max(code, 1)
	}
	if p := route.Problems(); len(p) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: tuned tables:\n\t%s\n", strings.Join(p, "\n\t"))
		code = max(code, 1)
	}
	os.Exit(code)
}
