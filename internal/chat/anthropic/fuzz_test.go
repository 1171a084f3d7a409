package anthropic

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winnowhq/winnow/internal/chat"
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
		markTexts(edited.System)
		for i := range edited.Messages {
			markTexts(edited.Messages[i].Parts)
			if n := len(edited.Messages[i].Parts); n > 1 && i%2 == 0 {
				edited.Messages[i].Parts = edited.Messages[i].Parts[:n-1]
			}
		}
		if n := len(edited.Messages); n > 2 {
			edited.Messages = append(edited.Messages[:1], edited.Messages[2:]...)
		}
		out, err = Encode(edited)
		if err != nil {
			t.Fatalf("Encode after editing texts: %v", err)
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
			t.Fatalf("editing texts changed the fields (-want +got):\n%s", diff)
		}
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
