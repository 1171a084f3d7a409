package localize

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteJSON writes the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the report as aligned tables for people: shares as
// percentages with one decimal, counts beside them.
func (r *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "instances  %d", r.Instances)
	if len(r.Missing) > 0 || len(r.Failed) > 0 {
		fmt.Fprintf(w, "; %d without a result, %d failed (they count as misses)", len(r.Missing), len(r.Failed))
	}
	fmt.Fprintf(w, "\nrankings   files: %s; modules: %s\n", r.FileRanking, r.ModuleRanking)
	if len(r.Indexes) > 0 {
		fmt.Fprintf(w, "index      quick tier %d, full tier %d\n", r.Indexes["quick"], r.Indexes["full"])
	}
	fmt.Fprintln(w)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	labels := newLabels("function")
	fmt.Fprintf(tw, "%s\tn\texcluded\t@1\t@3\t@5\t@10\t\n", labels.pad("Acc"))
	for _, l := range []struct {
		name string
		l    Level
	}{{"file", r.File}, {"module", r.Module}, {"function", r.Function}} {
		fmt.Fprintf(tw, "%s\t%d\t%d\t", labels.pad(l.name), l.l.N, l.l.Excluded)
		for _, k := range fileKs {
			fmt.Fprintf(tw, "%s\t", atK(l.l.Acc, k, l.l.N))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	fmt.Fprintf(w, "\nfunction recall")
	for _, a := range r.Recall {
		fmt.Fprintf(w, "  @%d %s", a.K, percent(a.Value, r.Function.N))
	}
	fmt.Fprintf(w, "  MRR %.3f\n", r.MRR)
	if len(r.Budget) > 0 {
		fmt.Fprintf(w, "\nbudgeted context recall (share of gold function bodies inside the context)\n")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "  budget\trecall\tn\treported\t\n")
		for _, b := range r.Budget {
			fmt.Fprintf(tw, "  %d\t%s\t%d\t%d\t\n", b.Tokens, percent(b.Recall, b.N), b.N, b.Reported)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}

	fmt.Fprintln(w)
	c := r.ContextTokens
	fmt.Fprintf(w, "context tokens  mean %.0f  p50 %.0f  p95 %.0f  max %.0f  (%d results)\n", c.Mean, c.P50, c.P95, c.Max, c.N)
	q := r.LatencyMS
	fmt.Fprintf(w, "warm query      p50 %s  p95 %s  max %s  (%d queries)\n", millis(q.P50), millis(q.P95), millis(q.Max), q.N)
	if ix := r.IndexMS; ix.N > 0 {
		fmt.Fprintf(w, "cold index      %d trees built: sum %s  p50 %s  max %s\n\n", ix.N, millis(ix.Sum), millis(ix.P50), millis(ix.Max))
	} else {
		fmt.Fprintf(w, "cold index      no tree built in this run\n\n")
	}

	labels = newLabels("stratum")
	for _, s := range r.Strata {
		labels.fit(s.Name)
	}
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tn\tfile n\tfile@1\tfile@5\tfunc n\tfunc@10\t\n", labels.pad("stratum"))
	for _, s := range r.Strata {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%d\t%s\t\n", labels.pad(s.Name), s.N,
			s.FileN, percent(s.File1, s.FileN), percent(s.File5, s.FileN), s.FuncN, percent(s.Func10, s.FuncN))
	}
	return tw.Flush()
}

func (s Source) String() string {
	switch {
	case s.Native == 0:
		return fmt.Sprintf("derived from functions (%d)", s.Derived)
	case s.Derived == 0:
		return fmt.Sprintf("native (%d)", s.Native)
	}
	return fmt.Sprintf("native %d, derived from functions %d", s.Native, s.Derived)
}

// labels pads a table's first column to a common width, so that the
// right-aligned tabwriter leaves it flush left.
type labels struct{ width int }

func newLabels(widest string) *labels { return &labels{len(widest)} }

func (l *labels) fit(s string) { l.width = max(l.width, len(s)) }

func (l *labels) pad(s string) string { return s + strings.Repeat(" ", max(0, l.width-len(s))) }

// atK formats the value at k, blank when the level has none.
func atK(acc []AtK, k, n int) string {
	for _, a := range acc {
		if a.K == k {
			return percent(a.Value, n)
		}
	}
	return ""
}

// percent formats a share of n instances; "-" when there are none.
func percent(v float64, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*v)
}

func millis(ms float64) string {
	switch {
	case ms >= 10_000:
		return fmt.Sprintf("%.1fs", ms/1000)
	case ms >= 1000:
		return fmt.Sprintf("%.2fs", ms/1000)
	case ms >= 10:
		return fmt.Sprintf("%.0fms", ms)
	}
	return fmt.Sprintf("%.1fms", ms)
}
