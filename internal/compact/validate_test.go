package compact

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/anthropic"
	"github.com/winnowhq/winnow/internal/chat/openai"
)

func decode(t testing.TB, d chat.Dialect, body string) *chat.Conversation {
	t.Helper()
	var c *chat.Conversation
	var err error
	if d == chat.Anthropic {
		c, err = anthropic.Decode([]byte(body))
	} else {
		c, err = openai.Decode([]byte(body))
	}
	if err != nil {
		t.Fatalf("decode %s: %v", d, err)
	}
	return c
}

func encode(t testing.TB, c *chat.Conversation) []byte {
	t.Helper()
	var b []byte
	var err error
	if c.Dialect == chat.Anthropic {
		b, err = anthropic.Encode(c)
	} else {
		b, err = openai.Encode(c)
	}
	if err != nil {
		t.Fatalf("encode %s: %v", c.Dialect, err)
	}
	return b
}

// keys renders violations as sorted "rule@message.part" strings.
func keys(vs []Violation) []string {
	var out []string
	for _, v := range vs {
		out = append(out, fmt.Sprintf("%s@%d.%d", v.Rule, v.Message, v.Part))
	}
	slices.Sort(out)
	return out
}

// A case is a compaction (an edit of a clone of the base request) and the
// violations Validate must report for it, nil for none.
type validateCase struct {
	name   string
	edit   func(c *chat.Conversation)
	noOrig bool // validate structurally, with orig nil
	want   []string
}

func runCases(t *testing.T, d chat.Dialect, base string, cases []validateCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			orig := decode(t, d, base)
			out := orig.Clone()
			if tt.edit != nil {
				tt.edit(out)
			}
			o := orig
			if tt.noOrig {
				o = nil
			}
			got := Validate(d, o, out)
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

func snip(t *testing.T, p *chat.Part) {
	t.Helper()
	if err := p.ReplaceContent("[output elided]"); err != nil {
		t.Fatal(err)
	}
}

func drop(c *chat.Conversation, idx ...int) {
	var keep []chat.Message
	for i, m := range c.Messages {
		if !slices.Contains(idx, i) {
			keep = append(keep, m)
		}
	}
	c.Messages = keep
}

const anthropicToolLoop = `{"model":"claude-sonnet-4-5","max_tokens":1024,"system":"Be brief.","tools":[{"name":"Read","input_schema":{"type":"object"}}],"messages":[` +
	`{"role":"user","content":"Fix the bug."},` + // 0
	`{"role":"assistant","content":[{"type":"text","text":"Looking."},{"type":"tool_use","id":"t1","name":"Read","input":{"p":"a"}},{"type":"tool_use","id":"t2","name":"Read","input":{"p":"b"}}]},` + // 1
	`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"AAAA"},{"type":"tool_result","tool_use_id":"t2","content":"BBBB"}]},` + // 2
	`{"role":"assistant","content":"Fixed."},` + // 3
	`{"role":"user","content":"Thanks, now run the tests."},` + // 4
	`{"role":"assistant","content":[{"type":"tool_use","id":"t3","name":"Bash","input":{"c":"go test"}}]},` + // 5
	`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t3","content":"ok"}]}]}` // 6

func TestValidateAnthropic(t *testing.T) {
	runCases(t, chat.Anthropic, anthropicToolLoop, []validateCase{
		{name: "untouched"},
		{name: "untouched, structural", noOrig: true},
		{name: "tool results snipped", edit: func(c *chat.Conversation) {
			snip(t, &c.Messages[2].Parts[0])
			snip(t, &c.Messages[2].Parts[1])
		}},
		{name: "finished exchange dropped", edit: func(c *chat.Conversation) { drop(c, 1, 2) }},
		{name: "tool results dropped", edit: func(c *chat.Conversation) { drop(c, 2) },
			want: []string{"roles-merged@2.-1", "tool-result-missing@1.1", "tool-result-missing@1.2"}},
		{name: "one result dropped", edit: func(c *chat.Conversation) {
			c.Messages[2].Parts = c.Messages[2].Parts[:1]
		}, want: []string{"tool-result-missing@1.2"}},
		{name: "result answers another id", edit: func(c *chat.Conversation) { c.Messages[2].Parts[1].ID = "t9" },
			want: []string{"tool-result-missing@1.2", "tool-result-orphan@2.1"}},
		{name: "result given twice", edit: func(c *chat.Conversation) {
			c.Messages[2].Parts = append(c.Messages[2].Parts, c.Messages[2].Parts[0])
		}, want: []string{"tool-result-duplicate@2.2"}},
		{name: "result in an assistant message", edit: func(c *chat.Conversation) {
			c.Messages[3].Parts = append(c.Messages[3].Parts, chat.Part{Type: chat.ToolResult, ID: "t1", Content: []chat.Part{chat.NewText("x")}})
		}, want: []string{"tool-result-orphan@3.1"}},
		{name: "text before tool results", edit: func(c *chat.Conversation) {
			c.Messages[2].Parts = append([]chat.Part{chat.NewText("Here:")}, c.Messages[2].Parts...)
		}, want: []string{"tool-result-first@2.1", "tool-result-first@2.2"}},
		{name: "tool id reused", edit: func(c *chat.Conversation) {
			c.Messages[5].Parts[0].ID = "t1"
			c.Messages[6].Parts[0].ID = "t1"
		}, want: []string{"tool-id-duplicate@5.0"}},
		{name: "first message not the user's", edit: func(c *chat.Conversation) { drop(c, 0) },
			want: []string{"first-message-user@0.-1", "user-message-lost@0.-1"}},
		{name: "no messages", edit: func(c *chat.Conversation) { c.Messages = nil }, noOrig: true,
			want: []string{"first-message-user@-1.-1"}},
		{name: "user message emptied", edit: func(c *chat.Conversation) { c.Messages[4].Parts = nil },
			want: []string{"empty-content@4.-1", "user-message-lost@4.-1"}},
		{name: "empty final assistant is allowed", edit: func(c *chat.Conversation) {
			c.Messages = append(c.Messages, chat.Message{Role: chat.RoleAssistant})
		}},
		{name: "empty text block", edit: func(c *chat.Conversation) { c.Messages[1].Parts[0].Text = "" },
			want: []string{"empty-text@1.0"}},
		{name: "whitespace-only message", edit: func(c *chat.Conversation) { c.Messages[4].Parts[0].Text = " \n" },
			want: []string{"empty-text@4.-1"}},
		{name: "empty system block", edit: func(c *chat.Conversation) { c.System = append(c.System, chat.NewText("")) },
			want: []string{"empty-text@-1.1"}},
		{name: "input not an object", edit: func(c *chat.Conversation) { c.Messages[5].Parts[0].Input = json.RawMessage(`[1]`) },
			want: []string{"tool-arguments@5.0"}},
		{name: "input not JSON", edit: func(c *chat.Conversation) { c.Messages[5].Parts[0].Input = json.RawMessage(`{"c":`) },
			want: []string{"tool-arguments@5.0"}},
		{name: "user message lost", edit: func(c *chat.Conversation) { drop(c, 3, 4) },
			want: []string{"user-message-lost@4.-1"}},
		{name: "roles merged by a drop", edit: func(c *chat.Conversation) { drop(c, 3) },
			want: []string{"roles-merged@3.-1"}},
		{name: "roles merged is not checked without the original", noOrig: true, edit: func(c *chat.Conversation) { drop(c, 3) }},
		{name: "other dialect", edit: func(c *chat.Conversation) { c.Dialect = chat.OpenAI },
			want: []string{"dialect@-1.-1"}},
	})
}

const anthropicThinking = `{"model":"claude-opus-5-5","max_tokens":4096,"thinking":{"type":"enabled","budget_tokens":2048},"system":"Be careful.","tools":[{"name":"Read","input_schema":{"type":"object"}}],"messages":[` +
	`{"role":"user","content":"Q1"},` + // 0
	`{"role":"assistant","content":[{"type":"thinking","thinking":"plan one","signature":"c2lnMQ=="},{"type":"text","text":"A1"}]},` + // 1
	`{"role":"user","content":"Q2, with a long paste"},` + // 2
	`{"role":"assistant","content":[{"type":"thinking","thinking":"plan two","signature":"c2lnMg=="},{"type":"tool_use","id":"t1","name":"Read","input":{"p":"a"}}]},` + // 3
	`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a large file"}]},` + // 4
	`{"role":"assistant","content":[{"type":"redacted_thinking","data":"ZW5jcnlwdGVk"},{"type":"tool_use","id":"t2","name":"Read","input":{"p":"b"}}]},` + // 5
	`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"another file"}]}]}` // 6

func withoutThinking(c *chat.Conversation, i int) {
	c.Messages[i].Parts = slices.DeleteFunc(c.Messages[i].Parts, func(p chat.Part) bool { return isThinking(&p) })
}

func TestValidateThinking(t *testing.T) {
	runCases(t, chat.Anthropic, anthropicThinking, []validateCase{
		{name: "untouched"},
		{name: "untouched, structural", noOrig: true},
		{name: "thinking text changed", edit: func(c *chat.Conversation) { c.Messages[1].Parts[0].Text += "!" },
			want: []string{"thinking-changed@1.0", "thinking-prefix@1.-1"}},
		{name: "signature changed", edit: func(c *chat.Conversation) { c.Messages[3].Parts[0].Signature = "Zm9yZ2Vk" },
			want: []string{"thinking-changed@3.0", "thinking-prefix@3.-1"}},
		{name: "last redacted block changed", edit: func(c *chat.Conversation) { c.Messages[5].Parts[0].Data = "Zm9yZ2Vk" },
			want: []string{"thinking-changed@5.0"}},
		{name: "thinking fabricated", edit: func(c *chat.Conversation) {
			c.Messages[5].Parts = append([]chat.Part{{Type: chat.Thinking, Text: "x", Signature: "eA=="}}, c.Messages[5].Parts...)
		}, want: []string{"thinking-changed@5.0", "thinking-prefix@5.-1"}},
		{name: "thinking changed, structural", noOrig: true, edit: func(c *chat.Conversation) { c.Messages[5].Parts[0].Data = "x" },
			want: []string{"thinking-changed@5.0"}},
		{name: "thinking from another request", edit: func(c *chat.Conversation) {
			other := decode(t, chat.Anthropic, strings.Replace(anthropicThinking, "plan one", "plan uno", 1))
			c.Messages[1].Parts[0] = other.Messages[1].Parts[0]
		}, want: []string{"thinking-changed@1.0", "thinking-prefix@1.-1"}},
		{name: "tool result before kept thinking snipped", edit: func(c *chat.Conversation) { snip(t, &c.Messages[4].Parts[0]) },
			want: []string{"thinking-prefix@4.-1"}},
		{name: "last tool result snipped", edit: func(c *chat.Conversation) { snip(t, &c.Messages[6].Parts[0]) }},
		{name: "system changed", edit: func(c *chat.Conversation) { c.System[0].Text = "Be quick." },
			want: []string{"thinking-prefix@-1.-1"}},
		{name: "tools changed", edit: func(c *chat.Conversation) { c.SetField("tools", json.RawMessage(`[]`)) },
			want: []string{"thinking-prefix@-1.-1"}},
		{name: "thinking dropped from an earlier turn", edit: func(c *chat.Conversation) { withoutThinking(c, 1) },
			want: []string{"thinking-prefix@1.-1"}},
		{name: "thinking dropped from the active loop", edit: func(c *chat.Conversation) { withoutThinking(c, 5) },
			want: []string{"thinking-dropped@5.-1"}},
		{name: "thinking dropped from the loop's first message", edit: func(c *chat.Conversation) { withoutThinking(c, 3) },
			want: []string{"thinking-dropped@3.-1", "thinking-prefix@3.-1"}},
		{name: "thinking dropped from the active loop, structural", noOrig: true, edit: func(c *chat.Conversation) { withoutThinking(c, 5) },
			want: []string{"thinking-dropped@5.0"}},
		{name: "all thinking dropped, loop active", edit: func(c *chat.Conversation) {
			for i := range c.Messages {
				withoutThinking(c, i)
			}
			snip(t, &c.Messages[4].Parts[0])
		}, want: []string{"thinking-dropped@3.-1", "thinking-dropped@5.-1"}},
		{name: "thinking disabled", edit: func(c *chat.Conversation) {
			c.SetField("thinking", json.RawMessage(`{"type":"disabled"}`))
			withoutThinking(c, 5)
		}},
	})

	// Once the loop is over (the user has spoken again), a finished turn's
	// thinking may go, and with no thinking kept the history is free.
	finished := strings.TrimSuffix(anthropicThinking, "]}") +
		`,{"role":"assistant","content":[{"type":"text","text":"Both files read."}]},{"role":"user","content":"Next question."}]}`
	runCases(t, chat.Anthropic, finished, []validateCase{
		{name: "all thinking dropped and history snipped", edit: func(c *chat.Conversation) {
			for i := range c.Messages {
				withoutThinking(c, i)
			}
			snip(t, &c.Messages[4].Parts[0])
			snip(t, &c.Messages[6].Parts[0])
		}},
		{name: "thinking kept but history snipped", edit: func(c *chat.Conversation) { snip(t, &c.Messages[4].Parts[0]) },
			want: []string{"thinking-prefix@4.-1"}},
	})
}

const openaiTools = `{"model":"gpt-4o","messages":[` +
	`{"role":"system","content":"S"},` + // 0
	`{"role":"user","content":"Do it."},` + // 1
	`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{\"p\":\"a\"}"}},{"id":"c2","type":"function","function":{"name":"grep","arguments":"{}"}}]},` + // 2
	`{"role":"tool","tool_call_id":"c1","content":"AAAA"},` + // 3
	`{"role":"tool","tool_call_id":"c2","content":"BBBB"},` + // 4
	`{"role":"assistant","content":"Done."},` + // 5
	`{"role":"user","content":"Thanks."},` + // 6
	`{"role":"assistant","content":"","tool_calls":[{"id":"c3","type":"function","function":{"name":"run","arguments":"{\"c\":\"go test\"}"}}]},` + // 7
	`{"role":"tool","tool_call_id":"c3","content":"ok"}]}` // 8

func TestValidateOpenAI(t *testing.T) {
	runCases(t, chat.OpenAI, openaiTools, []validateCase{
		{name: "untouched"},
		{name: "untouched, structural", noOrig: true},
		{name: "tool output snipped", edit: func(c *chat.Conversation) { snip(t, &c.Messages[3].Parts[0]) }},
		{name: "tool output emptied", edit: func(c *chat.Conversation) { c.Messages[3].Parts[0].Content = nil }},
		{name: "finished exchange dropped", edit: func(c *chat.Conversation) { drop(c, 2, 3, 4, 5) }},
		{name: "tool message dropped", edit: func(c *chat.Conversation) { drop(c, 4) },
			want: []string{"tool-result-missing@2.1"}},
		{name: "call dropped, results kept", edit: func(c *chat.Conversation) { drop(c, 2) },
			want: []string{"tool-result-orphan@2.0", "tool-result-orphan@3.0"}},
		{name: "result answers another id", edit: func(c *chat.Conversation) { c.Messages[4].Parts[0].ID = "c9" },
			want: []string{"tool-result-missing@2.1", "tool-result-orphan@4.0"}},
		{name: "result given twice", edit: func(c *chat.Conversation) { c.Messages[4].Parts[0].ID = "c1" },
			want: []string{"tool-result-duplicate@4.0", "tool-result-missing@2.1"}},
		{name: "result after a user message", edit: func(c *chat.Conversation) {
			c.Messages = slices.Insert(c.Messages, 4, chat.Message{Role: chat.RoleUser, Parts: []chat.Part{chat.NewText("hm")}})
		}, want: []string{"tool-result-missing@2.1", "tool-result-orphan@5.0"}},
		{name: "call id reused", edit: func(c *chat.Conversation) { c.Messages[2].Parts[1].ID = "c1" },
			want: []string{"tool-id-duplicate@2.1", "tool-result-orphan@4.0"}},
		{name: "assistant without content or calls", edit: func(c *chat.Conversation) { c.Messages[5].Parts = nil },
			want: []string{"empty-content@5.-1"}},
		{name: "assistant calls dropped, empty content left", edit: func(c *chat.Conversation) {
			c.Messages[7].Parts = c.Messages[7].Parts[:1]
			drop(c, 8)
		}, want: []string{"empty-content@7.-1"}},
		{name: "user message emptied", edit: func(c *chat.Conversation) { c.Messages[6].Parts[0].Text = "" },
			want: []string{"empty-content@6.-1"}},
		{name: "arguments not JSON", edit: func(c *chat.Conversation) { c.Messages[7].Parts[1].Input = json.RawMessage(`{"c":`) },
			want: []string{"tool-arguments@7.1"}},
		{name: "user message lost", edit: func(c *chat.Conversation) { drop(c, 5, 6) },
			want: []string{"user-message-lost@6.-1"}},
		{name: "no messages", noOrig: true, edit: func(c *chat.Conversation) { c.Messages = nil },
			want: []string{"empty-content@-1.-1"}},
	})
}

func TestValidateIndependentDecode(t *testing.T) {
	// Without shared origins (out decoded from bytes on its own), user
	// messages are counted and thinking aligned from the end.
	orig := decode(t, chat.OpenAI, openaiTools)
	c := orig.Clone()
	drop(c, 5, 6)
	out := decode(t, chat.OpenAI, string(encode(t, c)))
	if diff := cmp.Diff([]string{"user-message-lost@-1.-1"}, keys(Validate(chat.OpenAI, orig, out))); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}

	orig = decode(t, chat.Anthropic, anthropicThinking)
	c = orig.Clone()
	withoutThinking(c, 5)
	out = decode(t, chat.Anthropic, string(encode(t, c)))
	if diff := cmp.Diff([]string{"thinking-dropped@5.-1"}, keys(Validate(chat.Anthropic, orig, out))); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}

func TestViolationString(t *testing.T) {
	tests := []struct {
		v    Violation
		want string
	}{
		{Violation{Message: 3, Part: 1, Rule: RuleToolResultOrphan, Detail: "x"}, "messages[3].content[1]: tool-result-orphan: x"},
		{Violation{Message: 2, Part: -1, Rule: RuleEmptyContent, Detail: "y"}, "messages[2]: empty-content: y"},
		{Violation{Message: -1, Part: -1, Rule: RuleThinkingPrefix, Detail: "z"}, "request: thinking-prefix: z"},
		{Violation{Message: 4, Part: -1, Rule: RuleUserMessageLost, Detail: "w"}, "original messages[4]: user-message-lost: w"},
	}
	for _, tt := range tests {
		if got := tt.v.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

// fixtures returns the request bodies of ../chat/testdata for dialect d:
// hand-written realistic requests and real agent trajectories.
func fixtures(t *testing.T, d chat.Dialect) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "chat", "testdata", string(d)+"_*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no %s fixtures: %v", d, err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = b
	}
	return out
}

// TestRealRequestsValidateClean runs every fixture, the real trajectories
// among them, through Validate as received and after a realistic
// compaction (all but the last three tool results replaced by a
// placeholder, when no thinking pins the history), encoded and decoded
// again.
func TestRealRequestsValidateClean(t *testing.T) {
	trajectories := 0
	for _, d := range []chat.Dialect{chat.OpenAI, chat.Anthropic} {
		for name, body := range fixtures(t, d) {
			if strings.Contains(name, "trajectory") {
				trajectories++
			}
			t.Run(name, func(t *testing.T) {
				orig := decode(t, d, string(body))
				if vs := Validate(d, nil, orig); len(vs) > 0 {
					t.Fatalf("request as received: %v", vs)
				}
				out := orig.Clone()
				if vs := Validate(d, orig, out); len(vs) > 0 {
					t.Fatalf("untouched clone: %v", vs)
				}
				if hasThinking(orig) {
					return
				}
				n := snipOld(t, out, 3)
				again := decode(t, d, string(encode(t, out)))
				if vs := Validate(d, orig, out); len(vs) > 0 {
					t.Fatalf("after snipping %d tool results: %v", n, vs)
				}
				if vs := Validate(d, orig, again); len(vs) > 0 {
					t.Fatalf("after snipping %d tool results, re-decoded: %v", n, vs)
				}
				if again.TextLen() > orig.TextLen() {
					t.Errorf("snipping grew the text from %d to %d bytes", orig.TextLen(), again.TextLen())
				}
			})
		}
	}
	if trajectories < 5 {
		t.Errorf("found %d trajectory fixtures, want at least 5", trajectories)
	}
}

func hasThinking(c *chat.Conversation) bool {
	found := false
	forThinking(c.Messages, func(int, int, *chat.Part) { found = true })
	return found
}

// snipOld replaces all but the last keep tool results with a placeholder
// and returns how many it replaced.
func snipOld(t *testing.T, c *chat.Conversation, keep int) int {
	var results []*chat.Part
	for i := range c.Messages {
		for k := range c.Messages[i].Parts {
			if p := &c.Messages[i].Parts[k]; p.Type == chat.ToolResult {
				results = append(results, p)
			}
		}
	}
	n := max(len(results)-keep, 0)
	for _, p := range results[:n] {
		snip(t, p)
	}
	return n
}
