package claude

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

type msgs = []any

// content returns the content blocks of message i, which must be an array.
func content(m msgs, i int) []any { return m[i].(map[string]any)["content"].([]any) }

func dropThinking(m msgs, i int) msgs {
	c := content(m, i)
	m[i].(map[string]any)["content"] = slices.DeleteFunc(c, func(b any) bool { return b.(map[string]any)["type"] == "thinking" })
	return m
}

func TestOracle(t *testing.T) {
	// After three steps the conversation is: user, (assistant, tool results) × 3, with the
	// tool loop open. Assistant messages are at 1, 3, 5. A finished one goes on to the final
	// answer at 11 and a new user message.
	tests := []struct {
		name   string
		model  string
		beta   string
		mutate func(m msgs, body map[string]any) msgs
		finish bool   // run the script to its end and add a user message: the turn is over
		rule   string // "" for a valid request
	}{
		{name: "as sent", mutate: func(m msgs, _ map[string]any) msgs { return m }},
		{name: "cache breakpoint moved", mutate: func(m msgs, _ map[string]any) msgs {
			content(m, 2)[0].(map[string]any)["cache_control"] = map[string]any{"type": "ephemeral"}
			return m
		}},
		{name: "string content re-encoded as a text block", mutate: func(m msgs, _ map[string]any) msgs {
			m[0].(map[string]any)["content"] = []any{map[string]any{"type": "text", "text": "Read the modules."}}
			return m
		}},
		{name: "oldest thinking dropped", mutate: func(m msgs, _ map[string]any) msgs { return dropThinking(m, 1) }},
		{name: "all thinking but the latest dropped", mutate: func(m msgs, _ map[string]any) msgs { return dropThinking(dropThinking(m, 1), 3) }},
		{name: "middle thinking dropped", rule: ruleThinkChain, mutate: func(m msgs, _ map[string]any) msgs { return dropThinking(m, 3) }},
		{name: "latest thinking dropped in an open tool loop", rule: ruleToolLoop, mutate: func(m msgs, _ map[string]any) msgs { return dropThinking(m, 5) }},
		{name: "latest thinking dropped, a system message after the results", rule: ruleToolLoop, mutate: func(m msgs, _ map[string]any) msgs {
			return append(dropThinking(m, 5), map[string]any{"role": "system", "content": "Keep the user posted."})
		}},
		{name: "thinking text changed", rule: ruleSignature, mutate: func(m msgs, _ map[string]any) msgs {
			content(m, 3)[0].(map[string]any)["thinking"] = "I changed my mind."
			return m
		}},
		{name: "signature forged", rule: ruleSignature, mutate: func(m msgs, _ map[string]any) msgs {
			content(m, 1)[0].(map[string]any)["signature"] = "Zm9yZ2Vk"
			return m
		}},
		{name: "earlier tool result shortened", rule: rulePrefix, mutate: func(m msgs, _ map[string]any) msgs {
			content(m, 2)[0].(map[string]any)["content"] = "[cleared]"
			return m
		}},
		{name: "earlier tool result shortened, keep-all model", model: "claude-opus-4-6", mutate: func(m msgs, _ map[string]any) msgs {
			content(m, 2)[0].(map[string]any)["content"] = "[cleared]"
			return m
		}},
		{name: "earlier tool result shortened, the thinking after it dropped but the open loop's", rule: rulePrefix, mutate: func(m msgs, _ map[string]any) msgs {
			content(m, 2)[0].(map[string]any)["content"] = "[cleared]"
			return dropThinking(m, 3) // the open loop needs the latest thinking, whose prefix changed
		}},
		{name: "turn over: earlier tool result shortened, all thinking after it dropped", finish: true, mutate: func(m msgs, _ map[string]any) msgs {
			content(m, 2)[0].(map[string]any)["content"] = "[cleared]"
			for i := 3; i < len(m); i += 2 {
				m = dropThinking(m, i)
			}
			return m
		}},
		{name: "turn over: earlier tool result shortened, thinking kept", finish: true, rule: rulePrefix, mutate: func(m msgs, _ map[string]any) msgs {
			content(m, 2)[0].(map[string]any)["content"] = "[cleared]"
			return m
		}},
		{name: "system prompt changed", rule: rulePrefix, mutate: func(m msgs, body map[string]any) msgs {
			body["system"] = "You are a different client."
			return m
		}},
		{name: "tool result replaced by text", rule: rulePairing, mutate: func(m msgs, _ map[string]any) msgs {
			m[2].(map[string]any)["content"] = []any{map[string]any{"type": "text", "text": "no result"}}
			return m
		}},
		{name: "tool result after text", rule: rulePairing, mutate: func(m msgs, _ map[string]any) msgs {
			u := m[2].(map[string]any)
			u["content"] = append([]any{map[string]any{"type": "text", "text": "here:"}}, u["content"].([]any)...)
			return m
		}},
		{name: "first message from the assistant", rule: ruleShape, mutate: func(m msgs, _ map[string]any) msgs { return m[1:] }},
		{name: "blank text block", rule: ruleEmpty, mutate: func(m msgs, _ map[string]any) msgs {
			m[0].(map[string]any)["content"] = []any{map[string]any{"type": "text", "text": " \n"}}
			return m
		}},
		{name: "context_management without its beta header", beta: "interleaved-thinking-2025-05-14", rule: ruleBeta,
			mutate: func(m msgs, _ map[string]any) msgs { return m }},
		{name: "clear_thinking listed second", rule: ruleEdits, mutate: func(m msgs, body map[string]any) msgs {
			body["context_management"] = map[string]any{"edits": []any{
				map[string]any{"type": editClearToolUses}, map[string]any{"type": editClearThinking, "keep": "all"}}}
			return m
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newConvo(t, 5)
			if tt.model != "" {
				c.model = tt.model
			}
			for range 3 {
				c.step()
			}
			if tt.finish {
				c.run()
				c.messages = append(c.messages, obj{"role": "user", "content": "Thanks. Now the tests."})
			}
			var body map[string]any
			if err := json.Unmarshal(c.body(), &body); err != nil {
				t.Fatal(err)
			}
			body["messages"] = tt.mutate(body["messages"].([]any), body)
			data, err := json.Marshal(body)
			if err != nil {
				t.Fatal(err)
			}
			if tt.beta != "" {
				c.beta = tt.beta
			}
			r := c.send(data)
			xs := c.api.Exchanges()
			vs := xs[len(xs)-1].Violations
			if tt.rule == "" {
				if r.status != http.StatusOK {
					t.Fatalf("status %d (%s), want 200; violations %v", r.status, r.errMsg, vs)
				}
				return
			}
			if r.status != http.StatusBadRequest {
				t.Fatalf("status %d, want 400 for a %s violation", r.status, tt.rule)
			}
			if !slices.ContainsFunc(vs, func(v Violation) bool { return v.Rule == tt.rule }) {
				t.Errorf("violations %v, want one of rule %s", vs, tt.rule)
			}
			if rep := c.api.Report(); rep.Main.Invalid != 1 || len(rep.Violations) != len(vs) {
				t.Errorf("report: %d invalid, %d violations; want 1 and %d", rep.Main.Invalid, len(rep.Violations), len(vs))
			}
		})
	}
}

// TestRecordedRequests: what Claude Code sent (testdata of package llmproxy) decodes and
// passes the rules that do not need the fake's own signatures.
func TestRecordedRequests(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "claude-code")
	for _, name := range []string{"early", "late"} {
		body, err := os.ReadFile(filepath.Join(dir, name+".body.json"))
		if err != nil {
			t.Fatal(err)
		}
		req, err := decodeRequest(body)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var vs []Violation
		add := func(rule, path, format string, args ...any) {
			vs = append(vs, Violation{Rule: rule, Path: path})
		}
		checkShape(req, add)
		checkPairing(req, add)
		if len(vs) > 0 {
			t.Errorf("%s: %v", name, vs)
		}
		if _, err := parseEdits(req.ContextManagement, familyOf(req.Model)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		tools := toolsByName(req.Tools)
		if tools["Read"] == nil || tools["Bash"] == nil || !req.Thinking.enabled() {
			t.Errorf("%s: want Read and Bash among the tools and thinking on", name)
		}
	}
}

func TestFamilyOf(t *testing.T) {
	tests := map[string]thinkingRule{
		"claude-opus-5-5":                         preserved,
		"claude-sonnet-5-5":                       preserved,
		"claude-fable-5-2":                        preserved,
		"claude-opus-5":                           keepAll,
		"claude-opus-4-6":                         keepAll,
		"claude-opus-4-5-20251101":                keepAll,
		"claude-sonnet-4-5-20250929":              lastTurnOnly,
		"claude-haiku-4-5@20251001":               lastTurnOnly,
		"anthropic.claude-sonnet-4-20250514-v1:0": lastTurnOnly,
		"claude-3-7-sonnet-20250219":              lastTurnOnly,
		"claude-zeta-9":                           preserved,
		"gpt-5":                                   preserved,
	}
	for model, want := range tests {
		if got := familyOf(model).rule; got != want {
			t.Errorf("familyOf(%q) = %s, want %s", model, got, want)
		}
	}
	if got := familyOf("claude-opus-5-5").pricing(); got.Read != 0.05 || got.MinPrefix != 512 || got.Validate() != nil {
		t.Errorf("Opus 5.5 pricing %+v", got)
	}
}
