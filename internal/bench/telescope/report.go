package telescope

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// Targets of the telescope benchmark.
const (
	TargetSavedPct     = 75.0  // L1 code_signature against raw source
	TargetSignaturePct = 100.0 // signatures kept
	TargetSpeedup      = 50.0  // warm build against cold
)

// WriteText writes the report with each measurement next to its target.
func (r *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	for _, t := range r.Trees {
		fmt.Fprintf(tw, "%s (strategy %s)\n", t.Root, r.Strategy)
		fmt.Fprintf(tw, "  index build (not timed below)\t%s\n", ms(t.IndexBuild))
		fmt.Fprintf(tw, "  files\t%d (%d code); skipped %v\n", t.Files, t.CodeFiles, t.Skipped)
		fmt.Fprintf(tw, "  L1 tokens, code files\t%d → %d\t%.1f%% saved\ttarget ≥ %.0f%%\t%s\n", t.Code.Raw, t.Code.Abstract, t.Code.SavedPct, TargetSavedPct, verdict(t.Code.SavedPct >= TargetSavedPct))
		fmt.Fprintf(tw, "  L1 tokens, all files\t%d → %d\t%.1f%% saved\n", t.All.Raw, t.All.Abstract, t.All.SavedPct)
		fmt.Fprintf(tw, "  signatures kept\t%d / %d\t%.2f%%\ttarget %.0f%%\t%s\n", t.Signatures.Kept, t.Signatures.Checked, t.Signatures.Pct, TargetSignaturePct, verdict(t.Signatures.Kept == t.Signatures.Checked))
		for _, m := range t.Signatures.Missing {
			fmt.Fprintf(tw, "    missing: %s\n", m)
		}
		fmt.Fprintf(tw, "  cold build\t%s\n", ms(t.Cold))
		fmt.Fprintf(tw, "  warm build (median of %d)\t%s\t%v\thit rate %.0f%%\n", len(t.WarmAll), ms(t.Warm), msList(t.WarmAll), 100*t.WarmHitRate)
		fmt.Fprintf(tw, "  speedup cold/warm\t%.0f×\ttarget ≥ %.0f×\t%s\n", t.Speedup, TargetSpeedup, verdict(t.Speedup >= TargetSpeedup))
		fmt.Fprintf(tw, "  rebuild after touching %s\t%s\tcomputed %d unit, %d groups, %d root\texpected %d, %d, %d\t%s\n",
			t.Touched, ms(t.Rebuild), t.Recomputed.Units, t.Recomputed.Groups, t.Recomputed.Root,
			t.Expected.Units, t.Expected.Groups, t.Expected.Root, verdict(t.Recomputed == t.Expected))
		if t.TempDir != "" {
			fmt.Fprintf(tw, "  kept\t%s\n", t.TempDir)
		}
	}
	return tw.Flush()
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "MISSED"
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }

func msList(ds []time.Duration) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = ms(d)
	}
	return out
}
