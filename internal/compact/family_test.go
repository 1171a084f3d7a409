package compact

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winnowhq/winnow/internal/chat"
)

func TestModelFamily(t *testing.T) {
	for model, want := range map[string]Family{
		"claude-opus-5-5":          Preserved,
		"claude-fable-5-1":         Preserved,
		"claude-sonnet-5-5":        Preserved,
		"claude-haiku-5-5":         Preserved,
		"claude-opus-9":            Preserved, // unknown: the safe choice
		"":                         Preserved,
		"claude-opus-4-5":          KeepAll,
		"claude-opus-4-5-20251101": KeepAll,
		"us.anthropic.claude-opus-4-5-20251101-v1:0": KeepAll,
		"claude-sonnet-4-6":                          KeepAll,
		"claude-opus-5":                              KeepAll,
		"claude-mythos-preview":                      KeepAll,
		"claude-sonnet-4-5-20250929":                 LastTurn,
		"claude-haiku-4-5@20251001":                  LastTurn,
		"anthropic.claude-3-7-sonnet-20250219-v1:0":  LastTurn,
		"Claude-Sonnet-4-20250514":                   LastTurn,
	} {
		if got := ModelFamily(model); got != want {
			t.Errorf("ModelFamily(%q) = %v, want %v", model, got, want)
		}
	}
}

// On a model without the prefix check, a batch fires inside the active
// tool loop, and every thinking block travels back byte for byte.
func TestThinkingKeptOnKeepAllModels(t *testing.T) {
	for _, model := range []string{"claude-opus-4-5", "claude-sonnet-4-5"} {
		t.Run(model, func(t *testing.T) {
			// Request of 5 messages: still the first tool loop.
			body := thinkingAgentOf(model, 5)
			in := messagesOf(t, []byte(body))
			out, rep := runPass(t, chat.Anthropic, body, testOptions, passClear)
			want := map[int]string{
				2: `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"[winnow: output of bash {\"command\":\"cat a.py\"} cleared (60 lines); call it again if needed]"}]}`,
			}
			if diff := cmp.Diff(want, changedMessages(t, in, out)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if rep.Changed != 1 {
				t.Errorf("clear report %+v", rep)
			}
			// The whole run validates, and is sticky.
			var prev []string
			var prevBatches int
			for n := 1; n <= 11; n += 2 {
				b := thinkingAgentOf(model, n)
				got, sum, err := New(testOptions).Rewrite("anthropic", []byte(b))
				if err != nil || len(sum.Violations) > 0 {
					t.Fatalf("request of %d messages: %v %v", n, err, sum.Violations)
				}
				msgs := messagesOf(t, got)
				for i, m := range msgs {
					if strings.Contains(m, `"thinking"`) && m != messagesOf(t, []byte(b))[i] && !strings.Contains(m, "tool_result") {
						t.Errorf("request of %d messages: message %d with thinking changed: %s", n, i, m)
					}
				}
				if prev != nil && len(sum.Batches) == prevBatches {
					if diff := cmp.Diff(prev, msgs[:len(prev)]); diff != "" {
						t.Errorf("request of %d messages does not extend the previous one: (-prev +got):\n%s", n, diff)
					}
				}
				prev, prevBatches = msgs, len(sum.Batches)
			}
		})
	}
}

// contextManagement returns the context_management field of body.
func contextManagement(t *testing.T, body []byte) string {
	t.Helper()
	var req struct {
		CM json.RawMessage `json:"context_management"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	return string(req.CM)
}

// On a Preserved model with server edits allowed, the messages go as the
// client sent them and the API is asked to clear what the horizon
// passed, after the client's own edits.
func TestServerEdit(t *testing.T) {
	opts := testOptions
	opts.ServerEdits = true
	clientCM := `"context_management":{"edits":[{"type":"clear_thinking_20251015","keep":"all"}]},`
	withCM := func(n int) string {
		return strings.Replace(thinkingAgent(n), `"messages":`, clientCM+`"messages":`, 1)
	}
	c := New(opts)

	// Before any batch (one output, and Keep is 1): nothing to ask.
	got, sum, err := c.Rewrite("anthropic", []byte(withCM(3)))
	if err != nil || sum.Changed || sum.ServerEdit != nil {
		t.Fatalf("first request: changed %v, edit %+v, err %v", sum.Changed, sum.ServerEdit, err)
	}

	var prevCM string
	for n := 5; n <= 11; n += 2 {
		body := withCM(n)
		got, sum, err = c.Rewrite("anthropic", []byte(body))
		if err != nil || len(sum.Violations) > 0 {
			t.Fatalf("request of %d messages: %v %v", n, err, sum.Violations)
		}
		if diff := cmp.Diff(messagesOf(t, []byte(body)), messagesOf(t, got)); diff != "" {
			t.Errorf("request of %d messages: messages changed (-sent +got):\n%s", n, diff)
		}
		e := sum.ServerEdit
		if e == nil {
			t.Fatalf("request of %d messages: no server edit (horizon %d)", n, sum.Horizon)
		}
		calls := strings.Count(body, `"tool_use"`)
		if e.Keep+e.Cleared != calls || e.Keep < 1 {
			t.Errorf("request of %d messages: keep %d + cleared %d, want %d calls", n, e.Keep, e.Cleared, calls)
		}
		cm := contextManagement(t, got)
		wantPrefix := `{"edits":[{"type":"clear_thinking_20251015","keep":"all"},{"keep":{"type":"tool_uses","value":`
		if !strings.HasPrefix(cm, wantPrefix) || strings.Count(cm, "clear_tool_uses_20250919") != 1 {
			t.Errorf("request of %d messages: context_management %s", n, cm)
		}
		if len(sum.Batches) == 1 && prevCM != "" && cm != prevCM {
			t.Errorf("no new batch, but the edit changed: %s, then %s", prevCM, cm)
		}
		prevCM = cm
	}

	// A client that clears tool uses itself keeps its edit as it is;
	// only client-side batches remain, where the rules allow them.
	const ownCM = `{"edits":[{"type":"clear_tool_uses_20250919"}]}`
	own := strings.Replace(thinkingAgent(11), `"messages":`, `"context_management":`+ownCM+`,"messages":`, 1)
	got, sum, err = c.Rewrite("anthropic", []byte(own))
	if err != nil || len(sum.Violations) > 0 || sum.ServerEdit != nil || contextManagement(t, got) != ownCM {
		t.Errorf("client's own clear_tool_uses: edit %+v, violations %v, err %v, context_management %s", sum.ServerEdit, sum.Violations, err, contextManagement(t, got))
	}

	// Without server edits, a Preserved model's active loop is not touched.
	opts.ServerEdits = false
	body := thinkingAgent(5)
	got, sum, err = New(opts).Rewrite("anthropic", []byte(body))
	if err != nil || sum.Changed {
		t.Errorf("no server edits, active loop: changed %v, err %v", sum.Changed, err)
	}
}

// claudeCodeRequest returns the last request of a real 20-step Claude Code 2.1.328
// session (claude-opus-5-5, adaptive thinking, a role "system" message now and then),
// recorded by internal/llmproxy/scripted/claude, with extra messages appended.
func claudeCodeRequest(t *testing.T, extra ...string) []byte {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("..", "llmproxy", "testdata", "claude-code", "late.body.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(extra) == 0 {
		return body
	}
	var req map[string]json.RawMessage
	var msgs []json.RawMessage
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(req["messages"], &msgs); err != nil {
		t.Fatal(err)
	}
	for _, m := range extra {
		msgs = append(msgs, json.RawMessage(m))
	}
	req["messages"], _ = json.Marshal(msgs)
	out, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Claude Code appends a role "system" message after tool results to nudge the model; it
// does not end the tool loop, so on a Preserved model nothing in the loop may change, and
// with server edits the messages go as sent.
func TestClaudeCodeSystemNudge(t *testing.T) {
	const nudge = `{"role":"system","content":"The user hasn't heard from you in a while. Say briefly what you are doing."}`
	for _, body := range [][]byte{claudeCodeRequest(t), claudeCodeRequest(t, nudge)} {
		for _, server := range []bool{false, true} {
			got, sum, err := New(Options{ServerEdits: server}).Rewrite("anthropic", body)
			if err != nil || len(sum.Violations) > 0 {
				t.Fatalf("server edits %v: %v %v", server, err, sum.Violations)
			}
			if diff := cmp.Diff(messagesOf(t, body), messagesOf(t, got)); diff != "" {
				t.Errorf("server edits %v: the active loop's messages changed (-sent +got):\n%s", server, diff)
			}
			if server && sum.ServerEdit == nil {
				t.Errorf("server edits on: no clear_tool_uses for a 20-step loop (horizon %d)", sum.Horizon)
			}
		}
	}
	// What the proxy once sent: the latest assistant message's thinking dropped while
	// the loop, followed by the nudge, is still open.
	orig := decode(t, chat.Anthropic, string(claudeCodeRequest(t, nudge)))
	out := orig.Clone()
	last := len(out.Messages) - 3 // the assistant message the trailing results answer
	withoutThinking(out, last)
	vs := Validate(chat.Anthropic, orig, out)
	if !slices.ContainsFunc(vs, func(v Violation) bool { return v.Rule == RuleThinkingDropped }) {
		t.Errorf("dropping the open loop's thinking before a system message: %v, want %s", vs, RuleThinkingDropped)
	}
}
