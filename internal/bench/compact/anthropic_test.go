package compact

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/compact/traj"
)

func raws(t *testing.T, msgs ...string) []json.RawMessage {
	t.Helper()
	out := make([]json.RawMessage, len(msgs))
	for i, m := range msgs {
		if !json.Valid([]byte(m)) {
			t.Fatalf("message %d is not JSON: %s", i, m)
		}
		out[i] = json.RawMessage(m)
	}
	return out
}

func strs(msgs []json.RawMessage) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = string(m)
	}
	return out
}

func TestToAnthropic(t *testing.T) {
	for _, tc := range []struct {
		name       string
		in         traj.Trajectory
		wantSystem string
		wantTools  []string
		want       []string
	}{{
		name: "tool calls and results",
		in: traj.Trajectory{Dialect: traj.OpenAI, Messages: raws(t,
			`{"role":"system","content":"be brief"}`,
			`{"role":"user","content":"fix a.py"}`,
			`{"role":"assistant","content":"Looking.","tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{\"path\": \"a.py\"}"}},{"id":"c2","type":"function","function":{"name":"ls","arguments":"[1]"}}]}`,
			`{"role":"tool","tool_call_id":"c1","content":"x = 1"}`,
			`{"role":"tool","tool_call_id":"c2","content":[{"type":"text","text":"a.py"}]}`,
			`{"role":"assistant","content":"","tool_calls":[{"id":"c3","type":"function","function":{"name":"run","arguments":"not json"}}]}`,
			`{"role":"tool","tool_call_id":"c3","content":""}`,
			`{"role":"assistant","content":"Done <ok> & fine."}`,
		)},
		wantSystem: "be brief",
		want: []string{
			`{"role":"user","content":"fix a.py"}`,
			`{"role":"assistant","content":[{"type":"text","text":"Looking."},{"type":"tool_use","id":"c1","name":"read","input":{"path":"a.py"}},{"type":"tool_use","id":"c2","name":"ls","input":{}}]}`,
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"x = 1"},{"type":"tool_result","tool_use_id":"c2","content":"a.py"}]}`,
			`{"role":"assistant","content":[{"type":"tool_use","id":"c3","name":"run","input":{}}]}`,
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c3","content":""}]}`,
			`{"role":"assistant","content":[{"type":"text","text":"Done <ok> & fine."}]}`,
		},
	}, {
		name: "system prompts and text form",
		in: traj.Trajectory{Dialect: traj.OpenAI, Messages: raws(t,
			`{"role":"system","content":"one"}`,
			`{"role":"developer","content":[{"type":"text","text":"two"}]}`,
			`{"role":"user","content":"task"}`,
			`{"role":"assistant","content":"<function=bash>ls</function>"}`,
			`{"role":"system","content":"a reminder"}`,
			`{"role":"user","content":"a.py"}`,
		)},
		wantSystem: "one\n\ntwo",
		want: []string{
			`{"role":"user","content":"task"}`,
			`{"role":"assistant","content":[{"type":"text","text":"<function=bash>ls</function>"}]}`,
			`{"role":"user","content":"a reminder"}`,
			`{"role":"user","content":"a.py"}`,
		},
	}, {
		name: "a repeated call id is made unique",
		in: traj.Trajectory{Dialect: traj.OpenAI, Messages: raws(t,
			`{"role":"user","content":"go"}`,
			`{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}`,
			`{"role":"tool","tool_call_id":"c","content":"1"}`,
			`{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}`,
			`{"role":"tool","tool_call_id":"c","content":"2"}`,
			`{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}`,
			`{"role":"tool","tool_call_id":"c","content":"3"}`,
		)},
		want: []string{
			`{"role":"user","content":"go"}`,
			`{"role":"assistant","content":[{"type":"tool_use","id":"c","name":"f","input":{}}]}`,
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c","content":"1"}]}`,
			`{"role":"assistant","content":[{"type":"tool_use","id":"c_2","name":"f","input":{}}]}`,
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c_2","content":"2"}]}`,
			`{"role":"assistant","content":[{"type":"tool_use","id":"c_3","name":"f","input":{}}]}`,
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c_3","content":"3"}]}`,
		},
	}, {
		name: "tool definitions",
		in: traj.Trajectory{Dialect: traj.OpenAI,
			Tools: raws(t,
				`{"type":"function","function":{"name":"read","description":"Read a file.","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}}`,
				`{"type":"function","function":{"name":"finish"}}`,
				`{"name":"native","input_schema":{"type":"object"}}`),
			Messages: raws(t, `{"role":"user","content":"hi"}`)},
		wantTools: []string{
			`{"name":"read","description":"Read a file.","input_schema":{"type":"object","properties":{"path":{"type":"string"}}}}`,
			`{"name":"finish","input_schema":{"type":"object","properties":{}}}`,
			`{"name":"native","input_schema":{"type":"object"}}`,
		},
		want: []string{`{"role":"user","content":"hi"}`},
	}, {
		name:       "anthropic stays as it is",
		in:         traj.Trajectory{Dialect: traj.Anthropic, System: "s", Messages: raws(t, `{"role":"user","content":[{"type":"text","text":"hi"}]}`)},
		wantSystem: "s",
		want:       []string{`{"role":"user","content":[{"type":"text","text":"hi"}]}`},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ToAnthropic(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got.Dialect != traj.Anthropic || got.System != tc.wantSystem {
				t.Errorf("dialect %s, system %q; want anthropic, %q", got.Dialect, got.System, tc.wantSystem)
			}
			if diff := cmp.Diff(tc.want, strs(got.Messages)); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantTools, strs(got.Tools), cmpEmpty); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
			again, err := ToAnthropic(tc.in)
			if err != nil || !cmp.Equal(got, again) {
				t.Errorf("a second conversion differs: %v", err)
			}
		})
	}
}

// cmpEmpty treats nil and empty slices alike.
var cmpEmpty = cmp.Transformer("empty", func(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
})

func TestToAnthropicRefuses(t *testing.T) {
	for name, tr := range map[string]traj.Trajectory{
		"legacy function call": {Dialect: traj.OpenAI, Messages: raws(t,
			`{"role":"user","content":"go"}`,
			`{"role":"assistant","function_call":{"name":"f","arguments":"{}"}}`)},
		"unknown dialect":  {Dialect: "gemini", Messages: raws(t, `{"role":"user","content":"go"}`)},
		"unanswered call":  {Dialect: traj.OpenAI, Messages: raws(t, `{"role":"user","content":"go"}`, `{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}`, `{"role":"user","content":"and?"}`)},
		"unparsed message": {Dialect: traj.OpenAI, Messages: raws(t, `{"role":"robot","content":"go"}`)},
	} {
		if _, err := ToAnthropic(tr); err == nil {
			t.Errorf("%s: converted", name)
		}
	}
}

// TestToAnthropicBundled converts every bundled trajectory: each
// validates, and keeps its tool calls, results and text.
func TestToAnthropicBundled(t *testing.T) {
	ts, err := traj.Load(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range ts {
		got, err := ToAnthropic(tr)
		if err != nil {
			t.Errorf("%s: %v", tr.Name, err)
			continue
		}
		if len(got.Tools) != len(tr.Tools) {
			t.Errorf("%s: %d tools, want %d", tr.Name, len(got.Tools), len(tr.Tools))
		}
		if a, b := census(t, tr), census(t, got); a != b {
			t.Errorf("%s: %+v after conversion, %+v before", tr.Name, b, a)
		}
	}
}

type tally struct{ calls, results, textBytes int }

func census(t *testing.T, tr traj.Trajectory) tally {
	t.Helper()
	var c tally
	for _, raw := range tr.Messages {
		m, err := traj.ParseMessage(tr.Dialect, raw)
		if err != nil {
			t.Fatal(err)
		}
		if m.Role == "system" || m.Role == "developer" {
			continue
		}
		c.calls += len(m.Calls)
		c.results += len(m.Results)
		c.textBytes += len(strings.TrimSpace(m.Text))
		for _, r := range m.Results {
			c.textBytes += len(strings.TrimSpace(r.Text))
		}
	}
	return c
}
