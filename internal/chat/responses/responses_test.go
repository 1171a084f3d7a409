package responses

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/internal/chattest"
)

// api is this package's codec, for the shared codec checks.
var api = chattest.Codec{Decode: Decode, DecodeExtending: DecodeExtending, DecodeShared: DecodeShared, DecodeExtendingShared: DecodeExtendingShared, Encode: Encode, FirstMessageEnd: FirstMessageEnd, Array: "input"}

// fixtures returns the Responses request bodies in ../testdata: a
// hand-written one with every item type and two recorded from Codex CLI.
func fixtures(t testing.TB) map[string][]byte {
	return chattest.Fixtures(t, "responses_*.json")
}

func mustDecode(t testing.TB, body string) *chat.Conversation {
	t.Helper()
	return chattest.MustDecode(t, Decode, body)
}

// summary renders the modelled content of c, one line per part.
func summary(c *chat.Conversation) []string {
	var out []string
	for i, m := range c.Messages {
		for _, p := range m.Parts {
			out = append(out, fmt.Sprintf("%d %s %s", i, m.Role, describe(&p)))
		}
	}
	return out
}

func describe(p *chat.Part) string {
	switch p.Type {
	case chat.Text:
		return fmt.Sprintf("text %q", short(p.Text))
	case chat.Thinking:
		return fmt.Sprintf("thinking %q", short(p.Text))
	case chat.RedactedThinking:
		return fmt.Sprintf("redacted %q data=%q", short(p.Text), short(p.Data))
	case chat.ToolCall:
		return fmt.Sprintf("call%s %q %s %s", kind(p), p.ID, p.Name, short(string(p.Input)))
	case chat.ToolResult:
		var inner []string
		for _, q := range p.Content {
			inner = append(inner, describe(&q))
		}
		return fmt.Sprintf("result%s %q [%s]", kind(p), p.ID, strings.Join(inner, "; "))
	}
	return fmt.Sprintf("%s wire=%s", p.Type, p.WireType())
}

// kind names the item type of a call or output that is not a function's,
// which is what a new call or output encodes to.
func kind(p *chat.Part) string {
	if w := p.WireType(); w != "" && w != typeFunctionCall && w != typeFunctionOutput {
		return " " + w
	}
	return ""
}

// short keeps a summary of the Codex fixtures, whose instructions run to
// pages, readable.
func short(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

func TestRoundTripFixtures(t *testing.T) {
	chattest.EncodeFixtures(t, api, fixtures(t))
}

func TestDecodeModel(t *testing.T) {
	tests := []struct {
		fixture string
		want    []string
	}{
		{"responses_items.json", []string{
			`0 developer text "Formatting re-enabled. Answer in Markdown."`,
			`1 user text "What is in this receipt, and does the audio note agree?"`,
			`1 user image wire=input_image`,
			`1 user unknown wire=input_audio`,
			`1 user document wire=input_file`,
			`2 assistant thinking "**Reading the receipt**\n\nSubtotal 38.70, VAT 3.40.\n\n**Checki…"`,
			`3 assistant text "Total: 42.10 EUR, and the note agrees."`,
			`3 assistant text "I won't guess the card number."`,
			`4 user text "Convert it to USD, then list the workspace and fix the total…"`,
			`5 assistant redacted "" data="gAAAAABoxqC5Q2Jx0Yk3vN8mR4tL1pZ6wE9sD2fG5hJ8kA3zX7cV0bN4mQ1w…"`,
			`6 assistant call "call_qJ7bX2mN4pR8sT1vW3yZ5aC6" convert_currency {"amount":42.10,"from":"EUR","to":"USD"}`,
			`7 assistant call "call_dE9fG1hI3jK5lM7nO9pQ1rS3" read_file {"path": "shop/checkout.py"}`,
			`8 tool result "call_qJ7bX2mN4pR8sT1vW3yZ5aC6" [text "{\"amount\": 45.37, \"rate\": 1.0777}"]`,
			`9 tool result "call_dE9fG1hI3jK5lM7nO9pQ1rS3" [text "def total(cart, code=None):\n    subtotal = sum(i.price * i.q…"; image wire=input_image]`,
			"10 assistant call local_shell_call \"call_tU5vW7xY9zA1bC3dE5fG7hI9\" local_shell {\n        \"type\": \"exec\",\n        \"command\": [\n          \"ls…",
			`11 tool result "call_tU5vW7xY9zA1bC3dE5fG7hI9" [text "total 8\n-rw-r--r-- 1 dev dev 120 checkout.py\n"]`,
			"12 assistant call custom_tool_call \"call_jK1lM3nO5pQ7rS9tU1vW3xY5\" apply_patch *** Begin Patch\n*** Update File: shop/checkout.py\n@@\n-    re…",
			`13 tool result custom_tool_call_output "call_jK1lM3nO5pQ7rS9tU1vW3xY5" [text "Success. Updated the following files:\nM shop/checkout.py\n"]`,
			"14 assistant call shell_call \"call_aB2cD4eF6gH8iJ0kL2mN4oP6\" shell {\n        \"commands\": [\n          \"pytest -q tests/test_chec…",
			`15 tool unknown wire=shell_call_output`,
			`16 assistant unknown wire=web_search_call`,
			`17 assistant unknown wire=item_reference`,
			`18 assistant text "Fixed: total applies the discount; tests pass. 42.10 EUR is …"`,
			`19 user text "Thanks!"`,
		}},
		{"responses_codex_turn2.json", []string{
			`0 developer text "You are Codex, a coding agent based on GPT-5. You and the us…"`,
			`1 developer text "<skills_instructions>\n## Skills\nA skill is a set of local in…"`,
			`1 developer text "<permissions instructions>\nFilesystem sandboxing defines whi…"`,
			`1 developer text "<tools>\nDeferred tool namespaces:\n- multi_agent_v1: Tools fo…"`,
			`2 user text "<environment_context>\n  <cwd>/tmp/codexcap/work</cwd>\n  <she…"`,
			`3 user text "List the files here, then add hello.txt with a PATCH."`,
			`4 assistant redacted "**Planning step 4**\n\nI should look at the files first." data="gAAAAABpFakeEncryptedReasoning004_Zm9vYmFyYmF6cXV4"`,
			`5 assistant call "call_004abcdef" exec_command {"cmd":"ls","yield_time_ms":1000}`,
			`6 tool result "call_004abcdef" [text "Chunk ID: 153560\nWall time: 0.1124 seconds\nProcess exited wi…"]`,
			`7 assistant redacted "**Planning step 5**\n\nI should look at the files first." data="gAAAAABpFakeEncryptedReasoning005_Zm9vYmFyYmF6cXV4"`,
			"8 assistant call custom_tool_call \"call_005abcdef\" apply_patch *** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch…",
			`9 tool result custom_tool_call_output "call_005abcdef" [text "Exit code: 0\nWall time: 0.3 seconds\nOutput:\nSuccess. Updated…"]`,
			`10 assistant redacted "**Planning step 6**\n\nI should look at the files first." data="gAAAAABpFakeEncryptedReasoning006_Zm9vYmFyYmF6cXV4"`,
			`11 assistant text "Done: the directory has the files listed above."`,
			`12 user text "Now list them again."`,
			`13 assistant redacted "**Planning step 7**\n\nI should look at the files first." data="gAAAAABpFakeEncryptedReasoning007_Zm9vYmFyYmF6cXV4"`,
			`14 assistant call "call_007abcdef" exec_command {"cmd":"ls","yield_time_ms":1000}`,
			`15 tool result "call_007abcdef" [text "Chunk ID: ea9ab5\nWall time: 0.4847 seconds\nProcess exited wi…"]`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			c := mustDecode(t, string(fixtures(t)[tt.fixture]))
			if diff := cmp.Diff(tt.want, summary(c)); diff != "" {
				t.Errorf("decoded model (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDecodeFields checks that every member but input is a Field, in
// order, instructions included.
func TestDecodeFields(t *testing.T) {
	c := mustDecode(t, string(fixtures(t)["responses_codex_turn2.json"]))
	var names []string
	for _, f := range c.Fields {
		names = append(names, f.Name)
	}
	want := []string{"model", "stream", "tools", "tool_choice", "parallel_tool_calls", "reasoning", "store", "include", "prompt_cache_key", "text", "client_metadata"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
	c = mustDecode(t, `{"model":"m","instructions":"Be brief.","input":"Hi","input":[]}`)
	if v, _ := c.Field("instructions"); string(v) != `"Be brief."` || len(c.Fields) != 2 || len(c.System) != 0 {
		t.Errorf("instructions: fields %v, system %v", c.Fields, c.System)
	}
}

func TestDecodeMalformedItemsAreUnknown(t *testing.T) {
	for _, item := range []string{
		`{"type":"function_call","name":"f","arguments":"{}"}`,                // no call_id
		`{"type":"function_call","call_id":"c","name":"f","arguments":{}}`,    // arguments not a string
		`{"type":"custom_tool_call","call_id":"c","input":"x"}`,               // no name
		`{"type":"local_shell_call","call_id":"c","action":["ls"]}`,           // action not an object
		`{"type":"function_call_output","output":"x"}`,                        // no call_id
		`{"type":"function_call_output","call_id":"c","output":{"text":"x"}}`, // output an object
		`{"type":"function_call_output","call_id":"c","output":null}`,
		`{"type":null,"id":"msg_1"}`,
		`{"type":"future_item","role":"user"}`,
	} {
		c := mustDecode(t, `{"input":[`+item+`]}`)
		if p := c.Messages[0].Parts; len(p) != 1 || p[0].Type != chat.Unknown {
			t.Errorf("%s decoded as %s", item, summary(c))
		}
		// Editing another item keeps it where it was.
		c.Messages = append(c.Messages, chat.Message{Role: chat.RoleUser, Parts: []chat.Part{chat.NewText("hi")}})
		got, err := Encode(c)
		if want := `{"input":[` + item + `,{"type":"message","role":"user","content":"hi"}]}`; err != nil || string(got) != want {
			t.Errorf("Encode = %s, %v\nwant %s", got, err, want)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		body string
		want error
	}{
		{"empty", ``, chat.ErrMalformed},
		{"truncated", `{"input":[{"role":"user",`, chat.ErrMalformed},
		{"invalid utf-8 outside strings", "{\"input\":[]}\xff", chat.ErrMalformed},
		{"array body", `[]`, chat.ErrShape},
		{"string body", `"hi"`, chat.ErrShape},
		{"no input", `{"model":"gpt-5"}`, chat.ErrShape},
		{"input an object", `{"input":{"role":"user","content":"hi"}}`, chat.ErrShape},
		{"input a number", `{"input":3}`, chat.ErrShape},
		{"input null", `{"input":null}`, chat.ErrShape},
		{"messages, not input", `{"messages":[{"role":"user","content":"hi"}]}`, chat.ErrShape},
		{"item an array", `{"input":[[]]}`, chat.ErrShape},
		{"item a string", `{"input":["hi"]}`, chat.ErrShape},
		{"message without role", `{"input":[{"type":"message","content":"hi"}]}`, chat.ErrShape},
		{"role a number", `{"input":[{"role":1,"content":"hi"}]}`, chat.ErrShape},
		{"content a number", `{"input":[{"role":"user","content":3}]}`, chat.ErrShape},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Decode([]byte(tt.body))
			if !errors.Is(err, tt.want) {
				t.Fatalf("Decode(%q) = %v, %v; want error %v", tt.body, c, err, tt.want)
			}
		})
	}
}

func TestStringInput(t *testing.T) {
	const body = `{"model":"gpt-5","input":"Tell me a \"joke\".","stream":true}`
	tests := []struct {
		name string
		edit func(c *chat.Conversation)
		want string
	}{
		{"unchanged", func(*chat.Conversation) {}, body},
		{"text changed", func(c *chat.Conversation) { c.Messages[0].Parts[0].Text = "Tell me two." },
			`{"model":"gpt-5","input":"Tell me two.","stream":true}`},
		{"field changed", func(c *chat.Conversation) { c.SetField("stream", json.RawMessage(`false`)) },
			`{"model":"gpt-5","input":"Tell me a \"joke\".","stream":false}`},
		{"message appended", func(c *chat.Conversation) {
			c.Messages = append(c.Messages, chat.Message{Role: chat.RoleAssistant, Parts: []chat.Part{chat.NewText("Knock knock.")}})
		}, `{"model":"gpt-5","input":[{"type":"message","role":"user","content":"Tell me a \"joke\"."},{"type":"message","role":"assistant","content":"Knock knock."}],"stream":true}`},
		{"part appended", func(c *chat.Conversation) {
			c.Messages[0].Parts = append(c.Messages[0].Parts, chat.NewText("Short."))
		}, `{"model":"gpt-5","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"Tell me a \"joke\"."},{"type":"input_text","text":"Short."}]}],"stream":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustDecode(t, body)
			if diff := cmp.Diff([]string{`0 user text "Tell me a \"joke\"."`}, summary(c)); diff != "" {
				t.Fatalf("decoded model (-want +got):\n%s", diff)
			}
			c = c.Clone()
			tt.edit(c)
			got, err := Encode(c)
			if err != nil || string(got) != tt.want {
				t.Fatalf("Encode = %s, %v\nwant %s", got, err, tt.want)
			}
			if back, err := Decode(got); err != nil || !cmp.Equal(summary(c), summary(back)) {
				t.Errorf("re-decode: %v\n%v\n%v", err, summary(c), summary(back))
			}
		})
	}
	// A string input has no items to extend.
	prev := mustDecode(t, body)
	if _, ok, err := DecodeExtending(prev, []byte(body)); ok || err != nil {
		t.Errorf("DecodeExtending of a string input = %v, %v; want false, nil", ok, err)
	}
	if n := FirstMessageEnd([]byte(body)); n != -1 {
		t.Errorf("FirstMessageEnd of a string input = %d, want -1", n)
	}
}

func TestEncodeEdits(t *testing.T) {
	const base = `{"model":"gpt-5","input":[` +
		`{"type":"message","id":"msg_1","role":"user","content":[{"type":"input_text","text":"Run the tests."}]},` +
		`{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Run both."}],"encrypted_content":"gAAA=="},` +
		`{"type":"function_call","id":"fc_1","call_id":"c1","name":"run","arguments":"{\"cmd\":\"pytest\"}","status":"completed"},` +
		`{"type":"function_call_output","id":"fco_1","call_id":"c1","output":"3 passed"},` +
		`{"type":"custom_tool_call","id":"ctc_1","call_id":"c2","name":"apply_patch","input":"*** Begin Patch\n*** End Patch\n"},` +
		`{"type":"custom_tool_call_output","call_id":"c2","output":[{"type":"input_text","text":"Done."},{"type":"input_image","file_id":"file-1"}],"status":"completed"},` +
		`{"type":"local_shell_call","id":"lsh_1","call_id":"c3","action":{"type":"exec","command":["ls"]},"status":"completed"},` +
		`{"type":"function_call_output","call_id":"c3","output":"a.py"},` +
		`{"type":"message","id":"msg_2","role":"assistant","status":"completed","content":[{"type":"output_text","text":"All good.","annotations":[]},{"type":"refusal","refusal":"No."}]},` +
		`{"role":"user","content":"Thanks"}` +
		`],"store":false}`
	tests := []struct {
		name string
		edit func(c *chat.Conversation)
		want string
	}{
		{
			name: "function_call_output replaced",
			edit: func(c *chat.Conversation) { mustReplace(t, &c.Messages[3].Parts[0], "[elided]") },
			want: strings.Replace(base, `"output":"3 passed"`, `"output":"[elided]"`, 1),
		},
		{
			name: "array output replaced becomes a string, other members kept",
			edit: func(c *chat.Conversation) { mustReplace(t, &c.Messages[5].Parts[0], "[elided]") },
			want: strings.Replace(base, `"output":[{"type":"input_text","text":"Done."},{"type":"input_image","file_id":"file-1"}]`, `"output":"[elided]"`, 1),
		},
		{
			name: "array output text edited in place",
			edit: func(c *chat.Conversation) { c.Messages[5].Parts[0].Content[0].Text = "Done!" },
			want: strings.Replace(base, `"text":"Done."`, `"text":"Done!"`, 1),
		},
		{
			name: "call and its output dropped",
			edit: func(c *chat.Conversation) { c.Messages = append(c.Messages[:6], c.Messages[8:]...) },
			want: strings.Replace(base, `{"type":"local_shell_call","id":"lsh_1","call_id":"c3","action":{"type":"exec","command":["ls"]},"status":"completed"},{"type":"function_call_output","call_id":"c3","output":"a.py"},`, ``, 1),
		},
		{
			name: "user text edited, id kept",
			edit: func(c *chat.Conversation) { c.Messages[0].Parts[0].Text = "Run all tests." },
			want: strings.Replace(base, `"text":"Run the tests."`, `"text":"Run all tests."`, 1),
		},
		{
			name: "output_text edited, annotations kept",
			edit: func(c *chat.Conversation) { c.Messages[8].Parts[0].Text = "Fine." },
			want: strings.Replace(base, `"text":"All good.","annotations":[]`, `"text":"Fine.","annotations":[]`, 1),
		},
		{
			name: "refusal keeps its key",
			edit: func(c *chat.Conversation) { c.Messages[8].Parts[1].Text = "Declined." },
			want: strings.Replace(base, `"refusal":"No."`, `"refusal":"Declined."`, 1),
		},
		{
			name: "refusal dropped",
			edit: func(c *chat.Conversation) { c.Messages[8].Parts = c.Messages[8].Parts[:1] },
			want: strings.Replace(base, `,{"type":"refusal","refusal":"No."}`, ``, 1),
		},
		{
			name: "easy message text edited",
			edit: func(c *chat.Conversation) { c.Messages[9].Parts[0].Text = "Thanks!" },
			want: strings.Replace(base, `"content":"Thanks"`, `"content":"Thanks!"`, 1),
		},
		{
			name: "arguments re-encoded as a JSON string, status kept",
			edit: func(c *chat.Conversation) { c.Messages[2].Parts[0].Input = json.RawMessage(`{"cmd":"pytest -x"}`) },
			want: strings.Replace(base, `"arguments":"{\"cmd\":\"pytest\"}"`, `"arguments":"{\"cmd\":\"pytest -x\"}"`, 1),
		},
		{
			name: "custom tool input edited as text",
			edit: func(c *chat.Conversation) { c.Messages[4].Parts[0].Input = json.RawMessage("*** Begin Patch\n") },
			want: strings.Replace(base, `"input":"*** Begin Patch\n*** End Patch\n"`, `"input":"*** Begin Patch\n"`, 1),
		},
		{
			name: "local shell action replaced",
			edit: func(c *chat.Conversation) {
				c.Messages[6].Parts[0].Input = json.RawMessage(`{"type":"exec","command":["ls","-a"]}`)
			},
			want: strings.Replace(base, `"command":["ls"]`, `"command":["ls","-a"]`, 1),
		},
		{
			name: "reasoning summary edited, encrypted content kept",
			edit: func(c *chat.Conversation) { c.Messages[1].Parts[0].Text = "Run." },
			want: strings.Replace(base, `"text":"Run both."`, `"text":"Run."`, 1),
		},
		{
			name: "reasoning made plain drops encrypted content",
			edit: func(c *chat.Conversation) {
				c.Messages[1].Parts[0] = chat.Part{Type: chat.Thinking, Text: c.Messages[1].Parts[0].Text}
			},
			want: strings.Replace(base, `,"encrypted_content":"gAAA=="`, ``, 1),
		},
		{
			name: "new items appended",
			edit: func(c *chat.Conversation) {
				c.Messages = append(c.Messages,
					chat.Message{Role: chat.RoleAssistant, Parts: []chat.Part{{Type: chat.ToolCall, ID: "c4", Name: "ls", Input: json.RawMessage(`{}`)}}},
					chat.Message{Role: chat.RoleTool, Parts: []chat.Part{{Type: chat.ToolResult, ID: "c4", Content: []chat.Part{chat.NewText("a.py")}}}},
				)
			},
			want: strings.Replace(base, `],"store":false}`,
				`,{"type":"function_call","call_id":"c4","name":"ls","arguments":"{}"},{"type":"function_call_output","call_id":"c4","output":"a.py"}],"store":false}`, 1),
		},
		{
			name: "field deleted",
			edit: func(c *chat.Conversation) { c.Fields = c.Fields[:1] },
			want: strings.Replace(base, `,"store":false`, ``, 1),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustDecode(t, base).Clone()
			tt.edit(c)
			got, err := Encode(c)
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("Encode:\n got %s\nwant %s", got, tt.want)
			}
			back, err := Decode(got)
			if err != nil {
				t.Fatalf("re-decode: %v", err)
			}
			if diff := cmp.Diff(summary(c), summary(back)); diff != "" {
				t.Errorf("re-decoded model differs from the edited one (-edited +decoded):\n%s", diff)
			}
		})
	}
}

// TestEncodeFixtureEdits edits the recorded Codex request the way a
// compaction pass would and checks that what was not edited survives.
func TestEncodeFixtureEdits(t *testing.T) {
	body := fixtures(t)["responses_codex_turn2.json"]
	c := mustDecode(t, string(body)).Clone()
	mustReplace(t, &c.Messages[6].Parts[0], "[output elided]")
	c.Messages = append(c.Messages[:11], c.Messages[12:]...) // drop "Now list them again."
	got, err := Encode(c)
	if err != nil {
		t.Fatal(err)
	}
	var before, after struct {
		Input []map[string]any `json:"input"`
	}
	if err := json.Unmarshal(body, &before); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &after); err != nil {
		t.Fatalf("edited body is not JSON: %v", err)
	}
	want := append(before.Input[:11:11], before.Input[12:]...)
	want[6] = map[string]any{"type": "function_call_output", "id": before.Input[6]["id"], "call_id": "call_004abcdef", "output": "[output elided]"}
	if diff := cmp.Diff(want, after.Input); diff != "" {
		t.Errorf("input (-want +got):\n%s", diff)
	}
	if !strings.HasSuffix(string(got), string(body[strings.LastIndex(string(body), `],"tools"`):])) {
		t.Error("the members after input changed")
	}
}

func mustReplace(t *testing.T, p *chat.Part, s string) {
	t.Helper()
	if err := p.ReplaceContent(s); err != nil {
		t.Fatal(err)
	}
}

func TestEncodeErrors(t *testing.T) {
	const base = `{"input":[{"role":"user","content":"hi"},{"type":"function_call_output","call_id":"a","output":"x"},{"type":"local_shell_call","call_id":"b","action":{}}]}`
	tests := []struct {
		name string
		edit func(c *chat.Conversation)
	}{
		{"new image", func(c *chat.Conversation) {
			c.Messages[0].Parts = append(c.Messages[0].Parts, chat.Part{Type: chat.Image})
		}},
		{"new image in an output", func(c *chat.Conversation) {
			p := &c.Messages[1].Parts[0]
			p.Content = append(p.Content, chat.Part{Type: chat.Image})
		}},
		{"tool message without a result", func(c *chat.Conversation) {
			c.Messages[1].Parts = []chat.Part{chat.NewText("x")}
		}},
		{"tool result beside text", func(c *chat.Conversation) {
			c.Messages[0].Parts = append(c.Messages[0].Parts, chat.Part{Type: chat.ToolResult, ID: "a"})
		}},
		{"two reasoning parts", func(c *chat.Conversation) {
			c.Messages[0].Parts = []chat.Part{{Type: chat.Thinking}, {Type: chat.Thinking}}
		}},
		{"action not JSON", func(c *chat.Conversation) { c.Messages[2].Parts[0].Input = json.RawMessage(`ls`) }},
		{"other dialect", func(c *chat.Conversation) { c.Dialect = chat.OpenAI }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustDecode(t, base)
			tt.edit(c)
			if got, err := Encode(c); err == nil {
				t.Errorf("Encode = %s, want an error", got)
			}
		})
	}
}

// TestEncodeNew checks a conversation built from scratch.
func TestEncodeNew(t *testing.T) {
	c := &chat.Conversation{
		Dialect: chat.Responses,
		Fields:  []chat.Field{{Name: "model", Value: json.RawMessage(`"gpt-5"`)}},
		Messages: []chat.Message{
			{Role: chat.RoleUser, Parts: []chat.Part{chat.NewText("Hi")}},
			{Role: chat.RoleAssistant, Parts: []chat.Part{{Type: chat.RedactedThinking, Text: "Greet.", Data: "gAAA"}}},
			{Role: chat.RoleAssistant, Parts: []chat.Part{chat.NewText("Hello."), chat.NewText("How can I help?")}},
		},
	}
	got, err := Encode(c)
	want := `{"model":"gpt-5","input":[{"type":"message","role":"user","content":"Hi"},` +
		`{"type":"reasoning","summary":[{"type":"summary_text","text":"Greet."}],"encrypted_content":"gAAA"},` +
		`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Hello."},{"type":"output_text","text":"How can I help?"}]}]}`
	if err != nil || string(got) != want {
		t.Errorf("Encode = %s, %v\nwant %s", got, err, want)
	}
}
