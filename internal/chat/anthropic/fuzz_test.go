package anthropic

import (
	"testing"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/internal/chattest"
)

// FuzzAnthropicRoundTrip checks the codec's properties on any body that
// decodes:
//   - decode → encode returns the input bytes exactly;
//   - decode → encode → decode gives the same model;
//   - editing every text, dropping a part from every other message and
//     dropping the second message (the splice paths) encodes to valid JSON
//     that decodes to exactly the edited model, with the request's other
//     fields unchanged.
func FuzzAnthropicRoundTrip(f *testing.F) {
	for _, body := range fixtures(f) {
		f.Add(body)
	}
	for _, s := range []string{
		`{"messages":[]}`,
		`{"messages":[{"role":"user","content":"hi"}],"system":"s"}`,
		`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":[{"type":"text","text":"x"},{"type":"image"}]}]}]}`,
		`{"messages":[{"role":"user","content":[{"type":"text","text":"a","text":"b"}],"content":"c"}]}`,
		` {"messages" : [ {"role":"user","content":null} ] , "x":[1,{"y":"\u00e9"}]}` + "\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		chattest.RoundTrip(t, api, body, summary, func(c *chat.Conversation) {
			markTexts(c.System)
			for i := range c.Messages {
				markTexts(c.Messages[i].Parts)
			}
		})
	})
}

// markTexts appends a marker to every Text part, tool results included.
func markTexts(parts []chat.Part) {
	for i := range parts {
		switch p := &parts[i]; p.Type {
		case chat.Text:
			p.Text += "·"
		case chat.ToolResult:
			markTexts(p.Content)
		}
	}
}
