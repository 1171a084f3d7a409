package cli

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/compact"
)

func TestBenchCompactCommand(t *testing.T) {
	data := filepath.Join("..", "compact", "traj", "testdata", "trajectories", "sweagent_demo_function_calling_replace_marshmallow-1867.traj.json")
	code, out, errOut := run(t, "bench", "compact", "--data", data, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Primary         string   `json:"primary"`
		TokensSentRatio *float64 `json:"tokens_sent_ratio"`
		CachedCostRatio *float64 `json:"cached_cost_ratio"`
		CacheHitRatio   *float64 `json:"cache_hit_ratio"`
		RecallProbe     *float64 `json:"recall_probe"`
		Violations      *int     `json:"violations"`
		Trajectories    int      `json:"trajectories"`
		Requests        int      `json:"requests"`
		Variants        []struct {
			Name            string  `json:"name"`
			TokensSentRatio float64 `json:"tokens_sent_ratio"`
			CachedCostRatio float64 `json:"cached_cost_ratio"`
		} `json:"variants"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.TokensSentRatio == nil || rep.CachedCostRatio == nil || rep.CacheHitRatio == nil || rep.RecallProbe == nil {
		t.Errorf("missing top-level numbers: %s", out)
	}
	if rep.Violations == nil || *rep.Violations != 0 {
		t.Errorf("violations %v, want 0 from the validator", rep.Violations)
	}
	var names []string
	for _, v := range rep.Variants {
		names = append(names, v.Name)
	}
	wantNames := []string{"identity", "rolling-mask", "combined"}
	for _, p := range compact.PassNames() {
		wantNames = append(wantNames, "only-"+p)
	}
	if rep.Trajectories != 1 || rep.Requests != 11 || !slices.Equal(names, wantNames) || rep.Primary != "combined" {
		t.Errorf("report %+v, variants %v", rep, names)
	}
	if !strings.Contains(errOut, "[1/1] sweagent_demo_function_calling_replace_marshmallow-1867.traj.json: 11 requests") {
		t.Errorf("progress on stderr: %q", errOut)
	}

	code, out, _ = run(t, "bench", "compact", "--data", data, "--variant", "rolling-mask")
	if code != 0 || !strings.Contains(out, "*rolling-mask") || strings.Contains(out, "identity") {
		t.Errorf("--variant rolling-mask: exit %d:\n%s", code, out)
	}
}

func TestBenchCompactThinking(t *testing.T) {
	data := filepath.Join("..", "compact", "traj", "testdata", "trajectories", "sweagent_demo_function_calling_replace_marshmallow-1867.traj.json")
	code, out, errOut := run(t, "bench", "compact", "--data", data, "--thinking", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Requests int `json:"requests"`
		Families []struct {
			Name            string   `json:"name"`
			Model           string   `json:"model"`
			TokensSentRatio *float64 `json:"tokens_sent_ratio"`
			CachedCostRatio *float64 `json:"cached_cost_ratio"`
			Violations      *int     `json:"violations"`
		} `json:"families"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var names []string
	for _, f := range rep.Families {
		names = append(names, f.Name+" "+f.Model)
		if f.TokensSentRatio == nil || f.CachedCostRatio == nil || f.Violations == nil || *f.Violations != 0 {
			t.Errorf("%s: %+v", f.Name, f)
		}
	}
	want := []string{"last-turn claude-sonnet-4-5", "keep-all claude-opus-4-5", "preserved claude-opus-5-5", "preserved-client claude-opus-5-5"}
	if !slices.Equal(names, want) || rep.Requests != 11 {
		t.Errorf("families %v, %d requests; want %v, 11", names, rep.Requests, want)
	}
	if !strings.Contains(errOut, "[1/1] sweagent_demo_function_calling_replace_marshmallow-1867.traj.json: 11 requests; last-turn") {
		t.Errorf("progress on stderr: %q", errOut)
	}
	code, out, _ = run(t, "bench", "compact", "--data", data, "--thinking")
	if code != 0 || !strings.Contains(out, "preserved-client") || !strings.Contains(out, "target: cost") {
		t.Errorf("--thinking text: exit %d:\n%s", code, out)
	}
}

func TestBenchCompactUsage(t *testing.T) {
	data := filepath.Join("..", "compact", "traj", "testdata", "trajectories")
	for _, args := range [][]string{
		{"bench", "compact"},
		{"bench", "compact", "--data", data, "--variant", "nope"},
		{"bench", "compact", "--data", data, "--openai-read", "2"},
		{"bench", "compact", "--data", data, "extra"},
		{"bench", "compact", "--data", data, "--thinking", "--variant", "combined"},
		{"bench", "compact", "--data", data, "--thinking", "--primary", "combined"},
	} {
		if code, _, errOut := run(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d (%s), want %d", args, code, errOut, exitUsage)
		}
	}
	code, _, errOut := run(t, "bench", "compact", "--data", filepath.Join(t.TempDir(), "missing.json"))
	if code != exitError || !strings.Contains(errOut, "missing.json") {
		t.Errorf("missing data: exit %d: %s", code, errOut)
	}
	code, _, errOut = run(t, "bench", "compact", "--data", data, "--only", "no such trajectory")
	if code != exitError || !strings.Contains(errOut, "no trajectory") {
		t.Errorf("--only matching nothing: exit %d: %s", code, errOut)
	}
}
