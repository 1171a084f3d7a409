package chattest

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winnowhq/winnow/internal/chat"
)

// RoundTrip checks the codec's properties on body, if it decodes:
//   - decode → encode returns the input bytes exactly;
//   - decode → encode → decode gives the same model, as summary renders it;
//   - mark's edits, dropping a part from every other message and dropping
//     the second message (the splice paths) encode to valid JSON that
//     decodes to exactly the edited model, with the request's other fields
//     unchanged.
func RoundTrip(t *testing.T, codec Codec, body []byte, summary func(*chat.Conversation) []string, mark func(*chat.Conversation)) {
	t.Helper()
	c, err := codec.Decode(body)
	if err != nil {
		return
	}
	out, err := codec.Encode(c)
	if err != nil {
		t.Fatalf("Encode of an unchanged conversation: %v", err)
	}
	if !bytes.Equal(out, body) {
		t.Fatalf("decode → encode changed the body:\n got %q\nwant %q", out, body)
	}
	again, err := codec.Decode(out)
	if err != nil {
		t.Fatalf("re-decode: %v", err)
	}
	if diff := cmp.Diff(summary(c), summary(again)); diff != "" {
		t.Fatalf("decode → encode → decode is not stable (-first +second):\n%s", diff)
	}

	edited := c.Clone()
	mark(edited)
	for i := range edited.Messages {
		if n := len(edited.Messages[i].Parts); n > 1 && i%2 == 0 {
			edited.Messages[i].Parts = edited.Messages[i].Parts[:n-1]
		}
	}
	if n := len(edited.Messages); n > 2 {
		edited.Messages = append(edited.Messages[:1], edited.Messages[2:]...)
	}
	out, err = codec.Encode(edited)
	if err != nil {
		t.Fatalf("Encode after editing: %v", err)
	}
	if !json.Valid(out) {
		t.Fatalf("edited body is not valid JSON: %q", out)
	}
	back, err := codec.Decode(out)
	if err != nil {
		t.Fatalf("decode edited body: %v\n%q", err, out)
	}
	if diff := cmp.Diff(summary(edited), summary(back)); diff != "" {
		t.Fatalf("edited model did not survive encoding (-edited +decoded):\n%s", diff)
	}
	if diff := cmp.Diff(c.Fields, back.Fields); diff != "" {
		t.Fatalf("editing changed the fields (-want +got):\n%s", diff)
	}
}
