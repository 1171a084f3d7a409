package anthropic

import (
	"bytes"
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

// fixtures returns the Anthropic request bodies in ../testdata.
func fixtures(t testing.TB) map[string][]byte {
	return chattest.Fixtures(t, "anthropic_*.json")
}

func mustDecode(t testing.TB, body string) *chat.Conversation {
	t.Helper()
	return chattest.MustDecode(t, Decode, body)
}

// summary renders the modelled content of c, one line per part, so tests
// can compare decoded structure with cmp.
func summary(c *chat.Conversation) []string {
	var out []string
	for _, p := range c.System {
		out = append(out, "system "+describe(&p))
	}
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
		return fmt.Sprintf("thinking %q sig=%d", p.Text, len(p.Signature))
	case chat.RedactedThinking:
		return fmt.Sprintf("redacted data=%d", len(p.Data))
	case chat.ToolCall:
		return fmt.Sprintf("call %s %s %s", p.ID, p.Name, p.Input)
	case chat.ToolResult:
		var inner []string
		for _, q := range p.Content {
			inner = append(inner, describe(&q))
		}
		return fmt.Sprintf("result %s err=%v [%s]", p.ID, p.IsError, strings.Join(inner, "; "))
	}
	return fmt.Sprintf("%s wire=%s", p.Type, p.WireType())
}

func TestRoundTripFixtures(t *testing.T) {
	chattest.EncodeFixtures(t, api, fixtures(t))
}

func TestDecodeModel(t *testing.T) {
	c := mustDecode(t, string(fixtures(t)["anthropic_thinking.json"]))
	want := []string{
		`system text "You are a careful data engineer. Think before you act."`,
		`0 user text "How many orders were refunded last week, by region?"`,
		`1 assistant thinking "The user wants refunded orders last week grouped by region. Orders live in ` + "`orders`" + `, refunds in ` + "`refunds`" + ` keyed by order_id. \"Last week\" means the previous ISO week. I should check the schema first rather than guess column names." sig=233`,
		`1 assistant call toolu_01Ps9wRiLtcF6XxS2G1kV4bq run_sql {"query":"SELECT column_name, table_name FROM information_schema.columns WHERE table_name IN ('orders','refunds')"}`,
		`2 user result toolu_01Ps9wRiLtcF6XxS2G1kV4bq err=false [text "table_name | column_name\norders | id\norders | region\norders | created_at\nrefunds | order_id\nrefunds | refunded_at\nrefunds | amount_cents"]`,
		`3 assistant redacted data=176`,
		`3 assistant thinking "Schema confirmed. Now the actual aggregate: join refunds to orders, filter refunded_at to last ISO week, group by region." sig=204`,
		`3 assistant text "The schema has what we need. Running the aggregate now."`,
		`3 assistant call toolu_01Ce4vX1nNqD3mYkSwRz8TfA run_sql {"query":"SELECT o.region, count(*) FROM refunds r JOIN orders o ON o.id = r.order_id WHERE r.refunded_at >= date_trunc('week', now()) - interval '1 week' AND r.refunded_at < date_trunc('week', now()) GROUP BY o.region ORDER BY 2 DESC"}`,
		`4 user result toolu_01Ce4vX1nNqD3mYkSwRz8TfA err=false [text "region | count\nEMEA | 412\nNA | 388\nAPAC | 97"]`,
	}
	if diff := cmp.Diff(want, summary(c)); diff != "" {
		t.Errorf("decoded model (-want +got):\n%s", diff)
	}
	wantFields := []string{"model", "max_tokens", "thinking", "tools"}
	var gotFields []string
	for _, f := range c.Fields {
		gotFields = append(gotFields, f.Name)
	}
	if diff := cmp.Diff(wantFields, gotFields); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
}

func TestDecodeUnknownBlocks(t *testing.T) {
	c := mustDecode(t, string(fixtures(t)["anthropic_media.json"]))
	want := []string{
		`system text "Answer from the attached documents and cite them."`,
		`0 user image wire=image`,
		`0 user document wire=document`,
		`0 user text "Does the screenshot's refund need a second approver? Also check whether the policy changed this year."`,
		`1 assistant text "According to the policy, "`,
		`1 assistant text "refunds above 500 EUR need a second approver"`,
		`1 assistant text ". Let me check for recent changes."`,
		`1 assistant unknown wire=server_tool_use`,
		`1 assistant unknown wire=web_search_tool_result`,
		`1 assistant text "The threshold is unchanged in 2025."`,
		`2 user text "Thanks. Summarise in one line, and keep the ünïcødé é escapes intact."`,
	}
	if diff := cmp.Diff(want, summary(c)); diff != "" {
		t.Errorf("decoded model (-want +got):\n%s", diff)
	}
}

func TestDecodeMalformedBlocksAreUnknown(t *testing.T) {
	c := mustDecode(t, `{"messages":[{"role":"user","content":[`+
		`{"type":"text"},{"type":"text","text":5},{"type":"tool_use","id":"a"},`+
		`{"type":"tool_result","tool_use_id":"b","is_error":"yes"},{"type":"tool_result","tool_use_id":"c","content":7},`+
		`{"type":"thinking","thinking":"x","signature":null},"bare",17,{"no":"type"}]}]}`)
	for i, p := range c.Messages[0].Parts {
		if p.Type != chat.Unknown {
			t.Errorf("part %d decoded as %s, want unknown", i, p.Type)
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
		{"truncated", `{"messages":[`, chat.ErrMalformed},
		{"not json", `messages=hi`, chat.ErrMalformed},
		{"array body", `[{"role":"user"}]`, chat.ErrShape},
		{"string body", `"hello"`, chat.ErrShape},
		{"null body", `null`, chat.ErrShape},
		{"no messages", `{"model":"m"}`, chat.ErrShape},
		{"messages not an array", `{"messages":{"role":"user"}}`, chat.ErrShape},
		{"messages null", `{"messages":null}`, chat.ErrShape},
		{"message not an object", `{"messages":["hi"]}`, chat.ErrShape},
		{"no role", `{"messages":[{"content":"hi"}]}`, chat.ErrShape},
		{"role not a string", `{"messages":[{"role":1,"content":"hi"}]}`, chat.ErrShape},
		{"content a number", `{"messages":[{"role":"user","content":1}]}`, chat.ErrShape},
		{"content an object", `{"messages":[{"role":"user","content":{"type":"text"}}]}`, chat.ErrShape},
		{"system a number", `{"system":1,"messages":[]}`, chat.ErrShape},
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

func TestDecodeDoesNotAliasInput(t *testing.T) {
	body := []byte(`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"n","input":{"a":1}}]}],"model":"m"}`)
	c := mustDecode(t, string(body))
	orig := bytes.Clone(body)
	c.Messages[0].Parts[0].Input[2] = 'b'
	c.Fields[0].Value[1] = 'X'
	if !bytes.Equal(body, orig) {
		t.Fatalf("writing into decoded slices changed the caller's body: %s", body)
	}
	c.Messages[0].Parts[0].Input[2] = 'a'
	c.Fields[0].Value[1] = 'm'
	if got, _ := Encode(c); !bytes.Equal(got, body) {
		t.Errorf("restored conversation encodes to %s, want %s", got, body)
	}
}

// An edit is one change a compaction pass might make, with the exact body
// it must produce.
func TestEncodeEdits(t *testing.T) {
	const base = `{"model":"m", "max_tokens":10,"messages":[` +
		`{"role":"user","content":"Fix the bug."},` +
		`{"role":"assistant","content":[{"type":"text","text":"Reading.","cache_control":{"type":"ephemeral"}},{"type":"tool_use","id":"t1","name":"Read","input":{"path":"a.go"},"x-custom":1}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"line1\nline2","is_error":false,"cache_control":{"type":"ephemeral"}},{"type":"image","source":{"type":"url","url":"https://x/y.png"}}]},` +
		`{"role":"assistant","content":[{"type":"server_tool_use","id":"s1","name":"web_search","input":{}},{"type":"text","text":"Done."}]}` +
		`],"system":"Be brief.","stream":true}`
	tests := []struct {
		name string
		edit func(c *chat.Conversation)
		want string
	}{
		{
			name: "text keeps cache_control",
			edit: func(c *chat.Conversation) { c.Messages[1].Parts[0].Text = "Let me read." },
			want: strings.Replace(base, `"text":"Reading."`, `"text":"Let me read."`, 1),
		},
		{
			name: "string content stays a string",
			edit: func(c *chat.Conversation) { c.Messages[0].Parts[0].Text = "Fix it." },
			want: strings.Replace(base, `"content":"Fix the bug."`, `"content":"Fix it."`, 1),
		},
		{
			name: "string content grows into blocks",
			edit: func(c *chat.Conversation) {
				c.Messages[0].Parts = append(c.Messages[0].Parts, chat.NewText("Quickly."))
			},
			want: strings.Replace(base, `"content":"Fix the bug."`,
				`"content":[{"type":"text","text":"Fix the bug."},{"type":"text","text":"Quickly."}]`, 1),
		},
		{
			name: "tool result placeholder keeps its members",
			edit: func(c *chat.Conversation) {
				if err := c.Messages[2].Parts[0].ReplaceContent("[2 lines elided]"); err != nil {
					t.Fatal(err)
				}
			},
			want: strings.Replace(base, `"content":"line1\nline2"`, `"content":"[2 lines elided]"`, 1),
		},
		{
			name: "tool result error flag",
			edit: func(c *chat.Conversation) { c.Messages[2].Parts[0].IsError = true },
			want: strings.Replace(base, `"is_error":false`, `"is_error":true`, 1),
		},
		{
			name: "tool input replaced, custom member kept",
			edit: func(c *chat.Conversation) { c.Messages[1].Parts[1].Input = []byte(`{"path":"b.go"}`) },
			want: strings.Replace(base, `{"path":"a.go"}`, `{"path":"b.go"}`, 1),
		},
		{
			name: "image replaced by text, unknown neighbours kept",
			edit: func(c *chat.Conversation) { c.Messages[2].Parts[1] = chat.NewText("[image removed]") },
			want: strings.Replace(base, `{"type":"image","source":{"type":"url","url":"https://x/y.png"}}`,
				`{"type":"text","text":"[image removed]"}`, 1),
		},
		{
			name: "type change encodes afresh",
			edit: func(c *chat.Conversation) {
				p := &c.Messages[3].Parts[1]
				p.Type, p.Text = chat.Thinking, "hmm"
			},
			want: strings.Replace(base, `{"type":"text","text":"Done."}`, `{"type":"thinking","thinking":"hmm","signature":""}`, 1),
		},
		{
			name: "message dropped",
			edit: func(c *chat.Conversation) { c.Messages = c.Messages[:3] },
			want: strings.Replace(base, `,{"role":"assistant","content":[{"type":"server_tool_use","id":"s1","name":"web_search","input":{}},{"type":"text","text":"Done."}]}`, ``, 1),
		},
		{
			name: "role changed",
			edit: func(c *chat.Conversation) { c.Messages[0].Role = "assistant" },
			want: strings.Replace(base, `{"role":"user","content":"Fix the bug."}`, `{"role":"assistant","content":"Fix the bug."}`, 1),
		},
		{
			name: "field changed in place",
			edit: func(c *chat.Conversation) { c.SetField("max_tokens", json.RawMessage(`2048`)) },
			want: strings.Replace(base, `"max_tokens":10`, `"max_tokens":2048`, 1),
		},
		{
			name: "field removed and added",
			edit: func(c *chat.Conversation) {
				c.Fields = c.Fields[1:] // drop model
				c.SetField("temperature", json.RawMessage(`0`))
			},
			want: strings.Replace(strings.Replace(base, `"model":"m", `, ``, 1), `"stream":true}`, `"stream":true,"temperature":0}`, 1),
		},
		{
			name: "system edited",
			edit: func(c *chat.Conversation) { c.System[0].Text = "Be very brief." },
			want: strings.Replace(base, `"system":"Be brief."`, `"system":"Be very brief."`, 1),
		},
		{
			name: "change undone is no change",
			edit: func(c *chat.Conversation) {
				c.Messages[2].Parts[0].Content[0].Text = "x"
				c.Messages[2].Parts[0].Content[0].Text = "line1\nline2"
				c.SetField("max_tokens", json.RawMessage(`10`))
			},
			want: base,
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

func TestEncodeErrors(t *testing.T) {
	const base = `{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}]}]}`
	tests := []struct {
		name string
		edit func(c *chat.Conversation)
	}{
		{"new image", func(c *chat.Conversation) {
			c.Messages[0].Parts = append(c.Messages[0].Parts, chat.Part{Type: chat.Image})
		}},
		{"new unknown", func(c *chat.Conversation) {
			c.Messages = append(c.Messages, chat.Message{Role: chat.RoleUser, Parts: []chat.Part{{Type: chat.Unknown}}})
		}},
		{"invalid input", func(c *chat.Conversation) { c.Messages[0].Parts[0].Input = []byte(`{"a":`) }},
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

func TestEncodePrettyBodyKeepsFormatting(t *testing.T) {
	body := fixtures(t)["anthropic_pretty.json"]
	c, err := Decode(body)
	if err != nil {
		t.Fatal(err)
	}
	c.SetField("max_tokens", json.RawMessage(`1024`))
	got, err := Encode(c)
	if err != nil {
		t.Fatal(err)
	}
	want := bytes.Replace(body, []byte(`"max_tokens": 32000`), []byte(`"max_tokens": 1024`), 1)
	if !bytes.Equal(got, want) {
		t.Errorf("changing one field rewrote more than its value:\n%s", cmp.Diff(string(want), string(got)))
	}

	// A change inside one message keeps every other message's bytes,
	// indentation and \u escapes included.
	c = mustDecode(t, string(body))
	last := len(c.Messages) - 1
	if err := c.Messages[last].Parts[0].ReplaceContent("[elided]"); err != nil {
		t.Fatal(err)
	}
	got, err = Encode(c)
	if err != nil {
		t.Fatal(err)
	}
	orig := mustDecode(t, string(body))
	for i := range last {
		raw := orig.Messages[i].Original()
		if !bytes.Contains(got, raw) {
			t.Errorf("message %d's original bytes are missing from the output", i)
		}
	}
	d := mustDecode(t, string(got))
	if txt := d.Messages[last].Parts[0].PlainText(); txt != "[elided]" {
		t.Errorf("edited tool result reads %q", txt)
	}
	if !bytes.Contains(got, []byte(`"cache_control": {`)) || !bytes.Contains(got, []byte(`"is_error": true`)) {
		t.Errorf("edited tool result lost its other members:\n%s", got)
	}
}

func TestCheckVersion(t *testing.T) {
	for _, v := range []string{"2026-10-21", "2023-06-01", "2023-01-01"} {
		if err := CheckVersion(v); err != nil {
			t.Errorf("CheckVersion(%q) = %v", v, err)
		}
	}
	for _, v := range []string{"", "2024-01-01", "2023-06-01 "} {
		if err := CheckVersion(v); !errors.Is(err, ErrVersion) {
			t.Errorf("CheckVersion(%q) = %v, want ErrVersion", v, err)
		}
	}
}

func TestEncodeKeepsOddShapesOfChangedMessages(t *testing.T) {
	// A bare string among blocks and a message without content stay as
	// they were when a neighbouring part or the role changes.
	const body = `{"messages":[{"role":"user","content":["bare",{"type":"text","text":"a"}]},{"role":"assistant"}]}`
	c := mustDecode(t, body)
	c.Messages[0].Parts[1].Text = "b"
	c.Messages[1].Role = "user"
	got, err := Encode(c)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"messages":[{"role":"user","content":["bare",{"type":"text","text":"b"}]},{"role":"user"}]}`
	if string(got) != want {
		t.Errorf("Encode:\n got %s\nwant %s", got, want)
	}
}
