// Package route is for people who tune and test batchlas: it pins an op to one of its
// families, lists the families, turns the selection trace on, and flushes the coverage rows.
// Programs that only compute never need it: every call chooses its family from the measured
// tables in tuned/ on its own.
//
// Every op has a small set of families (the pure-Go "host", the backend's "vendor" library,
// native GPU kernels such as "tiny" or "cta"), each named by a spelling such as
// "lpanel:panel=8". The environment does the same as this package, for programs that cannot
// be changed:
//
//	BATCHLAS_<OP>_ROUTE=auto|native|vendor|<spelling>   pin an op (Pin wins over it)
//	BATCHLAS_SELECT_TRACE=1                              one trace line per call (Trace)
//	BATCHLAS_COVERAGE_OUT=file                           reached and missed call keys (Flush)
//	BATCHLAS_TUNED_DIR=dir                               tables that replace the built-in ones
//
// A trace line names the op, dtype and key, the family chosen, its table time and the
// runner-up, the table used (or [pin], [last resort]), and the time the call took, measured
// (the wall time of the launch and a wait for it, so tracing serializes the calls); repeated
// identical calls fold into one line with their count and mean time:
//
//	potrf f64 uplo=L n=64 batch=8192 -> lpanel:panel=8 0.302 ms, next vendor 0.49 ms [sm_90]; 15 identical calls, took 0.31 ms each on average
//
// A line is printed when a call with other lines follows it, when the log writer changes,
// when a queue closes, and at Flush.
package route

import (
	"io"
	"os"
	"strings"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/internal/routing"
	selection "github.com/batchlas/batchlas/select"
)

// Pin makes every later call of op (e.g. "potrf") choose by spelling until restore is
// called; restore puts back the previous pin. spelling is "auto", "native" (the best
// runnable non-vendor family), "vendor", or a family's spelling such as "host" or
// "lpanel:panel=8" (Candidates lists them). The pin wins over BATCHLAS_<OP>_ROUTE. A call
// whose pinned family is unknown or cannot run it returns an error naming the argument
// "route"; native and vendor choose automatically, with a warning, when nothing in their class
// can run. Pins are process-wide: tests and benchmarks use them to run one family on purpose.
func Pin(op, spelling string) (restore func(), err error) {
	if strings.TrimSpace(op) == "" {
		return nil, &batchlas.ArgError{Op: "route.Pin", Arg: "op", Rule: "empty op name"}
	}
	restore, err = selection.Pin(op, spelling)
	if err != nil {
		return nil, &batchlas.ArgError{Op: "route.Pin", Arg: "spelling", Rule: err.Error()}
	}
	return restore, nil
}

// Candidates lists the spellings of op's families for dtype ("f32", "f64", "c64" or
// "c128") in list order: the values Pin takes besides auto, native and vendor. vendor
// reports which of them call a vendor library.
func Candidates(op, dtype string) (spellings []string, vendor []bool, err error) {
	cands, known := routing.Candidates(op, dtype)
	switch {
	case !known:
		return nil, nil, &batchlas.ArgError{Op: "route.Candidates", Arg: "op",
			Rule: "unknown op " + quote(op) + " (routed ops: " + strings.Join(Ops(), ", ") + ")"}
	case cands == nil:
		return nil, nil, &batchlas.ArgError{Op: "route.Candidates", Arg: "dtype", Rule: op + " has no dtype " + quote(dtype)}
	}
	for _, c := range cands {
		spellings, vendor = append(spellings, c.Spelling.String()), append(vendor, c.Vendor)
	}
	return spellings, vendor, nil
}

func quote(s string) string { return `"` + s + `"` }

// Ops lists, sorted, the operations that choose among families.
func Ops() []string { return routing.Ops() }

// Problems lists the bad tuned tables and table entries met so far (a table that does not
// parse, a candidate that is not a family of its op). Tests check that it is empty.
func Problems() []string { return routing.Library.Problems() }

// SetLog sends selection's warnings and trace lines, normally on stderr, to w (nil: nowhere),
// and returns a function that restores the previous writer. Each writer receives the trace
// of the calls made while it was set.
func SetLog(w io.Writer) (restore func()) {
	if w == nil {
		w = io.Discard
	}
	return routing.Library.SetOutput(w)
}

// Trace turns the trace on (as BATCHLAS_SELECT_TRACE=1 does) until restore is called, which
// prints the lines still held and puts back the environment's setting. The lines go to the
// writer SetLog set, stderr by default.
func Trace() (restore func()) {
	old, had := os.LookupEnv("BATCHLAS_SELECT_TRACE")
	os.Setenv("BATCHLAS_SELECT_TRACE", "1")
	selection.Reload()
	return func() {
		Flush()
		if had {
			os.Setenv("BATCHLAS_SELECT_TRACE", old)
		} else {
			os.Unsetenv("BATCHLAS_SELECT_TRACE")
		}
		selection.Reload()
	}
}

// Flush prints the trace lines still held and appends the coverage rows gathered so far to
// the file named by BATCHLAS_COVERAGE_OUT. Queue.Close flushes too; a program that exits
// with queues open calls it last.
func Flush() error { return routing.Library.Flush() }
