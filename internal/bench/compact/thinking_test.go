package compact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/compact"
	"github.com/winnowhq/winnow/internal/compact/costsim"
	"github.com/winnowhq/winnow/internal/compact/probe"
	"github.com/winnowhq/winnow/internal/compact/traj"
)

func TestWithThinking(t *testing.T) {
	think := func(i int) string {
		b, err := encode(thinkingBlock{Type: "thinking", Thinking: ThinkingText(i), Signature: Signature(i)})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	const (
		existing = `{"role":"assistant","content":[{"type":"redacted_thinking","data":"x"},{"type":"text","text":"kept"}]}`
		result   = `{"role":"user","content":[{"type":"tool_result","tool_use_id":"c","content":"1"}]}`
	)
	in := traj.Trajectory{Dialect: traj.Anthropic, Messages: raws(t,
		`{"role":"user","content":"go"}`,
		`{"role":"assistant","content":"I will look."}`,
		`{"role":"user","content":"ok"}`,
		`{"role":"assistant","content":[{"type":"tool_use","id":"c","name":"f","input":{}}]}`,
		result,
		existing,
		`{"role":"user","content":"and?"}`,
		`{"role":"assistant","content":"  "}`,
	)}
	want := []string{
		`{"role":"user","content":"go"}`,
		`{"role":"assistant","content":[` + think(1) + `,{"type":"text","text":"I will look."}]}`,
		`{"role":"user","content":"ok"}`,
		`{"role":"assistant","content":[` + think(3) + `,{"type":"tool_use","id":"c","name":"f","input":{}}]}`,
		result,
		existing,
		`{"role":"user","content":"and?"}`,
		`{"role":"assistant","content":[` + think(7) + `]}`,
	}
	got, err := WithThinking(in)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, strs(got.Messages)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := WithThinking(traj.Trajectory{Dialect: traj.OpenAI}); err == nil {
		t.Error("OpenAI messages took thinking blocks")
	}
}

// TestSyntheticThinking: the text is 150 to 300 tokens, the signature
// 300 bytes, both a function of the index alone and different for
// different indices.
func TestSyntheticThinking(t *testing.T) {
	enc, err := costsim.NewEncoder()
	if err != nil {
		t.Fatal(err)
	}
	seen := make(map[string]bool)
	for i := range 200 {
		text, sig := ThinkingText(i), Signature(i)
		if text != ThinkingText(i) || sig != Signature(i) {
			t.Fatalf("index %d: not deterministic", i)
		}
		ids, err := enc.Encode(text)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(ids); n < 150 || n > 300 {
			t.Errorf("index %d: %d tokens: %q", i, n, text)
		}
		if !strings.HasPrefix(text, "Step ") {
			t.Errorf("index %d: %q", i, text)
		}
		raw, err := base64.StdEncoding.DecodeString(sig)
		if err != nil || len(raw) != signatureBytes {
			t.Errorf("index %d: signature of %d bytes (%v)", i, len(raw), err)
		}
		if seen[text] || seen[sig] {
			t.Errorf("index %d repeats an earlier text or signature", i)
		}
		seen[text], seen[sig] = true, true
	}
}

func TestThinkingRequests(t *testing.T) {
	tr := traj.Trajectory{Name: "x", Dialect: traj.Anthropic, System: "s", Messages: raws(t,
		`{"role":"user","content":"go"}`, `{"role":"assistant","content":"a"}`, `{"role":"user","content":"b"}`, `{"role":"assistant","content":"c"}`)}
	reqs, err := thinkingRequests(tr, "claude-opus-5-5")
	if err != nil {
		t.Fatal(err)
	}
	want := []traj.Request{
		{Turn: 1, Body: []byte(`{"thinking":{"type":"adaptive"},"model":"claude-opus-5-5","max_tokens":4096,"system":"s","messages":[{"role":"user","content":"go"}]}`)},
		{Turn: 3, Body: []byte(`{"thinking":{"type":"adaptive"},"model":"claude-opus-5-5","max_tokens":4096,"system":"s","messages":[{"role":"user","content":"go"},{"role":"assistant","content":"a"},{"role":"user","content":"b"}]}`)},
	}
	if diff := cmp.Diff(want, reqs); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func family(t *testing.T, rep *ThinkingReport, name string) FamilyReport {
	t.Helper()
	for _, f := range rep.Families {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no family %s in the report", name)
	return FamilyReport{}
}

// TestRunThinking runs the thinking benchmark on every bundled
// trajectory: no compacted request breaks an invariant, the raw replay
// sent through Identity comes out at exactly 1 for every family, and
// only the Preserved family with server edits asks the API for edits.
// The ratios are measured, not asserted: they are the benchmark's output.
func TestRunThinking(t *testing.T) {
	if testing.Short() {
		t.Skip("replays every bundled trajectory")
	}
	ts, err := traj.Load(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	cases := ThinkingCases(compact.Options{})
	for _, model := range []string{"claude-sonnet-4-5", "claude-opus-4-5", "claude-opus-5-5"} {
		cases = append(cases, ThinkingCase{Name: "identity-" + model, Model: model, Read: ReadClaude45, Variant: Identity()})
	}
	var progress bytes.Buffer
	rep, err := RunThinking(t.Context(), ts, ThinkingOptions{
		Cases:    cases,
		Probe:    &probe.Options{Handle: regexp.MustCompile(compact.HandlePattern)},
		Progress: &progress,
	})
	if err != nil {
		t.Fatal(err)
	}
	requests := 0
	for _, tr := range ts {
		for _, err := range traj.Requests(tr, nil) {
			if err != nil {
				t.Fatal(err)
			}
			requests++
		}
	}
	if rep.Trajectories != len(ts) || rep.Requests != requests || strings.Count(progress.String(), "\n") != len(ts) {
		t.Errorf("%d trajectories, %d requests; want %d, %d", rep.Trajectories, rep.Requests, len(ts), requests)
	}
	for _, f := range rep.Families {
		if f.Violations != 0 || f.RewriteErrors != 0 {
			t.Errorf("%s: %d violations, %d rewrite errors: %v", f.Name, f.Violations, f.RewriteErrors, f.ViolationExamples)
		}
		if f.Baseline.Input == 0 || f.Usage.Requests != requests {
			t.Errorf("%s: baseline %+v, usage %+v", f.Name, f.Baseline, f.Usage)
		}
		if strings.HasPrefix(f.Name, "identity-") {
			if f.TokensSentRatio != 1 || f.CachedCostRatio != 1 || f.CachedCostRatioRead01 != 1 || f.RecallProbe != 1 || f.ChangedRequests != 0 {
				t.Errorf("%s: %+v, want every ratio 1 and nothing changed", f.Name, f)
			}
		}
		if wantEdits := f.Name == "preserved"; (f.ServerEditRequests > 0) != wantEdits || f.ServerEditsApplied > f.ServerEditRequests {
			t.Errorf("%s: %d of %d server edits applied", f.Name, f.ServerEditsApplied, f.ServerEditRequests)
		}
	}
	// The families' baselines are the same requests priced by the API's
	// rules: keep-all and preserved bill the same prompt; last-turn
	// strips earlier turns' thinking.
	lastTurn, keepAll, preserved := family(t, rep, "last-turn"), family(t, rep, "keep-all"), family(t, rep, "preserved")
	if keepAll.Baseline.Input != preserved.Baseline.Input || lastTurn.Baseline.Input >= keepAll.Baseline.Input {
		t.Errorf("baseline tokens: last-turn %d, keep-all %d, preserved %d", lastTurn.Baseline.Input, keepAll.Baseline.Input, preserved.Baseline.Input)
	}
	if lastTurn.StrippedThinking == 0 || keepAll.StrippedThinking != 0 {
		t.Errorf("stripped thinking: last-turn %d, keep-all %d", lastTurn.StrippedThinking, keepAll.StrippedThinking)
	}
	if preserved.Read != ReadOpus55 || preserved.Family != "preserved" || lastTurn.Family != "last-turn" || keepAll.Family != "keep-all" {
		t.Errorf("families %+v %+v %+v", lastTurn, keepAll, preserved)
	}
}

func TestRunThinkingOptions(t *testing.T) {
	ts := load(t, "sweagent_demo_function_calling_replace_marshmallow-1867.traj.json", 1)
	good := ThinkingCase{Name: "x", Model: "claude-opus-4-5", Variant: Identity()}
	bad := map[string][]ThinkingCase{
		"no cases":   {},
		"no name":    {{Model: "m", Variant: Identity()}},
		"no model":   {{Name: "x", Variant: Identity()}},
		"no rewrite": {{Name: "x", Model: "m"}},
		"duplicate":  {good, good},
		"bad read":   {{Name: "x", Model: "m", Read: 2, Variant: Identity()}},
	}
	for name, cases := range bad {
		if _, err := RunThinking(t.Context(), ts, ThinkingOptions{Cases: cases}); err == nil {
			t.Errorf("%s: ran", name)
		}
	}
	if _, err := RunThinking(t.Context(), nil, ThinkingOptions{}); err == nil {
		t.Error("ran without trajectories")
	}
	rep, err := RunThinking(t.Context(), ts, ThinkingOptions{Cases: []ThinkingCase{good}})
	if err != nil {
		t.Fatal(err)
	}
	if f := rep.Families[0]; f.Read != ReadClaude45 || f.CachedCostRatio != 1 {
		t.Errorf("a case without a read price: %+v", f)
	}
}

func TestThinkingReportOutput(t *testing.T) {
	ts := load(t, "sweagent_demo_function_calling_replace_marshmallow-1867.traj.json", 1)
	rep, err := RunThinking(t.Context(), ts, ThinkingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var obj struct {
		Families []map[string]any `json:"families"`
	}
	if err := json.Unmarshal(buf.Bytes(), &obj); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range obj.Families {
		names = append(names, f["name"].(string))
		for _, k := range []string{"tokens_sent_ratio", "cached_cost_ratio", "violations", "recall_probe", "server_edit_requests", "model", "family"} {
			if _, ok := f[k]; !ok {
				t.Errorf("%s: no %s", f["name"], k)
			}
		}
	}
	if diff := cmp.Diff([]string{"last-turn", "keep-all", "preserved", "preserved-client"}, names); diff != "" {
		t.Errorf("families (-want +got):\n%s", diff)
	}
	buf.Reset()
	if err := rep.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if !regexp.MustCompile(`(?m)^ *family +tokens sent +cost +cost@0\.1× `).MatchString(text) {
		t.Errorf("the table does not lead with the ratios:\n%s", text)
	}
	for _, want := range []string{"preserved-client", "claude-opus-5-5", "target: cost ≤ 0.80"} {
		if !strings.Contains(text, want) {
			t.Errorf("text report lacks %q:\n%s", want, text)
		}
	}
}
