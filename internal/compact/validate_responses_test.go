package compact

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/responses"
)

// responsesLoop is a Codex-style request: two user turns, each step a
// reasoning item and the call it led to, then the call's output.
const responsesLoop = `{"model":"gpt-5.5","input":[` +
	`{"type":"message","role":"developer","content":[{"type":"input_text","text":"You are Codex."}]},` + // 0
	`{"type":"message","role":"user","content":[{"type":"input_text","text":"Fix the bug."}]},` + // 1
	`{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAA1"},` + // 2
	`{"type":"function_call","id":"fc_1","call_id":"c1","name":"exec_command","arguments":"{\"cmd\":\"cat a.go\"}"},` + // 3
	`{"type":"function_call_output","call_id":"c1","output":"package a"},` + // 4
	`{"type":"reasoning","id":"rs_2","summary":[{"type":"summary_text","text":"Patch it."}],"encrypted_content":"gAAA2"},` + // 5
	`{"type":"custom_tool_call","id":"ctc_2","call_id":"c2","name":"apply_patch","input":"*** Begin Patch\n*** End Patch\n"},` + // 6
	`{"type":"custom_tool_call_output","call_id":"c2","output":"Success."},` + // 7
	`{"type":"reasoning","id":"rs_3","summary":[],"encrypted_content":"gAAA3"},` + // 8
	`{"type":"message","id":"msg_3","role":"assistant","content":[{"type":"output_text","text":"Fixed."}]},` + // 9
	`{"type":"message","role":"user","content":[{"type":"input_text","text":"Run the tests."}]},` + // 10
	`{"type":"reasoning","id":"rs_4","summary":[],"encrypted_content":"gAAA4"},` + // 11
	`{"type":"local_shell_call","id":"lsh_4","call_id":"c3","action":{"type":"exec","command":["go","test"]},"status":"completed"},` + // 12
	`{"type":"function_call_output","call_id":"c3","output":"ok"},` + // 13
	`{"type":"web_search_call","id":"ws_5","status":"completed","action":{"type":"search","query":"go test flags"}},` + // 14
	`{"type":"shell_call","id":"sh_6","call_id":"c4","action":{"commands":["go vet ./..."]}},` + // 15
	`{"type":"shell_call_output","id":"sho_6","call_id":"c4","output":[{"stdout":"","stderr":"","outcome":{"type":"exit","exit_code":0}}]}` + // 16
	`],"store":false,"include":["reasoning.encrypted_content"]}`

func decodeResponses(t testing.TB, body string) *chat.Conversation {
	t.Helper()
	c, err := responses.Decode([]byte(body))
	if err != nil {
		t.Fatalf("decode responses: %v", err)
	}
	return c
}

// runResponsesCases is runCases for the Responses dialect.
func runResponsesCases(t *testing.T, base string, cases []validateCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			orig := decodeResponses(t, base)
			out := orig.Clone()
			if tt.edit != nil {
				tt.edit(out)
			}
			o := orig
			if tt.noOrig {
				o = nil
			}
			got := Validate(chat.Responses, o, out)
			if diff := cmp.Diff(tt.want, keys(got)); diff != "" {
				t.Errorf("violations (-want +got):\n%s\nall: %v", diff, got)
			}
			for _, v := range got {
				if v.Detail == "" {
					t.Errorf("%s has no explanation", v.Rule)
				}
			}
		})
	}
}

func TestValidateResponses(t *testing.T) {
	runResponsesCases(t, responsesLoop, []validateCase{
		{name: "untouched"},
		{name: "untouched, structural", noOrig: true},
		{name: "outputs snipped", edit: func(c *chat.Conversation) {
			snip(t, &c.Messages[4].Parts[0])
			snip(t, &c.Messages[7].Parts[0])
			snip(t, &c.Messages[13].Parts[0])
		}},
		{name: "whole step dropped", edit: func(c *chat.Conversation) { drop(c, 2, 3, 4) }},
		{name: "whole first turn's steps dropped", edit: func(c *chat.Conversation) { drop(c, 2, 3, 4, 5, 6, 7) }},

		// Pairing.
		{name: "output dropped", edit: func(c *chat.Conversation) { drop(c, 4) },
			want: []string{"tool-result-missing@3.0"}},
		{name: "custom output dropped", edit: func(c *chat.Conversation) { drop(c, 7) },
			want: []string{"tool-result-missing@6.0"}},
		{name: "local shell output dropped", edit: func(c *chat.Conversation) { drop(c, 13) },
			want: []string{"tool-result-missing@12.0"}},
		{name: "unmodelled shell output dropped", edit: func(c *chat.Conversation) { drop(c, 16) },
			want: []string{"tool-result-missing@15.0"}},
		{name: "unmodelled shell call dropped", edit: func(c *chat.Conversation) { drop(c, 15) },
			want: []string{"tool-result-orphan@15.0"}},
		{name: "call dropped, its reasoning kept", edit: func(c *chat.Conversation) { drop(c, 3) },
			want: []string{"reasoning-follower@2.0", "tool-result-orphan@3.0"}},
		{name: "output answers another call", edit: func(c *chat.Conversation) { c.Messages[4].Parts[0].ID = "c9" },
			want: []string{"tool-result-missing@3.0", "tool-result-orphan@4.0"}},
		{name: "output before its call", edit: func(c *chat.Conversation) {
			c.Messages[3], c.Messages[4] = c.Messages[4], c.Messages[3]
		}, want: []string{"reasoning-follower@2.0", "reordered@4.-1", "tool-result-missing@4.0", "tool-result-orphan@3.0"}},
		{name: "output given twice", edit: func(c *chat.Conversation) {
			c.Messages = slices.Insert(c.Messages, 5, c.Messages[4])
		}, want: []string{"reordered@5.-1", "tool-result-duplicate@5.0"}},
		{name: "call id reused", edit: func(c *chat.Conversation) { c.Messages[6].Parts[0].ID = "c1" },
			want: []string{"tool-id-duplicate@6.0", "tool-result-orphan@7.0"}},
		{name: "new call without output", edit: func(c *chat.Conversation) {
			c.Messages = append(c.Messages, chat.Message{Role: chat.RoleAssistant, Parts: []chat.Part{{Type: chat.ToolCall, ID: "c5", Name: "exec_command", Input: json.RawMessage(`{}`)}}})
		}, want: []string{"tool-result-missing@17.0"}},
		{name: "hosted tool call dropped", edit: func(c *chat.Conversation) { drop(c, 14) }},
		{name: "unmodelled output without a call_id", edit: func(c *chat.Conversation) {
			out := decodeResponses(t, `{"input":[{"type":"local_shell_call_output","id":"lsh_4","output":"ok"}]}`)
			c.Messages = append(c.Messages, out.Messages[0])
		}},

		// Reasoning.
		{name: "call and output dropped, reasoning kept", edit: func(c *chat.Conversation) { drop(c, 3, 4) },
			want: []string{"reasoning-follower@2.0"}},
		{name: "reasoning dropped, call kept", edit: func(c *chat.Conversation) { drop(c, 2) },
			want: []string{"reasoning-follower@2.0"}},
		{name: "item put between reasoning and its call", edit: func(c *chat.Conversation) {
			c.Messages = slices.Insert(c.Messages, 12, chat.Message{Role: chat.RoleAssistant, Parts: []chat.Part{chat.NewText("Running.")}})
		}, want: []string{"reasoning-follower@11.0"}},
		{name: "reasoning re-encrypted", edit: func(c *chat.Conversation) { c.Messages[5].Parts[0].Data = "gAAAx" },
			want: []string{"thinking-changed@5.0"}},
		{name: "reasoning summary edited", edit: func(c *chat.Conversation) { c.Messages[5].Parts[0].Text = "Patch." },
			want: []string{"thinking-changed@5.0"}},
		{name: "final answer dropped, structural", noOrig: true, edit: func(c *chat.Conversation) { drop(c, 9) },
			want: []string{"reasoning-follower@8.0"}},
		{name: "reasoning last, structural", noOrig: true, edit: func(c *chat.Conversation) { c.Messages = c.Messages[:12] },
			want: []string{"reasoning-follower@11.0"}},

		// Order and the user's messages.
		{name: "user turn moved first", edit: func(c *chat.Conversation) {
			c.Messages[0], c.Messages[1] = c.Messages[1], c.Messages[0]
		}, want: []string{"reordered@1.-1"}},
		{name: "user message dropped", edit: func(c *chat.Conversation) { drop(c, 10) },
			want: []string{"user-message-lost@10.-1"}},
		{name: "developer message dropped", edit: func(c *chat.Conversation) { drop(c, 0) },
			want: []string{"user-message-lost@0.-1"}},
		{name: "user text emptied", edit: func(c *chat.Conversation) { c.Messages[1].Parts[0].Text = "" },
			want: []string{"user-message-lost@1.-1"}},

		// Arguments.
		{name: "arguments broken", edit: func(c *chat.Conversation) { c.Messages[3].Parts[0].Input = json.RawMessage(`{"cmd":`) },
			want: []string{"tool-arguments@3.0"}},
		{name: "arguments shortened", edit: func(c *chat.Conversation) { c.Messages[3].Parts[0].Input = json.RawMessage(`{"cmd":"cat"}`) }},
		{name: "custom tool input is free text", edit: func(c *chat.Conversation) { c.Messages[6].Parts[0].Input = json.RawMessage("*** Begin") }},
	})
}

// TestValidateResponsesIndependentDecode validates a request decoded on
// its own, sharing no origin with the original: the structural rules
// apply, and reasoning is compared by its bytes.
func TestValidateResponsesIndependentDecode(t *testing.T) {
	orig := decodeResponses(t, responsesLoop)
	if got := Validate(chat.Responses, orig, decodeResponses(t, responsesLoop)); len(got) != 0 {
		t.Errorf("an identical request: %v", got)
	}
	out := orig.Clone()
	out.Messages[2].Parts[0].Data = "gAAAx"
	body, err := responses.Encode(out)
	if err != nil {
		t.Fatal(err)
	}
	got := keys(Validate(chat.Responses, orig, decodeResponses(t, string(body))))
	if diff := cmp.Diff([]string{"thinking-changed@2.0"}, got); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}

// TestValidateResponsesFixtures checks that the Responses requests of
// package chat's testdata, Codex CLI's included, break no rule.
func TestValidateResponsesFixtures(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "chat", "testdata", "responses_*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			body, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			c := decodeResponses(t, string(body))
			for _, orig := range []*chat.Conversation{c, nil} {
				if got := Validate(chat.Responses, orig, c.Clone()); len(got) != 0 {
					t.Errorf("violations (orig %v): %v", orig != nil, got)
				}
			}
		})
	}
}
