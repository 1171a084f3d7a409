package openai

import (
	"encoding/json"
	"testing"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/internal/chattest"
)

// FuzzOpenAIRoundTrip checks the codec's properties on any body that
// decodes:
//   - decode → encode returns the input bytes exactly;
//   - decode → encode → decode gives the same model;
//   - editing every text and every tool call's arguments, dropping a part
//     from every other message and dropping the second message (the splice
//     paths) encodes to valid JSON that decodes to exactly the edited
//     model, with the request's other fields unchanged.
func FuzzOpenAIRoundTrip(f *testing.F) {
	for _, body := range fixtures(f) {
		f.Add(body)
	}
	for _, s := range []string{
		`{"messages":[]}`,
		`{"messages":[{"role":"user","content":"hi"}]}`,
		`{"messages":[{"role":"assistant","content":"","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}}]},{"role":"tool","tool_call_id":"a","content":"ok"}]}`,
		`{"messages":[{"role":"assistant","content":null,"function_call":{"name":"f","arguments":{"x":1}}},{"role":"function","name":"f","content":null}]}`,
		`{"messages":[{"role":"assistant","reasoning":"r","content":[{"type":"refusal","refusal":"no"}],"tool_calls":null}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		chattest.RoundTrip(t, api, body, summary, func(c *chat.Conversation) {
			for i := range c.Messages {
				mark(c.Messages[i].Parts)
			}
		})
	})
}

// mark changes every text and reasoning, and every tool call's arguments
// to an equivalent JSON value with a marker.
func mark(parts []chat.Part) {
	for i := range parts {
		switch p := &parts[i]; p.Type {
		case chat.Text, chat.Thinking:
			p.Text += "·"
		case chat.ToolCall:
			p.Input = json.RawMessage(`{"marked":true}`)
		case chat.ToolResult:
			mark(p.Content)
		}
	}
}
