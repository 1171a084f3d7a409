package bench

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// The targets for the index.
const (
	targetColdRatio = 2.0                    // cold index no slower than 2× ctags, while also extracting references
	targetUpdate    = 50 * time.Millisecond  // incremental update of one file, p50
	targetReopen    = 200 * time.Millisecond // reopening the index, p50
	targetLookupP95 = 5 * time.Millisecond   // symbol lookup, p95
)

// Report is the result of a benchmark run.
type Report struct {
	Machine      Machine `json:"machine"`
	Winnow       string  `json:"winnow"`
	Ctags        string  `json:"ctags"`
	CtagsVersion string  `json:"ctags_version"`
	Runs         int     `json:"runs"`
	TempDir      string  `json:"temp_dir,omitempty"` // kept working directory, with --keep
	Trees        []Tree  `json:"trees"`
}

// Tree holds the measurements of one source tree.
type Tree struct {
	Path   string    `json:"path"`
	Cold   Cold      `json:"cold"`
	Reopen Durations `json:"reopen"`
	Update Update    `json:"incremental"`
	Lookup Lookup    `json:"lookup"`
	Checks []Check   `json:"checks"`
}

// A Check compares one measurement with its target.
type Check struct {
	Metric string  `json:"metric"`
	Value  float64 `json:"value"` // a ratio, or milliseconds
	Target string  `json:"target"`
	OK     bool    `json:"ok"`
}

func (t *Tree) checks() []Check {
	under := func(metric, stat string, m Millis, limit time.Duration) Check {
		return Check{metric, float64(m) / 1e6, fmt.Sprintf("%s < %s", stat, Millis(limit)), time.Duration(m) < limit}
	}
	return []Check{
		{"cold wall ratio", t.Cold.WallRatio, fmt.Sprintf("≤ %g× ctags", targetColdRatio), t.Cold.WallRatio <= targetColdRatio},
		under("reopen", "p50", t.Reopen.P50, targetReopen),
		under("update paths", "p50", t.Update.Paths.P50, targetUpdate),
		under("update", "p50", t.Update.Full.P50, targetUpdate),
		under("update cli", "p50", t.Update.CLI.P50, targetUpdate),
		under("lookup exact", "p95", t.Lookup.Exact.P95, targetLookupP95),
		under("lookup default", "p95", t.Lookup.Default.P95, targetLookupP95),
		under("lookup typo", "p95", t.Lookup.Typo.P95, targetLookupP95),
	}
}

// WriteText writes the report as tables for people.
func (r *Report) WriteText(w io.Writer) error {
	m := r.Machine
	fmt.Fprintf(w, "machine  %s/%s, %d CPUs, GOMAXPROCS %d, load average %s at start, %s at end\n",
		m.GOOS, m.GOARCH, m.NumCPU, m.GOMAXPROCS, orUnknown(m.LoadAvg), orUnknown(m.LoadAvgEnd))
	fmt.Fprintf(w, "winnow   %s\n", r.Winnow)
	fmt.Fprintf(w, "ctags    %s (%s)\n", r.Ctags, r.CtagsVersion)
	fmt.Fprintf(w, "runs     %d cold runs of each tool, interleaved, on the same files\n", r.Runs)
	if r.TempDir != "" {
		fmt.Fprintf(w, "kept     %s\n", r.TempDir)
	}
	for i := range r.Trees {
		fmt.Fprintln(w)
		if err := r.Trees[i].writeText(w); err != nil {
			return err
		}
	}
	return nil
}

func (t *Tree) writeText(w io.Writer) error {
	c := &t.Cold
	fmt.Fprintf(w, "%s: %d files, %.1f MB, %d definitions, %d references; %d files skipped\n\n",
		t.Path, c.Files, float64(c.Bytes)/1e6, c.Symbols, c.Refs, c.Skipped)
	checks := make(map[string]Check)
	for _, ch := range t.checks() {
		checks[ch.Metric] = ch
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(metric, winnow, ctags, ratio, check string) {
		target, verdict := "", ""
		if ch, ok := checks[check]; ok {
			target, verdict = ch.Target, "ok"
			if !ch.OK {
				verdict = "MISS"
			}
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", metric, winnow, ctags, ratio, target, verdict)
	}
	fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", "metric", "winnow", "ctags", "ratio", "target", "")
	row("cold wall, median (min)", medMin(c.Winnow.Wall), medMin(c.Ctags.Wall), times(c.WallRatio), "cold wall ratio")
	row("cold CPU, median (min)", medMin(c.Winnow.CPU), medMin(c.Ctags.CPU), times(c.CPURatio), "")
	row("peak RSS, median (min)", rssMedMin(c.Winnow.RSS), rssMedMin(c.Ctags.RSS),
		times(ratio(float64(c.Winnow.RSS.P50), float64(c.Ctags.RSS.P50))), "")
	if c.Winnow.SubRSS.P50 > 0 {
		row("peak RSS of its child processes (git)", rssMedMin(c.Winnow.SubRSS), "", "", "")
	}
	row("files/s", fmt.Sprintf("%.0f", c.Winnow.FilesPerSec), fmt.Sprintf("%.0f", c.Ctags.FilesPerSec), "", "")
	row("MB/s", fmt.Sprintf("%.2f", c.Winnow.MBPerSec), fmt.Sprintf("%.2f", c.Ctags.MBPerSec), "", "")
	row("definitions / tags", fmt.Sprint(c.Symbols), fmt.Sprint(c.Tags), "", "")
	row("references", fmt.Sprint(c.Refs), "-", "", "")
	row("quick tier: cold wall, median (min)", medMin(c.Quick.Wall), medMin(c.Ctags.Wall), times(c.QuickWallRatio), "")
	row("quick tier: cold CPU, median (min)", medMin(c.Quick.CPU), medMin(c.Ctags.CPU), times(c.QuickCPURatio), "")
	row("quick tier: CPU of the full tier's", times(c.QuickOfFull), "", "", "")
	row("quick tier: peak RSS, median (min)", rssMedMin(c.Quick.RSS), rssMedMin(c.Ctags.RSS),
		times(ratio(float64(c.Quick.RSS.P50), float64(c.Ctags.RSS.P50))), "")
	row("quick tier: definitions / references", fmt.Sprintf("%d / %d", c.QuickSymbols, c.QuickRefs), "", "", "")
	r := c.CtagsR
	row("ctags -R whole tree: wall / CPU / RSS", "", fmt.Sprintf("%s / %s / %s", r.Wall, r.CPU, rss(r.RSSKB)), "", "")
	row("ctags -R whole tree: files / tags", "", fmt.Sprintf("%d / %d", r.Files, r.Tags), "", "")
	row("reopen p50 / p95", p50p95(t.Reopen), "", "", "reopen")
	row("update 1 file: UpdatePaths p50 / p95", p50p95(t.Update.Paths), "", "", "update paths")
	row("update 1 file: Update p50 / p95", p50p95(t.Update.Full), "", "", "update")
	row("update 1 file: winnow index p50 / p95", p50p95(t.Update.CLI), "", "", "update cli")
	row("lookup exact p50 / p95 / max", p50p95max(t.Lookup.Exact), "", "", "lookup exact")
	row("lookup default p50 / p95 / max", p50p95max(t.Lookup.Default), "", "", "lookup default")
	row("lookup typo p50 / p95 / max", p50p95max(t.Lookup.Typo), "", "", "lookup typo")
	row("lookup typo, first", t.Lookup.First.String(), "", "", "")
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n  touched %s (%d bytes); looked up %d names (a typo of %d found the name)", t.Update.File, t.Update.Bytes, t.Lookup.Names, t.Lookup.TypoFound)
	if t.Lookup.Misses > 0 {
		fmt.Fprintf(w, ", %d found nothing", t.Lookup.Misses)
	}
	_, err := fmt.Fprintln(w)
	return err
}

func medMin(d Durations) string { return fmt.Sprintf("%s (%s)", d.P50, d.Min) }

func p50p95(d Durations) string { return fmt.Sprintf("%s / %s", d.P50, d.P95) }

func p50p95max(d Durations) string { return fmt.Sprintf("%s / %s / %s", d.P50, d.P95, d.Max) }

func rssMedMin(s Sizes) string { return fmt.Sprintf("%s (%s)", rss(s.P50), rss(s.Min)) }

// rss formats a size in KiB.
func rss(kb int64) string {
	if kb == 0 {
		return "?"
	}
	mib := float64(kb) / 1024
	if mib >= 10 {
		return fmt.Sprintf("%.0f MiB", mib)
	}
	return fmt.Sprintf("%.1f MiB", mib)
}

func times(r float64) string {
	if r == 0 {
		return ""
	}
	return fmt.Sprintf("%.2f×", r)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
