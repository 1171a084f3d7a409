package tune

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/telemetry"
	"github.com/winnowhq/winnow/internal/toolvalue"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, file, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", file, diff)
	}
}

// models are the models the proposals are compared with.
func models(tool string) toolvalue.Model {
	m := toolvalue.Model{
		Class: toolvalue.Critical, SideEffect: toolvalue.ReadOnly,
		Cost: toolvalue.Cost{TypicalTokens: 1000, MaxTokens: 8000, LatencyP50: 200 * time.Millisecond},
	}
	switch tool {
	case "fs__search_files":
		m.FollowUps = []toolvalue.FollowUp{
			{Tool: "fs__read_file", Probability: 0.3, Args: map[string]string{"path": "result.paths"}},
			{Tool: "fs__get_file_info", Probability: 0.4, Args: map[string]string{"path": "result.paths"}},
			{Tool: "fs__never_seen", Probability: 0.2, Args: map[string]string{"path": "arg.path"}},
		}
	case "fs__write_file":
		m.SideEffect = toolvalue.MutatesLocal
	}
	return m
}

// analyzeTelemetry writes a telemetry file: in session s1, 12 searches each followed
// by a read, the planner prefetching the read every time and the agent using 4 of
// them (answered from the prefetch), the other 8 reads answered by the upstream with
// sizes 500..1200 in 40 ms; in session s2, 10 get_file_info calls each with a
// prefetched listing the agent used 5 times; and 12 prefetched writes, never used.
func analyzeTelemetry(t *testing.T) string {
	t0 := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	var evs []telemetry.Event
	at := func(s string, i int) time.Time {
		return t0.Add(time.Duration(len(evs)+i) * time.Second)
	}
	for i := range 12 {
		key := fmt.Sprintf("k%d", i)
		evs = append(evs, telemetry.Event{Time: at("s1", 0), Tool: "fs__search_files", Session: "s1", Key: "q" + key, After: 50, Layer: telemetry.LayerNone,
			Plans: []telemetry.Plan{
				{Tool: "fs__read_file", Key: key, Decision: telemetry.DecisionPrefetch, PredictedTokens: 1000},
				{Tool: "fs__write_file", Key: "w" + key, Decision: telemetry.DecisionPrefetch},
			}})
		read := telemetry.Event{Time: at("s1", 0), Tool: "fs__read_file", Session: "s1", Key: key, After: 100 * (i + 1), Layer: telemetry.LayerNone, UpstreamUS: 40000}
		if i < 4 {
			read.Served, read.UpstreamUS = telemetry.ServedPrefetch, 0
		} else {
			read.Key = "other" + key
		}
		evs = append(evs, read)
	}
	for i := range 10 {
		key := fmt.Sprintf("l%d", i)
		evs = append(evs, telemetry.Event{Time: at("s2", 0), Tool: "fs__get_file_info", Session: "s2", Key: "i" + key, After: 20, Layer: telemetry.LayerNone,
			Plans: []telemetry.Plan{{Tool: "fs__list_directory", Key: key, Decision: telemetry.DecisionPrefetch}}})
		if i < 5 {
			evs = append(evs, telemetry.Event{Time: at("s2", 0), Tool: "fs__list_directory", Session: "s2", Key: key, Served: telemetry.ServedPrefetch, After: 30, Layer: telemetry.LayerNone})
		}
	}
	var b strings.Builder
	for _, ev := range evs {
		line, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	path := filepath.Join(t.TempDir(), "telemetry.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestAnalyze runs the proposals of a telemetry file and holds their snippet to a
// golden file: speculation off for the reads (4 of 12 prefetches used) but not for
// the listings (5 of 10: not below half) nor the writes (never speculable); sizes and
// latency refreshed where a quarter or more away; the search's edges refreshed,
// dropped or kept.
func TestAnalyze(t *testing.T) {
	tel, err := ReadTelemetry(analyzeTelemetry(t), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	ps := Propose(tel.Obs, Options{Model: models, Telemetry: tel})
	keys := map[string][]string{}
	for _, p := range ps {
		for _, c := range p.Changes {
			keys[p.Tool] = append(keys[p.Tool], c.Key)
		}
	}
	want := map[string][]string{
		"fs__read_file":     {"speculate", "cost_model.max_tokens", "cost_model.latency_ms"}, // median 800: within a quarter of 1000
		"fs__search_files":  {"cost_model.typical_tokens", "cost_model.max_tokens", "follow_up"},
		"fs__get_file_info": {"cost_model.typical_tokens", "cost_model.max_tokens"},
	}
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("proposed keys (-want +got):\n%s", diff)
	}
	snippet := Snippet(ps)
	var decoded map[string]any
	if _, err := toml.Decode(snippet, &decoded); err != nil {
		t.Fatalf("the snippet is not TOML: %v\n%s", err, snippet)
	}
	golden(t, "testdata/analyze.golden", snippet)
}

// TestProposeSpeculate checks the rule at its edges: fewer than 10 prefetches, a
// rate of exactly 50%, a tool that is not speculated anyway.
func TestProposeSpeculate(t *testing.T) {
	for _, tc := range []struct {
		name       string
		effect     telemetry.Effect
		sideEffect toolvalue.SideEffect
		want       bool
	}{
		{"12 prefetches, 4 used", telemetry.Effect{Prefetches: 12, PrefetchHits: 4, PrefetchHitRate: 4.0 / 12}, toolvalue.ReadOnly, true},
		{"10 prefetches, 4 used", telemetry.Effect{Prefetches: 10, PrefetchHits: 4, PrefetchHitRate: 0.4}, toolvalue.Pure, true},
		{"9 prefetches, none used", telemetry.Effect{Prefetches: 9}, toolvalue.ReadOnly, false},
		{"10 prefetches, 5 used", telemetry.Effect{Prefetches: 10, PrefetchHits: 5, PrefetchHitRate: 0.5}, toolvalue.ReadOnly, false},
		{"not speculable", telemetry.Effect{Prefetches: 20}, toolvalue.Indeterminate, false},
	} {
		var p Proposal
		p.speculate(toolvalue.Model{SideEffect: tc.sideEffect}, &tc.effect)
		if got := len(p.Changes) == 1 && p.Changes[0].Key == "speculate"; got != tc.want {
			t.Errorf("%s: proposed %v, want %v (%+v)", tc.name, got, tc.want, p.Changes)
		}
	}
}

// TestProposeFromLogs checks the edges mined with arguments: a new edge whose argument
// is projected, none to a tool that is never speculated (the edit of the file read),
// a note for one whose argument is not projected, and priors left alone when within a
// quarter of what was seen.
func TestProposeFromLogs(t *testing.T) {
	o := NewObservations()
	hits := "src/a.go:3:func A\n"
	for i := range 10 {
		o.Add([]Step{grep(fmt.Sprint("p", i), "/r", hits), read("/r/src/a.go"), edit("/r/src/a.go"), grep("q", "/r", "")})
	}
	model := func(tool string) toolvalue.Model {
		m := toolvalue.Unknown
		m.SideEffect = toolvalue.ReadOnly
		m.Cost.TypicalTokens, m.Cost.MaxTokens = 15, 18 // the searches' sizes: 18 and 0
		switch tool {
		case "Read":
			m.Cost.TypicalTokens, m.Cost.MaxTokens = 3, 3
		case "Edit":
			m.SideEffect, m.Cost.TypicalTokens, m.Cost.MaxTokens = toolvalue.MutatesLocal, 1, 1
		}
		return m
	}
	ps := Propose(o, Options{Model: model})
	want := []Proposal{{
		Tool:  "Edit",
		Notes: []string{"Grep follows at lag 1 with probability 1.00, but no projection of the call before gives its arguments in 10 pairs"},
	}, {
		Tool: "Grep",
		Changes: []Change{
			{Key: "cost_model.typical_tokens", Value: 0, Current: 15, Reason: "median of 20 results 0 tokens (the model says 15)"},
			{Key: "follow_up", Value: []toolvalue.FollowUp{{Tool: "Read", Probability: 0.5, Args: map[string]string{"file_path": "result.paths"}}},
				Current: []toolvalue.FollowUp(nil), Reason: "lag-1 probabilities over 20 calls: Read new 0.50 (file_path from result.paths)"},
		},
	}}
	if diff := cmp.Diff(want, ps); diff != "" {
		t.Errorf("proposals (-want +got):\n%s", diff)
	}
}

// TestProposeSizesTogether checks that a size within a quarter of the model is set
// anyway when the other one is, if leaving it would put the maximum below the typical
// size.
func TestProposeSizesTogether(t *testing.T) {
	for _, tc := range []struct {
		name         string
		typical, max int // the model's
		sizes        []int
		want         []string
	}{
		{"max below the typical size", 618, 10718, []int{600, 600, 600, 600, 600}, []string{
			"median of 5 results 600 tokens (the model says 618; set with the other size, so that max_tokens stays at or above typical_tokens)",
			"99th percentile of 5 results 600 tokens (the model says 10718)",
		}},
		{"typical above the maximum", 100, 400, []int{420, 420, 420, 420, 440}, []string{
			"median of 5 results 420 tokens (the model says 100)",
			"99th percentile of 5 results 440 tokens (the model says 400; set with the other size, so that max_tokens stays at or above typical_tokens)",
		}},
		{"both close", 100, 400, []int{90, 100, 110, 120, 380}, nil},
	} {
		var p Proposal
		p.cost(toolvalue.Model{Cost: toolvalue.Cost{TypicalTokens: tc.typical, MaxTokens: tc.max}}, &ToolStats{Tokens: tc.sizes})
		var got []string
		for _, c := range p.Changes {
			got = append(got, c.Reason)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}
