package selection

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// table writes a one-row table of op for device that ranks the given candidates.
func table(op, device string, ranked ...string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte("# op=" + op + " device=" + device + "\n# source=transcribed\n" +
		"# keys: dtype:exact n:log\ndtype=f64 n=16 | " + strings.Join(ranked, " - | ") + " - # transcribed\n")}
}

func cands(vendor string, names ...string) []Candidate {
	c := make([]Candidate, len(names))
	for i, n := range names {
		c[i] = Candidate{Spelling: MustSpelling(n), Vendor: n == vendor}
	}
	return c
}

func request(dev string, cs []Candidate, runs ...string) *Request {
	fam, arch := ParseDeviceKey(dev)
	return &Request{Op: "potrf", DType: "f64", Key: []KV{{"n", "16"}},
		Device: Device{Key: dev, Family: fam, Arch: arch, IsGPU: fam != "cpu"}, Cands: cs,
		CanRun: func(i int) bool {
			for _, r := range runs {
				if cs[i].Spelling.String() == r {
					return true
				}
			}
			return false
		}}
}

// pinned pins op for the test's duration.
func pinned(t *testing.T, op, value string) {
	t.Helper()
	restore, err := Pin(op, value)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(restore)
}

func quiet(l *Library) *bytes.Buffer {
	var b bytes.Buffer
	l.SetOutput(&b)
	return &b
}

func TestBorrowOrder(t *testing.T) {
	// Each table ranks one candidate, so the choice tells which table was used.
	fsys := fstest.MapFS{}
	for _, d := range []string{"sm_80", "sm_89", "sm_90", "sm_120", "gfx90a", "gfx1100", "intel_1", "cpu"} {
		fsys["potrf."+d+".txt"] = table("potrf", d, "k"+strings.ReplaceAll(d, "_", ""))
	}
	fsys["potrf.cpu.txt"] = table("potrf", "cpu", "host")
	fsys["getrf.sm_86.txt"] = table("getrf", "sm_86", "ksm86") // another op's table
	l := NewLibrary(fsys)
	quiet(l)
	var names []string
	for _, d := range []string{"sm_80", "sm_89", "sm_90", "sm_120", "gfx90a", "gfx1100", "intel_1", "cpu"} {
		names = append(names, "k"+strings.ReplaceAll(d, "_", ""))
	}
	names[len(names)-1] = "host"
	cs := cands("", names...)
	for _, c := range []struct {
		dev  string
		want []string
	}{
		{"sm_86", []string{"sm_80", "sm_89", "sm_90", "sm_120", "gfx1100", "gfx90a", "intel_1", "cpu"}},
		{"sm_90", []string{"sm_90", "sm_89", "sm_80", "sm_120", "gfx1100", "gfx90a", "intel_1", "cpu"}},
		{"sm_75", []string{"sm_80", "sm_89", "sm_90", "sm_120", "gfx1100", "gfx90a", "intel_1", "cpu"}},
		{"gfx942", []string{"gfx90a", "gfx1100", "sm_120", "sm_90", "sm_89", "sm_80", "intel_1", "cpu"}},
		{"cpu", []string{"cpu"}},
		{"riscv", nil}, // not a GPU: only cpu tables, and it has none of its own family
	} {
		var got []string
		r := request(c.dev, cs)
		r.Device.IsGPU = c.dev != "cpu" && c.dev != "riscv"
		for _, t := range l.borrowOrder("potrf", "f64", r.Device) {
			got = append(got, t.key)
		}
		if c.dev == "riscv" {
			c.want = []string{"cpu"}
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s borrows %v, want %v", c.dev, got, c.want)
		}
	}
	// The first table whose nearest row has a runnable candidate wins.
	d, err := l.Choose(request("sm_86", cs, "ksm89", "ksm90", "host"))
	if err != nil || d.Spelling != "ksm89" || d.Tag != "borrowed sm_89" || d.Table != "sm_89" {
		t.Errorf("sm_86 chose %+v, %v; want ksm89 from sm_89", d, err)
	}
	// No table of another dtype is borrowed.
	r := request("sm_86", cs, "host")
	r.DType = "c64"
	if d, err := l.Choose(r); err != nil || d.Tag != "last resort" {
		t.Errorf("c64 chose %+v, %v; want the last resort", d, err)
	}
}

func TestCPUNeverBorrowsGPU(t *testing.T) {
	l := NewLibrary(fstest.MapFS{"potrf.sm_90.txt": table("potrf", "sm_90", "vendor", "host")})
	quiet(l)
	d, err := l.Choose(request("cpu", cands("vendor", "vendor", "host"), "vendor", "host"))
	if err != nil || d.Tag != "last resort" || d.Spelling != "vendor" {
		t.Errorf("cpu chose %+v, %v; want vendor by the last resort (list order)", d, err)
	}
}

func TestBorrowWarnsOnce(t *testing.T) {
	l := NewLibrary(fstest.MapFS{
		"potrf.sm_89.txt": table("potrf", "sm_89", "cta", "host"),
		"getrf.sm_89.txt": table("getrf", "sm_89", "cta"),
	})
	out := quiet(l)
	cs := cands("", "cta", "host")
	for range 3 {
		if d, err := l.Choose(request("sm_86", cs, "cta")); err != nil || d.Spelling != "cta" {
			t.Fatalf("Choose = %+v, %v", d, err)
		}
	}
	r := request("sm_86", cs, "cta")
	r.Op = "getrf"
	l.Choose(r)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "batchlas: potrf has no f64 table for sm_86") ||
		!strings.Contains(lines[0], "borrowing sm_89") || !strings.Contains(lines[1], "getrf") {
		t.Errorf("warnings:\n%s\nwant one for potrf and one for getrf", out)
	}
	// Its own table gives no warning.
	out.Reset()
	l.Choose(request("sm_89", cs, "cta"))
	if out.Len() != 0 {
		t.Errorf("own table warned: %s", out)
	}
}

func TestRowFallsThroughToRunnable(t *testing.T) {
	l := NewLibrary(fstest.MapFS{"potrf.cpu.txt": table("potrf", "cpu", "vendor", "blocked", "host")})
	quiet(l)
	cs := cands("vendor", "host", "blocked", "vendor")
	d, err := l.Choose(request("cpu", cs, "blocked", "host"))
	if err != nil || d.Spelling != "blocked" || d.Next != "host" || d.Tag != "cpu" {
		t.Errorf("chose %+v, %v; want blocked, next host, from cpu", d, err)
	}
}

func TestLastResort(t *testing.T) {
	l := NewLibrary(nil)
	cs := cands("vendor", "tiny", "blocked", "vendor", "host")
	if d, _ := l.Choose(request("cpu", cs, "vendor", "host")); d.Spelling != "vendor" || d.Tag != "last resort" {
		t.Errorf("list order chose %+v, want vendor", d)
	}
	cs[1].Resort, cs[2].Resort = -2, -1 // blocked, then vendor, then the rest
	if d, _ := l.Choose(request("cpu", cs, "tiny", "vendor", "host")); d.Spelling != "vendor" {
		t.Errorf("declared order chose %+v, want vendor", d)
	}
	_, err := l.Choose(request("cpu", cs))
	var miss *MissError
	if !errors.As(err, &miss) || !errors.Is(err, ErrNoRoute) || len(miss.Tried) != 4 {
		t.Errorf("nothing runnable: %v, want a MissError listing 4 candidates", err)
	}
}

func TestPins(t *testing.T) {
	l := NewLibrary(fstest.MapFS{"potrf.cpu.txt": table("potrf", "cpu", "host", "vendor")})
	out := quiet(l)
	cs := cands("vendor", "lpanel:panel=8", "lpanel:panel=16", "vendor", "host")
	choose := func(runs ...string) (Decision, error) { return l.Choose(request("cpu", cs, runs...)) }

	pinned(t, "potrf", "lpanel:16")
	if d, err := choose("lpanel:panel=16", "host"); err != nil || d.Spelling != "lpanel:panel=16" || d.Tag != "pin" {
		t.Errorf("pin lpanel:16 chose %+v, %v", d, err)
	}
	var pe *PinError
	if _, err := choose("lpanel:panel=8", "host"); !errors.As(err, &pe) || !strings.Contains(err.Error(), "cannot run") {
		t.Errorf("a can_run-false pin gave %v, want a PinError", err)
	}
	pinned(t, "potrf", "blocked")
	if _, err := choose("host"); !errors.As(err, &pe) || !strings.Contains(err.Error(), "not a family of potrf") {
		t.Errorf("an unknown pin gave %v, want a PinError", err)
	}
	if _, err := Pin("potrf", "lpanel:x"); err == nil {
		t.Error("Pin of a spelling that does not parse: no error")
	}

	// Class words: the best runnable member of the class, from the table or the last resort.
	pinned(t, "potrf", "native")
	if d, err := choose("lpanel:panel=8", "vendor", "host"); err != nil || d.Spelling != "host" || d.Tag != "pin native, cpu" {
		t.Errorf("native chose %+v, %v; want host from the table", d, err)
	}
	if d, err := choose("lpanel:panel=16", "vendor"); err != nil || d.Spelling != "lpanel:panel=16" || d.Tag != "pin native, last resort" {
		t.Errorf("native chose %+v, %v; want lpanel:panel=16", d, err)
	}
	pinned(t, "potrf", "vendor")
	if d, err := choose("vendor", "host"); err != nil || d.Spelling != "vendor" {
		t.Errorf("vendor chose %+v, %v", d, err)
	}
	// Nothing of the class runs: auto, with one warning.
	out.Reset()
	for range 2 {
		if d, err := choose("host"); err != nil || d.Spelling != "host" || d.Tag != "cpu" {
			t.Errorf("vendor with no vendor runnable chose %+v, %v; want host by the table", d, err)
		}
	}
	if n := strings.Count(out.String(), "\n"); n != 1 || !strings.Contains(out.String(), `pin "vendor" has no vendor family`) {
		t.Errorf("fallback warnings: %q", out)
	}
}

func TestEnvPin(t *testing.T) {
	l := NewLibrary(nil)
	cs := cands("vendor", "vendor", "host")
	t.Setenv("BATCHLAS_POTRF_ROUTE", " Host ")
	// The snapshot does not see the variable until Reload.
	if d, _ := l.Choose(request("cpu", cs, "vendor", "host")); d.Spelling != "vendor" {
		t.Errorf("before Reload chose %s, want vendor", d.Spelling)
	}
	Reload()
	t.Cleanup(func() { os.Unsetenv("BATCHLAS_POTRF_ROUTE"); Reload() })
	if d, _ := l.Choose(request("cpu", cs, "vendor", "host")); d.Spelling != "host" || d.Tag != "pin" {
		t.Errorf("env pin chose %+v, want host", d)
	}
	// A scoped pin wins over the environment, auto included.
	restore, err := Pin("potrf", "auto")
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := l.Choose(request("cpu", cs, "vendor", "host")); d.Spelling != "vendor" {
		t.Errorf("scoped auto chose %s, want vendor", d.Spelling)
	}
	restore()
	t.Setenv("BATCHLAS_POTRF_ROUTE", "nosuch")
	Reload()
	_, err = l.Choose(request("cpu", cs, "host"))
	var pe *PinError
	if !errors.As(err, &pe) || !pe.Env || !strings.Contains(err.Error(), "BATCHLAS_POTRF_ROUTE=") {
		t.Errorf("unknown env pin gave %v, want a PinError naming the variable", err)
	}
}

func TestTraceLine(t *testing.T) {
	r := request("sm_90", cands("vendor", "lpanel:panel=8", "blocked", "vendor"))
	r.Key = []KV{{"uplo", "L"}, {"n", "64"}, {"batch", "8192"}}
	for _, c := range []struct {
		d    Decision
		want string
	}{
		{Decision{Spelling: "lpanel:panel=8", Time: 0.302, Next: "vendor", NextTime: 0.49, Table: "sm_90", Tag: "sm_90"},
			"potrf f64 uplo=L n=64 batch=8192 -> lpanel:panel=8 0.302 ms, next vendor 0.49 ms [sm_90]"},
		{Decision{Spelling: "blocked", Time: 14.1, Next: "vendor", NextTime: 13.74, Table: "sm_90", Tag: "sm_90"},
			"potrf f64 uplo=L n=64 batch=8192 -> blocked 14.1 ms, tied with vendor 13.74 ms (3%) [sm_90]"},
		{Decision{Spelling: "blocked", Time: math.NaN(), NextTime: math.NaN(), Table: "sm_89", Tag: "borrowed sm_89"},
			"potrf f64 uplo=L n=64 batch=8192 -> blocked untimed, no runner-up [borrowed sm_89]"},
		{Decision{Spelling: "vendor", Time: math.NaN(), Tag: "pin"},
			"potrf f64 uplo=L n=64 batch=8192 -> vendor [pin]"},
	} {
		if got := TraceLine(r, c.d); got != c.want {
			t.Errorf("TraceLine = %q\nwant        %q", got, c.want)
		}
	}
	r.Depth = 2
	for _, c := range []struct {
		d    Decision
		want string
	}{
		{Decision{Spelling: "vendor", Time: math.NaN(), Tag: "last resort"},
			"    potrf f64 uplo=L n=64 batch=8192 -> vendor [last resort]"},
	} {
		if got := TraceLine(r, c.d); got != c.want {
			t.Errorf("TraceLine = %q\nwant        %q", got, c.want)
		}
	}
}

func TestReportAndCoverage(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "cov.jsonl")
	t.Setenv("BATCHLAS_SELECT_TRACE", "1")
	t.Setenv("BATCHLAS_COVERAGE_OUT", file)
	Reload()
	t.Cleanup(func() { os.Unsetenv("BATCHLAS_SELECT_TRACE"); os.Unsetenv("BATCHLAS_COVERAGE_OUT"); Reload() })
	l := NewLibrary(fstest.MapFS{"potrf.cpu.txt": table("potrf", "cpu", "host", "vendor")})
	out := quiet(l)
	cs := cands("vendor", "vendor", "host")
	for _, runs := range [][]string{{"host", "vendor"}, {"host", "vendor"}, {"vendor"}, nil} {
		r := request("cpu", cs, runs...)
		if d, err := l.Choose(r); err == nil {
			l.Report(r, d)(0.5) // the call took 0.5 ms
		} else {
			l.Miss(r)
		}
	}
	// The two identical calls fold into one line; each line is printed when a different one
	// follows, the last at Flush.
	wantTrace := "potrf f64 n=16 -> host untimed, next vendor untimed [cpu]; 2 identical calls, took 0.5 ms each on average\n" +
		"potrf f64 n=16 -> vendor untimed, no runner-up [cpu]; took 0.5 ms\n"
	if out.String() != wantTrace {
		t.Errorf("trace:\n%s\nwant\n%s", out, wantTrace)
	}
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	if want := wantTrace + "potrf f64 n=16 -> no route [miss]\n"; out.String() != want {
		t.Errorf("trace after Flush:\n%s\nwant\n%s", out, want)
	}
	if err := l.Flush(); err != nil { // nothing new: nothing written
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := ReadCoverage(f)
	if err != nil {
		t.Fatal(err)
	}
	want := []CoverageRow{
		{Kind: "miss", Op: "potrf", DType: "f64", Device: "cpu", Key: "n=16", Count: 1},
		{Kind: "reached", Op: "potrf", DType: "f64", Device: "cpu", Key: "n=16", Chosen: "host", Origin: "native", Table: "cpu", Count: 2},
		{Kind: "reached", Op: "potrf", DType: "f64", Device: "cpu", Key: "n=16", Chosen: "vendor", Origin: "vendor", Table: "cpu", Count: 1},
	}
	if len(rows) != len(want) {
		t.Fatalf("rows %+v, want %+v", rows, want)
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d = %+v, want %+v", i, rows[i], want[i])
		}
	}
}

func TestTunedDirOverride(t *testing.T) {
	dir := t.TempDir()
	over := table("potrf", "cpu", "vendor", "host").Data
	if err := os.WriteFile(filepath.Join(dir, "potrf.cpu.txt"), over, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "potrf.sm_90.txt"), []byte("not a table"), 0o644); err != nil {
		t.Fatal(err)
	}
	l := NewLibrary(fstest.MapFS{"potrf.cpu.txt": table("potrf", "cpu", "host", "vendor")})
	out := quiet(l)
	cs := cands("vendor", "vendor", "host")
	if d, _ := l.Choose(request("cpu", cs, "vendor", "host")); d.Spelling != "host" || d.Tag != "cpu" {
		t.Errorf("built-in table chose %+v", d)
	}
	t.Setenv("BATCHLAS_TUNED_DIR", dir)
	Reload()
	t.Cleanup(func() { os.Unsetenv("BATCHLAS_TUNED_DIR"); Reload() })
	if d, _ := l.Choose(request("cpu", cs, "vendor", "host")); d.Spelling != "vendor" || d.Tag != "override cpu" {
		t.Errorf("override chose %+v, want vendor [override cpu]", d)
	}
	if p := l.Problems(); len(p) != 1 || !strings.Contains(p[0], "potrf.sm_90.txt") || !strings.Contains(out.String(), "not used") {
		t.Errorf("problems %v, output %q: want the bad override reported", p, out)
	}
}

func TestTableProblems(t *testing.T) {
	l := NewLibrary(fstest.MapFS{"potrf.cpu.txt": table("potrf", "cpu", "cta", "host")})
	quiet(l)
	r := request("cpu", cands("", "host"), "host")
	r.Key = []KV{{"uplo", "L"}, {"n", "16"}}
	if d, err := l.Choose(r); err != nil || d.Spelling != "host" {
		t.Fatalf("chose %+v, %v", d, err)
	}
	p := strings.Join(l.Problems(), "\n")
	if !strings.Contains(p, "cta is not a f64 candidate of potrf") || !strings.Contains(p, "keys dtype n, but potrf calls have dtype uplo n") {
		t.Errorf("problems:\n%s", p)
	}
}

// BenchmarkChoose is the cost selection adds to every call: a table of 32 rows, no pin.
func BenchmarkChoose(b *testing.B) {
	var text strings.Builder
	text.WriteString("# source=transcribed\n# op=potrf device=cpu\n# keys: dtype:exact uplo:exact n:log batch:log\n")
	for _, u := range "LU" {
		for n := 1; n <= 1024; n *= 2 {
			for _, batch := range []int{128, 8192} {
				fmt.Fprintf(&text, "dtype=f64 uplo=%c n=%d batch=%d | host - | vendor -\n", u, n, batch)
			}
		}
	}
	l := NewLibrary(fstest.MapFS{"potrf.cpu.txt": &fstest.MapFile{Data: []byte(text.String())}})
	r := request("cpu", cands("vendor", "vendor", "host"), "host", "vendor")
	r.Key = []KV{{"uplo", "L"}, {"n", "100"}, {"batch", "1000"}}
	for b.Loop() {
		if d, err := l.Choose(r); err != nil || d.Spelling != "host" {
			b.Fatal(d, err)
		}
	}
}

// TestConcurrentChoose chooses, traces and counts from many goroutines (run with -race).
func TestConcurrentChoose(t *testing.T) {
	t.Setenv("BATCHLAS_SELECT_TRACE", "1")
	t.Setenv("BATCHLAS_COVERAGE_OUT", filepath.Join(t.TempDir(), "cov.jsonl"))
	Reload()
	t.Cleanup(func() { os.Unsetenv("BATCHLAS_SELECT_TRACE"); os.Unsetenv("BATCHLAS_COVERAGE_OUT"); Reload() })
	l := NewLibrary(fstest.MapFS{"potrf.sm_89.txt": table("potrf", "sm_89", "cta", "host")})
	quiet(l)
	done := make(chan bool)
	for g := range 8 {
		go func() {
			for range 100 {
				r := request("sm_86", cands("", "cta", "host"), "host")
				if g%2 == 0 {
					r = request("sm_89", cands("", "cta", "host"), "cta")
				}
				if d, err := l.Choose(r); err == nil {
					l.Report(r, d)
				}
			}
			done <- true
		}()
	}
	for range 8 {
		<-done
	}
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
}
