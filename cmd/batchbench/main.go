// Command batchbench times and verifies batched operations on the best queue available (or
// the one named), and prints a device line, one table and a legend of its columns. With no
// arguments it runs a short demo. -plot draws time per matrix against n for every arm, and
// -from redraws a plot from JSON lines written earlier by -json, without measuring.
//
// Arms (-arms vendor,tiny) are family spellings pinned in turn with route.Pin; they
// run interleaved in one process (A B A B ...), then again in the reverse order, so that a
// drift of clocks or caches over the run falls on every arm alike, and every timed output is
// verified. An arm ref:<name> is a
// vendor routine that no family routes to, timed as a yardstick (internal/vendorref; geqrf:
// ref:cublas, cublas<t>geqrfBatched), or ref:gonum, a plain loop over gonum on every core
// (refgonum.go: gemm, potrf, getrf, geqrf, syev, gesvd).
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/batchlas/batchlas"
	"github.com/batchlas/batchlas/route"
)

type config struct {
	ops, dtypes, arms []string
	ns, batches       []int
	backend           batchlas.Backend
	reps              int
	jsonOut           string
	jobz              batchlas.Job // of syev
	plot, from        string
	dtypeSet          bool // -dtype was given, so that -from draws only those dtypes
}

// commit is set at build time (make device-bundle) for binaries that run where there is no
// git checkout.
var commit string

func main() {
	cfg, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return // -h: the usage went to stderr; asking for it is not a failure
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "batchbench:", err)
		os.Exit(2)
	}
	if cfg.from != "" {
		err = replot(cfg)
	} else {
		err = run(cfg, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "batchbench:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (config, error) {
	fs := flag.NewFlagSet("batchbench", flag.ContinueOnError)
	ops := fs.String("op", "demo", "operations, comma-separated ("+strings.Join(opNames(), ",")+"), or demo")
	dtypes := fs.String("dtype", "f64", "dtypes: f32,f64,c64,c128")
	ns := fs.String("n", "64", "matrix sizes")
	batches := fs.String("batch", "1024", "batch sizes")
	backend := fs.String("backend", "auto", "auto, host, cuda or rocm")
	arms := fs.String("arms", "auto", "family spellings to compare, e.g. vendor,tiny (auto: the router's choice)")
	reps := fs.Int("reps", 15, "timed repetitions per arm and order")
	jsonOut := fs.String("json", "", "append one JSON line per result to this file (- for stdout)")
	jobz := fs.String("jobz", "V", "syev: V (eigenvalues and vectors) or N (eigenvalues only)")
	plotOut := fs.String("plot", "", "draw time per matrix against n for every arm measured into this SVG file")
	from := fs.String("from", "", "with -plot: draw the JSON lines of this file (written by -json) instead of measuring; -op and -dtype, when given, select")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	cfg := config{ops: split(*ops), dtypes: split(*dtypes), arms: split(*arms), reps: *reps, jsonOut: *jsonOut,
		plot: *plotOut, from: *from}
	fs.Visit(func(f *flag.Flag) { cfg.dtypeSet = cfg.dtypeSet || f.Name == "dtype" })
	if cfg.from != "" && cfg.plot == "" {
		return cfg, fmt.Errorf("-from needs -plot")
	}
	var err error
	switch *jobz {
	case "V":
		cfg.jobz = batchlas.Vectors
	case "N":
		cfg.jobz = batchlas.NoVectors
	default:
		return cfg, fmt.Errorf("-jobz: %q is neither V nor N", *jobz)
	}
	if cfg.ns, err = ints(*ns); err != nil {
		return cfg, fmt.Errorf("-n: %w", err)
	}
	if cfg.batches, err = ints(*batches); err != nil {
		return cfg, fmt.Errorf("-batch: %w", err)
	}
	if cfg.backend, err = parseBackend(*backend); err != nil {
		return cfg, err
	}
	if cfg.reps < 1 {
		return cfg, fmt.Errorf("-reps must be at least 1")
	}
	for _, d := range cfg.dtypes {
		if _, ok := dtypeIndex[d]; !ok {
			return cfg, fmt.Errorf("-dtype: unknown %q", d)
		}
	}
	return cfg, nil
}

const usage = `batchbench times and verifies batched operations and prints one table.

  batchbench                      a short verified demo on the best queue available
  batchbench -op potrf -dtype f32,f64 -n 8,16,32 -batch 32768 -arms vendor,tiny
  batchbench -op potrf -n 4,8,16,32 -arms vendor,tiny -plot potrf.svg
  batchbench -plot out.svg -from results.jsonl

Every timed output is verified; the command fails if one is not. Flags:
`

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func ints(s string) ([]int, error) {
	var out []int
	for _, f := range split(s) {
		v, err := strconv.Atoi(f)
		if err != nil || v < 0 {
			return nil, fmt.Errorf("bad size %q", f)
		}
		out = append(out, v)
	}
	return out, nil
}

func parseBackend(s string) (batchlas.Backend, error) {
	for _, b := range []batchlas.Backend{batchlas.Auto, batchlas.Host, batchlas.CUDA, batchlas.ROCm} {
		if b.String() == s {
			return b, nil
		}
	}
	return 0, fmt.Errorf("-backend: unknown %q", s)
}

// job is one (op, dtype, shape) to time.
type job struct {
	op    string
	dtype string
	n     int
	batch int
	jobz  batchlas.Job // syev's (the -jobz flag; Vectors in the demo)
}

// demo is what a new user sees first: a few verified calls that finish in seconds anywhere.
var demo = []job{
	{"potrf", "f32", 64, 2048, 0}, {"potrf", "f64", 64, 2048, 0}, {"potrf", "c128", 32, 2048, 0},
	{"getrf", "f64", 64, 1024, 0}, {"geqrf", "f64", 64, 512, 0}, {"gemm", "f32", 64, 1024, 0},
	{"syev", "f64", 32, 512, batchlas.Vectors}, {"syev", "c64", 16, 512, batchlas.Vectors}, {"gesvd", "f64", 32, 128, 0},
}

func run(cfg config, out io.Writer) error {
	q, err := batchlas.NewQueue(cfg.backend)
	if err != nil {
		return err
	}
	defer q.Close()
	jobs := demo
	if !(len(cfg.ops) == 1 && cfg.ops[0] == "demo") {
		jobs = nil
		for _, op := range cfg.ops {
			if _, ok := registry[op]; !ok {
				return fmt.Errorf("-op: unknown %q (have %s)", op, strings.Join(opNames(), ","))
			}
			for _, d := range cfg.dtypes {
				for _, n := range cfg.ns {
					for _, b := range cfg.batches {
						jobs = append(jobs, job{op, d, n, b, cfg.jobz})
					}
				}
			}
		}
	}
	var jw io.Writer
	switch cfg.jsonOut {
	case "":
	case "-":
		jw = out
	default:
		f, err := os.OpenFile(cfg.jsonOut, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		jw = f
	}
	// The device chosen, and with Auto why no GPU was; beside JSON lines on stdout it goes to
	// stderr.
	devOut := out
	if jw == out {
		devOut = os.Stderr
	}
	fmt.Fprintln(devOut, deviceLine(q))
	var rows []result
	meta := runMeta(q)
	for _, j := range jobs {
		rs, err := measure(q, j, cfg.arms, cfg.reps)
		if err != nil {
			return fmt.Errorf("%s %s n=%d batch=%d: %w", j.op, j.dtype, j.n, j.batch, err)
		}
		rows = append(rows, rs...)
		// Each job's lines as soon as it is measured: a run cut by a time limit keeps what it
		// finished.
		if jw != nil {
			for _, r := range rs {
				if err := writeJSON(jw, meta, r); err != nil {
					return err
				}
			}
		}
	}
	printTable(out, q, rows, len(cfg.arms))
	printLegend(out, q)
	if cfg.plot != "" {
		if err := writePlot(cfg.plot, pointsOf(rows, meta.device, roofGBs(q.Device()))); err != nil {
			return err
		}
		fmt.Fprintf(out, "plot: %s\n", cfg.plot)
	}
	var errs []error
	for _, r := range rows {
		switch {
		case r.err != nil:
			errs = append(errs, fmt.Errorf("%s %s n=%d batch=%d arm %s (%s): %w", r.op, r.dtype, r.n, r.batch, r.arm, r.order, r.err))
		case !r.verified:
			errs = append(errs, fmt.Errorf("%s %s n=%d batch=%d arm %s failed verification (residual %.3g)", r.op, r.dtype, r.n, r.batch, r.arm, r.resid))
		}
	}
	return errors.Join(errs...)
}

// result is one arm of one job, over both orders.
type result struct {
	job
	arm      string
	order    string // "AB" or "BA"
	median   float64
	spread   float64 // (max - min) / median of the timed repetitions
	flops    float64 // per call
	bytes    float64 // fewest bytes per call
	resid    float64 // max scaled residual over the verified matrices
	verified bool
	err      error // why the arm could not run, if it could not
}

// measure times every arm of j, interleaved, in both orders.
func measure(q *batchlas.Queue, j job, arms []string, reps int) ([]result, error) {
	spec := registry[j.op]
	b, err := spec.make[dtypeIndex[j.dtype]](q, j.n, j.batch)
	if err != nil {
		return nil, err
	}
	defer b.free()
	if s, ok := b.(jobzBench); ok {
		s.setJobz(j.jobz)
	}
	var out []result
	for _, order := range []string{"AB", "BA"} {
		seq := append([]string(nil), arms...)
		if order == "BA" {
			if len(arms) < 2 {
				break
			}
			for i, k := 0, len(seq)-1; i < k; i, k = i+1, k-1 {
				seq[i], seq[k] = seq[k], seq[i]
			}
		}
		times := make(map[string][]float64)
		resid := make(map[string]float64)
		// An arm that fails (a vendor routine refusing a shape, say) is recorded as failed
		// and left out of the later repetitions; the other arms go on.
		failed := make(map[string]error)
		// One untimed round first: module load, handles, first launch.
		for rep := -1; rep < reps; rep++ {
			for _, arm := range seq {
				if failed[arm] != nil {
					continue
				}
				ms, r, err := timeArm(q, b, j.op, arm)
				if err != nil {
					failed[arm] = err
					continue
				}
				if rep >= 0 {
					times[arm] = append(times[arm], ms)
					resid[arm] = max(resid[arm], r)
				}
			}
		}
		for _, arm := range seq {
			r := result{job: j, arm: arm, order: order, flops: spec.flops(j.n) * float64(j.batch) * cplxFactor(j.dtype),
				bytes: b.bytes(), resid: inf(), err: failed[arm]}
			if r.err == nil {
				r.median, r.spread = stats(times[arm])
				r.resid = resid[arm]
				r.verified = r.resid <= verifyTol
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// verifyTol bounds the scaled residual of a verified output, as in the conformance suite.
const verifyTol = 30

// timeArm restores the inputs, runs the op once under the arm's pin and verifies it.
func timeArm(q *batchlas.Queue, b bench, op, arm string) (ms, resid float64, err error) {
	if err := b.reset(); err != nil {
		return 0, 0, err
	}
	run := b.run
	if name, ok := strings.CutPrefix(arm, "ref:"); ok {
		run = nil
		if r, isRef := b.(refBench); isRef {
			run = r.ref(name)
		}
		if run == nil {
			return 0, 0, fmt.Errorf("%s has no reference routine %q in this build", op, name)
		}
	} else if arm != "auto" {
		// The auto arm pins nothing, so that BATCHLAS_<OP>_ROUTE still applies to it.
		restore, err := route.Pin(op, arm)
		if err != nil {
			return 0, 0, err
		}
		defer restore()
	}
	if err := q.Wait(); err != nil {
		return 0, 0, err
	}
	// Device time: events around the op on a GPU queue, the wall clock on the host.
	d, err := q.Elapsed(run)
	if err != nil {
		return 0, 0, err
	}
	ms = float64(d.Nanoseconds()) / 1e6
	resid, err = b.verify()
	return ms, resid, err
}

func stats(xs []float64) (median, spread float64) {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	median = s[len(s)/2]
	if len(s)%2 == 0 {
		median = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return median, (s[len(s)-1] - s[0]) / median
}

func cplxFactor(dtype string) float64 {
	if dtype == "c64" || dtype == "c128" {
		return 4
	}
	return 1
}

// roofGBs is the memory roof of the device in GB/s, the bandwidth that "% of roof" divides
// by (4.3 TB/s on the H200, sm_90), or 0 where none is known.
func roofGBs(d batchlas.Device) float64 {
	if d.Key == "sm_90" {
		return 4300
	}
	return 0
}

// deviceLine names the queue's device and what the table's numbers rest on.
func deviceLine(q *batchlas.Queue) string {
	d := q.Device()
	line := fmt.Sprintf("device: %s (%s), backend %s", d.Name, d.Key, d.Backend)
	if d.Driver != "" {
		line += ", driver " + d.Driver
	}
	if !d.IsGPU {
		line += fmt.Sprintf(", %d goroutines", d.Units)
	}
	if r := roofGBs(d); r > 0 {
		line += fmt.Sprintf(", memory roof %.0f GB/s", r)
	} else {
		line += ", memory roof unknown"
	}
	if d.Fallback != "" {
		line += "; cuda not used: " + d.Fallback // Auto fell back to the host
	}
	return line
}

func printTable(w io.Writer, q *batchlas.Queue, rows []result, arms int) {
	d := q.Device()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "op\tdtype\tn\tbatch\tbackend\tarm\torder\tms\tGFLOP/s\tGB/s\t%%roof\tresidual\tok\t\n")
	for _, r := range rows {
		roof := "-"
		if rr := roofGBs(d); rr > 0 {
			roof = fmt.Sprintf("%.1f", 100*r.bytes/1e9/(r.median/1e3)/rr)
		}
		ok := "yes"
		switch {
		case r.err != nil:
			ok = "ERROR"
		case !r.verified:
			ok = "FAILED"
		}
		order := r.order
		if arms < 2 {
			order = "-" // one arm has no order to reverse
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%s\t%.3f\t%.1f\t%.1f\t%s\t%.3g\t%s\t\n",
			r.op, r.dtype, r.n, r.batch, d.Backend, r.arm, order, r.median,
			r.flops/1e6/r.median, r.bytes/1e6/r.median, roof, r.resid, ok)
	}
	tw.Flush()
}

// printLegend says what each column of the table means.
func printLegend(w io.Writer, q *batchlas.Queue) {
	roof := `"-": no memory roof is known for this device (none is measured for CPUs)`
	if r := roofGBs(q.Device()); r > 0 {
		roof = fmt.Sprintf("GB/s as a percentage of the device's memory roof, %.0f GB/s", r)
	}
	fmt.Fprintf(w, `columns:
  op, dtype  the operation and its element type (f32, f64, c64 or c128)
  n, batch   matrix order and number of matrices per call
  backend    the queue's backend, as -backend names it (the device line gives the device)
  arm        the family pinned for the call (auto: the router's own choice; ref:<name>: a
             vendor routine timed as a yardstick; ref:gonum: a loop over gonum on every core,
             f64 only but for gemm, with its row-major copies in and out timed)
  order      AB: arms run interleaved in the listed order; BA: reversed, to expose order
             effects ("-" with a single arm)
  ms         median time of one call over -reps repetitions (device time from events on a
             GPU, wall clock on the host)
  GFLOP/s    the op's nominal flops over ms; GB/s: the fewest bytes (inputs read once,
             outputs written once) over ms
  %%roof      %s
  residual   the largest, over the checked matrices, of the op's residual scaled by
             n*eps*||A|| (e.g. ||A - L L^H|| / (n eps ||A||) for potrf)
  ok         yes when residual <= %d, LAPACK's test threshold; FAILED fails the command, and so does ERROR (the arm could not run: its error is printed last)
`, roof, verifyTol)
}

// replot draws -plot from the JSON lines of -from.
func replot(cfg config) error {
	f, err := os.Open(cfg.from)
	if err != nil {
		return err
	}
	defer f.Close()
	ps, err := readPoints(f)
	if err != nil {
		return fmt.Errorf("%s: %w", cfg.from, err)
	}
	ps = slices.DeleteFunc(ps, func(p point) bool {
		return !(slices.Equal(cfg.ops, []string{"demo"}) || slices.Contains(cfg.ops, p.Op)) ||
			cfg.dtypeSet && !slices.Contains(cfg.dtypes, p.DType)
	})
	return writePlot(cfg.plot, ps)
}

type meta struct {
	device, driver, commit, date string
}

func runMeta(q *batchlas.Queue) meta {
	m := meta{device: q.Device().Name + " (" + q.Device().Key + ")", date: time.Now().UTC().Format(time.RFC3339)}
	m.commit = commit
	if m.commit == "" {
		if out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output(); err == nil {
			m.commit = strings.TrimSpace(string(out))
		}
	}
	m.driver = q.Device().Driver
	return m
}

func writeJSON(w io.Writer, m meta, r result) error {
	roof := 0.0
	if rr := roofGBs(batchlas.Device{Key: keyOf(m.device)}); rr > 0 {
		roof = 100 * r.bytes / 1e9 / (r.median / 1e3) / rr
	}
	fields := map[string]any{
		"device": m.device, "driver": m.driver, "commit": m.commit, "date": m.date,
		"op": r.op, "dtype": r.dtype, "m": r.n, "n": r.n, "k": r.n, "batch": r.batch,
		"arm": r.arm, "order": r.order, "ms": r.median, "spread": finite(r.spread),
		"gbs": finite(r.bytes / 1e6 / r.median), "gflops": finite(r.flops / 1e6 / r.median), "roof_pct": finite(roof),
		"verify_err": finite(r.resid), "verified": r.verified,
	}
	if r.err != nil {
		fields["error"] = r.err.Error()
	}
	if r.op == "syev" {
		fields["jobz"] = r.jobz.String()
	}
	if r.op == "spmm" {
		fields["nnz"] = r.n * spmmRowNNZ(r.n)
	}
	line, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", line)
	return err
}

// finite is x, or nil (JSON null) for NaN and the infinities, which JSON cannot hold: a failed
// verification (residual +Inf) or a call too fast to time must still be recorded.
func finite(x float64) any {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return x
}

func keyOf(device string) string {
	if i := strings.LastIndex(device, "("); i >= 0 {
		return strings.TrimSuffix(device[i+1:], ")")
	}
	return device
}

func inf() float64 { return math.Inf(1) }
