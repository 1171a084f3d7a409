package proxy

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// The targets.
const (
	targetRequestOverhead = 2 * time.Millisecond // p50, 1 MB request body
	targetTTFBOverhead    = time.Millisecond     // p50, streaming response
)

// A Report is the result of a run.
type Report struct {
	LoadAvg       string     `json:"load_avg"`
	LoadAvgEnd    string     `json:"load_avg_end"`
	BodyBytes     int        `json:"body_bytes"`
	TTFBBodyBytes int        `json:"ttfb_body_bytes"`
	Request       Comparison `json:"request"` // whole non-streaming exchange with the large body
	// With a rewriting proxy, Request is measured on growing conversations (see Run): the
	// requests that extend an earlier one, Conversations of them, of MinBodyBytes to
	// MaxBodyBytes; Cold is the first request of each conversation.
	Conversations int         `json:"conversations,omitempty"`
	MinBodyBytes  int         `json:"min_body_bytes,omitempty"`
	MaxBodyBytes  int         `json:"max_body_bytes,omitempty"`
	Cold          *Comparison `json:"cold,omitempty"`
	TTFB          Comparison  `json:"ttfb"` // time to the first byte of a streaming response
	Concurrency   Concurrency `json:"concurrency"`
}

// WriteJSON writes the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the report as a table with the targets.
func (r *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "measure\tpath\tn\tp50\tp95\tmin\tmax\t\n")
	row := func(name, path string, d Durations) {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t\n", name, path, d.N, d.P50, d.P95, d.Min, d.Max)
	}
	reqName := fmt.Sprintf("POST %.1f MB", float64(r.BodyBytes)/(1<<20))
	if r.Cold != nil {
		reqName = fmt.Sprintf("POST %.2f-%.2f MB, next turn", float64(r.MinBodyBytes)/(1<<20), float64(r.MaxBodyBytes)/(1<<20))
	}
	row(reqName, "direct", r.Request.Direct)
	row(reqName, "proxy", r.Request.Proxy)
	if r.Cold != nil {
		row("POST, first turn (cold)", "direct", r.Cold.Direct)
		row("POST, first turn (cold)", "proxy", r.Cold.Proxy)
	}
	ttfbName := fmt.Sprintf("TTFB stream (%.1f KB body)", float64(r.TTFBBodyBytes)/1024)
	row(ttfbName, "direct", r.TTFB.Direct)
	row(ttfbName, "proxy", r.TTFB.Proxy)
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	verdict := func(got Millis, target time.Duration) string {
		if time.Duration(got) <= target {
			return "met"
		}
		return "MISSED"
	}
	fmt.Fprintf(w, "request overhead: p50 %s (ratio %.2f), p95 %s; target p50 <= %s: %s\n",
		r.Request.OverheadP50, r.Request.Ratio, r.Request.OverheadP95, targetRequestOverhead, verdict(r.Request.OverheadP50, targetRequestOverhead))
	if r.Cold != nil {
		fmt.Fprintf(w, "  measured on %d growing conversations: each request is the previous one plus one turn\n", r.Conversations)
		fmt.Fprintf(w, "cold overhead (first request of a conversation): p50 %s (ratio %.2f), p95 %s\n",
			r.Cold.OverheadP50, r.Cold.Ratio, r.Cold.OverheadP95)
	}
	fmt.Fprintf(w, "TTFB overhead:    p50 %s (ratio %.2f), p95 %s; target p50 <= %s: %s\n",
		r.TTFB.OverheadP50, r.TTFB.Ratio, r.TTFB.OverheadP95, targetTTFBOverhead, verdict(r.TTFB.OverheadP50, targetTTFBOverhead))
	c := r.Concurrency
	ok := "met"
	if c.Complete != c.Streams || len(c.Errors) > 0 || c.Open != c.Streams {
		ok = "MISSED"
	}
	fmt.Fprintf(w, "concurrent streams: %d opened, %d held open at once, %d complete, %d errors in %s (per stream p50 %s, p95 %s); target all complete without error: %s\n",
		c.Streams, c.Open, c.Complete, len(c.Errors), c.Elapsed, c.Duration.P50, c.Duration.P95, ok)
	for i, e := range c.Errors {
		if i == 5 {
			fmt.Fprintf(w, "  … %d more\n", len(c.Errors)-5)
			break
		}
		fmt.Fprintf(w, "  error: %s\n", e)
	}
	fmt.Fprintf(w, "load average: %s at start, %s at end\n", r.LoadAvg, r.LoadAvgEnd)
	return nil
}
