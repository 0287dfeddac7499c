// Command vendorfree is the vendor-free census: it runs the conformance suite (./tests) built
// with -tags novendor, plus any tags given as arguments (e.g. cuda), collects the coverage
// rows of every call, and prints each op and dtype that had no route, with how many calls
// missed and their shapes. It shows what the native families do not cover yet.
//
//	go run ./vendorfree          # the host: zero misses expected
//	go run ./vendorfree cuda     # on a GPU machine
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

// report prints the census and returns the number of missed calls.
func report(rows []selection.CoverageRow) int {
	type cell struct{ op, dtype string }
	count := map[cell]int{}
	shapes := map[cell][]string{}
	reached, misses := 0, 0
	ops := map[string]bool{}
	for _, r := range rows {
		ops[r.Op] = true
		if r.Kind != "miss" {
			reached += r.Count
			continue
		}
		c := cell{r.Op, r.DType}
		count[c] += r.Count
		misses += r.Count
		if s := r.Device + " " + r.Key; !slices.Contains(shapes[c], s) {
			shapes[c] = append(shapes[c], s)
		}
	}
	fmt.Printf("%d calls reached a family, %d had no route, over %d ops\n", reached, misses, len(ops))
	if misses == 0 {
		return 0
	}
	cells := make([]cell, 0, len(count))
	for c := range count {
		cells = append(cells, c)
	}
	slices.SortFunc(cells, func(a, b cell) int { return strings.Compare(a.op+" "+a.dtype, b.op+" "+b.dtype) })
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "op\tdtype\tcount\tshapes")
	for _, c := range cells {
		s := shapes[c]
		slices.Sort(s)
		fmt.Fprintf(w, "%s\t%s\t%d\t%s\n", c.op, c.dtype, count[c], strings.Join(s, "; "))
	}
	w.Flush()
	return misses
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
