package agents

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/winnowhq/winnow/internal/bench/measure"
)

// A Tally is what a scripted API saw and billed in one session, the same for every client.
type Tally struct {
	Requests            int      `json:"requests"`              // main loop
	SideRequests        int      `json:"side_requests"`         // titles, count_tokens, probes …
	InputTokens         int      `json:"input_tokens"`          // billed, after server-side edits (o200k)
	OriginalInputTokens int      `json:"original_input_tokens"` // before server-side edits
	CacheRead           int      `json:"cache_read_tokens"`
	CacheWrite          int      `json:"cache_write_tokens"`
	Cost                float64  `json:"cached_cost"` // in uncached-input-token units
	OutputTokens        int      `json:"output_tokens"`
	Invalid             int      `json:"invalid_requests"` // answered 400 for breaking the API's rules
	EditsApplied        int      `json:"server_edits_applied"`
	ClearedInputTokens  int      `json:"server_cleared_tokens"`
	Steps               int      `json:"steps"`    // tool steps answered
	Finished            bool     `json:"finished"` // the script's final answer was sent
	Violations          []string `json:"violations,omitempty"`
	// StepInput and StepCost are the billed input tokens and cached cost of the
	// main-loop requests that answered each step (index: the step, 0-based; the final
	// answer is the last), so that a session that broke off can be compared step for step.
	StepInput []int     `json:"step_input_tokens"`
	StepCost  []float64 `json:"step_cost"`
}

// A Session is one run of the client.
type Session struct {
	Path    string         `json:"path"` // passthrough or winnow
	Success bool           `json:"success"`
	Detail  string         `json:"detail"`
	Elapsed measure.Millis `json:"elapsed_ms"`
	Tally
	Rewrites map[string]int `json:"proxy_rewrites,omitempty"` // winnow: what the proxy did, by request
}

// Ratios compare the winnow session with the passthrough one: over whole sessions when
// both completed, else over the steps both answered (Steps of them).
type Ratios struct {
	InputTokens float64 `json:"input_tokens"`
	Cost        float64 `json:"cached_cost"`
	Requests    float64 `json:"requests"`
	Steps       int     `json:"steps"`   // steps compared
	Partial     bool    `json:"partial"` // a session did not complete: only its first Steps steps compared
}

// A Report is the result of Run.
type Report struct {
	Client      string  `json:"client"`
	Steps       int     `json:"steps"`
	Files       int     `json:"files"`
	LoadAvg     string  `json:"load_avg"`
	LoadAvgEnd  string  `json:"load_avg_end"`
	Passthrough Session `json:"passthrough"`
	Winnow      Session `json:"winnow"`
	Ratios      Ratios  `json:"ratios"` // winnow / passthrough
}

func (r *Report) ratios() {
	div := func(a, b float64) float64 {
		if b == 0 {
			return 0
		}
		return a / b
	}
	p, w := r.Passthrough, r.Winnow
	if p.complete() && w.complete() {
		r.Ratios = Ratios{
			InputTokens: div(float64(w.InputTokens), float64(p.InputTokens)),
			Cost:        div(w.Cost, p.Cost),
			Requests:    div(float64(w.Requests), float64(p.Requests)),
			Steps:       len(p.StepInput),
		}
		return
	}
	n := min(len(p.StepInput), len(w.StepInput))
	r.Ratios = Ratios{
		InputTokens: div(float64(sum(w.StepInput[:n])), float64(sum(p.StepInput[:n]))),
		Cost:        div(sum(w.StepCost[:n]), sum(p.StepCost[:n])),
		Steps:       n,
		Partial:     true,
	}
}

func (s Session) complete() bool { return s.Success && s.Finished && s.Invalid == 0 }

func sum[T int | float64](xs []T) T {
	var t T
	for _, x := range xs {
		t += x
	}
	return t
}

// WriteJSON writes the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// TargetInputRatio is the target of the input a session through winnow makes the API bill,
// against the same session straight at the API (issue 10: one prompt of 20 tool steps,
// thinking on every step for Claude Code, with no invalid request).
const TargetInputRatio = 0.70

// WriteText writes the two sessions side by side, then the ratios with their targets.
func (r *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%s, %d tool steps over %d files, straight at the scripted API and through winnow proxy\n\n", r.Client, r.Steps, r.Files)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	p, x := r.Passthrough, r.Winnow
	fmt.Fprintf(tw, "\tpassthrough\twinnow\t\n")
	row := func(name string, a, b any) { fmt.Fprintf(tw, "%s\t%v\t%v\t\n", name, a, b) }
	row("completed, all valid", verdict(p.complete()), verdict(x.complete()))
	row("tool steps", p.Steps, x.Steps)
	row("main-loop requests", p.Requests, x.Requests)
	row("side requests", p.SideRequests, x.SideRequests)
	row("invalid requests", p.Invalid, x.Invalid)
	row("input tokens billed", p.InputTokens, x.InputTokens)
	row("  before server edits", p.OriginalInputTokens, x.OriginalInputTokens)
	row("  cache read", p.CacheRead, x.CacheRead)
	row("  cache write", p.CacheWrite, x.CacheWrite)
	row("cached cost (tokens)", fmt.Sprintf("%.0f", p.Cost), fmt.Sprintf("%.0f", x.Cost))
	row("server edits applied", p.EditsApplied, x.EditsApplied)
	row("output tokens", p.OutputTokens, x.OutputTokens)
	row("elapsed", p.Elapsed, x.Elapsed)
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nproxy: %s\n", rewrites(x.Rewrites))
	met := func(ratio, target float64) string {
		if ratio <= target && x.complete() && len(x.Violations) == 0 {
			return "met"
		}
		return "MISSED"
	}
	if r.Ratios.Partial {
		fmt.Fprintf(w, "a session did not complete: ratios over the %d steps both answered, targets missed\n", r.Ratios.Steps)
	}
	fmt.Fprintf(w, "winnow/passthrough: input tokens billed %.3f (target <= %.2f with no invalid request: %s), cached cost %.3f",
		r.Ratios.InputTokens, TargetInputRatio, met(r.Ratios.InputTokens, TargetInputRatio), r.Ratios.Cost)
	if !r.Ratios.Partial {
		fmt.Fprintf(w, ", requests %.2f", r.Ratios.Requests)
	}
	fmt.Fprintln(w)
	for _, s := range []Session{p, x} {
		if !s.complete() {
			fmt.Fprintf(w, "%s: did not complete (%d of %d steps): %s\n", s.Path, s.Steps, r.Steps, s.Detail)
		}
		for i, v := range s.Violations {
			if i == 5 {
				fmt.Fprintf(w, "  … %d more\n", len(s.Violations)-5)
				break
			}
			fmt.Fprintf(w, "%s: invalid: %s\n", s.Path, v)
		}
	}
	tokenizer := "o200k, OpenAI's own"
	if r.Client == ClaudeCode {
		tokenizer = "o200k (Claude's tokenizer is not public)"
	}
	fmt.Fprintf(w, "tokens are %s; costs in uncached input tokens, 5-minute cache\n", tokenizer)
	fmt.Fprintf(w, "load average: %s at start, %s at end\n", r.LoadAvg, r.LoadAvgEnd)
	return nil
}

func verdict(ok bool) string {
	if ok {
		return "yes"
	}
	return "NO"
}

func rewrites(m map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
	}
	if len(parts) == 0 {
		return "no requests"
	}
	return strings.Join(parts, ", ")
}
