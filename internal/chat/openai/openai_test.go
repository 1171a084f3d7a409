package openai

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
var api = chattest.Codec{Decode: Decode, DecodeExtending: DecodeExtending, DecodeShared: DecodeShared, DecodeExtendingShared: DecodeExtendingShared, Encode: Encode, FirstMessageEnd: FirstMessageEnd}

// fixtures returns the OpenAI request bodies in ../testdata, hand-written
// ones and real agent trajectories.
func fixtures(t testing.TB) map[string][]byte {
	return chattest.Fixtures(t, "openai_*.json")
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
		return fmt.Sprintf("text %q", p.Text)
	case chat.Thinking:
		return fmt.Sprintf("thinking %q", p.Text)
	case chat.ToolCall:
		return fmt.Sprintf("call %q %s %s", p.ID, p.Name, p.Input)
	case chat.ToolResult:
		var inner []string
		for _, q := range p.Content {
			inner = append(inner, describe(&q))
		}
		return fmt.Sprintf("result %q name=%q [%s]", p.ID, p.Name, strings.Join(inner, "; "))
	}
	return fmt.Sprintf("%s wire=%s", p.Type, p.WireType())
}

func TestRoundTripFixtures(t *testing.T) {
	chattest.EncodeFixtures(t, api, fixtures(t))
}

func TestDecodeModel(t *testing.T) {
	c := mustDecode(t, string(fixtures(t)["openai_multimodal.json"]))
	want := []string{
		`0 developer text "Formatting re-enabled. Answer in Markdown."`,
		`1 user text "What is in this receipt, and does the audio note agree?"`,
		`1 user image wire=image_url`,
		`1 user unknown wire=input_audio`,
		`1 user document wire=file`,
		`3 user text "Fine, just the totals please."`,
		`4 assistant thinking "The receipt shows subtotal 38.70 and VAT 3.40, so 42.10."`,
		`4 assistant text "Total: 42.10 EUR."`,
		`4 assistant text "I won't guess the card number."`,
		`5 user text "And convert it to USD with the tool."`,
		`6 assistant call "" convert_currency {"amount":42.10,"from":"EUR","to":"USD"}`,
		`7 function result "" name="convert_currency" [text "{\"amount\": 45.37, \"rate\": 1.0777}"]`,
		`8 assistant thinking "Rate 1.0777 applied."`,
		`8 assistant text "That is 45.37 USD."`,
		`9 user text "Thanks! éè 😀 <b>&amp;</b>"`,
	}
	if diff := cmp.Diff(want, summary(c)); diff != "" {
		t.Errorf("decoded model (-want +got):\n%s", diff)
	}

	c = mustDecode(t, string(fixtures(t)["openai_tools.json"]))
	want = []string{
		`0 system text "You are a coding agent working in /workspace/shop. Use the tools to inspect and edit files."`,
		`1 user text "The checkout total ignores the discount code. Fix it and run the tests."`,
		`2 assistant call "call_qJ7bX2mN4pR8sT1vW3yZ5aC6" read_file {"path": "shop/checkout.py"}`,
		`2 assistant call "call_dE9fG1hI3jK5lM7nO9pQ1rS3" grep {"pattern":"discount","path":"shop"}`,
		`3 tool result "call_qJ7bX2mN4pR8sT1vW3yZ5aC6" name="" [text "def total(cart, code=None):\n    subtotal = sum(i.price * i.qty for i in cart.items)\n    return subtotal\n"]`,
		`4 tool result "call_dE9fG1hI3jK5lM7nO9pQ1rS3" name="" [text "shop/discounts.py:4:def discount_for(code):\nshop/checkout.py:1:def total(cart, code=None):"]`,
		"5 assistant text \"`total` never calls `discount_for`. I'll apply it.\"",
		`5 assistant call "call_tU5vW7xY9zA1bC3dE5fG7hI9" edit_file {"path":"shop/checkout.py","old":"    return subtotal\n","new":"    return subtotal - discount_for(code)(subtotal)\n"}`,
		`6 tool result "call_tU5vW7xY9zA1bC3dE5fG7hI9" name="" [text "Edited shop/checkout.py (1 line changed)."]`,
		`7 assistant text ""`,
		`7 assistant call "call_jK1lM3nO5pQ7rS9tU1vW3xY5" run {"cmd":"pytest -q tests/test_checkout.py"}`,
		`8 tool result "call_jK1lM3nO5pQ7rS9tU1vW3xY5" name="" [text "....                                                                     [100%]\n4 passed in 0.08s"]`,
	}
	if diff := cmp.Diff(want, summary(c)); diff != "" {
		t.Errorf("decoded model (-want +got):\n%s", diff)
	}
}

func TestDecodeMalformedCallsAreUnknown(t *testing.T) {
	const calls = `[{"type":"function","function":{"name":"a","arguments":"{}"}},{"id":"x","function":"f"},{"id":"y","function":{"arguments":"{}"}},7]`
	body := `{"messages":[{"role":"assistant","content":null,"tool_calls":` + calls + `,"function_call":{"arguments":"{}"}}]}`
	c := mustDecode(t, body)
	for i, p := range c.Messages[0].Parts {
		if p.Type != chat.Unknown {
			t.Errorf("part %d decoded as %s, want unknown", i, p.Type)
		}
	}
	// Editing the message keeps the calls it could not model where they were.
	c.Messages[0].Parts = append([]chat.Part{chat.NewText("hi")}, c.Messages[0].Parts...)
	got, err := Encode(c)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(body, `"content":null`, `"content":"hi"`, 1)
	if string(got) != want {
		t.Errorf("Encode:\n got %s\nwant %s", got, want)
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		body string
		want error
	}{
		{"empty", ``, chat.ErrMalformed},
		{"truncated", `{"messages":[{"role":"user",`, chat.ErrMalformed},
		{"invalid utf-8 outside strings", "{\"messages\":[]}\xff", chat.ErrMalformed},
		{"array body", `[]`, chat.ErrShape},
		{"number body", `42`, chat.ErrShape},
		{"no messages", `{"model":"gpt-4o"}`, chat.ErrShape},
		{"messages a string", `{"messages":"hi"}`, chat.ErrShape},
		{"message an array", `{"messages":[[]]}`, chat.ErrShape},
		{"no role", `{"messages":[{"content":"hi"}]}`, chat.ErrShape},
		{"role null", `{"messages":[{"role":null,"content":"hi"}]}`, chat.ErrShape},
		{"content a number", `{"messages":[{"role":"user","content":3}]}`, chat.ErrShape},
		{"tool_calls an object", `{"messages":[{"role":"assistant","tool_calls":{}}]}`, chat.ErrShape},
		{"tool_call_id a number", `{"messages":[{"role":"tool","tool_call_id":1,"content":"x"}]}`, chat.ErrShape},
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

func TestEncodeEdits(t *testing.T) {
	const base = `{"model":"gpt-4o","messages":[` +
		`{"role":"user","content":"Run the tests.","name":"ana"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"run","arguments":"{\"cmd\":\"pytest\"}"}},{"id":"c2","type":"function","function":{"name":"cat","arguments":"{\"path\":\"a.py\"}"}}],"reasoning_content":"Run both."},` +
		`{"role":"tool","tool_call_id":"c1","content":"3 passed"},` +
		`{"role":"tool","tool_call_id":"c2","content":[{"type":"text","text":"print(1)"}],"x-meta":{"ms":4}},` +
		`{"role":"assistant","content":[{"type":"text","text":"All good."},{"type":"refusal","refusal":"No."}]}` +
		`],"stream":true}`
	tests := []struct {
		name string
		edit func(c *chat.Conversation)
		want string
	}{
		{
			name: "tool result placeholder, string form",
			edit: func(c *chat.Conversation) { mustReplace(t, &c.Messages[2].Parts[0], "[elided]") },
			want: strings.Replace(base, `"content":"3 passed"`, `"content":"[elided]"`, 1),
		},
		{
			name: "tool result placeholder, array form keeps other members",
			edit: func(c *chat.Conversation) { mustReplace(t, &c.Messages[3].Parts[0], "[elided]") },
			want: strings.Replace(base, `"content":[{"type":"text","text":"print(1)"}]`, `"content":[{"type":"text","text":"[elided]"}]`, 1),
		},
		{
			name: "arguments re-encoded as a JSON string",
			edit: func(c *chat.Conversation) { c.Messages[1].Parts[1].Input = json.RawMessage(`{"cmd":"pytest -x"}`) },
			want: strings.Replace(base, `"arguments":"{\"cmd\":\"pytest\"}"`, `"arguments":"{\"cmd\":\"pytest -x\"}"`, 1),
		},
		{
			name: "one parallel call and its result dropped",
			edit: func(c *chat.Conversation) {
				c.Messages[1].Parts = c.Messages[1].Parts[:2]
				c.Messages = append(c.Messages[:3], c.Messages[4:]...)
			},
			want: strings.Replace(strings.Replace(base,
				`,{"id":"c2","type":"function","function":{"name":"cat","arguments":"{\"path\":\"a.py\"}"}}`, ``, 1),
				`,{"role":"tool","tool_call_id":"c2","content":[{"type":"text","text":"print(1)"}],"x-meta":{"ms":4}}`, ``, 1),
		},
		{
			name: "all calls dropped removes tool_calls",
			edit: func(c *chat.Conversation) {
				c.Messages[1].Parts = append(c.Messages[1].Parts[:0], chat.NewText("Skipped."))
			},
			want: strings.Replace(base,
				`"content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"run","arguments":"{\"cmd\":\"pytest\"}"}},{"id":"c2","type":"function","function":{"name":"cat","arguments":"{\"path\":\"a.py\"}"}}],"reasoning_content":"Run both."`,
				`"content":"Skipped."`, 1),
		},
		{
			name: "reasoning edited in place",
			edit: func(c *chat.Conversation) { c.Messages[1].Parts[0].Text = "Run." },
			want: strings.Replace(base, `"reasoning_content":"Run both."`, `"reasoning_content":"Run."`, 1),
		},
		{
			name: "refusal part keeps its key",
			edit: func(c *chat.Conversation) { c.Messages[4].Parts[1].Text = "Declined." },
			want: strings.Replace(base, `"refusal":"No."`, `"refusal":"Declined."`, 1),
		},
		{
			name: "user text keeps name",
			edit: func(c *chat.Conversation) { c.Messages[0].Parts[0].Text = "Run all tests." },
			want: strings.Replace(base, `"content":"Run the tests."`, `"content":"Run all tests."`, 1),
		},
		{
			name: "new messages appended",
			edit: func(c *chat.Conversation) {
				c.Messages = append(c.Messages,
					chat.Message{Role: chat.RoleAssistant, Parts: []chat.Part{{Type: chat.ToolCall, ID: "c3", Name: "ls", Input: json.RawMessage(`{}`)}}},
					chat.Message{Role: chat.RoleTool, Parts: []chat.Part{{Type: chat.ToolResult, ID: "c3", Content: []chat.Part{chat.NewText("a.py")}}}},
				)
			},
			want: strings.Replace(base, `]}],"stream":true}`,
				`]},{"role":"assistant","content":null,"tool_calls":[{"id":"c3","type":"function","function":{"name":"ls","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c3","content":"a.py"}],"stream":true}`, 1),
		},
		{
			name: "field deleted",
			edit: func(c *chat.Conversation) { c.Fields = c.Fields[:1] },
			want: strings.Replace(base, `,"stream":true`, ``, 1),
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
			if _, err := Decode(got); err != nil {
				t.Errorf("re-decode: %v", err)
			}
		})
	}
}

func mustReplace(t *testing.T, p *chat.Part, s string) {
	t.Helper()
	if err := p.ReplaceContent(s); err != nil {
		t.Fatal(err)
	}
}

func TestEncodeErrors(t *testing.T) {
	const base = `{"messages":[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"a","content":"x"}]}`
	tests := []struct {
		name string
		edit func(c *chat.Conversation)
	}{
		{"new image", func(c *chat.Conversation) {
			c.Messages[0].Parts = append(c.Messages[0].Parts, chat.Part{Type: chat.Image})
		}},
		{"tool message without a result", func(c *chat.Conversation) {
			c.Messages[1].Parts = []chat.Part{chat.NewText("x")}
		}},
		{"tool result in a user message", func(c *chat.Conversation) {
			c.Messages[0].Parts = append(c.Messages[0].Parts, chat.Part{Type: chat.ToolResult, ID: "a"})
		}},
		{"two reasoning parts", func(c *chat.Conversation) {
			c.Messages[0].Parts = append(c.Messages[0].Parts, chat.Part{Type: chat.Thinking}, chat.Part{Type: chat.Thinking})
		}},
		{"other dialect", func(c *chat.Conversation) { c.Dialect = chat.Anthropic }},
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
