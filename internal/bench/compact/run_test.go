package compact

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/compact/traj"
)

var dataDir = filepath.Join("..", "..", "compact", "traj", "testdata", "trajectories")

func load(t testing.TB, file string, n int) []traj.Trajectory {
	t.Helper()
	ts, err := traj.LoadFile(filepath.Join(dataDir, file))
	if err != nil {
		t.Fatal(err)
	}
	return ts[:min(n, len(ts))]
}

// pairingValidator is a real, if partial, invariant check: the compacted
// messages must still parse and keep tool calls and results paired.
func pairingValidator(dialect string, _, out []byte) ([]string, error) {
	p, err := traj.ParseRequest(out)
	if err != nil {
		return nil, err
	}
	tr := traj.Trajectory{Name: "out", Dialect: dialect, Messages: p.Messages}
	if err := tr.Validate(); err != nil {
		return []string{err.Error()}, nil
	}
	return nil, nil
}

func variant(t *testing.T, rep *Report, name string) VariantReport {
	t.Helper()
	for _, v := range rep.Variants {
		if v.Name == name {
			return v
		}
	}
	t.Fatalf("no variant %s in the report", name)
	return VariantReport{}
}

// TestRunRealData replays real trajectories of both dialects and all
// three message forms (OpenAI tool calls, Anthropic text, SWE-agent
// function calling).
func TestRunRealData(t *testing.T) {
	ts := append(load(t, "adp_swe-gym_openhands_gpt4o_sample_raw.json", 2), load(t, "adp_swe-smith_claude_sample_raw.json", 1)...)
	ts = append(ts, load(t, "sweagent_demo_function_calling_replace_marshmallow-1867.traj.json", 1)...)
	requests := 0
	for _, tr := range ts {
		for _, err := range traj.Requests(tr, nil) {
			if err != nil {
				t.Fatal(err)
			}
			requests++
		}
	}
	var progress bytes.Buffer
	rep, err := Run(t.Context(), ts, Options{Validate: pairingValidator, Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Trajectories != 4 || rep.Requests != requests || strings.Count(progress.String(), "\n") != 4 {
		t.Errorf("%d trajectories, %d requests (want 4, %d); progress:\n%s", rep.Trajectories, rep.Requests, requests, progress.String())
	}
	if rep.Baseline.Anthropic.Input == 0 || rep.Baseline.Anthropic.HitRatio() < 0.5 {
		t.Errorf("baseline %+v: an agent loop appends to its prompt, most of it should hit the cache", rep.Baseline.Anthropic)
	}

	id := variant(t, rep, "identity")
	if id.TokensSentRatio != 1 || id.CachedCostRatio != 1 || id.OpenAICachedCostRatio != 1 || id.RecallProbe != 1 || *id.Violations != 0 {
		t.Errorf("identity: %+v, want ratios and recall 1, no violations", id.Metrics)
	}
	if rep.Primary != "identity" || rep.Metrics != id.Metrics {
		t.Errorf("primary %s with %+v, want identity's numbers on top", rep.Primary, rep.Metrics)
	}
	if id.Probe.Facts == 0 {
		t.Error("no recall-probe facts in four real trajectories")
	}

	// The cache trap: fewer tokens, higher Anthropic cost.
	mask := variant(t, rep, "rolling-mask")
	if mask.TokensSentRatio >= 0.9 || mask.CachedCostRatio <= 1.1 {
		t.Errorf("rolling mask sends %.3f of the tokens at %.3f of the cost; want fewer tokens at a higher cost", mask.TokensSentRatio, mask.CachedCostRatio)
	}
	if mask.CacheHitRatio >= id.CacheHitRatio || *mask.Violations != 0 || mask.RewriteErrors != 0 {
		t.Errorf("rolling mask: %+v, errors %d", mask.Metrics, mask.RewriteErrors)
	}
	// OpenAI charges no write premium, so the trap costs less there
	if mask.OpenAICachedCostRatio >= mask.CachedCostRatio {
		t.Errorf("rolling mask costs %.3f under OpenAI, %.3f under Anthropic", mask.OpenAICachedCostRatio, mask.CachedCostRatio)
	}
	if len(mask.Trajectories) != 4 || mask.Trajectories[2].Dialect != traj.Anthropic {
		t.Errorf("per-trajectory reports: %+v", mask.Trajectories)
	}
}

// TestRunCountsFailures: failed rewrites are counted and replaced by the
// original, broken outputs are failures too, and the validator's
// violations and errors are counted.
func TestRunCountsFailures(t *testing.T) {
	ts := load(t, "sweagent_demo_function_calling_replace_marshmallow-1867.traj.json", 1)
	n := 0
	flaky := Variant{Name: "flaky", Rewrite: func(_ string, body []byte) ([]byte, error) {
		n++
		if n%2 == 1 {
			return nil, errors.New("flaked")
		}
		return body, nil
	}}
	garbage := Variant{Name: "garbage", Rewrite: func(string, []byte) ([]byte, error) { return []byte("not json"), nil }}
	unpaired := Variant{Name: "unpaired", Rewrite: func(dialect string, body []byte) ([]byte, error) {
		// drop every tool result: the calls are left unanswered
		var req map[string]json.RawMessage
		json.Unmarshal(body, &req)
		var msgs, keep []json.RawMessage
		json.Unmarshal(req["messages"], &msgs)
		for _, m := range msgs {
			if !bytes.Contains(m, []byte(`"role":"tool"`)) {
				keep = append(keep, m)
			}
		}
		req["messages"], _ = json.Marshal(keep)
		return json.Marshal(req)
	}}
	validator := func(dialect string, orig, out []byte) ([]string, error) {
		if bytes.Equal(orig, out) {
			return nil, nil
		}
		return pairingValidator(dialect, orig, out)
	}
	rep, err := Run(t.Context(), ts, Options{Variants: []Variant{flaky, garbage, unpaired}, Validate: validator})
	if err != nil {
		t.Fatal(err)
	}
	if v := variant(t, rep, "flaky"); v.RewriteErrors != 6 || v.TokensSentRatio != 1 || *v.Violations != 0 {
		t.Errorf("flaky: %d errors of 11, ratio %.3f, %d violations; want 6, 1, 0", v.RewriteErrors, v.TokensSentRatio, *v.Violations)
	}
	if v := variant(t, rep, "garbage"); v.RewriteErrors != 11 || v.CachedCostRatio != 1 {
		t.Errorf("garbage: %d errors, cost %.3f; want 11, 1", v.RewriteErrors, v.CachedCostRatio)
	}
	// The first request has no tool result to drop, and in the second the
	// unanswered call ends the messages, which Validate allows: 9 of 11.
	if v := variant(t, rep, "unpaired"); *v.Violations != 9 || v.TokensSentRatio >= 1 {
		t.Errorf("unpaired: %d violations, ratio %.3f; want 9, < 1", *v.Violations, v.TokensSentRatio)
	}
}

func TestRunOptions(t *testing.T) {
	ts := load(t, "sweagent_demo_function_calling_replace_marshmallow-1867.traj.json", 1)
	combined := RollingMask(2)
	combined.Name = "combined"
	rep, err := Run(t.Context(), ts, Options{Variants: []Variant{Identity(), combined}, OpenAIRead: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Primary != "combined" || rep.Metrics != variant(t, rep, "combined").Metrics || rep.OpenAIRead != 0.25 {
		t.Errorf("primary %s, openai read %g", rep.Primary, rep.OpenAIRead)
	}
	if rep.Violations != nil {
		t.Errorf("violations %d without a validator, want null", *rep.Violations)
	}
	bad := map[string]Options{
		"unknown primary": {Primary: "nope"},
		"duplicate":       {Variants: []Variant{Identity(), Identity()}},
		"no rewrite":      {Variants: []Variant{{Name: "x"}}},
		"no name":         {Variants: []Variant{{Rewrite: Identity().Rewrite}}},
		"no variants":     {Variants: []Variant{}},
		"bad pricing":     {OpenAIRead: -1},
	}
	for name, opts := range bad {
		if _, err := Run(t.Context(), ts, opts); err == nil {
			t.Errorf("%s: Run succeeded", name)
		}
	}
	if _, err := Run(t.Context(), nil, Options{}); err == nil {
		t.Error("Run without trajectories succeeded")
	}
}

func TestReportOutput(t *testing.T) {
	ts := load(t, "sweagent_demo_function_calling_replace_marshmallow-1867.traj.json", 1)
	rep, err := Run(t.Context(), ts, Options{Validate: pairingValidator})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(buf.Bytes(), &obj); err != nil {
		t.Fatal(err)
	}
	keys := []string{"tokens_sent_ratio", "cached_cost_ratio", "cache_hit_ratio", "openai_cached_cost_ratio", "violations", "recall_probe"}
	variants, _ := obj["variants"].([]any)
	if len(variants) != 2 {
		t.Fatalf("variants: %v", obj["variants"])
	}
	for _, k := range keys {
		if _, ok := obj[k]; !ok {
			t.Errorf("no top-level %s", k)
		}
		for _, v := range variants {
			if _, ok := v.(map[string]any)[k]; !ok {
				t.Errorf("no %s in variant %v", k, v.(map[string]any)["name"])
			}
		}
	}
	buf.Reset()
	if err := rep.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tokens sent", "*identity", "rolling-mask", "targets:", "raw replay:"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, buf.String())
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// BenchmarkReplay replays one real trajectory (17 requests, ~140K raw
// tokens) raw and through both default variants, tokenising and
// simulating both caches.
func BenchmarkReplay(b *testing.B) {
	ts := load(b, "adp_swe-gym_openhands_gpt4o_sample_raw.json", 1)
	for b.Loop() {
		if _, err := Run(b.Context(), ts, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
