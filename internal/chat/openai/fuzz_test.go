package openai

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winnowhq/winnow/internal/chat"
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
		c, err := Decode(body)
		if err != nil {
			return
		}
		out, err := Encode(c)
		if err != nil {
			t.Fatalf("Encode of an unchanged conversation: %v", err)
		}
		if !bytes.Equal(out, body) {
			t.Fatalf("decode → encode changed the body:\n got %q\nwant %q", out, body)
		}
		again, err := Decode(out)
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		if diff := cmp.Diff(summary(c), summary(again)); diff != "" {
			t.Fatalf("decode → encode → decode is not stable (-first +second):\n%s", diff)
		}

		edited := c.Clone()
		for i := range edited.Messages {
			mark(edited.Messages[i].Parts)
			if n := len(edited.Messages[i].Parts); n > 1 && i%2 == 0 {
				edited.Messages[i].Parts = edited.Messages[i].Parts[:n-1]
			}
		}
		if n := len(edited.Messages); n > 2 {
			edited.Messages = append(edited.Messages[:1], edited.Messages[2:]...)
		}
		out, err = Encode(edited)
		if err != nil {
			t.Fatalf("Encode after editing: %v", err)
		}
		if !json.Valid(out) {
			t.Fatalf("edited body is not valid JSON: %q", out)
		}
		back, err := Decode(out)
		if err != nil {
			t.Fatalf("decode edited body: %v\n%q", err, out)
		}
		if diff := cmp.Diff(summary(edited), summary(back)); diff != "" {
			t.Fatalf("edited model did not survive encoding (-edited +decoded):\n%s", diff)
		}
		if diff := cmp.Diff(c.Fields, back.Fields); diff != "" {
			t.Fatalf("editing changed the fields (-want +got):\n%s", diff)
		}
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
