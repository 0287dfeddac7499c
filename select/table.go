package selection

import (
	"bufio"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A table ranks an op's candidates on one device, one row per measured (or transcribed) call
// key. The file tuned/<op>.<device>.txt holds the rows of every dtype:
//
//	# op=potrf device=sm_90 batchlas=<sha> kernels=<hash> date=<date>
//	# source=ledger:<measurements>.jsonl tiers=deep:1345
//	# keys: dtype:exact uplo:exact n:log:3 batch:log
//	dtype=f32 uplo=L n=64 batch=8192 | lpanel:panel=8 0.302 | vendor 0.490 | cta 0.530 # deep
//	dtype=f64 uplo=L n=8 batch=128 | tiny - | cta - # transcribed
//
// Header lines are comments; those made of key=value words are kept in Table.Header. The
// keys line names the row keys in order: an exact key must equal the call's value, a log key
// is compared by weighted log2 distance (weight w from name:log:w, default 1). The first key
// is dtype:exact. After the keys, a row lists its candidates in rank order with their times
// in milliseconds per call, or "-" for every candidate of an untimed row; the comment is the
// row's tier. Untimed rows need a header source=ledger:... or source=transcribed....

// KeySpec is one key of a table.
type KeySpec struct {
	Name   string
	Exact  bool
	Weight float64 // for log keys
}

// Entry is one ranked candidate of a row.
type Entry struct {
	Spelling Spelling
	Time     float64 // milliseconds; NaN when untimed
}

// Row is one line of a table.
type Row struct {
	Values  []string  // per key, in Keys order
	logs    []float64 // log2 of each log key's value, NaN for exact keys
	Entries []Entry
	Tier    string
	Line    int
}

// Timed reports whether the row has times.
func (r *Row) Timed() bool { return len(r.Entries) > 0 && !math.IsNaN(r.Entries[0].Time) }

// Table is a parsed table file.
type Table struct {
	Op, Device string
	Header     map[string]string
	Keys       []KeySpec
	Rows       []Row
}

// ParseTable reads a table. Every error names the line.
func ParseTable(text string) (*Table, error) {
	t := &Table{Header: map[string]string{}}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	untimed := 0
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		var err error
		switch {
		case s == "":
		case strings.HasPrefix(s, "#"):
			err = t.header(strings.TrimSpace(s[1:]))
		case t.Keys == nil:
			err = fmt.Errorf("a row before the keys line")
		default:
			var r Row
			if r, err = t.row(s); err == nil {
				r.Line = line
				if !r.Timed() {
					untimed++
				}
				t.Rows = append(t.Rows, r)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if t.Keys == nil {
		return nil, fmt.Errorf("no keys line")
	}
	src := t.Header["source"]
	if untimed > 0 && !strings.HasPrefix(src, "ledger:") && !strings.HasPrefix(src, "transcribed") {
		return nil, fmt.Errorf("%d untimed rows, but the header has no source=ledger:... or source=transcribed...", untimed)
	}
	t.Op, t.Device = t.Header["op"], t.Header["device"]
	return t, nil
}

func (t *Table) header(s string) error {
	if rest, ok := strings.CutPrefix(s, "keys:"); ok {
		if t.Keys != nil {
			return fmt.Errorf("a second keys line")
		}
		return t.keys(strings.Fields(rest))
	}
	words := strings.Fields(s)
	for _, w := range words {
		if k, _, ok := strings.Cut(w, "="); !ok || k == "" {
			return nil // free text
		}
	}
	for _, w := range words {
		k, v, _ := strings.Cut(w, "=")
		t.Header[k] = v
	}
	return nil
}

func (t *Table) keys(words []string) error {
	t.Keys = []KeySpec{}
	seen := map[string]bool{}
	for _, w := range words {
		p := strings.Split(strings.ToLower(w), ":")
		k := KeySpec{Name: p[0], Weight: 1}
		switch {
		case !isName(k.Name) || seen[k.Name]:
			return fmt.Errorf("key %q: not a name, or named twice", w)
		case len(p) == 2 && p[1] == "exact":
			k.Exact = true
		case len(p) == 2 && p[1] == "log":
		case len(p) == 3 && p[1] == "log":
			wt, err := strconv.ParseFloat(p[2], 64)
			if err != nil || !(wt > 0) || math.IsInf(wt, 0) {
				return fmt.Errorf("key %q: weight must be a positive number", w)
			}
			k.Weight = wt
		default:
			return fmt.Errorf("key %q: want name:exact, name:log or name:log:weight", w)
		}
		seen[k.Name] = true
		t.Keys = append(t.Keys, k)
	}
	if len(t.Keys) == 0 || t.Keys[0].Name != "dtype" || !t.Keys[0].Exact {
		return fmt.Errorf("the first key must be dtype:exact")
	}
	return nil
}

func (t *Table) row(s string) (Row, error) {
	var r Row
	s, r.Tier, _ = strings.Cut(s, "#")
	r.Tier = strings.TrimSpace(r.Tier)
	cells := strings.Split(s, "|")
	kv := strings.Fields(cells[0])
	if len(kv) != len(t.Keys) {
		return r, fmt.Errorf("%d key values, want %d", len(kv), len(t.Keys))
	}
	for i, w := range kv {
		name, val, _ := strings.Cut(w, "=")
		k := t.Keys[i]
		if !strings.EqualFold(name, k.Name) || val == "" {
			return r, fmt.Errorf("key %q: want %s=<value> in the keys line's order", w, k.Name)
		}
		lg := math.NaN()
		if !k.Exact {
			v, err := strconv.ParseFloat(val, 64)
			if err != nil || !(v > 0) || math.IsInf(v, 0) {
				return r, fmt.Errorf("key %q: a log key needs a positive number", w)
			}
			lg = math.Log2(v)
		}
		r.Values, r.logs = append(r.Values, val), append(r.logs, lg)
	}
	if len(cells) < 2 {
		return r, fmt.Errorf("no candidates")
	}
	for _, c := range cells[1:] {
		f := strings.Fields(c)
		if len(f) != 2 {
			return r, fmt.Errorf("candidate %q: want <spelling> <time or ->", strings.TrimSpace(c))
		}
		sp, err := ParseSpelling(f[0])
		if err != nil {
			return r, err
		}
		e := Entry{Spelling: sp, Time: math.NaN()}
		if f[1] != "-" {
			if e.Time, err = strconv.ParseFloat(f[1], 64); err != nil || !(e.Time >= 0) || math.IsInf(e.Time, 0) {
				return r, fmt.Errorf("candidate %q: time %q is not a number of milliseconds", f[0], f[1])
			}
		}
		if len(r.Entries) > 0 && math.IsNaN(e.Time) != math.IsNaN(r.Entries[0].Time) {
			return r, fmt.Errorf("a row is either all timed or all untimed")
		}
		r.Entries = append(r.Entries, e)
	}
	return r, nil
}

// TieRatio is the tie rule of ranked times: candidates within 3% of each other are tied, and
// ties go to the candidate-list order.
const TieRatio = 1.03

// CheckRanks reports the first row whose times are not ascending, ties (TieRatio) apart.
func (t *Table) CheckRanks() error {
	for _, r := range t.Rows {
		for i := 1; i < len(r.Entries); i++ {
			if r.Timed() && r.Entries[i].Time*TieRatio < r.Entries[i-1].Time {
				return fmt.Errorf("line %d: %s %g ranked after %s %g", r.Line,
					r.Entries[i].Spelling, r.Entries[i].Time, r.Entries[i-1].Spelling, r.Entries[i-1].Time)
			}
		}
	}
	return nil
}

// DTypes lists the dtypes the table has rows for, in first-row order.
func (t *Table) DTypes() []string {
	var d []string
	seen := map[string]bool{}
	for _, r := range t.Rows {
		if !seen[r.Values[0]] {
			seen[r.Values[0]] = true
			d = append(d, r.Values[0])
		}
	}
	return d
}

// Nearest is the row for a call of dtype with the given key: the rows of dtype whose exact
// keys equal the call's (dropping the rightmost exact key while none does), and among them
// the one at the smallest weighted distance sum w*|log2(row/call)| over the log keys; ties
// (within 1e-9) go to the row with the smaller log keys, in keys-line order. Values below 1
// count as 1. A key the call lacks is ignored. nil when the table has no row of dtype.
func (t *Table) Nearest(dtype string, key []KV) *Row {
	vals := make([]string, len(t.Keys))
	has := make([]bool, len(t.Keys))
	logs := make([]float64, len(t.Keys)) // NaN: not compared
	for i, k := range t.Keys {
		logs[i] = math.NaN()
		for _, kv := range key {
			if strings.EqualFold(kv.Name, k.Name) {
				vals[i], has[i] = kv.Value, true
				if v, err := strconv.ParseFloat(kv.Value, 64); err == nil && !k.Exact && !math.IsNaN(v) {
					logs[i] = math.Log2(max(v, 1))
				}
			}
		}
	}
	var exact []int
	for i, k := range t.Keys[1:] {
		if k.Exact && has[i+1] {
			exact = append(exact, i+1)
		}
	}
	for keep := len(exact); keep >= 0; keep-- {
		if r := t.nearestOf(dtype, exact[:keep], vals, logs); r != nil {
			return r
		}
	}
	return nil
}

func (t *Table) nearestOf(dtype string, exact []int, vals []string, logs []float64) *Row {
	var best *Row
	bestD := math.Inf(1)
rows:
	for i := range t.Rows {
		r := &t.Rows[i]
		if !strings.EqualFold(r.Values[0], dtype) {
			continue
		}
		for _, k := range exact {
			if !strings.EqualFold(r.Values[k], vals[k]) {
				continue rows
			}
		}
		d := 0.0
		for k, spec := range t.Keys {
			if !math.IsNaN(logs[k]) {
				d += spec.Weight * math.Abs(r.logs[k]-logs[k])
			}
		}
		switch {
		case best == nil || d < bestD-1e-9:
		case d <= bestD+1e-9 && smallerLogs(r, best):
		default:
			continue
		}
		best, bestD = r, d
	}
	return best
}

func smallerLogs(a, b *Row) bool {
	for k := range a.logs {
		if math.IsNaN(a.logs[k]) || a.logs[k] == b.logs[k] {
			continue
		}
		return a.logs[k] < b.logs[k]
	}
	return false
}
