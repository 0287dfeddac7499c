// Command totable turns the JSON lines that batchbench wrote for one op on one device (the
// cpu through bench/cpu_vendor.sh, a GPU through bench/device.sh) into that op's table
// tuned/<op>.<device>.txt, in the format package selection parses, and prints it.
//
//	go run ./bench/totable -op getrf bench/results/cpu/getrf.jsonl > tuned/getrf.cpu.txt
//	go run ./bench/totable -op getrf -device sm_90 -size-weight 8 -source bench/results/sm_90/getrf.jsonl \
//	    bench/results/sm_90/getrf.jsonl > tuned/getrf.sm_90.txt
//
// Each measured row ranks the arms by the mean of their medians over the two interleaved
// orders, with selection.Rank (ties within 3% keep the candidate-list order). The keys line
// comes from the op's current table, except that the size keys (m, n, k) weigh sizeWeight
// (-size-weight) against batch: the measured batches shrink as n grows, and at equal weights
// a small call would land on the largest n's row. Keys the benchmark does not vary take the value it used
// (uplo L, jobz V, jobu and jobvt S). The dtypes that were not measured (f32, c64) get
// untimed rows ranked as the measured dtype of the same precision class (f64, c128) at the
// same size, marked transcribed, unless they were measured at that size themselves.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/batchlas/batchlas/route"
	selection "github.com/batchlas/batchlas/select"
)

// fixed are the values of the keys that batchbench's cases hold constant, with the ops whose
// cases differ from the rest.
var fixed = map[string]string{"uplo": "L", "jobz": "V", "jobu": "S", "jobvt": "S",
	"trans": "N", "side": "L", "transa": "N", "transb": "N", "diag": "N"}

var fixedOf = map[string]map[string]string{"ormqr": {"trans": "C"}}

// renamed maps, per op, an arm spelling of older JSON lines to the family's spelling now: getrf's
// "warp" (the lines of a02cde5 in bench/results/sm_90/getrf.jsonl) is warp:smem=0. The lines
// stay as measured; the table names the family by its current spelling.
var renamed = map[string]map[string]string{"getrf": {"warp": "warp:smem=0"}}

// sizeWeight is the weight of the size keys (-size-weight): 3 by default, as in the cpu
// tables of the factorizations and decompositions; the sm_90 potrf, getrf, gesvd and gels tables use 8, so that rows measured at one batch
// near n stay nearer than rows of another n at another batch (a batch 4x off weighs as much
// as n 19% off), for the kernel a call wants turns on n far more than on the batch.
var sizeWeight = 3.0

// note says where the source's lines came from (-note); it is written, wrapped, under the source=
// line, which must stay one word for package selection to read it.
var note string

// load is where the load averages of the cpu runs are (-load), for the cpu tables' header.
var load = "bench/results/cpu/load.txt"

// untimedFrom names, per unmeasured dtype, the measured dtype whose ranking it borrows.
var untimedFrom = map[string]string{"f32": "f64", "c64": "c128"}

type line struct {
	Op, DType, Arm, Order, Date, Commit string
	Jobz                                string // syev's, where batchbench -jobz recorded it
	Error                               string // why the arm could not run, if it could not
	M, N, K, Batch                      int
	NNZ                                 int // spmm's stored entries per matrix, which turn on n alone
	MS                                  float64
	Verified                            bool
}

func main() {
	op := flag.String("op", "", "the op")
	tables := flag.String("tables", "tuned", "folder of the current tables, for the keys line")
	device := flag.String("device", "cpu", "the device key of the measurements (cpu, sm_90, ...)")
	source := flag.String("source", "", "where the measurements are committed (default: bench/results/cpu/<op>.jsonl)")
	flag.StringVar(&note, "note", "", "where the source's lines came from, for a comment under the source= line")
	flag.StringVar(&load, "load", load, "where the cpu runs' load averages are (the cpu header names it)")
	flag.Float64Var(&sizeWeight, "size-weight", sizeWeight, "weight of the size keys m, n, k against batch")
	flag.Parse()
	if *source == "" {
		*source = fmt.Sprintf("bench/results/cpu/%s.jsonl", *op)
	}
	if err := run(*op, *tables, *device, *source, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "totable:", err)
		os.Exit(1)
	}
}

func run(op, tables, device, source string, files []string) error {
	cur, err := os.ReadFile(fmt.Sprintf("%s/%s.cpu.txt", tables, op))
	if err != nil {
		return err
	}
	old, err := selection.ParseTable(string(cur))
	if err != nil {
		return err
	}
	lines, err := read(op, files)
	if err != nil {
		return err
	}
	// The last line of each (dtype, size, arm, order) wins, so that a rerun replaces a run.
	type cell struct {
		dtype    string
		jobz     string
		m, n, k  int
		batch    int
		arm, ord string
	}
	last := map[cell]line{}
	var keys []cell // row cells (arm and order empty), in first-seen order
	measured := map[cell]bool{}
	nnz := map[int]int{} // by n
	date, commit := "", ""
	var renames, renamedAt []string // the arms renamed, and the commits of their lines
	for _, l := range lines {
		if to, ok := renamed[op][l.Arm]; ok {
			if r := fmt.Sprintf("%q|%s", l.Arm, to); !slices.Contains(renames, r) {
				renames = append(renames, r)
			}
			if !slices.Contains(renamedAt, l.Commit) {
				renamedAt = append(renamedAt, l.Commit)
			}
			l.Arm = to
		}
		if strings.HasPrefix(l.Arm, "ref:") || l.Arm == "auto" {
			continue // a yardstick (batchbench's ref arms) or the router's own choice, not a family
		}
		if l.Error != "" {
			continue // the arm could not run this shape (a vendor routine's limit): no candidate
		}
		if !l.Verified {
			return fmt.Errorf("%s %s n=%d arm %s failed verification", l.Op, l.DType, l.N, l.Arm)
		}
		c := cell{l.DType, l.Jobz, l.M, l.N, l.K, l.Batch, l.Arm, l.Order}
		if l.NNZ > 0 {
			nnz[l.N] = l.NNZ
		}
		last[c] = l
		if r := (cell{dtype: l.DType, jobz: l.Jobz, m: l.M, n: l.N, k: l.K, batch: l.Batch}); !slices.Contains(keys, r) {
			keys = append(keys, r)
			measured[cell{dtype: l.DType, jobz: l.Jobz, m: l.M, n: l.N, k: l.K}] = true
		}
		date, commit = max(date, l.Date), l.Commit
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# op=%s device=%s date=%s batchlas=%s\n", op, device, date[:min(10, len(date))], commit)
	fmt.Fprintf(&b, "# source=transcribed:%s\n", source)
	if note != "" {
		line := "#"
		for _, w := range strings.Fields(note) {
			if len(line)+1+len(w) > 100 && line != "#" {
				b.WriteString(line + "\n")
				line = "#"
			}
			line += " " + w
		}
		b.WriteString(line + "\n")
	}
	for _, r := range renames {
		from, to, _ := strings.Cut(r, "|")
		fmt.Fprintf(&b, "# The %s arm %s of the lines of %s is the family now spelled %s,\n", op, from, strings.Join(renamedAt, " and "), to)
		b.WriteString("# renamed so when this table was made (the JSON lines are left as measured).\n")
	}
	if device == "cpu" {
		b.WriteString("# Measured with batchbench (by hand or through bench/cpu_vendor.sh; arms interleaved in both orders, every output\n")
		b.WriteString("# verified) on this project's 2-core build machine, shared with other builds (load averages\n")
		fmt.Fprintf(&b, "# in %s); a time is the mean of the two orders' medians in the last\n", load)
		b.WriteString("# run of its cell.\n")
	} else {
		b.WriteString("# Measured with batchbench (through bench/device.sh or bench/h200.sh; arms interleaved in both orders, every output\n")
		b.WriteString("# verified, device time from events); a time (ms) is the mean of the two orders' medians in\n")
		b.WriteString("# the last run of its cell.\n")
	}
	if op == "gels" {
		b.WriteString("# batchbench times gels on 2n-by-n matrices with one right-hand side; its JSON lines say m = nrhs = n,\n")
		b.WriteString("# so the rows here carry the shapes it ran (m = 2n, nrhs = 1).\n")
	}
	b.WriteString("# Untimed rows (transcribed) copy the ranking of the measured f64 or c128 row of their size.\n")
	b.WriteString("# keys:")
	for _, k := range old.Keys {
		if !k.Exact && (k.Name == "m" || k.Name == "n" || k.Name == "k") {
			k.Weight = sizeWeight
		}
		switch {
		case k.Exact:
			fmt.Fprintf(&b, " %s:exact", k.Name)
		case k.Weight == 1:
			fmt.Fprintf(&b, " %s:log", k.Name)
		default:
			fmt.Fprintf(&b, " %s:log:%g", k.Name, k.Weight)
		}
	}
	b.WriteString("\n")
	for _, untimed := range []bool{false, true} {
		for _, r := range keys {
			order, _, err := route.Candidates(op, r.dtype)
			if err != nil {
				return err
			}
			var entries []selection.Entry
			for _, arm := range order {
				ab, okA := last[cell{r.dtype, r.jobz, r.m, r.n, r.k, r.batch, arm, "AB"}]
				ba, okB := last[cell{r.dtype, r.jobz, r.m, r.n, r.k, r.batch, arm, "BA"}]
				if !okA || !okB {
					continue
				}
				entries = append(entries, selection.Entry{Spelling: selection.MustSpelling(arm), Time: (ab.MS + ba.MS) / 2})
			}
			if len(entries) == 0 {
				continue // only yardsticks (ref arms) and auto were timed at this shape
			}
			entries = selection.Rank(entries, order)
			dtype, tier := r.dtype, "measured"
			if untimed {
				if dtype, tier = unmeasured(r.dtype), "transcribed"; dtype == "" || measured[cell{dtype: dtype, jobz: r.jobz, m: r.m, n: r.n, k: r.k}] {
					continue
				}
			}
			// The cases with right-hand sides have n of them.
			vals := map[string]string{"dtype": dtype, "m": strconv.Itoa(r.m), "n": strconv.Itoa(r.n),
				"k": strconv.Itoa(r.k), "nrhs": strconv.Itoa(r.n), "batch": strconv.Itoa(r.batch)}
			for k, v := range fixedOf[op] {
				vals[k] = v
			}
			if op == "gels" { // batchbench's gels cases: A is 2n by n, one right-hand side
				vals["m"], vals["nrhs"] = strconv.Itoa(2*r.n), "1"
			}
			if r.jobz != "" {
				vals["jobz"] = r.jobz
			}
			if e, ok := nnz[r.n]; ok {
				vals["nnz"] = strconv.Itoa(e)
			}
			for i, k := range old.Keys {
				v, ok := vals[k.Name]
				if !ok {
					if v, ok = fixed[k.Name]; !ok {
						return fmt.Errorf("key %s: no value in the benchmark", k.Name)
					}
				}
				if i > 0 {
					b.WriteString(" ")
				}
				b.WriteString(k.Name + "=" + v)
			}
			for _, e := range entries {
				t := strconv.FormatFloat(e.Time, 'g', 4, 64)
				if untimed {
					t = "-"
				}
				fmt.Fprintf(&b, " | %s %s", e.Spelling, t)
			}
			fmt.Fprintf(&b, " # %s\n", tier)
		}
	}
	t, err := selection.ParseTable(b.String())
	if err != nil {
		return err
	}
	if err := t.CheckRanks(); err != nil {
		return err
	}
	_, err = os.Stdout.WriteString(b.String())
	return err
}

// unmeasured is the dtype whose untimed rows copy the measured dtype's, or "".
func unmeasured(measured string) string {
	for u, m := range untimedFrom {
		if m == measured {
			return u
		}
	}
	return ""
}

func read(op string, files []string) ([]line, error) {
	var out []line
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			var raw map[string]any
			if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
				fh.Close()
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			l := line{Op: str(raw["op"]), DType: str(raw["dtype"]), Arm: str(raw["arm"]), Order: str(raw["order"]),
				Date: str(raw["date"]), Commit: str(raw["commit"]), M: num(raw["m"]), N: num(raw["n"]), K: num(raw["k"]),
				NNZ:   num(raw["nnz"]),
				Batch: num(raw["batch"]), MS: flt(raw["ms"]), Verified: raw["verified"] == true,
				Jobz: str(raw["jobz"]), Error: str(raw["error"])}
			if l.Op == op {
				out = append(out, l)
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no %s lines in %v", op, files)
	}
	return out, nil
}

func str(v any) string { s, _ := v.(string); return s }
func flt(v any) float64 {
	f, ok := v.(float64)
	if !ok {
		return math.NaN()
	}
	return f
}
func num(v any) int { return int(flt(v)) }
