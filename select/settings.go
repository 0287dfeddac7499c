package selection

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Settings is the snapshot of the environment that selection reads. It is captured once, on
// first use: a variable set later in the process is seen only after Reload.
type Settings struct {
	Routes      map[string]string // op -> the raw value of BATCHLAS_<OP>_ROUTE, lower case
	Trace       bool              // BATCHLAS_SELECT_TRACE=1
	CoverageOut string            // BATCHLAS_COVERAGE_OUT
	TunedDir    string            // BATCHLAS_TUNED_DIR
}

var settings atomic.Pointer[Settings]

// Current is the settings snapshot, captured on first use.
func Current() *Settings {
	if s := settings.Load(); s != nil {
		return s
	}
	settings.CompareAndSwap(nil, readSettings())
	return settings.Load()
}

// Reload captures the environment again, for programs and tests that set variables after
// the first call. Libraries drop the tables they read from the old BATCHLAS_TUNED_DIR.
func Reload() *Settings {
	s := readSettings()
	settings.Store(s)
	reloads.Add(1)
	return s
}

// reloads counts Reload calls, so that libraries notice a new snapshot.
var reloads atomic.Int64

func readSettings() *Settings {
	s := &Settings{
		Routes:      map[string]string{},
		Trace:       os.Getenv("BATCHLAS_SELECT_TRACE") == "1",
		CoverageOut: os.Getenv("BATCHLAS_COVERAGE_OUT"),
		TunedDir:    os.Getenv("BATCHLAS_TUNED_DIR"),
	}
	for _, kv := range os.Environ() {
		name, val, _ := strings.Cut(kv, "=")
		if op, ok := strings.CutPrefix(name, "BATCHLAS_"); ok {
			if op, ok = strings.CutSuffix(op, "_ROUTE"); ok && op != "" {
				s.Routes[strings.ToLower(op)] = strings.ToLower(strings.TrimSpace(val))
			}
		}
	}
	return s
}

// RouteEnv is the environment variable that pins op.
func RouteEnv(op string) string { return "BATCHLAS_" + strings.ToUpper(op) + "_ROUTE" }

var scoped = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

// Pin makes later calls of op choose by value (auto, native, vendor or a spelling) until
// restore is called; restore puts back what was there before. A scoped pin wins over the
// environment, so Pin(op, "auto") undoes an environment pin. Pins are process-wide (Go has no
// thread-local slots): tests that pin must not run in parallel with tests of the same op.
// A value that is not a class word and does not parse is an error; whether the spelling
// names a family of op is known only when a call is chosen.
func Pin(op, value string) (restore func(), err error) {
	op = strings.ToLower(strings.TrimSpace(op))
	value = strings.ToLower(strings.TrimSpace(value))
	if op == "" {
		return nil, fmt.Errorf("pin: empty op name")
	}
	if _, err := parsePin(value); err != nil {
		return nil, err
	}
	scoped.Lock()
	defer scoped.Unlock()
	old, had := scoped.m[op]
	scoped.m[op] = value
	return func() {
		scoped.Lock()
		defer scoped.Unlock()
		if had {
			scoped.m[op] = old
		} else {
			delete(scoped.m, op)
		}
	}, nil
}

// PinOf is the pin in force for op: the scoped pin if any, else the environment's; "" is
// auto. env tells which of the two it came from.
func PinOf(op string) (value string, env bool) {
	scoped.Lock()
	v, ok := scoped.m[op]
	scoped.Unlock()
	if ok {
		return v, false
	}
	v = Current().Routes[op]
	return v, v != ""
}

// pin is a parsed pin value.
type pin struct {
	class string   // "auto", "native", "vendor", or "" for a spelling
	spell Spelling // when class is ""
}

func parsePin(v string) (pin, error) {
	switch v {
	case "", "auto":
		return pin{class: "auto"}, nil
	case "native", "vendor":
		return pin{class: v}, nil
	}
	s, err := ParseSpelling(v)
	if err != nil {
		return pin{}, err
	}
	return pin{spell: s}, nil
}

// UnknownRoutes lists the BATCHLAS_<OP>_ROUTE variables of the snapshot whose op is not in
// ops: most likely misspelt, since nothing reads them.
func UnknownRoutes(ops []string) []string {
	var bad []string
	for op := range Current().Routes {
		if !slices.Contains(ops, op) {
			bad = append(bad, RouteEnv(op))
		}
	}
	slices.Sort(bad)
	return bad
}
