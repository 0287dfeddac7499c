package selection

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
)

// TraceLine is the line BATCHLAS_SELECT_TRACE=1 prints for a call, before the measured time
// that Report's done adds ("; took 0.31 ms", or "; 15 identical calls, took 0.31 ms each on
// average" for repeated calls folded into one line):
//
//	potrf f64 uplo=L n=64 batch=8192 -> lpanel:panel=8 0.302 ms, next vendor 0.49 ms [sm_90]
//	potrf f64 uplo=L n=512 batch=2048 -> blocked 14.1 ms, tied with vendor 13.74 ms (3%) [sm_90]
//	potrf f64 uplo=L n=8 batch=1 -> host untimed, no runner-up [cpu]
//	potrf f64 uplo=L n=8 batch=1 -> host [pin]
//
// The bracket names the table used (borrowed, or an override from BATCHLAS_TUNED_DIR), or
// says that a pin or the last-resort order chose. A call made from inside another call
// (Request.Depth) is indented by two spaces per level.
func TraceLine(r *Request, d Decision) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s %s %s -> %s", strings.Repeat("  ", r.Depth), r.Op, r.DType, r.KeyString(), d.Spelling)
	if d.Table != "" {
		b.WriteString(" " + ms(d.Time))
		switch {
		case d.Next == "":
			b.WriteString(", no runner-up")
		case tied(d.Time, d.NextTime):
			fmt.Fprintf(&b, ", tied with %s %s (%.0f%%)", d.Next, ms(d.NextTime), (TieRatio-1)*100)
		default:
			fmt.Fprintf(&b, ", next %s %s", d.Next, ms(d.NextTime))
		}
	}
	fmt.Fprintf(&b, " [%s]", d.Tag)
	return b.String()
}

func ms(t float64) string {
	if math.IsNaN(t) {
		return "untimed"
	}
	return fmt.Sprintf("%.4g ms", t)
}

func tied(a, b float64) bool {
	return !math.IsNaN(a) && !math.IsNaN(b) && max(a, b) <= min(a, b)*TieRatio
}

// CoverageRow is one line of the BATCHLAS_COVERAGE_OUT file (JSON): a call that reached a
// candidate, or one that had no route (a miss), with how many calls it stands for.
type CoverageRow struct {
	Kind   string `json:"kind"` // "reached" or "miss"
	Op     string `json:"op"`
	DType  string `json:"dtype"`
	Device string `json:"device"`
	Key    string `json:"key"`
	Chosen string `json:"chosen_algo,omitempty"`
	Origin string `json:"chosen_origin,omitempty"` // "native" or "vendor"
	Table  string `json:"table,omitempty"`         // the trace's bracket
	Count  int    `json:"count"`
}

// Report records a chosen call: its trace line when BATCHLAS_SELECT_TRACE=1, its reached
// row when BATCHLAS_COVERAGE_OUT is set. The caller runs the call and then calls done with
// the milliseconds it measured (NaN when it measured nothing), which the trace shows beside
// the table's time.
func (l *Library) Report(r *Request, d Decision) (done func(measured float64)) {
	s := Current()
	if s.CoverageOut != "" {
		l.count(s.CoverageOut, CoverageRow{Kind: "reached", Op: r.Op, DType: r.DType, Device: r.Device.Key,
			Key: r.KeyString(), Chosen: d.Spelling, Origin: d.origin(r), Table: d.Tag})
	}
	if !s.Trace {
		return func(float64) {}
	}
	return l.traceLine(r.Depth, TraceLine(r, d)+whyNot(r, d))
}

// Miss records a call with no route: a trace line and a miss row.
func (l *Library) Miss(r *Request) {
	s := Current()
	if s.Trace {
		l.traceLine(r.Depth, fmt.Sprintf("%s%s %s %s -> no route [miss]", strings.Repeat("  ", r.Depth), r.Op, r.DType, r.KeyString()))(math.NaN())
	}
	if s.CoverageOut != "" {
		l.count(s.CoverageOut, CoverageRow{Kind: "miss", Op: r.Op, DType: r.DType, Device: r.Device.Key, Key: r.KeyString()})
	}
}

// traceBlock is the trace of one top-level call: its line and those of the calls nested in
// it, with the measured milliseconds of each summed over count identical calls.
type traceBlock struct {
	lines []string
	ms    []float64
	count int
}

// traceLine adds a line to the call in progress; a line at depth 0 starts a new call. done
// records the line's measured time and, at depth 0, finishes the call: a call whose lines
// equal the held call's folds into it (count + 1); a different one prints the held call and
// is held in its place. Calls made at once from several goroutines may fold less.
func (l *Library) traceLine(depth int, line string) (done func(measured float64)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if depth == 0 {
		l.cur = traceBlock{}
	}
	i := len(l.cur.lines)
	l.cur.lines = append(l.cur.lines, line)
	l.cur.ms = append(l.cur.ms, math.NaN())
	return func(measured float64) {
		l.mu.Lock()
		defer l.mu.Unlock()
		if i < len(l.cur.ms) && l.cur.lines[i] == line {
			l.cur.ms[i] = measured
		}
		if depth != 0 {
			return
		}
		b := l.cur
		l.cur = traceBlock{}
		if l.held.count > 0 && slices.Equal(b.lines, l.held.lines) {
			for k := range b.ms {
				l.held.ms[k] += b.ms[k]
			}
			l.held.count++
			return
		}
		l.printHeldLocked()
		b.count = 1
		l.held = b
	}
}

// printHeldLocked prints the held call's lines, each with its measured time (the mean over
// the folded calls) and the count of identical calls.
func (l *Library) printHeldLocked() {
	for k, line := range l.held.lines {
		fmt.Fprintln(l.out, line+measuredNote(l.held.ms[k], l.held.count))
	}
	l.held = traceBlock{}
}

func measuredNote(sum float64, count int) string {
	note := ""
	if count > 1 {
		note = fmt.Sprintf("; %d identical calls", count)
	}
	if math.IsNaN(sum) {
		return note
	}
	if count > 1 {
		return note + fmt.Sprintf(", took %.4g ms each on average", sum/float64(count))
	}
	return note + fmt.Sprintf("; took %.4g ms", sum)
}

func (l *Library) count(file string, row CoverageRow) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cov == nil || l.covFile != file {
		l.flushLocked()
		l.cov, l.covFile = map[CoverageRow]int{}, file
	}
	l.cov[row]++
}

// Flush prints the held trace lines and appends the coverage rows gathered since the last
// flush to the coverage file. Go has no exit hook: batchlas flushes when a queue closes, and a
// program that keeps its queues open calls route.Flush before it exits.
func (l *Library) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.printHeldLocked()
	return l.flushLocked()
}

func (l *Library) flushLocked() error {
	if len(l.cov) == 0 {
		return nil
	}
	rows := make([]CoverageRow, 0, len(l.cov))
	for r, n := range l.cov {
		r.Count = n
		rows = append(rows, r)
	}
	slices.SortFunc(rows, func(a, b CoverageRow) int {
		return strings.Compare(a.Kind+a.Op+a.DType+a.Key+a.Chosen, b.Kind+b.Op+b.DType+b.Key+b.Chosen)
	})
	var b []byte
	for _, r := range rows {
		j, _ := json.Marshal(r)
		b = append(append(b, j...), '\n')
	}
	clear(l.cov)
	// One write with O_APPEND, so that test processes sharing the file do not interleave lines.
	f, err := os.OpenFile(l.covFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	return errors.Join(err, f.Close())
}

// ReadCoverage parses a coverage file.
func ReadCoverage(r io.Reader) ([]CoverageRow, error) {
	var rows []CoverageRow
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var row CoverageRow
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			return nil, fmt.Errorf("coverage line %d: %w", line, err)
		}
		rows = append(rows, row)
	}
	return rows, sc.Err()
}

// whyNot lists, for the trace, the candidates that cannot run on the device at all and why.
func whyNot(r *Request, d Decision) string {
	if r.Why == nil {
		return ""
	}
	var b strings.Builder
	for i, c := range r.Cands {
		if i == d.Index {
			continue
		}
		if w := r.Why(i); w != "" {
			fmt.Fprintf(&b, " (%s cannot run: %s)", c.Spelling, w)
		}
	}
	return b.String()
}
