package responses

import (
	"encoding/json"
	"testing"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/internal/chattest"
)

// FuzzResponsesRoundTrip checks the codec's properties on any body that
// decodes:
//   - decode → encode returns the input bytes exactly;
//   - decode → encode → decode gives the same model;
//   - editing every text, summary and tool call input, dropping a part
//     from every other message and dropping the second item (the splice
//     paths) encodes to valid JSON that decodes to exactly the edited
//     model, with the request's other fields unchanged.
func FuzzResponsesRoundTrip(f *testing.F) {
	for _, body := range fixtures(f) {
		f.Add(body)
	}
	for _, s := range []string{
		`{"input":[]}`,
		`{"input":"hi"}`,
		`{"input":[{"role":"user","content":"hi"}]}`,
		`{"input":[{"type":"function_call","call_id":"a","name":"f","arguments":"{\"x\":1}"},{"type":"function_call_output","call_id":"a","output":"ok"}]}`,
		`{"input":[{"type":"custom_tool_call","call_id":"a","name":"p","input":"x\ny"},{"type":"custom_tool_call_output","call_id":"a","output":[{"type":"input_text","text":"ok"}]}]}`,
		`{"input":[{"type":"reasoning","id":"rs","summary":[{"type":"summary_text","text":"a"},{"type":"summary_text","text":"b"}],"encrypted_content":null}]}`,
		`{"input":[{"type":"local_shell_call","call_id":"a","action":{"command":["ls"]}},{"type":"item_reference","id":"x"}]}`,
		`{"input":[{"type":"local_shell_call","call_id":"a","action":{}},{"type":"local_shell_call_output","call_id":"a","output":"{\"stdout\":\"x\"}"}]}`,
		`{"input":[{"type":"message","role":"assistant","content":[{"type":"refusal","refusal":"no"},{"type":"output_text","text":""}]}]}`,
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

// mark changes every text and summary, every function call's arguments
// and every custom tool call's input to a value with a marker. A local
// shell call's action is left alone: it must stay JSON.
func mark(parts []chat.Part) {
	for i := range parts {
		switch p := &parts[i]; p.Type {
		case chat.Text, chat.Thinking, chat.RedactedThinking:
			p.Text += "·"
		case chat.ToolCall:
			switch p.WireType() {
			case typeFunctionCall:
				p.Input = json.RawMessage(`{"marked":true}`)
			case typeCustomCall:
				p.Input = append(p.Input[:len(p.Input):len(p.Input)], "·"...)
			}
		case chat.ToolResult:
			mark(p.Content)
		}
	}
}
