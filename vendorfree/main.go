// Command vendorfree is the vendor-free census: it runs the conformance suite (./tests) built
// with -tags novendor, plus any tags given as arguments (e.g. cuda), collects the coverage
// rows of every call, and prints for each op and dtype how many calls reached a family, how
// many had no route (*NoRouteError), and the shapes that missed: what the native families do
// not cover yet.
//
//	go run ./vendorfree          # the host: zero misses expected
//	go run ./vendorfree cuda     # on a GPU machine with Go
//	go run ./vendorfree -from cov.jsonl
//
// The last form counts coverage rows written elsewhere: a GPU machine has no Go, so there the
// suite runs as a binary cross-compiled with -tags "cuda novendor" (make device-bundle) under
// BATCHLAS_COVERAGE_OUT, and the rows come back to be counted.
//
// The exit status is 0 when the suite passed with no miss, 1 otherwise, 2 when it could not
// run.
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	selection "github.com/batchlas/batchlas/select"
)

func main() {
	code, err := run(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "vendorfree:", err)
	}
	os.Exit(code)
}

func run(extra []string) (int, error) {
	if len(extra) == 2 && extra[0] == "-from" {
		return fromFile(extra[1])
	}
	root, err := moduleRoot()
	if err != nil {
		return 2, err
	}
	dir, err := os.MkdirTemp("", "vendorfree")
	if err != nil {
		return 2, err
	}
	defer os.RemoveAll(dir)
	cov := filepath.Join(dir, "coverage.jsonl")
	tags := strings.Join(append([]string{"novendor"}, extra...), " ")

	fmt.Printf("census: go test -count=1 -tags %q ./tests\n", tags)
	cmd := exec.Command("go", "test", "-count=1", "-tags", tags, "./tests")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "BATCHLAS_COVERAGE_OUT="+cov, "CGO_ENABLED=0")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	testErr := cmd.Run()

	f, err := os.Open(cov)
	if err != nil {
		os.Stdout.Write(out.Bytes())
		return 2, fmt.Errorf("the suite wrote no coverage rows: %v (test run: %v)", err, testErr)
	}
	rows, err := selection.ReadCoverage(f)
	f.Close()
	if err != nil {
		return 2, err
	}
	misses := report(rows)
	if testErr != nil {
		fmt.Printf("\nthe suite failed (%v); its last lines:\n%s", testErr, tail(out.String(), 40))
		return 1, nil
	}
	if misses > 0 {
		return 1, nil
	}
	return 0, nil
}

// fromFile prints the census of a coverage file written by a run elsewhere.
func fromFile(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 2, err
	}
	defer f.Close()
	rows, err := selection.ReadCoverage(f)
	if err != nil {
		return 2, err
	}
	if report(rows) > 0 {
		return 1, nil
	}
	return 0, nil
}

// report prints the census, one line per op and dtype the suite called, and returns the
// number of calls that had no route.
func report(rows []selection.CoverageRow) int {
	type cell struct{ op, dtype string }
	type tally struct {
		reached, missed int
		shapes          []string
	}
	cells := map[cell]*tally{}
	total := 0
	for _, r := range rows {
		c := cell{r.Op, r.DType}
		if cells[c] == nil {
			cells[c] = &tally{}
		}
		t := cells[c]
		if r.Kind != "miss" {
			t.reached += r.Count
			continue
		}
		t.missed += r.Count
		total += r.Count
		if s := r.Device + " " + r.Key; !slices.Contains(t.shapes, s) {
			t.shapes = append(t.shapes, s)
		}
	}
	keys := make([]cell, 0, len(cells))
	for c := range cells {
		keys = append(keys, c)
	}
	dtypeOrder := func(d string) int { return slices.Index([]string{"f32", "f64", "c64", "c128"}, d) }
	slices.SortFunc(keys, func(a, b cell) int {
		if a.op != b.op {
			return strings.Compare(a.op, b.op)
		}
		return dtypeOrder(a.dtype) - dtypeOrder(b.dtype)
	})
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "op\tdtype\treached\tmissed\tshapes missed")
	for _, c := range keys {
		t := cells[c]
		slices.Sort(t.shapes)
		fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%s\n", c.op, c.dtype, t.reached, t.missed, strings.Join(t.shapes, "; "))
	}
	w.Flush()
	fmt.Printf("%d calls had no route\n", total)
	return total
}

func moduleRoot() (string, error) {
	b, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	mod := strings.TrimSpace(string(b))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside the batchlas module")
	}
	return filepath.Dir(mod), nil
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n") + "\n"
}
