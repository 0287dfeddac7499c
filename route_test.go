package batchlas

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	selection "github.com/batchlas/batchlas/select"
)

// fakeCall is the call record of a synthetic op whose families run below a size limit.
type fakeCall struct {
	n   int
	ran []string // the families that launched
}

func fakeFamilies() []family[fakeCall] {
	fam := func(name string, limit, ws int) family[fakeCall] {
		return family[fakeCall]{
			name:       name,
			backend:    Host,
			canRun:     func(_ *Queue, c *fakeCall) bool { return c.n <= limit },
			bufferSize: func(*Queue, *fakeCall) int { return ws },
			launch: func(_ *Queue, c *fakeCall) error {
				if c.n > limit {
					panic(name + " launched beyond its limit")
				}
				c.ran = append(c.ran, name)
				return nil
			},
		}
	}
	return []family[fakeCall]{fam("tiny", 8, 10), fam("cta", 64, 20), fam("host", 1<<30, 30)}
}

func fakeOp(q *Queue, c *fakeCall) error {
	return dispatch(q, "fakeop", "f64", shapeKey("n", c.n), fakeFamilies(), c)
}

func fakeSize(q *Queue, c *fakeCall) (int, error) {
	return bufferSize(q, "fakeop", "f64", shapeKey("n", c.n), fakeFamilies(), c)
}

// TestRouteCanRunEqualsLaunch pins every family on shapes straddling its limit: where can_run
// is true the call launches it, and where it is false the call refuses with an error naming
// "route" and launches nothing. BufferSize answers the pinned family's need either way.
func TestRouteCanRunEqualsLaunch(t *testing.T) {
	q, err := NewQueue(Host)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	for _, f := range fakeFamilies() {
		restore, err := pinRoute("fakeop", f.name)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 8, 9, 64, 65} {
			c := &fakeCall{n: n}
			want := f.runs(q, c)
			err := fakeOp(q, c)
			size, serr := fakeSize(q, c)
			switch {
			case want && (err != nil || len(c.ran) != 1 || c.ran[0] != f.name):
				t.Errorf("%s n=%d: can run, but the call gave %v and ran %v", f.name, n, err, c.ran)
			case want && (serr != nil || size != f.bufferSize(q, c)):
				t.Errorf("%s n=%d: BufferSize %d, %v; want %d", f.name, n, size, serr, f.bufferSize(q, c))
			case !want && (!errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), "route") || len(c.ran) != 0):
				t.Errorf("%s n=%d: cannot run, but the call gave %v and ran %v", f.name, n, err, c.ran)
			case !want && !errors.Is(serr, ErrInvalidArgument):
				t.Errorf("%s n=%d: cannot run, but BufferSize gave %d, %v", f.name, n, size, serr)
			}
		}
		restore()
	}
	// Unpinned (no table for fakeop): the last resort, list order; sizing agrees.
	for n, want := range map[int]string{3: "tiny", 40: "cta", 1000: "host"} {
		c := &fakeCall{n: n}
		size, _ := fakeSize(q, c)
		if err := fakeOp(q, c); err != nil || len(c.ran) != 1 || c.ran[0] != want || size != map[string]int{"tiny": 10, "cta": 20, "host": 30}[want] {
			t.Errorf("n=%d ran %v (%v) with size %d; want %s", n, c.ran, err, size, want)
		}
	}
	// Nothing runs: *NoRouteError, listing every family.
	c := &fakeCall{n: 1 << 31}
	var nr *NoRouteError
	if err := fakeOp(q, c); !errors.As(err, &nr) || nr.Op != "fakeop" || len(nr.Tried) != 3 || nr.Key != "n=2147483648" {
		t.Errorf("no family runs: %v", err)
	}
}

// TestRouteTraceNesting: a family that calls another op gets the inner call's trace line
// indented under its own.
func TestRouteTraceNesting(t *testing.T) {
	q, log := tracedQueue(t)
	outer := []family[fakeCall]{{name: "blocked", backend: Host, canRun: func(*Queue, *fakeCall) bool { return true },
		launch: func(q *Queue, c *fakeCall) error { return fakeOp(q, &fakeCall{n: c.n / 2}) }}}
	if err := dispatch(q, "outerop", "f64", shapeKey("n", 32), outer, &fakeCall{n: 32}); err != nil {
		t.Fatal(err)
	}
	want := "outerop f64 n=32 -> blocked [last resort]\n  fakeop f64 n=16 -> cta [last resort]\n"
	if got := untimed(t, log); got != want {
		t.Errorf("trace\n%s\nwant\n%s", got, want)
	}
}

// TestRouteTraceWhy: a family that cannot run on the device at all (a vendor library that is
// not installed) is named in the trace with its reason.
func TestRouteTraceWhy(t *testing.T) {
	q, log := tracedQueue(t)
	missing := family[fakeCall]{name: "x", canRun: func(*Queue, *fakeCall) bool { return false },
		why: func(*Queue) string { return "libx.so.1 not found" }}
	fams := []family[fakeCall]{
		vendorFamily(missing),
		hostFamily(func(*Queue, *fakeCall) error { return nil }),
	}
	if err := dispatch(q, "whyop", "f64", shapeKey("n", 4), fams, &fakeCall{n: 4}); err != nil {
		t.Fatal(err)
	}
	if want := "whyop f64 n=4 -> host [last resort] (vendor cannot run: libx.so.1 not found)\n"; untimed(t, log) != want {
		t.Errorf("trace\n%q\nwant\n%q", log.String(), want)
	}
}

// TestRouteTraceFolds: identical calls in a row fold into one line with their count and
// mean measured time; a different call prints the held one.
func TestRouteTraceFolds(t *testing.T) {
	q, log := tracedQueue(t)
	outer := []family[fakeCall]{{name: "blocked", backend: Host, canRun: func(*Queue, *fakeCall) bool { return true },
		launch: func(q *Queue, c *fakeCall) error { return fakeOp(q, &fakeCall{n: c.n / 2}) }}}
	for _, n := range []int{32, 32, 32, 8} {
		if err := dispatch(q, "outerop", "f64", shapeKey("n", n), outer, &fakeCall{n: n}); err != nil {
			t.Fatal(err)
		}
	}
	if err := routes.Flush(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	timed := regexp.MustCompile(`^(.*\]); (3 identical calls, took [0-9.e+-]+ ms each on average|took [0-9.e+-]+ ms)$`)
	want := []string{"outerop f64 n=32 -> blocked [last resort]", "  fakeop f64 n=16 -> cta [last resort]",
		"outerop f64 n=8 -> blocked [last resort]", "  fakeop f64 n=4 -> tiny [last resort]"}
	if len(lines) != len(want) {
		t.Fatalf("trace\n%s\nwant 4 lines", log.String())
	}
	for i, line := range lines {
		m := timed.FindStringSubmatch(line)
		if m == nil || m[1] != want[i] || (i < 2) != strings.Contains(line, "3 identical calls") {
			t.Errorf("line %d: %q, want %q with its measured time (folded x3 for the first call)", i, line, want[i])
		}
	}
}

// untimed flushes the trace and returns it without the measured times.
func untimed(t *testing.T, log *strings.Builder) string {
	t.Helper()
	if err := routes.Flush(); err != nil {
		t.Fatal(err)
	}
	return regexp.MustCompile(`; took [0-9.e+-]+ ms`).ReplaceAllString(log.String(), "")
}

// tracedQueue is a host queue whose calls trace into the returned log until the test ends.
func tracedQueue(t *testing.T) (*Queue, *strings.Builder) {
	q, err := NewQueue(Host)
	if err != nil {
		t.Fatal(err)
	}
	log := &strings.Builder{}
	restore := setRouteLog(log)
	t.Cleanup(func() { q.Close(); restore(); selection.Reload() })
	t.Setenv("BATCHLAS_SELECT_TRACE", "1")
	selection.Reload()
	return q, log
}
