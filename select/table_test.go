package selection

import (
	"math"
	"strings"
	"testing"
)

const seedTable = `# op=potrf device=sm_90 batchlas=abc kernels=def date=2026-10-06
# source=ledger:bench/results/tuning/potrf.sm_90.jsonl tiers=deep:4
# keys: dtype:exact uplo:exact n:log:3 batch:log
dtype=f32 uplo=L n=64  batch=8192  | lpanel:panel=8 0.302 | vendor 0.490 | cta 0.530 | blocked 0.536 # deep
dtype=f32 uplo=L n=512 batch=2048  | blocked 14.10 | vendor 13.74 | lpanel:panel=8 14.84 # deep
dtype=f32 uplo=U n=64  batch=8192  | cta 0.4 | vendor 0.5 # deep
dtype=f64 uplo=L n=8 batch=128 | tiny - | cta - # transcribed
`

func TestParseTable(t *testing.T) {
	tb, err := ParseTable(seedTable)
	if err != nil {
		t.Fatal(err)
	}
	if tb.Op != "potrf" || tb.Device != "sm_90" || tb.Header["kernels"] != "def" || len(tb.Rows) != 4 {
		t.Fatalf("header or rows wrong: %+v", tb)
	}
	want := []KeySpec{{"dtype", true, 1}, {"uplo", true, 1}, {"n", false, 3}, {"batch", false, 1}}
	for i, k := range want {
		if tb.Keys[i] != k {
			t.Errorf("key %d = %+v, want %+v", i, tb.Keys[i], k)
		}
	}
	r := tb.Rows[1]
	if r.Tier != "deep" || r.Entries[1].Spelling.String() != "vendor" || r.Entries[1].Time != 13.74 || !r.Timed() {
		t.Errorf("row 2 = %+v", r)
	}
	if u := tb.Rows[3]; u.Timed() || !math.IsNaN(u.Entries[1].Time) || u.Tier != "transcribed" {
		t.Errorf("untimed row = %+v", u)
	}
	if err := tb.CheckRanks(); err != nil {
		t.Errorf("CheckRanks: %v (vendor 13.74 after blocked 14.10 is a tie)", err)
	}
	if d := tb.DTypes(); strings.Join(d, ",") != "f32,f64" {
		t.Errorf("DTypes = %v", d)
	}
}

func TestParseTableErrors(t *testing.T) {
	const keys = "# keys: dtype:exact n:log\n"
	for name, text := range map[string]string{
		"no keys line":       "# op=x\n",
		"row before keys":    "dtype=f32 n=4 | a 1\n" + keys,
		"two keys lines":     keys + keys,
		"dtype not first":    "# keys: n:log dtype:exact\n",
		"dtype not exact":    "# keys: dtype:log\n",
		"bad key kind":       "# keys: dtype:exact n:linear\n",
		"bad weight":         "# keys: dtype:exact n:log:-1\n",
		"key twice":          "# keys: dtype:exact n:log n:exact\n",
		"missing key":        keys + "dtype=f32 | a 1\n",
		"keys out of order":  keys + "n=4 dtype=f32 | a 1\n",
		"zero log value":     keys + "dtype=f32 n=0 | a 1\n",
		"no candidates":      keys + "dtype=f32 n=4\n",
		"no time":            keys + "dtype=f32 n=4 | a\n",
		"bad time":           keys + "dtype=f32 n=4 | a fast\n",
		"negative time":      keys + "dtype=f32 n=4 | a -1\n",
		"bad spelling":       keys + "dtype=f32 n=4 | 9a 1\n",
		"mixed timing":       "# source=transcribed\n" + keys + "dtype=f32 n=4 | a 1 | b -\n",
		"untimed, no source": keys + "dtype=f32 n=4 | a - | b -\n",
	} {
		if _, err := ParseTable(text); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestCheckRanks(t *testing.T) {
	tb, err := ParseTable("# keys: dtype:exact n:log\ndtype=f32 n=4 | a 1 | b 1.02 | c 2\ndtype=f32 n=8 | a 1 | b 0.9 # tier\n")
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.CheckRanks(); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("CheckRanks = %v, want the error of line 3", err)
	}
}

func TestNearest(t *testing.T) {
	tb, err := ParseTable(`# source=transcribed
# keys: dtype:exact uplo:exact trans:exact n:log:3 batch:log
dtype=f32 uplo=L trans=N n=8 batch=128 | a - # 1
dtype=f32 uplo=L trans=N n=64 batch=128 | b - # 2
dtype=f32 uplo=L trans=N n=64 batch=8192 | c - # 3
dtype=f32 uplo=L trans=T n=16 batch=128 | d - # 4
dtype=f32 uplo=U trans=N n=32 batch=128 | e - # 5
dtype=f64 uplo=L trans=N n=8 batch=128 | f - # 6
`)
	if err != nil {
		t.Fatal(err)
	}
	key := func(uplo, trans, n, batch string) []KV {
		return []KV{{"uplo", uplo}, {"trans", trans}, {"n", n}, {"batch", batch}}
	}
	for _, c := range []struct {
		dtype string
		key   []KV
		want  string
	}{
		{"f32", key("L", "N", "8", "128"), "a"},
		{"f32", key("L", "N", "60", "100"), "b"},
		{"f32", key("l", "n", "64", "4096"), "c"}, // exact keys fold case
		{"f32", key("L", "T", "1000", "1"), "d"},
		{"f32", key("U", "N", "1", "1"), "e"},
		{"f32", key("U", "T", "64", "128"), "e"},  // no U,T row: trans dropped, U kept
		{"f32", key("X", "Y", "64", "8192"), "c"}, // both exact keys dropped
		{"f32", key("L", "N", "0", "0"), "a"},     // values below 1 count as 1
		{"f64", key("U", "T", "4", "4"), "f"},
		// n is weighted 3: n=22 is 1.46 from 8 and 1.54 from 64 in log2, batch 128 vs 8192 is 6.
		{"f32", key("L", "N", "22", "128"), "a"},
		// n=16: 1 from 8 and 2 from 64 (times 3); batch=1024: 3 from 128, 3 from 8192: row 1.
		{"f32", key("L", "N", "16", "1024"), "a"},
	} {
		r := tb.Nearest(c.dtype, c.key)
		if r == nil || r.Entries[0].Spelling.Family != c.want {
			t.Errorf("Nearest(%s %v) = %v, want row %s", c.dtype, c.key, r, c.want)
		}
	}
	if r := tb.Nearest("c64", key("L", "N", "8", "128")); r != nil {
		t.Errorf("Nearest of a dtype with no rows = %v", r)
	}
	// Ties go to the row with the smaller log keys: n=64 batch=1024 is 3 from both rows 2 and 3.
	if r := tb.Nearest("f32", key("L", "N", "64", "1024")); r == nil || r.Entries[0].Spelling.Family != "b" {
		t.Errorf("tie went to %v, want row b (smaller batch)", r)
	}
	// A key the call lacks is ignored.
	if r := tb.Nearest("f32", []KV{{"uplo", "U"}}); r == nil || r.Entries[0].Spelling.Family != "e" {
		t.Errorf("Nearest with only uplo = %v, want e", r)
	}
}

func FuzzParseTable(f *testing.F) {
	f.Add(seedTable, "f32", "L", "100", "1000")
	f.Add("# keys: dtype:exact n:log:2\ndtype=f32 n=4 | a 1 | b 2\n", "f32", "", "4", "")
	f.Add("# source=transcribed\n# keys: dtype:exact\ndtype=c64 | a - # x\n", "c64", "U", "-1", "NaN")
	f.Add("#keys:\n|||\n", "", "", "", "")
	f.Fuzz(func(t *testing.T, text, dtype, uplo, n, batch string) {
		tb, err := ParseTable(text)
		if err != nil {
			return
		}
		_ = tb.CheckRanks()
		again, err := ParseTable(tb.Format())
		if err != nil || again.Format() != tb.Format() {
			t.Fatalf("Format does not round-trip: %v\n%s", err, tb.Format())
		}
		for _, d := range append(tb.DTypes(), dtype) {
			if r := tb.Nearest(d, []KV{{"uplo", uplo}, {"n", n}, {"batch", batch}}); r != nil && len(r.Entries) == 0 {
				t.Fatalf("row %d has no entries", r.Line)
			}
		}
	})
}
