package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/telemetry"
)

// writeTelemetry writes events to a telemetry file and points the user
// configuration at it.
func writeTelemetry(t *testing.T, events ...telemetry.Event) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "telemetry.jsonl")
	var b strings.Builder
	for _, ev := range events {
		line, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, fmt.Appendf(nil, "[telemetry]\nenabled = true\npath = %q\n", path), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WINNOW_CONFIG", cfg)
	t.Chdir(dir)
	return path
}

func TestStatsCommand(t *testing.T) {
	now := time.Now().UTC()
	path := writeTelemetry(t,
		telemetry.Event{Time: now.Add(-72 * time.Hour), Tool: "gh__old", Session: "a", Before: 5000, After: 5000, Layer: telemetry.LayerNone},
		telemetry.Event{Time: now.Add(-time.Hour), Tool: "gh__list", Session: "a", Before: 30000, After: 4000, Layer: "encode+trim",
			Layers: []telemetry.LayerTokens{{Layer: "encode", Before: 30000, After: 16000}, {Layer: "trim", Before: 16000, After: 4000}}},
		telemetry.Event{Time: now.Add(-time.Minute), Tool: "gh__get", Session: "b", Before: 500, After: 20, Layer: "dedup", Dedup: true,
			Layers: []telemetry.LayerTokens{{Layer: "dedup", Before: 500, After: 20}}},
	)

	code, out, errOut := run(t, "stats")
	if code != 0 {
		t.Fatalf("stats: exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"3 tool results in 2 sessions",
		"baseline: tokens the upstream returned, counted with o200k",
		"  saved         26480 tokens (74.6%)",
		"    dedup           480  1 duplicates (1 identical, 0 near)",
		"    encoding      14000  1 results re-encoded",
		"    trimming      12000  1 results trimmed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stats output lacks %q:\n%s", want, out)
		}
	}

	code, out, errOut = run(t, "stats", "--since", "2d", "--json")
	if code != 0 {
		t.Fatalf("stats --since 2d --json: exit %d: %s", code, errOut)
	}
	var s struct {
		Calls    int      `json:"calls"`
		Before   int      `json:"tokens_before"`
		After    int      `json:"tokens_after"`
		Baseline string   `json:"baseline"`
		Files    []string `json:"files"`
		Savings  struct {
			Dedup, Encoding, Trimming struct{ Tokens int }
		} `json:"savings"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if s.Calls != 2 || s.Before != 30500 || s.After != 4020 || s.Savings.Trimming.Tokens != 12000 || len(s.Files) != 1 || s.Files[0] != path {
		t.Errorf("--since 2d --json: %+v", s)
	}

	code, out, _ = run(t, "stats", "--since", "10m", "--file", path)
	if code != 0 || !strings.Contains(out, "1 tool results in 1 sessions") {
		t.Errorf("--since 10m --file: exit %d:\n%s", code, out)
	}
}

func TestStatsErrors(t *testing.T) {
	path := writeTelemetry(t)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := run(t, "stats")
	if code != exitError || !strings.Contains(errOut, "no telemetry at "+path) || !strings.Contains(errOut, "enabled = true") {
		t.Errorf("missing file: exit %d: %s", code, errOut)
	}
	for _, since := range []string{"yesterday", "-1h", "0d"} {
		code, _, errOut = run(t, "stats", "--since", since)
		if code != exitUsage || !strings.Contains(errOut, "--since") {
			t.Errorf("--since %s: exit %d: %s", since, code, errOut)
		}
	}
}

// TestStatsPlanner checks the planner's effectiveness in winnow stats, in
// text and in --json, overall and per tool.
func TestStatsPlanner(t *testing.T) {
	now := time.Now().UTC().Add(-time.Hour)
	at := func(i int) time.Time { return now.Add(time.Duration(i) * time.Second) }
	writeTelemetry(t,
		telemetry.Event{Time: at(0), Tool: "fs__search_files", Session: "s", Key: "k0", Before: 50, After: 50, Layer: telemetry.LayerNone,
			Plans: []telemetry.Plan{
				{Tool: "fs__read_file", Key: "k1", Decision: telemetry.DecisionPrefetch, PredictedTokens: 400},
				{Tool: "fs__read_file", Key: "k2", Decision: telemetry.DecisionPrefetch, PredictedTokens: 400},
				{Tool: "fs__list_directory", Key: "k3", Decision: telemetry.DecisionDeclined, Reason: "below probability 0.30"},
			}},
		telemetry.Event{Time: at(1), Tool: "fs__read_file", Session: "s", Key: "k1", Served: telemetry.ServedPrefetch, PredictedTokens: 400,
			Before: 600, After: 600, Layer: telemetry.LayerNone},
		telemetry.Event{Time: at(2), Tool: "fs__list_directory", Session: "s", Key: "k3", Before: 80, After: 80, Layer: telemetry.LayerNone},
	)
	code, out, errOut := run(t, "stats")
	if code != 0 {
		t.Fatalf("stats: exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"  prefetch hit rate    50.0%  1 of 2 prefetches used",
		"  decline recall loss 100.0%  1 of 1 declined candidates called by the agent",
		"  cost overrun rate   100.0%  1 of 1 predicted results at 130% of the prediction or more",
		"  calls saved 1: inline 0, prefetch 1, dedup 0, fail-fast 0",
		"  fs__read_file      prefetch 1/2  inline 0/0  declined-called 0/0  overrun 1/1  saved 1 calls",
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("stats output lacks %q:\n%s", want, out)
		}
	}

	code, out, errOut = run(t, "stats", "--json")
	if code != 0 {
		t.Fatalf("stats --json: exit %d: %s", code, errOut)
	}
	var s struct {
		Planner struct {
			PrefetchHitRate   float64 `json:"prefetch_hit_rate"`
			DeclineRecallLoss float64 `json:"decline_recall_loss"`
			CostOverrunRate   float64 `json:"cost_overrun_rate"`
			Saved             struct {
				Prefetch struct{ Calls int } `json:"prefetch"`
			} `json:"calls_saved"`
		} `json:"planner"`
		Tools []struct {
			Tool    string `json:"tool"`
			Planner *struct {
				Prefetches   int `json:"prefetches"`
				PrefetchHits int `json:"prefetch_hits"`
			} `json:"planner"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	p := s.Planner
	if p.PrefetchHitRate != 0.5 || p.DeclineRecallLoss != 1 || p.CostOverrunRate != 1 || p.Saved.Prefetch.Calls != 1 {
		t.Errorf("--json planner: %+v", p)
	}
	for _, tool := range s.Tools {
		if tool.Tool == "fs__read_file" && (tool.Planner == nil || tool.Planner.Prefetches != 2 || tool.Planner.PrefetchHits != 1) {
			t.Errorf("--json fs__read_file planner: %+v", tool.Planner)
		}
	}
}
