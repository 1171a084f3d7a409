package traj

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func parseOne(t *testing.T, source, data string) Trajectory {
	t.Helper()
	ts, err := Parse(source, []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 {
		t.Fatalf("%d trajectories, want 1", len(ts))
	}
	return ts[0]
}

func messagesJSON(tr Trajectory) string {
	parts := make([]string, len(tr.Messages))
	for i, m := range tr.Messages {
		parts[i] = string(m)
	}
	return strings.Join(parts, "\n")
}

func TestPlainArrays(t *testing.T) {
	tests := []struct {
		name, data   string
		dialect      string
		system       string
		wantMessages string
	}{
		{
			name:    "openai with tool calls, nulls dropped",
			data:    `[{"role":"system","content":"sys"},{"role":"user","content":"go","name":null},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{\"path\":\"<src>\"}"}}]},{"role":"tool","tool_call_id":"c1","content":"a.go"}]`,
			dialect: OpenAI,
			wantMessages: `{"role":"system","content":"sys"}
{"role":"user","content":"go"}
{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{\"path\":\"<src>\"}"}}]}
{"role":"tool","tool_call_id":"c1","content":"a.go"}`,
		},
		{
			name:    "anthropic blocks, leading system pulled out",
			data:    `[{"role":"system","content":"be brief"},{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"t1","name":"ls","input":{"path":"."}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"a.go"}]}]}]`,
			dialect: Anthropic,
			system:  "be brief",
			wantMessages: `{"role":"user","content":"go"}
{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"t1","name":"ls","input":{"path":"."}}]}
{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"a.go"}]}]}`,
		},
		{
			name:         "text only reads as openai",
			data:         `[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]`,
			dialect:      OpenAI,
			wantMessages: "{\"role\":\"user\",\"content\":\"hi\"}\n{\"role\":\"assistant\",\"content\":\"hello\"}",
		},
		{
			name:    "anthropic request body",
			data:    `{"model":"claude-x","system":[{"type":"text","text":"sys","cache_control":{"type":"ephemeral"}}],"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]},{"role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"s"}]}]}`,
			dialect: Anthropic,
			system:  "sys",
			wantMessages: `{"role":"user","content":[{"type":"text","text":"hi"}]}
{"role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"s"}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := parseOne(t, "x.json", tt.data)
			if tr.Dialect != tt.dialect || tr.System != tt.system {
				t.Errorf("dialect %q system %q, want %q %q", tr.Dialect, tr.System, tt.dialect, tt.system)
			}
			if diff := cmp.Diff(tt.wantMessages, messagesJSON(tr)); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
		})
	}
}

// TestClaudeTextRecords: text-only records by a Claude model become
// Anthropic messages, with OpenAI-shaped tools converted.
func TestClaudeTextRecords(t *testing.T) {
	tr := parseOne(t, "x.json", `[{"model":"claude-3-7-sonnet","instance_id":"i1","tools":[{"type":"function","function":{"name":"bash","description":"run","parameters":{"type":"object","properties":{"cmd":{"type":"string","enum":null}}}}}],"messages":[{"role":"system","content":"sys"},{"role":"user","content":"u"},{"role":"assistant","content":"a"}]}]`)
	if tr.Dialect != Anthropic || tr.Format != FormatAnthropicMessages || tr.System != "sys" || tr.Name != "x.json#i1" {
		t.Errorf("got %s %s system %q name %q", tr.Dialect, tr.Format, tr.System, tr.Name)
	}
	want := `{"name":"bash","description":"run","input_schema":{"type":"object","properties":{"cmd":{"type":"string"}}}}`
	if len(tr.Tools) != 1 || string(tr.Tools[0]) != want {
		t.Errorf("tools %s, want %s", tr.Tools, want)
	}
}

// TestSWEAgentToolCallForms: tool_calls as a list, as a JSON string and
// as a Python literal string give the same messages; an observation
// answering two calls becomes two tool messages.
func TestSWEAgentToolCallForms(t *testing.T) {
	const list = `[{"id": "c1", "type": "function", "function": {"name": "open", "arguments": "{\"path\": \"a.py\"}"}}, {"id": "c2", "type": "function", "function": {"name": "ls", "arguments": {"dir": "."}}}]`
	pyLiteral := `[{'id': 'c1', 'type': 'function', 'function': {'name': 'open', 'arguments': '{"path": "a.py"}'}}, {'id': 'c2', 'type': 'function', 'function': {'name': 'ls', 'arguments': {'dir': '.'}}}]`
	history := func(calls string) string {
		return `{"history":[{"role":"system","content":"s","agent":"main"},{"role":"user","content":[{"type":"text","text":"task"}]},{"role":"assistant","content":"thinking","thought":"thinking","action":"open a.py","tool_calls":` + calls + `},{"role":"tool","content":"out","tool_call_ids":["c1","c2"]},{"role":"assistant","content":"done","tool_calls":null}],"replay_config":"{\"agent\":{\"model\":{\"name\":\"gpt-4o\"}}}"}`
	}
	want := `{"role":"system","content":"s"}
{"role":"user","content":"task"}
{"role":"assistant","content":"thinking","tool_calls":[{"id":"c1","type":"function","function":{"name":"open","arguments":"{\"path\": \"a.py\"}"}},{"id":"c2","type":"function","function":{"name":"ls","arguments":"{\"dir\":\".\"}"}}]}
{"role":"tool","content":"out","tool_call_id":"c1"}
{"role":"tool","content":"out","tool_call_id":"c2"}
{"role":"assistant","content":"done"}`
	jsonString, _ := json.Marshal(list)
	pyString, _ := json.Marshal(pyLiteral)
	for name, calls := range map[string]string{"list": list, "json string": string(jsonString), "python literal": string(pyString)} {
		t.Run(name, func(t *testing.T) {
			tr := parseOne(t, "x.traj", history(calls))
			if tr.Format != FormatSWEAgent || tr.Model != "gpt-4o" {
				t.Errorf("format %s model %q", tr.Format, tr.Model)
			}
			if diff := cmp.Diff(want, messagesJSON(tr)); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRequests(t *testing.T) {
	tr := Trajectory{
		Name: "t", Dialect: Anthropic, System: "sys",
		Tools: []json.RawMessage{json.RawMessage(`{"name":"ls","input_schema":{"type":"object"}}`)},
		Messages: []json.RawMessage{
			json.RawMessage(`{"role":"user","content":"a <b> & c"}`),
			json.RawMessage(`{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"ls","input":{}}]}`),
			json.RawMessage(`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"x"}]}`),
			json.RawMessage(`{"role":"assistant","content":"done"}`),
		},
	}
	var got []string
	var turns []int
	for r, err := range Requests(tr, &RequestOptions{MaxTokens: 100}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(r.Body))
		turns = append(turns, r.Turn)
		if !json.Valid(r.Body) {
			t.Errorf("invalid body %s", r.Body)
		}
	}
	head := `{"model":"claude-sonnet-4-5","max_tokens":100,"system":"sys","tools":[{"name":"ls","input_schema":{"type":"object"}}],"messages":[`
	want := []string{
		head + string(tr.Messages[0]) + `]}`,
		head + string(tr.Messages[0]) + `,` + string(tr.Messages[1]) + `,` + string(tr.Messages[2]) + `]}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bodies (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{1, 3}, turns); diff != "" {
		t.Errorf("turns (-want +got):\n%s", diff)
	}

	// stopping early stops the iterator
	n := 0
	for range Requests(tr, nil) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("broke after %d", n)
	}

	tr.Dialect = OpenAI // a System outside the messages is Anthropic's
	for _, err := range Requests(tr, nil) {
		if err == nil {
			t.Error("OpenAI trajectory with a System: no error")
		}
	}
}

func TestParseRequest(t *testing.T) {
	if _, err := ParseRequest([]byte(`{"model":"m"}`)); err == nil {
		t.Error("body without messages parsed")
	}
	if _, err := ParseRequest([]byte(`{"messages":`)); err == nil {
		t.Error("truncated body parsed")
	}
	p, err := ParseRequest([]byte(`{"model":"m","system":null,"messages":[{"role":"user","content":"x"}],"temperature":0}`))
	if err != nil || p.System != nil || len(p.Messages) != 1 || p.Model != "m" {
		t.Errorf("got %+v, %v", p, err)
	}
}

func TestRender(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"plain"`, "plain"},
		{`{"role":"user","content":"line1\nline2 \"q\""}`, "role\nuser\ncontent\nline1\nline2 \"q\""},
		{`{"content":[{"type":"text","text":"hi","cache_control":{"type":"ephemeral"}}]}`, "content\ntype\ntext\ntext\nhi"},
		{`{"n":1.50,"b":true,"z":null,"a":[]}`, "n\n1.50\nb\ntrue\nz\nnull\na"},
	}
	for _, tt := range tests {
		got, err := Render([]byte(tt.in))
		if err != nil {
			t.Errorf("Render(%s): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Render(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// moving a cache breakpoint does not change the text
	a, _ := Render([]byte(`{"content":[{"type":"text","text":"hi","cache_control":{"type":"ephemeral"}}]}`))
	b, _ := Render([]byte(`{"content":[{"type":"text","text":"hi"}]}`))
	if a != b {
		t.Errorf("cache_control changed the text: %q vs %q", a, b)
	}
	for _, bad := range []string{`{"a":`, `[1,2`, `1 2`, ``} {
		if _, err := Render([]byte(bad)); err == nil {
			t.Errorf("Render(%q) succeeded", bad)
		}
	}
}

func TestObservations(t *testing.T) {
	toolForm := []json.RawMessage{
		json.RawMessage(`{"role":"user","content":"task"}`),
		json.RawMessage(`{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"x","input":{}},{"type":"tool_use","id":"b","name":"y","input":{}}]}`),
		json.RawMessage(`{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"A"},{"type":"tool_result","tool_use_id":"b","content":[{"type":"text","text":"B"}]}]}`),
	}
	got, err := Observations(Anthropic, toolForm)
	if err != nil {
		t.Fatal(err)
	}
	want := []Observation{{Message: 2, ID: "a", Text: "A"}, {Message: 2, ID: "b", Text: "B"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tool form (-want +got):\n%s", diff)
	}
	textForm := []json.RawMessage{
		json.RawMessage(`{"role":"system","content":"s"}`),
		json.RawMessage(`{"role":"user","content":"task"}`),
		json.RawMessage(`{"role":"user","content":"demo"}`),
		json.RawMessage(`{"role":"assistant","content":"ls"}`),
		json.RawMessage(`{"role":"user","content":"a.py"}`),
	}
	got, err = Observations(OpenAI, textForm)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Observation{{Message: 4, Text: "a.py"}}, got); diff != "" {
		t.Errorf("text form (-want +got):\n%s", diff)
	}
}

func TestParseMessageErrors(t *testing.T) {
	tests := []struct{ dialect, raw, want string }{
		{"gemini", `{}`, "unknown dialect"},
		{OpenAI, `[]`, "openai message"},
		{OpenAI, `{"role":"tool","content":"x"}`, "without tool_call_id"},
		{OpenAI, `{"role":"user","content":[{"text":"x"}]}`, "part without a type"},
		{Anthropic, `{"role":"user"}`, "without content"},
		{Anthropic, `{"role":"user","content":{}}`, "want a string or a list of blocks"},
		{Anthropic, `{"role":"assistant","content":[{"type":"tool_use","name":"x"}]}`, "without id or name"},
		{Anthropic, `{"role":"user","content":[{"type":"tool_result","content":"x"}]}`, "without tool_use_id"},
		{Anthropic, `{"role":"user","content":[{"text":"x"}]}`, "block without a type"},
	}
	for _, tt := range tests {
		_, err := ParseMessage(tt.dialect, json.RawMessage(tt.raw))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseMessage(%s, %s) = %v, want %q", tt.dialect, tt.raw, err, tt.want)
		}
	}
}
