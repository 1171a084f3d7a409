package traj

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const dataDir = "testdata/trajectories"

// shape is what a test checks of one loaded trajectory.
type shape struct {
	Dialect  string
	Format   string
	Messages int
	Requests int
	Tools    int
	Calls    int // tool calls in all messages
	Results  int // tool results in all messages
}

func shapeOf(t *testing.T, tr Trajectory) shape {
	t.Helper()
	s := shape{Dialect: tr.Dialect, Format: tr.Format, Messages: len(tr.Messages), Tools: len(tr.Tools)}
	for _, raw := range tr.Messages {
		m, err := ParseMessage(tr.Dialect, raw)
		if err != nil {
			t.Fatalf("%s: %v", tr.Name, err)
		}
		s.Calls += len(m.Calls)
		s.Results += len(m.Results)
	}
	for _, err := range Requests(tr, nil) {
		if err != nil {
			t.Fatalf("%s: %v", tr.Name, err)
		}
		s.Requests++
	}
	return s
}

// TestLoadRealFiles loads every file of the data set and checks the
// counts against the files (counted independently with jq and Python).
func TestLoadRealFiles(t *testing.T) {
	tests := []struct {
		file string
		want []shape
	}{
		{"adp_swe-gym_openhands_gpt4o_sample_raw.json", []shape{
			// the last assistant message of each run calls finish, unanswered
			{OpenAI, FormatOpenAIMessages, 41, 17, 3, 21, 20},
			{OpenAI, FormatOpenAIMessages, 23, 11, 3, 9, 8},
			{OpenAI, FormatOpenAIMessages, 26, 12, 3, 11, 10},
			{OpenAI, FormatOpenAIMessages, 37, 18, 3, 17, 16},
			{OpenAI, FormatOpenAIMessages, 61, 30, 3, 29, 28},
		}},
		{"adp_swe-smith_claude_sample_raw.json", []shape{
			// 31, 47, 37, 45, 77 records, less the system message
			{Anthropic, FormatAnthropicMessages, 30, 15, 0, 0, 0},
			{Anthropic, FormatAnthropicMessages, 46, 23, 0, 0, 0},
			{Anthropic, FormatAnthropicMessages, 36, 18, 0, 0, 0},
			{Anthropic, FormatAnthropicMessages, 44, 22, 0, 0, 0},
			{Anthropic, FormatAnthropicMessages, 76, 38, 0, 0, 0},
		}},
		{"adp_nebius_swe-agent_sample_raw.json", []shape{
			{OpenAI, FormatNebius, 13, 6, 0, 0, 0},
			{OpenAI, FormatNebius, 29, 14, 0, 0, 0},
			{OpenAI, FormatNebius, 11, 5, 0, 0, 0},
			{OpenAI, FormatNebius, 17, 8, 0, 0, 0},
			{OpenAI, FormatNebius, 33, 16, 0, 0, 0},
		}},
		{"sweagent_gpt4_pydicom__pydicom-1458.traj.json", []shape{
			{OpenAI, FormatSWEAgent, 26, 12, 0, 0, 0},
		}},
		{"sweagent_demo_function_calling_replace_marshmallow-1867.traj.json", []shape{
			{OpenAI, FormatSWEAgent, 24, 11, 0, 11, 11},
		}},
		{"sweagent_demo_function_calling_replace_from_source_marshmallow-1867.traj.json", []shape{
			{OpenAI, FormatSWEAgent, 28, 13, 0, 13, 13},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			ts, err := LoadFile(filepath.Join(dataDir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			var got []shape
			for _, tr := range ts {
				got = append(got, shapeOf(t, tr))
				checkPairsAdjacent(t, tr)
				checkNoNulls(t, tr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// checkPairsAdjacent checks tool pairing independently of Validate:
// every result answers a call of the nearest assistant message before it.
func checkPairsAdjacent(t *testing.T, tr Trajectory) {
	t.Helper()
	var calls map[string]bool
	for i, raw := range tr.Messages {
		m, _ := ParseMessage(tr.Dialect, raw)
		if m.Role == "assistant" {
			calls = make(map[string]bool)
			for _, c := range m.Calls {
				calls[c.ID] = true
			}
		}
		for _, r := range m.Results {
			if !calls[r.ID] {
				t.Errorf("%s: message %d answers %s, not called just before", tr.Name, i, r.ID)
			}
			delete(calls, r.ID)
		}
	}
}

// checkNoNulls checks that no object member is null, which the ADP
// exports are full of.
func checkNoNulls(t *testing.T, tr Trajectory) {
	t.Helper()
	var walk func(v any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case map[string]any:
			for _, x := range v {
				if x == nil || !walk(x) {
					return false
				}
			}
		case []any:
			for _, x := range v {
				if !walk(x) {
					return false
				}
			}
		}
		return true
	}
	for i, raw := range append(append([]json.RawMessage{}, tr.Tools...), tr.Messages...) {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil || !walk(v) {
			t.Errorf("%s: part %d has a null member or is invalid (%v)", tr.Name, i, err)
		}
	}
}

func TestLoadRealFilesDetails(t *testing.T) {
	ts, err := LoadFile(filepath.Join(dataDir, "adp_swe-smith_claude_sample_raw.json"))
	if err != nil {
		t.Fatal(err)
	}
	first := ts[0]
	if !strings.HasPrefix(first.System, "You are a helpful assistant that can interact with a computer") {
		t.Errorf("system prompt: %.60q", first.System)
	}
	if first.Model != "claude-3-7-sonnet-20250219" || first.Name != "adp_swe-smith_claude_sample_raw.json#arrow-py__arrow.1d70d009.lm_rewrite__nuzjfyur" {
		t.Errorf("model %q, name %q", first.Model, first.Name)
	}

	ts, err = LoadFile(filepath.Join(dataDir, "adp_swe-gym_openhands_gpt4o_sample_raw.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tool struct {
		Function struct {
			Name       string `json:"name"`
			Parameters struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"parameters"`
		} `json:"function"`
	}
	if err := json.Unmarshal(ts[0].Tools[0], &tool); err != nil {
		t.Fatal(err)
	}
	// the export gives every tool the properties of every other, as null
	if tool.Function.Name != "execute_bash" || len(tool.Function.Parameters.Properties) != 1 {
		t.Errorf("tool %s has properties %v, want execute_bash with only command", tool.Function.Name, tool.Function.Parameters.Properties)
	}

	ts, err = LoadFile(filepath.Join(dataDir, "adp_nebius_swe-agent_sample_raw.json"))
	if err != nil {
		t.Fatal(err)
	}
	sys, _ := ParseMessage(OpenAI, ts[0].Messages[0])
	if sys.Role != "system" || !strings.HasPrefix(sys.Text, "SETTING: You are an autonomous programmer") {
		t.Errorf("nebius system message from system_prompt: %s %.50q", sys.Role, sys.Text)
	}
	if ts[0].Model != "swe-agent-llama-70b" {
		t.Errorf("nebius model %q", ts[0].Model)
	}
}

func TestLoadDirectory(t *testing.T) {
	ts, err := Load(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 18 {
		t.Errorf("loaded %d trajectories, want 18 (README.md skipped)", len(ts))
	}
	names := make(map[string]bool)
	for _, tr := range ts {
		if names[tr.Name] {
			t.Errorf("name %s twice", tr.Name)
		}
		names[tr.Name] = true
		if !strings.HasPrefix(tr.Source, dataDir) {
			t.Errorf("%s: source %s", tr.Name, tr.Source)
		}
	}
}

// TestRequestsOfRealFile checks the bodies of a real trajectory: one per
// assistant message, each the prefix before it, ending with what the
// agent was answering.
func TestRequestsOfRealFile(t *testing.T) {
	ts, err := LoadFile(filepath.Join(dataDir, "adp_swe-smith_claude_sample_raw.json"))
	if err != nil {
		t.Fatal(err)
	}
	tr := ts[0]
	n := 0
	for r, err := range Requests(tr, nil) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		p, err := ParseRequest(r.Body)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Messages) != r.Turn {
			t.Fatalf("request for message %d has %d messages", r.Turn, len(p.Messages))
		}
		if role := roleOf(t, tr.Messages[r.Turn]); role != "assistant" {
			t.Fatalf("request for message %d, a %s message", r.Turn, role)
		}
		if role := roleOf(t, p.Messages[len(p.Messages)-1]); role != "user" {
			t.Errorf("request %d ends with a %s message", n, role)
		}
		var sys string
		if err := json.Unmarshal(p.System, &sys); err != nil || sys != tr.System {
			t.Errorf("request %d: system %.40q (%v)", n, sys, err)
		}
		if p.Model != "claude-3-7-sonnet-20250219" {
			t.Errorf("request %d: model %q", n, p.Model)
		}
	}
	if n != 15 {
		t.Errorf("%d requests, want 15", n)
	}
}

func roleOf(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var m struct {
		Role string `json:"role"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m.Role
}
