package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Chart geometry is in the units of each SVG's viewBox; the page scales
// the SVG to its column, so text stays in proportion to the marks.
const (
	chartW      = 960
	timeChartH  = 260
	marginLeft  = 64 // y-axis labels
	marginRight = 40 // half of the last x-axis label
	marginTop   = 12
	marginBot   = 30 // x-axis labels
	maxXLabels  = 8  // at ~110 units apart, no two labels of up to ~16 characters touch
	yTicks      = 4

	rowH       = 24  // one row of a horizontal bar chart
	rowLabelW  = 230 // its label column
	rowValueW  = 190 // its value column
	labelRunes = 34  // longer labels are cut, the full text in the tooltip
)

// coord is a coordinate, printed with one decimal to keep the page small.
type coord float64

func (c coord) String() string { return strconv.FormatFloat(float64(c), 'f', 1, 64) }

// A timeChart is a chart over the buckets of a series: stacked bars, or a
// line with a dot per bucket that has a value. Empty says why it has no
// marks; the page then shows that instead.
type timeChart struct {
	ID, Label string
	W, H      int
	PlotX     coord // left edge of the plot
	PlotY     coord // bottom edge (the x axis)
	PlotW     coord
	PlotRight coord
	YTicks    []tick
	XLabels   []tick
	Bars      []bar
	Line      string // path data of the line, "" for bar charts
	Dots      []dot
	Empty     string
}

// A tick is an axis label at (X, Y); Line is the height of its grid line.
type tick struct {
	X, Y, Line coord
	Label      string
}

// A bar is one bucket's stack of segments, with the bucket's tooltip; Hit
// is the full-height strip that shows the tooltip over short bars.
type bar struct {
	X, W  coord
	Segs  []seg
	Title string
	HitY  coord
	HitH  coord
}

type seg struct {
	Y, H  coord
	Class string
}

type dot struct {
	X, Y  coord
	Title string
}

// A series names one stacked value of a bucket.
type seriesSpec struct {
	class string
	value func(Bucket) float64
}

// plotH is the height of a time chart's plot.
const plotH = timeChartH - marginTop - marginBot

// newTimeChart lays out the frame of a chart over r's series: x labels and
// the slot of each bucket.
func newTimeChart(id, label string, r *Report) *timeChart {
	c := &timeChart{ID: id, Label: label, W: chartW, H: timeChartH,
		PlotX: marginLeft, PlotY: timeChartH - marginBot, PlotW: chartW - marginLeft - marginRight, PlotRight: chartW - marginRight}
	step := labelStep(r.Unit, r.Every, len(r.Series))
	prev := 0
	for i, b := range r.Series {
		if !labelled(r.Unit, r.Every, i, b.Start, step) {
			continue
		}
		c.XLabels = append(c.XLabels, tick{X: c.slotX(i, len(r.Series)) + c.slotW(len(r.Series))/2,
			Y: c.PlotY + 18, Label: axisLabel(r.Unit, b.Start, len(c.XLabels) == 0 || b.Start.Year() != prev)})
		prev = b.Start.Year()
	}
	return c
}

func (c *timeChart) slotW(n int) coord      { return c.PlotW / coord(n) }
func (c *timeChart) slotX(i, n int) coord   { return c.PlotX + coord(i)*c.slotW(n) }
func (c *timeChart) y(v, top float64) coord { return c.PlotY - coord(v/top*plotH) }
func (c *timeChart) h(v, top float64) coord { return coord(v / top * plotH) }
func (c *timeChart) yAxis(top, step float64, format func(float64) string) {
	for v := 0.0; v <= top+step/2; v += step {
		c.YTicks = append(c.YTicks, tick{X: c.PlotX - 8, Y: c.y(v, top) + 4, Line: c.y(v, top), Label: format(v)})
	}
}

// stackedBars fills c with one stacked bar per bucket; title gives each
// bucket's tooltip. Negative values draw nothing (the tooltip says them).
func (c *timeChart) stackedBars(r *Report, specs []seriesSpec, format func(float64) string, title func(Bucket) string) {
	peak := 0.0
	for _, b := range r.Series {
		sum := 0.0
		for _, s := range specs {
			sum += max(s.value(b), 0)
		}
		peak = max(peak, sum)
	}
	top, step := niceScale(peak)
	c.yAxis(top, step, format)
	n := len(r.Series)
	w := c.slotW(n)
	for i, b := range r.Series {
		br := bar{X: c.slotX(i, n) + w*0.1, W: max(w*0.8, 0.5), Title: bucketTitle(r.Unit, r.Every, b.Start) + ": " + title(b),
			HitY: marginTop, HitH: plotH}
		base := 0.0
		for _, s := range specs {
			v := max(s.value(b), 0)
			if v == 0 {
				continue
			}
			br.Segs = append(br.Segs, seg{Y: c.y(base+v, top), H: c.h(v, top), Class: s.class})
			base += v
		}
		c.Bars = append(c.Bars, br)
	}
}

// ratioLine fills c with a line through the buckets' ratios (0 to 1),
// broken where a bucket has none, and a dot on each.
func (c *timeChart) ratioLine(r *Report, ratio func(Bucket) (float64, bool), title func(Bucket) string) {
	c.yAxis(1, 0.25, func(v float64) string { return percent(v) })
	n := len(r.Series)
	var d strings.Builder
	joined := false
	for i, b := range r.Series {
		v, ok := ratio(b)
		if !ok {
			joined = false
			continue
		}
		x, y := c.slotX(i, n)+c.slotW(n)/2, c.y(v, 1)
		op := "L"
		if !joined {
			op = "M"
		}
		fmt.Fprintf(&d, "%s%s %s", op, x, y)
		joined = true
		c.Dots = append(c.Dots, dot{X: x, Y: y, Title: bucketTitle(r.Unit, r.Every, b.Start) + ": " + title(b)})
	}
	c.Line = d.String()
}

// niceScale returns the top of an axis holding peak and the step between
// its yTicks+1 ticks: 1, 2 or 5 times a power of ten.
func niceScale(peak float64) (top, step float64) {
	if peak <= 0 {
		return 1, 1.0 / yTicks
	}
	raw := peak / yTicks
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step = 10 * mag
	for _, f := range []float64{1, 2, 2.5, 5} {
		if f*mag >= raw {
			step = f * mag
			break
		}
	}
	return math.Ceil(peak/step-1e-9) * step, step
}

// labelSteps are the bucket counts between x labels that read naturally,
// per unit; labelStep picks the smallest that keeps labels to maxXLabels.
var labelSteps = map[string][]int{
	"hour":  {1, 2, 3, 4, 6, 12, 24},
	"day":   {1, 2, 7, 14, 28, 56, 91},
	"week":  {1, 2, 4, 8, 13, 26, 52},
	"month": {1, 2, 3, 6, 12, 24, 60, 120},
}

func labelStep(unit string, every, n int) int {
	if every == 1 {
		for _, s := range labelSteps[unit] {
			if (n+s-1)/s <= maxXLabels {
				return s
			}
		}
	}
	return max((n+maxXLabels-1)/maxXLabels, 1)
}

// labelled says whether bucket i, starting at start, gets an x label:
// hours on the multiples of step in the day (0:00, 6:00, …), other units
// every step buckets from the first.
func labelled(unit string, every, i int, start time.Time, step int) bool {
	if unit == "hour" && every == 1 && 24%step == 0 {
		return start.Hour()%step == 0
	}
	return i%step == 0
}

// axisLabel is an x-axis label: the time of day for hours (the date at
// midnight), the date for days and weeks, the month for months; withYear
// adds the year where it changes.
func axisLabel(unit string, t time.Time, withYear bool) string {
	switch {
	case unit == "hour" && t.Hour() != 0:
		return t.Format("15:04")
	case unit == "hour":
		return t.Format("Mon 2 Jan")
	case unit == "month":
		return t.Format("Jan 2006")
	case withYear:
		return t.Format("2 Jan 2006")
	}
	return t.Format("2 Jan")
}

// bucketTitle names the bucket starting at t in a tooltip.
func bucketTitle(unit string, every int, t time.Time) string {
	var s string
	switch unit {
	case "hour":
		s = t.Format("Mon 2 Jan 2006 15:04")
	case "day":
		s = t.Format("Mon 2 Jan 2006")
	case "week":
		s = "week of " + t.Format("Mon 2 Jan 2006")
	default:
		s = t.Format("January 2006")
	}
	if every > 1 {
		s = fmt.Sprintf("%d %ss from %s", every, unit, s)
	}
	return s
}

// A barChart is a horizontal bar chart: one row per entry, its bar
// proportional to its value (negative values draw none).
type barChart struct {
	ID, Label string
	W, H      int
	LabelX    coord
	BarX      coord
	Rows      []row
	Empty     string
}

type row struct {
	Y, TextY coord
	W        coord
	Label    string // cut to labelRunes
	Title    string // the full label and the details
	Value    string
	ValueX   coord
	Class    string
}

// An entry is one row's data.
type entry struct {
	label, detail, value string
	v                    float64
}

func newBarChart(id, label, class string, entries []entry) *barChart {
	c := &barChart{ID: id, Label: label, W: chartW, H: len(entries)*rowH + 8, LabelX: rowLabelW - 8, BarX: rowLabelW}
	peak := 0.0
	for _, e := range entries {
		peak = max(peak, e.v)
	}
	span := float64(chartW - rowLabelW - rowValueW)
	for i, e := range entries {
		w := 0.0
		if peak > 0 {
			w = max(e.v, 0) / peak * span
		}
		y := coord(4 + i*rowH)
		c.Rows = append(c.Rows, row{Y: y + 3, TextY: y + 16, W: coord(w), Label: cut(e.label, labelRunes),
			Title: e.label + ": " + e.detail, Value: e.value, ValueX: coord(rowLabelW+w) + 6, Class: class})
	}
	return c
}

// cut shortens s to n runes, ending it with "…" when it was longer.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
