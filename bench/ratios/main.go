// Command ratios turns batchbench's JSON lines into the markdown table of a native-against-
// vendor comparison: per (op, dtype, n, batch), each arm's time as the mean of its two
// orders' medians, the fastest native arm, its speedup over the vendor arm (vendor ms /
// native ms) and its share of the memory roof. Cells measured in one order only are marked.
// Rows come in first-seen order; the last line of a cell wins, so a rerun replaces a run.
//
//	go run ./bench/ratios bench/results/sm_90/issue6/session8_final.jsonl
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

type line struct {
	Op, DType, Arm, Order string
	N, Batch              int
	MS                    float64
	RoofPct               float64 `json:"roof_pct"`
	Verified              bool
}

type shape struct {
	op, dtype string
	n, batch  int
}

type arm struct {
	sum, roof float64
	orders    int
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "ratios:", err)
		os.Exit(1)
	}
}

func run(files []string) error {
	cells := map[shape]map[string]map[string]line{} // shape -> arm -> order -> line
	var order []shape
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			var l line
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				fh.Close()
				return fmt.Errorf("%s: %w", f, err)
			}
			s := shape{l.Op, l.DType, l.N, l.Batch}
			if cells[s] == nil {
				cells[s] = map[string]map[string]line{}
				order = append(order, s)
			}
			if cells[s][l.Arm] == nil {
				cells[s][l.Arm] = map[string]line{}
			}
			cells[s][l.Arm][l.Order] = l
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			return err
		}
	}
	fmt.Println("| op | dtype | n | batch | vendor ms | native arm | native ms | speedup | native % of roof | other arms (ms) |")
	fmt.Println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	for _, s := range order {
		arms := map[string]arm{}
		var names []string
		for name, byOrder := range cells[s] {
			var a arm
			for _, l := range byOrder {
				if !l.Verified {
					a.orders = -1
					break
				}
				a.sum += l.MS
				a.roof += l.RoofPct
				a.orders++
			}
			arms[name] = a
			names = append(names, name)
		}
		sort.Strings(names)
		ms := func(a arm) float64 { return a.sum / float64(a.orders) }
		best := ""
		for _, name := range names {
			if a := arms[name]; name != "vendor" && a.orders > 0 && (best == "" || ms(a) < ms(arms[best])) {
				best = name
			}
		}
		cell := func(name string) string {
			a, ok := arms[name]
			switch {
			case !ok:
				return "-"
			case a.orders < 0:
				return "FAILED verification"
			case a.orders == 1:
				return fmt.Sprintf("%.3f (one order)", ms(a))
			}
			return fmt.Sprintf("%.3f", ms(a))
		}
		speedup, roof := "-", "-"
		if best != "" {
			roof = fmt.Sprintf("%.0f%%", arms[best].roof/float64(arms[best].orders))
			if v, ok := arms["vendor"]; ok && v.orders > 0 {
				speedup = fmt.Sprintf("%.2fx", ms(v)/ms(arms[best]))
			}
		}
		var others []string
		for _, name := range names {
			if name != "vendor" && name != best {
				others = append(others, name+" "+cell(name))
			}
		}
		fmt.Printf("| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s |\n", s.op, s.dtype, s.n, s.batch,
			cell("vendor"), orDash(best), cell(best), speedup, roof, orDash(strings.Join(others, ", ")))
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
