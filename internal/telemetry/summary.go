package telemetry

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Baseline says what the "before" numbers of a [Summary] count.
const Baseline = "tokens the upstream returned, counted with o200k"

// A Summary aggregates events: how many tool results passed, how many
// tokens the upstream returned and the agent received, and which layer saved
// what.
type Summary struct {
	// Files lists the telemetry files read, oldest first.
	Files []string `json:"files"`
	// Since is the start of the period summarised; zero means everything.
	Since time.Time `json:"since,omitzero"`
	// First and Last are the times of the first and last event counted.
	First time.Time `json:"first,omitzero"`
	Last  time.Time `json:"last,omitzero"`
	// Baseline says what Before counts.
	Baseline string `json:"baseline"`

	Calls    int `json:"calls"`
	Errors   int `json:"errors"`
	Sessions int `json:"sessions"`
	Before   int `json:"tokens_before"`
	After    int `json:"tokens_after"`
	Saved    int `json:"tokens_saved"`
	// Savings splits Saved by layer; its parts add up to Saved.
	Savings Savings `json:"savings"`
	// LatencyP50US and LatencyP99US are percentiles of the time the gateway
	// spent per result, in microseconds.
	LatencyP50US int64 `json:"latency_p50_us"`
	LatencyP99US int64 `json:"latency_p99_us"`
	// Estimated counts events whose tokens were estimated, not counted.
	Estimated int `json:"estimated"`
	// Skipped counts lines that were not events.
	Skipped int `json:"skipped_lines"`
	// Tools holds one entry per tool, most tokens saved first.
	Tools []ToolSummary `json:"tools"`
	// Planner is how well the gateway's planner did; nil when no event
	// says anything about it (it was off, or the file predates it).
	Planner *Effect `json:"planner,omitempty"`
	// Proxy summarises the LLM proxy's requests; nil when there were none.
	Proxy *ProxySummary `json:"proxy,omitempty"`

	latencies   []int64
	sessions    map[string]bool
	tools       map[string]*ToolSummary
	proxy       *ProxySummary
	effect      Effect
	effectCalls map[string][]effectCall // by session
	planned     bool
}

// Savings is what each family of layers saved.
type Savings struct {
	// Dedup covers identical results replaced by a reference and near
	// duplicates replaced by their differences (net of the id stamps that
	// make references possible).
	Dedup LayerSavings `json:"dedup"`
	// Encoding covers lossless re-encoding into a shorter form.
	Encoding LayerSavings `json:"encoding"`
	// Trimming covers cutting results to the call budget.
	Trimming LayerSavings `json:"trimming"`
	// Inline covers follow-up results the planner appended: tokens added,
	// so its Tokens are negative.
	Inline LayerSavings `json:"inline,omitzero"`
	// FailFast covers calls answered from the session after repeated
	// unproductive results: the tokens of the results they stand for less
	// the answers.
	FailFast LayerSavings `json:"fail_fast,omitzero"`
}

// LayerSavings is what one family of layers did over a period.
type LayerSavings struct {
	// Calls counts results the layer changed.
	Calls int `json:"calls"`
	// Tokens is the tokens saved.
	Tokens int `json:"tokens"`
	// Near counts, for Dedup, the near duplicates among Calls.
	Near int `json:"near,omitempty"`
}

// ToolSummary is the traffic of one tool.
type ToolSummary struct {
	Tool   string `json:"tool"`
	Calls  int    `json:"calls"`
	Before int    `json:"tokens_before"`
	After  int    `json:"tokens_after"`
	// Planner is how the planner did with the tool: its Prefetches,
	// Inlines and Declines are candidates of this tool; its Predictions
	// and Saved are calls of it. Nil when the Summary's Planner is.
	Planner *Effect `json:"planner,omitempty"`
}

// NewSummary returns an empty Summary of the events at or after since (zero:
// all events).
func NewSummary(since time.Time) *Summary {
	return &Summary{
		Since: since, Baseline: Baseline,
		sessions: map[string]bool{}, tools: map[string]*ToolSummary{}, effectCalls: map[string][]effectCall{},
	}
}

// AddProxy counts the proxy's ev, unless it is older than the Summary's
// Since.
func (s *Summary) AddProxy(ev ProxyEvent) {
	if ev.Time.Before(s.Since) {
		return
	}
	if s.proxy == nil {
		s.proxy = newProxySummary()
	}
	s.proxy.add(ev)
}

// Add counts ev, unless it is older than the Summary's Since.
func (s *Summary) Add(ev Event) {
	if ev.Time.Before(s.Since) {
		return
	}
	widen(&s.First, &s.Last, ev.Time)
	s.Calls++
	s.Before += ev.Before
	s.After += ev.After
	if ev.Error {
		s.Errors++
	}
	if ev.Counter == CounterEstimate {
		s.Estimated++
	}
	s.sessions[ev.Session] = true
	s.latencies = append(s.latencies, ev.LatencyUS)
	t := s.tools[ev.Tool]
	if t == nil {
		t = &ToolSummary{Tool: ev.Tool}
		s.tools[ev.Tool] = t
	}
	t.Calls++
	t.Before += ev.Before
	t.After += ev.After
	s.addLayers(ev)
	s.addEffect(ev)
}

func (s *Summary) addLayers(ev Event) {
	var enc, trim, inline bool
	for _, l := range ev.Layers {
		saved := l.Before - l.After
		switch l.Layer {
		case LayerDedup, LayerNearRef:
			s.Savings.Dedup.Tokens += saved
		case LayerEncode:
			s.Savings.Encoding.Tokens += saved
			enc = true
		case LayerTrim:
			s.Savings.Trimming.Tokens += saved
			trim = true
		case LayerInline:
			s.Savings.Inline.Tokens += saved
			inline = true
		}
	}
	if ev.Served == ServedFailFast {
		s.Savings.FailFast.Calls++
		s.Savings.FailFast.Tokens += unexplained(ev)
	}
	s.Savings.Inline.Calls += b2i(inline)
	s.Savings.Dedup.Calls += b2i(ev.Dedup)
	s.Savings.Dedup.Near += b2i(ev.Dedup && strings.Contains(ev.Layer, LayerNearRef))
	s.Savings.Encoding.Calls += b2i(enc)
	s.Savings.Trimming.Calls += b2i(trim)
}

// widen stretches the period from *first to *last (zero: no event yet) to take in t.
func widen(first, last *time.Time, t time.Time) {
	if first.IsZero() || t.Before(*first) {
		*first = t
	}
	if t.After(*last) {
		*last = t
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Finish computes the totals that depend on all events: tokens saved,
// sessions, latency percentiles, the per-tool list and the proxy's totals.
func (s *Summary) Finish() {
	if s.proxy != nil {
		s.proxy.finish()
		s.Proxy = s.proxy
	}
	s.Saved = s.Before - s.After
	s.Sessions = len(s.sessions)
	s.finishEffect()
	slices.Sort(s.latencies)
	s.LatencyP50US = percentile(s.latencies, 50)
	s.LatencyP99US = percentile(s.latencies, 99)
	s.Tools = s.Tools[:0]
	for _, t := range s.tools {
		s.Tools = append(s.Tools, *t)
	}
	slices.SortFunc(s.Tools, func(a, b ToolSummary) int {
		return cmp.Or(cmp.Compare(b.Before-b.After, a.Before-a.After), cmp.Compare(a.Tool, b.Tool))
	})
}

// percentile returns the p-th percentile of sorted values (nearest rank).
func percentile(sorted []int64, p int) int64 {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100
	return sorted[max(i, 1)-1]
}

// SummarizeFile summarises the events at or after since in the telemetry
// file at path and its rotated predecessor.
func SummarizeFile(path string, since time.Time) (*Summary, error) {
	s := NewSummary(since)
	files, skipped, err := ScanFile(path, s.Add, s.AddProxy)
	if err != nil {
		return nil, err
	}
	s.Files, s.Skipped = files, skipped
	s.Finish()
	return s, nil
}

// maxToolLines bounds the per-tool lines WriteText prints.
const maxToolLines = 10

// WriteText writes s as a short report for people.
func (s *Summary) WriteText(w io.Writer) error {
	var b strings.Builder
	switch {
	case s.Calls == 0 && s.Proxy == nil:
		fmt.Fprintf(&b, "no tool results or proxy requests recorded%s in %s\n", s.period(), strings.Join(s.Files, ", "))
	case s.Calls == 0:
		s.Proxy.writeText(&b)
	default:
		s.writeGateway(&b)
		if s.Proxy != nil {
			b.WriteString("\n")
			s.Proxy.writeText(&b)
		}
	}
	if s.Skipped > 0 {
		fmt.Fprintf(&b, "note: %d lines were not events and were skipped\n", s.Skipped)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeGateway writes the gateway's part of the report.
func (s *Summary) writeGateway(b *strings.Builder) {
	fmt.Fprintf(b, "%d tool results in %d sessions%s, %d upstream errors (passed unchanged)\n", s.Calls, s.Sessions, s.period(), s.Errors)
	fmt.Fprintf(b, "baseline: %s\n", s.Baseline)
	fmt.Fprintf(b, "  before   %10d tokens\n", s.Before)
	fmt.Fprintf(b, "  after    %10d tokens\n", s.After)
	fmt.Fprintf(b, "  saved    %10d tokens (%s)\n", s.Saved, pct(s.Saved, s.Before))
	d := s.Savings.Dedup
	fmt.Fprintf(b, "    dedup    %10d  %d duplicates (%d identical, %d near)\n", d.Tokens, d.Calls, d.Calls-d.Near, d.Near)
	fmt.Fprintf(b, "    encoding %10d  %d results re-encoded\n", s.Savings.Encoding.Tokens, s.Savings.Encoding.Calls)
	fmt.Fprintf(b, "    trimming %10d  %d results trimmed\n", s.Savings.Trimming.Tokens, s.Savings.Trimming.Calls)
	if f := s.Savings.FailFast; f.Calls > 0 {
		fmt.Fprintf(b, "    fail-fast %9d  %d calls answered without the upstream\n", f.Tokens, f.Calls)
	}
	if in := s.Savings.Inline; in.Calls > 0 {
		fmt.Fprintf(b, "    inlining %10d  %d results with follow-ups appended\n", in.Tokens, in.Calls)
	}
	fmt.Fprintf(b, "latency added: p50 %s, p99 %s\n", micros(s.LatencyP50US), micros(s.LatencyP99US))
	if s.Estimated > 0 {
		fmt.Fprintf(b, "note: %d results were too large to count exactly; their tokens are estimated\n", s.Estimated)
	}
	width := 0
	for _, t := range s.Tools[:min(len(s.Tools), maxToolLines)] {
		width = max(width, len(t.Tool))
	}
	fmt.Fprintf(b, "by tool (most saved first):\n")
	for _, t := range s.Tools[:min(len(s.Tools), maxToolLines)] {
		fmt.Fprintf(b, "  %-*s %6d calls %10d → %10d tokens (%s)\n", width, t.Tool, t.Calls, t.Before, t.After, pct(t.Before-t.After, t.Before))
	}
	if n := len(s.Tools) - maxToolLines; n > 0 {
		fmt.Fprintf(b, "  … and %d more tools (--json lists all)\n", n)
	}
	if s.Planner != nil {
		s.writeEffect(b)
	}
}

func (s *Summary) period() string {
	switch {
	case s.Calls > 0:
		return fmt.Sprintf(" from %s to %s", s.First.Local().Format(time.DateTime), s.Last.Local().Format(time.DateTime))
	case !s.Since.IsZero():
		return fmt.Sprintf(" since %s", s.Since.Local().Format(time.DateTime))
	}
	return ""
}

// pct formats part/whole as a signed percentage of whole saved.
func pct(part, whole int) string {
	if whole == 0 {
		return "0%"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(part)/float64(whole))
}

func micros(us int64) string {
	return (time.Duration(us) * time.Microsecond).String()
}
