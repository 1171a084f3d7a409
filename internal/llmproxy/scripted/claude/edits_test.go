package claude

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEdits runs five steps of a session with each context_management and checks what the
// fifth request (4 tool uses: Read, Bash, Read, Bash; 4 assistant messages with thinking)
// reported and was billed.
func TestEdits(t *testing.T) {
	all := obj{"type": editClearThinking, "keep": "all"}
	tools := func(kv ...any) obj {
		e := obj{"type": editClearToolUses}
		for i := 0; i < len(kv); i += 2 {
			e[kv[i].(string)] = kv[i+1]
		}
		return e
	}
	always := obj{"type": "input_tokens", "value": 1}
	keep1 := obj{"type": "tool_uses", "value": 1}
	tests := []struct {
		name  string
		edits []obj
		want  []obj // applied_edits of the last request, cleared_input_tokens left out
	}{
		{"keep all thinking", []obj{all}, nil},
		{"clear thinking, keep one turn", []obj{{"type": editClearThinking, "keep": obj{"type": "thinking_turns", "value": 1}}},
			[]obj{{"type": editClearThinking, "cleared_thinking_turns": 3}}},
		{"clear tool uses, default trigger not reached", []obj{all, tools()}, nil},
		{"clear tool uses, keep 1", []obj{all, tools("trigger", always, "keep", keep1)},
			[]obj{{"type": editClearToolUses, "cleared_tool_uses": 3}}},
		{"clear tool uses and inputs", []obj{all, tools("trigger", always, "keep", keep1, "clear_tool_inputs", true)},
			[]obj{{"type": editClearToolUses, "cleared_tool_uses": 3}}},
		{"clear tool uses but Read", []obj{all, tools("trigger", always, "keep", keep1, "exclude_tools", []string{"Read"})},
			[]obj{{"type": editClearToolUses, "cleared_tool_uses": 1}}},
		{"clear tool uses, triggered by count, default keep", []obj{all, tools("trigger", obj{"type": "tool_uses", "value": 3})},
			[]obj{{"type": editClearToolUses, "cleared_tool_uses": 1}}},
		{"clear tool uses, clear_at_least not reachable", []obj{all, tools("trigger", always, "clear_at_least", obj{"type": "input_tokens", "value": 1_000_000})}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newConvo(t, 5)
			c.extra["context_management"] = obj{"edits": tt.edits}
			var r reply
			for range 5 {
				r = c.step()
			}
			var got []obj
			for _, e := range r.applied {
				m := e.(map[string]any)
				if n, _ := m["cleared_input_tokens"].(float64); n <= 0 {
					t.Errorf("applied edit %v cleared no tokens", m)
				}
				delete(m, "cleared_input_tokens")
				for k, v := range m {
					if f, ok := v.(float64); ok {
						m[k] = int(f)
					}
				}
				got = append(got, m)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("applied_edits (-want +got):\n%s", diff)
			}
			xs := c.api.Exchanges()
			x := xs[len(xs)-1]
			cleared := 0
			for _, e := range x.AppliedEdits {
				cleared += e["cleared_input_tokens"].(int)
			}
			if x.OriginalInputTokens-x.Billed.Input != cleared {
				t.Errorf("billed %d of %d input tokens; the edits cleared %d", x.Billed.Input, x.OriginalInputTokens, cleared)
			}
			if in := int(r.usage["input_tokens"].(float64) + r.usage["cache_read_input_tokens"].(float64) + r.usage["cache_creation_input_tokens"].(float64)); in != x.Billed.Input {
				t.Errorf("usage sums to %d input tokens, billed %d", in, x.Billed.Input)
			}
			if rep := c.api.Report(); len(rep.Violations) > 0 {
				t.Errorf("violations: %v", rep.Violations)
			}
		})
	}
}
