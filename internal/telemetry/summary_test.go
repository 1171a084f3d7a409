package telemetry

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestSummary(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	events := []Event{
		{Time: t0.Add(-48 * time.Hour), Tool: "old__tool", Session: "s0", Before: 1000, After: 10, Layer: LayerDedup, Dedup: true,
			Layers: []LayerTokens{{LayerDedup, 1000, 10}}, LatencyUS: 1},
		{Time: t0, Tool: "gh__list", Session: "s1", Before: 30000, After: 3990, Layer: "encode+trim", LatencyUS: 900,
			Layers: []LayerTokens{{LayerEncode, 30000, 15000}, {LayerTrim, 15000, 3990}}, Counter: CounterExact},
		{Time: t0.Add(time.Minute), Tool: "gh__get", Session: "s1", Before: 400, After: 20, Layer: LayerDedup, Dedup: true, LatencyUS: 50,
			Layers: []LayerTokens{{LayerDedup, 400, 20}}},
		{Time: t0.Add(2 * time.Minute), Tool: "gh__get", Session: "s2", Before: 410, After: 45, Layer: LayerNearRef, Dedup: true, LatencyUS: 70,
			Layers: []LayerTokens{{LayerNearRef, 410, 45}}},
		{Time: t0.Add(3 * time.Minute), Tool: "gh__search", Session: "s2", Before: 300, After: 303, Layer: LayerNone, LatencyUS: 40,
			Layers: []LayerTokens{{LayerDedup, 0, 3}}, Counter: CounterEstimate},
		{Time: t0.Add(4 * time.Minute), Tool: "gh__get", Session: "s2", Before: 20, After: 20, Layer: LayerNone, Error: true, LatencyUS: 5},
	}
	s := NewSummary(t0.Add(-time.Hour))
	for _, ev := range events {
		s.Add(ev)
	}
	s.Finish()
	want := &Summary{
		Since: t0.Add(-time.Hour), First: t0, Last: t0.Add(4 * time.Minute), Baseline: Baseline,
		Calls: 5, Errors: 1, Sessions: 2,
		Before: 31130, After: 4378, Saved: 26752,
		Savings: Savings{
			Dedup:    LayerSavings{Calls: 2, Tokens: 380 + 365 - 3, Near: 1},
			Encoding: LayerSavings{Calls: 1, Tokens: 15000},
			Trimming: LayerSavings{Calls: 1, Tokens: 11010},
		},
		LatencyP50US: 50, LatencyP99US: 900, Estimated: 1,
		Tools: []ToolSummary{
			{Tool: "gh__list", Calls: 1, Before: 30000, After: 3990},
			{Tool: "gh__get", Calls: 3, Before: 830, After: 85},
			{Tool: "gh__search", Calls: 1, Before: 300, After: 303},
		},
	}
	if diff := cmp.Diff(want, s, cmpopts.IgnoreUnexported(Summary{})); diff != "" {
		t.Errorf("summary mismatch (-want +got):\n%s", diff)
	}
	if got := s.Savings.Dedup.Tokens + s.Savings.Encoding.Tokens + s.Savings.Trimming.Tokens; got != s.Saved {
		t.Errorf("the layers saved %d, the total is %d", got, s.Saved)
	}
	var b strings.Builder
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		fmt.Sprintf("5 tool results in 2 sessions from %s to %s, 1 upstream errors (passed unchanged)",
			t0.Local().Format(time.DateTime), t0.Add(4*time.Minute).Local().Format(time.DateTime)),
		"baseline: tokens the upstream returned, counted with o200k",
		"  before        31130 tokens",
		"  after          4378 tokens",
		"  saved         26752 tokens (85.9%)",
		"    dedup           742  2 duplicates (1 identical, 1 near)",
		"    encoding      15000  1 results re-encoded",
		"    trimming      11010  1 results trimmed",
		"latency added: p50 50µs, p99 900µs",
		"note: 1 results were too large to count exactly; their tokens are estimated",
		"  gh__list        1 calls      30000 →       3990 tokens (86.7%)",
		"  gh__search      1 calls        300 →        303 tokens (-1.0%)",
	} {
		if !strings.Contains(b.String(), line+"\n") {
			t.Errorf("report lacks the line %q:\n%s", line, b.String())
		}
	}
}

func TestSummaryEmpty(t *testing.T) {
	s := NewSummary(time.Time{})
	s.Files = []string{"/tmp/t.jsonl"}
	s.Finish()
	var b strings.Builder
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if b.String() != "no tool results or proxy requests recorded in /tmp/t.jsonl\n" {
		t.Errorf("got %q", b.String())
	}
}
