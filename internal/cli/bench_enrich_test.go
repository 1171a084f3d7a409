package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestBenchEnrichCommand(t *testing.T) {
	data := filepath.Join("..", "compact", "traj", "testdata", "trajectories", "adp_nebius_swe-agent_sample_raw.json")
	code, out, errOut := run(t, "bench", "enrich", "--data", data, "--json", "--budget", "3000", "--per-trajectory")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, k := range []string{"prefetch_hit_rate", "decline_recall_loss", "cost_overrun_rate", "turns_saved_ratio", "net_cost_ratio", "calls_saved", "runs"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("--json has no %q: %s", k, out)
		}
	}
	if b, _ := rep["budget"].(map[string]any); b["tokens"] != 3000.0 {
		t.Errorf("budget %v, want --budget's 3000 tokens", rep["budget"])
	}
	if rep["trajectories"] != 5.0 || !strings.Contains(errOut, "[5/5] adp_nebius_swe-agent_sample_raw.json#") {
		t.Errorf("trajectories %v; progress on stderr: %q", rep["trajectories"], errOut)
	}

	code, out, _ = run(t, "bench", "enrich", "--data", data, "--only", "plumbum")
	if code != 0 || !strings.Contains(out, "winnow bench enrich: 1 trajectories") || !strings.Contains(out, "prefetch_hit_rate") {
		t.Errorf("text report: exit %d:\n%s", code, out)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "enrich"}, "--data is required"},
		{[]string{"bench", "enrich", "--data", data, "--budget", "-1"}, "--budget -1"},
		{[]string{"bench", "enrich", "--data", filepath.Join(t.TempDir(), "none.json")}, "none.json"},
		{[]string{"bench", "enrich", "--data", data, "--only", "nothing-like-this"}, "matches --only"},
	} {
		code, _, errOut := run(t, tc.args...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want an error with %q", tc.args, code, errOut, tc.want)
		}
	}
}
