package selection

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
)

// Candidate is one family of an op as selection sees it.
type Candidate struct {
	Spelling Spelling
	Vendor   bool // calls a vendor library: the class of the pin word "vendor"
	Resort   int  // last-resort rank: lower goes first, equal ranks keep list order
}

// KV is one named value of a call's key.
type KV struct{ Name, Value string }

// Request is one call to choose for.
type Request struct {
	Op, DType string
	Key       []KV // the op's key, without dtype, in its tables' keys-line order
	Device    Device
	Cands     []Candidate // in list order, which is also the tie order
	Depth     int         // calls this one is nested in: the trace indents it
	// CanRun reports whether candidate i can run the call: correctness only. Choose calls it
	// at most once per candidate.
	CanRun func(i int) bool
	// Why, when not nil, says why candidate i cannot run on this device at all (a vendor
	// library that is not installed); the trace line names it. "" means no such reason.
	Why func(i int) string
}

// KeyString is the key as "n=64 batch=8192".
func (r *Request) KeyString() string {
	var b strings.Builder
	for i, kv := range r.Key {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(kv.Name + "=" + kv.Value)
	}
	return b.String()
}

// Decision is what Choose chose, and why.
type Decision struct {
	Index    int     // into Request.Cands
	Spelling string  // the chosen candidate's spelling
	Time     float64 // its time in the table row, ms; NaN when untimed or not from a table
	Next     string  // the runner-up of the row that can run; "" when none
	NextTime float64
	Table    string // the device key of the table used; "" when not from a table
	Tag      string // the trace's bracket: the table ("cpu", "borrowed sm_89", "override cpu"), "pin", "last resort"
}

// Origin is "vendor" or "native", the class of the chosen candidate.
func (d Decision) origin(r *Request) string {
	if r.Cands[d.Index].Vendor {
		return "vendor"
	}
	return "native"
}

// PinError is a pin that cannot be honoured: its spelling names no family of the op, or its
// family cannot run the call.
type PinError struct {
	Op, Pin string
	Env     bool // the pin came from BATCHLAS_<OP>_ROUTE
	Reason  string
}

func (e *PinError) Error() string {
	src := "pinned"
	if e.Env {
		src = RouteEnv(e.Op) + "="
	}
	return fmt.Sprintf("%s %q: %s", src, e.Pin, e.Reason)
}

// ErrNoRoute is wrapped by MissError.
var ErrNoRoute = errors.New("no family can run the call")

// MissError says that no candidate can run a call; Tried lists each with its reason.
type MissError struct{ Tried []string }

func (e *MissError) Error() string { return ErrNoRoute.Error() + ": " + strings.Join(e.Tried, "; ") }
func (e *MissError) Unwrap() error { return ErrNoRoute }

// Library holds the tables of every op, the warnings already given, and the coverage rows
// not yet flushed. The package batchlas has one; tests make their own over synthetic tables.
type Library struct {
	base fs.FS // <op>.<device>.txt files

	mu       sync.Mutex
	out      io.Writer
	epoch    int64                  // the Reload count the tables were read under
	tables   map[string][]*devTable // op -> its tables, sorted by key
	orders   map[string][]*devTable // op/dtype/device -> borrow order
	warned   map[string]bool        // warnings given once
	problems []string               // bad tables and entries, for tests
	cov      map[CoverageRow]int    // rows not yet flushed, with counts
	cur      traceBlock             // the trace lines of the top-level call in progress
	held     traceBlock             // the last finished call's lines, printed when another differs
	covFile  string                 // where they go
}

type devTable struct {
	key, family string
	arch        int
	override    bool
	file        string
	*Table
}

// NewLibrary returns a library over the table files of base (nil: none). Warnings and
// traces go to stderr.
func NewLibrary(base fs.FS) *Library {
	return &Library{base: base, out: os.Stderr}
}

// SetOutput sends warnings and trace lines to w and returns a function that restores the
// previous writer. Each writer gets the folded trace lines of the calls made while it was
// set: the held lines are printed before the switch.
func (l *Library) SetOutput(w io.Writer) (restore func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.printHeldLocked()
	old := l.out
	l.out = w
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.printHeldLocked()
		l.out = old
	}
}

// Problems lists every bad table file, unknown table candidate and key mismatch met so far.
func (l *Library) Problems() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.problems)
}

// Choose picks the candidate that runs r: a pin, the tables in borrow order, the last-resort
// order. Its errors are *PinError and *MissError.
func (l *Library) Choose(r *Request) (Decision, error) {
	known := make([]int8, len(r.Cands)) // 0 unknown, 1 can run, -1 cannot
	can := func(i int) bool {
		if known[i] == 0 {
			known[i] = -1
			if r.CanRun(i) {
				known[i] = 1
			}
		}
		return known[i] > 0
	}
	all := func(int) bool { return true }
	value, env := PinOf(r.Op)
	p, err := parsePin(value)
	if err != nil {
		return Decision{}, &PinError{Op: r.Op, Pin: value, Env: env, Reason: err.Error()}
	}
	switch p.class {
	case "":
		i := Resolve(p.spell, r.Cands)
		if i < 0 {
			return Decision{}, &PinError{Op: r.Op, Pin: value, Env: env,
				Reason: fmt.Sprintf("not a family of %s (families: %s)", r.Op, spellings(r.Cands))}
		}
		if !can(i) {
			return Decision{}, &PinError{Op: r.Op, Pin: value, Env: env,
				Reason: fmt.Sprintf("%s cannot run %s %s on %s", r.Cands[i].Spelling, r.DType, r.KeyString(), r.Device.Key)}
		}
		return Decision{Index: i, Spelling: r.Cands[i].Spelling.String(), Time: math.NaN(), NextTime: math.NaN(), Tag: "pin"}, nil
	case "native", "vendor":
		class := func(i int) bool { return r.Cands[i].Vendor == (p.class == "vendor") }
		if d, ok := l.fromTables(r, can, class); ok {
			d.Tag = "pin " + p.class + ", " + d.Tag
			return d, nil
		}
		if d, ok := lastResort(r, can, class); ok {
			d.Tag = "pin " + p.class + ", " + d.Tag
			return d, nil
		}
		l.warnOnce(r.Op+"/"+p.class, "batchlas: %s: the pin %q has no %s family that can run %s %s on %s; choosing automatically",
			r.Op, p.class, p.class, r.DType, r.KeyString(), r.Device.Key)
	}
	if d, ok := l.fromTables(r, can, all); ok {
		return d, nil
	}
	if d, ok := lastResort(r, can, all); ok {
		return d, nil
	}
	tried := make([]string, len(r.Cands))
	for i, c := range r.Cands {
		tried[i] = c.Spelling.String() + ": cannot run"
	}
	return Decision{}, &MissError{Tried: tried}
}

// fromTables looks in every table of r's op, in borrow order, for the nearest row, and
// takes the first candidate of that row in the class that can run.
func (l *Library) fromTables(r *Request, can, class func(int) bool) (Decision, bool) {
	for n, t := range l.borrowOrder(r.Op, r.DType, r.Device) {
		l.checkKeys(t, r)
		row := t.Nearest(r.DType, r.Key)
		if row == nil {
			continue
		}
		d := Decision{Index: -1, Time: math.NaN(), NextTime: math.NaN(), Table: t.key, Tag: t.key}
		for _, e := range row.Entries {
			i := resolveExact(e.Spelling, r.Cands)
			if i < 0 {
				l.problem(fmt.Sprintf("%s line %d: %s is not a %s candidate of %s", t.file, row.Line, e.Spelling, r.DType, r.Op))
				continue
			}
			if !class(i) || !can(i) {
				continue
			}
			if d.Index < 0 {
				d.Index, d.Spelling, d.Time = i, r.Cands[i].Spelling.String(), e.Time
			} else {
				d.Next, d.NextTime = r.Cands[i].Spelling.String(), e.Time
				break
			}
		}
		if d.Index < 0 {
			continue
		}
		if t.override {
			d.Tag = "override " + t.key
		}
		if n > 0 || t.key != r.Device.Key {
			d.Tag = "borrowed " + d.Tag
			l.warnOnce(r.Op, "batchlas: %s has no %s table for %s that can run %s; borrowing %s (measure it: cmd/batchbench, then bench/totable)",
				r.Op, r.DType, r.Device.Key, r.KeyString(), t.key)
		}
		return d, true
	}
	return Decision{}, false
}

// checkKeys records a problem when t's keys are not dtype and the call's keys, in order: the
// rows would be compared on the wrong values.
func (l *Library) checkKeys(t *devTable, r *Request) {
	same := len(t.Keys) == len(r.Key)+1
	for i := 0; same && i < len(r.Key); i++ {
		same = t.Keys[i+1].Name == r.Key[i].Name
	}
	if same {
		return
	}
	want := []string{"dtype"}
	for _, kv := range r.Key {
		want = append(want, kv.Name)
	}
	var got []string
	for _, k := range t.Keys {
		got = append(got, k.Name)
	}
	l.problem(fmt.Sprintf("%s: keys %s, but %s calls have %s", t.file, strings.Join(got, " "), r.Op, strings.Join(want, " ")))
}

// lastResort is the first candidate in the class that can run, in last-resort order.
func lastResort(r *Request, can, class func(int) bool) (Decision, bool) {
	order := make([]int, len(r.Cands))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return r.Cands[a].Resort - r.Cands[b].Resort })
	for _, i := range order {
		if class(i) && can(i) {
			return Decision{Index: i, Spelling: r.Cands[i].Spelling.String(), Time: math.NaN(), NextTime: math.NaN(), Tag: "last resort"}, true
		}
	}
	return Decision{}, false
}

// borrowOrder lists the tables of op that have rows of dtype, in the order dev consults them:
// its own; the same family, nearest arch at or below, then nearest above; the other GPU
// families in the order sm, gfx, intel (others after, by name); the cpu last. A CPU consults
// only cpu tables.
func (l *Library) borrowOrder(op, dtype string, dev Device) []*devTable {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.refresh()
	id := op + "/" + dtype + "/" + dev.Key
	if o, ok := l.orders[id]; ok {
		return o
	}
	var o []*devTable
	for _, t := range l.loadLocked(op) {
		if slices.Contains(t.DTypes(), dtype) && (dev.IsGPU || t.family == "cpu") {
			o = append(o, t)
		}
	}
	rank := func(t *devTable) (int, int) {
		switch {
		case t.key == dev.Key:
			return 0, 0
		case t.family == dev.Family && t.arch <= dev.Arch:
			return 1, dev.Arch - t.arch
		case t.family == dev.Family:
			return 2, t.arch - dev.Arch
		case t.family == "cpu":
			return 7, 0
		}
		if f := slices.Index([]string{"sm", "gfx", "intel"}, t.family); f >= 0 {
			return 3 + f, -t.arch
		}
		return 6, -t.arch
	}
	slices.SortStableFunc(o, func(a, b *devTable) int {
		ca, da := rank(a)
		cb, db := rank(b)
		if ca != cb {
			return ca - cb
		}
		if da != db {
			return da - db
		}
		return strings.Compare(a.key, b.key)
	})
	l.orders[id] = o
	return o
}

// refresh drops what was read under an older settings snapshot; l.mu is held.
func (l *Library) refresh() {
	Current()
	if e := reloads.Load(); l.tables == nil || l.epoch != e {
		l.epoch, l.tables, l.orders = e, map[string][]*devTable{}, map[string][]*devTable{}
	}
}

// loadLocked reads the tables of op: the base files, each replaced by the file of the same
// name in BATCHLAS_TUNED_DIR when there is one (that directory may also add devices). A file
// that does not parse is a problem and a warning, and is not used.
func (l *Library) loadLocked(op string) []*devTable {
	if t, ok := l.tables[op]; ok {
		return t
	}
	files := map[string]fs.FS{}
	over := map[string]bool{}
	if l.base != nil {
		names, _ := fs.Glob(l.base, op+".*.txt")
		for _, n := range names {
			files[n] = l.base
		}
	}
	if dir := Current().TunedDir; dir != "" {
		d := os.DirFS(dir)
		names, _ := fs.Glob(d, op+".*.txt")
		for _, n := range names {
			files[n], over[n] = d, true
		}
	}
	var ts []*devTable
	for name, fsys := range files {
		key := strings.TrimSuffix(strings.TrimPrefix(name, op+"."), ".txt")
		if strings.Contains(key, ".") {
			continue // another op whose name starts with op and a dot
		}
		b, err := fs.ReadFile(fsys, name)
		var t *Table
		if err == nil {
			t, err = ParseTable(string(b))
		}
		if err == nil && (t.Op != op || t.Device != key) {
			err = fmt.Errorf("header says op=%s device=%s", t.Op, t.Device)
		}
		if err != nil {
			l.problemLocked(fmt.Sprintf("%s: %v", name, err))
			l.warnLocked("table/"+name, "batchlas: tuned table %s is not used: %v", name, err)
			continue
		}
		fam, arch := ParseDeviceKey(key)
		ts = append(ts, &devTable{key: key, family: fam, arch: arch, override: over[name], file: path.Base(name), Table: t})
	}
	slices.SortFunc(ts, func(a, b *devTable) int { return strings.Compare(a.key, b.key) })
	l.tables[op] = ts
	return ts
}

func (l *Library) problem(p string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.problemLocked(p)
}

func (l *Library) problemLocked(p string) {
	if !slices.Contains(l.problems, p) {
		l.problems = append(l.problems, p)
	}
}

// WarnOnce writes a warning to the library's output the first time id is seen.
func (l *Library) WarnOnce(id, format string, args ...any) { l.warnOnce(id, format, args...) }

// warnOnce writes a warning the first time id is seen.
func (l *Library) warnOnce(id, format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.warnLocked(id, format, args...)
}

func (l *Library) warnLocked(id, format string, args ...any) {
	if l.warned == nil {
		l.warned = map[string]bool{}
	}
	if !l.warned[id] {
		l.warned[id] = true
		fmt.Fprintf(l.out, format+"\n", args...)
	}
}

func spellings(c []Candidate) string {
	s := make([]string, len(c))
	for i := range c {
		s[i] = c[i].Spelling.String()
	}
	return strings.Join(s, ", ")
}
