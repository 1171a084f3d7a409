package compact

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/compact/traj"
)

// openAIBody returns a request with n tool calls and their outputs
// "output i <&>".
func openAIBody(n int) []byte {
	msgs := []string{`{"role":"user","content":"task"}`}
	for i := range n {
		msgs = append(msgs,
			fmt.Sprintf(`{"role":"assistant","content":"","tool_calls":[{"id":"c%d","type":"function","function":{"name":"bash","arguments":"{}"}}]}`, i),
			fmt.Sprintf(`{"role":"tool","tool_call_id":"c%d","content":"output %d <&>"}`, i, i))
	}
	return []byte(`{"model":"gpt-4o","max_tokens":10,"messages":[` + strings.Join(msgs, ",") + `]}`)
}

func messages(t *testing.T, body []byte) []json.RawMessage {
	t.Helper()
	p, err := traj.ParseRequest(body)
	if err != nil {
		t.Fatal(err)
	}
	return p.Messages
}

func TestRollingMaskOpenAI(t *testing.T) {
	body := openAIBody(5)
	out, err := rollingMask(traj.OpenAI, body, 3)
	if err != nil {
		t.Fatal(err)
	}
	in, got := messages(t, body), messages(t, out)
	if len(got) != len(in) {
		t.Fatalf("%d messages, want %d", len(got), len(in))
	}
	for i := range in {
		masked := i == 2 || i == 4 // the outputs of c0 and c1
		if !masked && string(got[i]) != string(in[i]) {
			t.Errorf("message %d changed: %s", i, got[i])
		}
		if masked {
			want := fmt.Sprintf(`{"content":"[old tool output removed: 12 bytes]","role":"tool","tool_call_id":"c%d"}`, i/2-1)
			if string(got[i]) != want {
				t.Errorf("message %d = %s, want %s", i, got[i], want)
			}
		}
	}
	// the next turn masks one more output and leaves the earlier masks as they were
	next, err := rollingMask(traj.OpenAI, openAIBody(6), 3)
	if err != nil {
		t.Fatal(err)
	}
	n := messages(t, next)
	if string(n[2]) != string(got[2]) || string(n[4]) != string(got[4]) || !strings.Contains(string(n[6]), "removed") {
		t.Errorf("next turn: %s / %s / %s", n[2], n[4], n[6])
	}
	// nothing to mask: the body comes back as it was
	same, err := rollingMask(traj.OpenAI, openAIBody(3), 3)
	if err != nil || string(same) != string(openAIBody(3)) {
		t.Errorf("three outputs, keep three: changed (%v)", err)
	}
}

func TestRollingMaskAnthropic(t *testing.T) {
	body := []byte(`{"model":"m","system":"s","messages":[` +
		`{"role":"user","content":"task"},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"x","input":{}},{"type":"tool_use","id":"b","name":"y","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"AAAA"},{"type":"tool_result","tool_use_id":"b","content":[{"type":"text","text":"BB"}]},{"type":"text","text":"note"}]},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"c","name":"x","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c","content":"C"}]}]}`)
	out, err := rollingMask(traj.Anthropic, body, 1)
	if err != nil {
		t.Fatal(err)
	}
	got := messages(t, out)
	want := `{"content":[{"content":"[old tool output removed: 4 bytes]","tool_use_id":"a","type":"tool_result"},{"content":"[old tool output removed: 2 bytes]","tool_use_id":"b","type":"tool_result"},{"text":"note","type":"text"}],"role":"user"}`
	if diff := cmp.Diff(want, string(got[2])); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !strings.Contains(string(got[4]), `"content":"C"`) {
		t.Errorf("the last output was masked: %s", got[4])
	}
	var req map[string]json.RawMessage
	if err := json.Unmarshal(out, &req); err != nil || string(req["system"]) != `"s"` || string(req["model"]) != `"m"` {
		t.Errorf("other fields: %s (%v)", out, err)
	}
}

func TestRollingMaskTextForm(t *testing.T) {
	body := []byte(`{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":"task"},` +
		`{"role":"assistant","content":"ls"},{"role":"user","content":"a.py b.py"},` +
		`{"role":"assistant","content":"cat a.py"},{"role":"user","content":"print(1)"}]}`)
	out, err := rollingMask(traj.OpenAI, body, 1)
	if err != nil {
		t.Fatal(err)
	}
	got := messages(t, out)
	if string(got[3]) != `{"content":"[old tool output removed: 9 bytes]","role":"user"}` {
		t.Errorf("observation: %s", got[3])
	}
	if string(got[1]) != `{"role":"user","content":"task"}` || string(got[5]) != `{"role":"user","content":"print(1)"}` {
		t.Errorf("the task or the last output changed: %s, %s", got[1], got[5])
	}
}

func TestRollingMaskErrors(t *testing.T) {
	for _, body := range []string{`{`, `{"messages":3}`, `{"messages":[{"role":"robot"}]}`} {
		if _, err := rollingMask(traj.OpenAI, []byte(body), 3); err == nil {
			t.Errorf("rollingMask(%s) succeeded", body)
		}
	}
}
