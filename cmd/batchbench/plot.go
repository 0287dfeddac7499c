package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// point is one measured arm at one shape, as the plot needs it: from this run's results or
// from JSON lines written by -json.
type point struct {
	Op     string  `json:"op"`
	DType  string  `json:"dtype"`
	N      int     `json:"n"`
	Batch  int     `json:"batch"`
	Arm    string  `json:"arm"`
	Ms     float64 `json:"ms"`
	GBs    float64 `json:"gbs"`      // fewest bytes over the time
	Roof   float64 `json:"roof_pct"` // percent of the memory roof; 0 where the roof is unknown
	Device string  `json:"device"`
}

// readPoints parses JSON lines as -json writes them, skipping lines with no time.
func readPoints(r io.Reader) ([]point, error) {
	var ps []point
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var p point
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if p.Ms > 0 && p.Batch > 0 {
			ps = append(ps, p)
		}
	}
	return ps, sc.Err()
}

// pointsOf turns this run's results into plot points.
func pointsOf(rows []result, device string, roof float64) []point {
	ps := make([]point, 0, len(rows))
	for _, r := range rows {
		p := point{Op: r.op, DType: r.dtype, N: r.n, Batch: r.batch, Arm: r.arm, Ms: r.median,
			GBs: r.bytes / 1e6 / r.median, Device: device}
		if roof > 0 {
			p.Roof = 100 * p.GBs / roof
		}
		if p.Ms > 0 {
			ps = append(ps, p)
		}
	}
	return ps
}

// series is one line of a panel: time per matrix in nanoseconds against n.
type series struct {
	name string
	xy   map[int]float64 // n -> nanoseconds per matrix
	bat  map[int]int     // n -> the batch the time is from (the largest measured)
}

func (s *series) add(n, batch int, ns float64) {
	if b, ok := s.bat[n]; ok && b > batch {
		return
	}
	if b, ok := s.bat[n]; ok && b == batch {
		ns = (s.xy[n] + ns) / 2 // the two orders of one arm: their mean, as the tables report
	}
	s.xy[n], s.bat[n] = ns, batch
}

func (s *series) points() plotter.XYs {
	ns := make([]int, 0, len(s.xy))
	for n := range s.xy {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	xy := make(plotter.XYs, len(ns))
	for i, n := range ns {
		xy[i] = plotter.XY{X: float64(n), Y: s.xy[n]}
	}
	return xy
}

// panels groups points by op and dtype, each with one series per arm and, where the memory
// roof is known, a "roof" series: the time to move the fewest bytes at the roof.
func panels(ps []point) (keys []string, lines map[string][]*series) {
	lines = map[string][]*series{}
	find := func(key, name string) *series {
		for _, s := range lines[key] {
			if s.name == name {
				return s
			}
		}
		s := &series{name: name, xy: map[int]float64{}, bat: map[int]int{}}
		if len(lines[key]) == 0 {
			keys = append(keys, key)
		}
		lines[key] = append(lines[key], s)
		return s
	}
	for _, p := range ps {
		key := p.Op + " " + p.DType
		ns := 1e6 * p.Ms / float64(p.Batch)
		find(key, p.Arm).add(p.N, p.Batch, ns)
		if p.Roof > 0 {
			find(key, "roof").add(p.N, p.Batch, ns*p.Roof/100)
		}
	}
	slices.Sort(keys)
	return keys, lines
}

// writePlot draws one panel per op and dtype, time per matrix against n on log scales, into
// an SVG file (PNG when the name ends in .png).
func writePlot(file string, ps []point) error {
	keys, lines := panels(ps)
	if len(keys) == 0 {
		return fmt.Errorf("-plot: no timed results to draw")
	}
	device := ps[0].Device
	cols := min(3, int(math.Ceil(math.Sqrt(float64(len(keys))))))
	rows := (len(keys) + cols - 1) / cols
	const w, h = 4 * vg.Inch, 3 * vg.Inch
	var c interface {
		vg.CanvasSizer
		io.WriterTo
	} = vgsvg.New(vg.Length(cols)*w, vg.Length(rows)*h)
	if strings.HasSuffix(file, ".png") {
		c = vgimg.PngCanvas{Canvas: vgimg.New(vg.Length(cols)*w, vg.Length(rows)*h)}
	}
	dc := draw.New(c)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter, PadY: vg.Millimeter}
	for i, key := range keys {
		p := plot.New()
		p.Title.Text = key + " on " + device
		p.X.Label.Text = "n"
		p.Y.Label.Text = "ns per matrix"
		p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
		p.X.Tick.Marker, p.Y.Tick.Marker = sizeTicks(lines[key]), plot.LogTicks{Prec: -1}
		p.Legend.Top, p.Legend.Left = true, true
		for k, s := range lines[key] {
			l, pts, err := plotter.NewLinePoints(s.points())
			if err != nil {
				return err
			}
			l.Color, pts.Color = lineColor(s.name, k), lineColor(s.name, k)
			pts.Shape = plotutil.Shape(k)
			if s.name == "roof" {
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			}
			p.Add(l, pts)
			p.Legend.Add(s.name, l, pts)
		}
		p.Draw(tiles.At(dc, i%cols, i/cols))
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// sizeTicks marks every n measured in a panel.
func sizeTicks(ss []*series) plot.ConstantTicks {
	seen := map[int]bool{}
	var ticks plot.ConstantTicks
	for _, s := range ss {
		for n := range s.xy {
			if !seen[n] {
				seen[n] = true
				ticks = append(ticks, plot.Tick{Value: float64(n), Label: fmt.Sprint(n)})
			}
		}
	}
	slices.SortFunc(ticks, func(a, b plot.Tick) int { return int(a.Value - b.Value) })
	return ticks
}

// lineColor keeps the vendor black and the roof grey in every panel.
func lineColor(name string, k int) color.Color {
	switch {
	case name == "roof":
		return color.Gray{Y: 150}
	case name == "vendor" || strings.HasPrefix(name, "ref:"):
		return color.Black
	}
	return plotutil.Color(k)
}
