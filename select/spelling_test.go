package selection

import (
	"strings"
	"testing"
)

func TestParseSpelling(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"host", "host"},
		{"  LPanel : Panel = 8 ", "lpanel:panel=8"},
		{"lpanel:8", "lpanel:8"},
		{"reg:m=128:n=128:k=8:u=1", "reg:m=128:n=128:k=8:u=1"},
		{"VENDOR", "vendor"},
		{"tiny_2:x=-3", "tiny_2:x=-3"},
	} {
		s, err := ParseSpelling(c.in)
		if err != nil || s.String() != c.want {
			t.Errorf("ParseSpelling(%q) = %q, %v; want %q", c.in, s, err, c.want)
		}
		if again, err := ParseSpelling(s.String()); err != nil || again.String() != s.String() {
			t.Errorf("%q does not round-trip: %q, %v", s, again, err)
		}
	}
	for _, bad := range []string{"", "  ", "8tiny", "lpanel:", "lpanel:panel=", "lpanel:=8", "lpanel:panel=x",
		"lpanel:9x=1", "lp anel", "host:1.5", "tiny:a=1=2"} {
		if s, err := ParseSpelling(bad); err == nil {
			t.Errorf("ParseSpelling(%q) = %q; want an error", bad, s)
		}
	}
}

func TestResolve(t *testing.T) {
	cands := []Candidate{
		{Spelling: MustSpelling("lpanel:panel=8")},
		{Spelling: MustSpelling("lpanel:panel=16")},
		{Spelling: MustSpelling("reg:m=64:n=32")},
		{Spelling: MustSpelling("host")},
	}
	for in, want := range map[string]int{
		"lpanel:panel=16": 1, "lpanel:16": 1, "LPANEL:8": 0, "lpanel": 0, "reg:32": -1, "reg:64:32": 2,
		"reg:n=32": 2, "reg:n=32:m=64": 2, "host": 3, "host:1": -1, "lpanel:panel=4": -1, "cta": -1,
	} {
		if got := Resolve(MustSpelling(in), cands); got != want {
			t.Errorf("Resolve(%q) = %d, want %d", in, got, want)
		}
	}
	// Table entries must spell every field.
	if got := resolveExact(MustSpelling("lpanel"), cands); got != -1 {
		t.Errorf("resolveExact(lpanel) = %d, want -1", got)
	}
}

func TestParseDeviceKey(t *testing.T) {
	for key, want := range map[string]struct {
		f string
		a int
	}{"sm_90": {"sm", 90}, "SM_120": {"sm", 120}, "gfx90a": {"gfx", 90}, "gfx1100": {"gfx", 1100},
		"intel_12": {"intel", 12}, "cpu": {"cpu", 0}, "tpu": {"tpu", 0}} {
		if f, a := ParseDeviceKey(key); f != want.f || a != want.a {
			t.Errorf("ParseDeviceKey(%q) = %q, %d; want %q, %d", key, f, a, want.f, want.a)
		}
	}
}

func FuzzParseSpelling(f *testing.F) {
	for _, s := range []string{"host", "lpanel:panel=8", "lpanel:8", "reg:m=128:n=128:k=8:u=1", ":", "a:b=c", "x:=1", "Ä:1"} {
		f.Add(s)
	}
	cands := []Candidate{{Spelling: MustSpelling("lpanel:panel=8")}, {Spelling: MustSpelling("host")}}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseSpelling(in)
		if err != nil {
			return
		}
		Resolve(s, cands)
		again, err := ParseSpelling(s.String())
		if err != nil || again.String() != s.String() {
			t.Fatalf("%q parsed to %q, which reparses to %q, %v", in, s, again, err)
		}
		if s.String() != strings.ToLower(s.String()) {
			t.Fatalf("%q is not case-folded", s)
		}
	})
}

func TestUnknownRoutes(t *testing.T) {
	t.Cleanup(func() { Reload() }) // last, after the variables are restored
	t.Setenv("BATCHLAS_POTRFF_ROUTE", "host")
	t.Setenv("BATCHLAS_GETRF_ROUTE", "host")
	Reload()
	if bad := UnknownRoutes([]string{"potrf", "getrf"}); len(bad) != 1 || bad[0] != "BATCHLAS_POTRFF_ROUTE" {
		t.Errorf("UnknownRoutes = %v", bad)
	}
}
