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

// TraceLine is the line BATCHLAS_SELECT_TRACE=1 prints for a call:
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
// row when BATCHLAS_COVERAGE_OUT is set.
func (l *Library) Report(r *Request, d Decision) {
	s := Current()
	if s.Trace {
		l.mu.Lock()
		fmt.Fprintln(l.out, TraceLine(r, d)+whyNot(r, d))
		l.mu.Unlock()
	}
	if s.CoverageOut != "" {
		l.count(s.CoverageOut, CoverageRow{Kind: "reached", Op: r.Op, DType: r.DType, Device: r.Device.Key,
			Key: r.KeyString(), Chosen: d.Spelling, Origin: d.origin(r), Table: d.Tag})
	}
}

// Miss records a call with no route: a trace line and a miss row.
func (l *Library) Miss(r *Request) {
	s := Current()
	if s.Trace {
		l.mu.Lock()
		fmt.Fprintf(l.out, "%s%s %s %s -> no route [miss]\n", strings.Repeat("  ", r.Depth), r.Op, r.DType, r.KeyString())
		l.mu.Unlock()
	}
	if s.CoverageOut != "" {
		l.count(s.CoverageOut, CoverageRow{Kind: "miss", Op: r.Op, DType: r.DType, Device: r.Device.Key, Key: r.KeyString()})
	}
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

// Flush appends the coverage rows gathered since the last flush to the coverage file. Go
// has no exit hook: batchlas flushes when a queue closes, and a program that keeps its queues
// open calls batchlas.FlushCoverage before it exits.
func (l *Library) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
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
