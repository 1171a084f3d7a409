package chattest

import (
	"bytes"
	"encoding/json"
	"fmt"
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
	Shared(t, codec, body, c, err, summary)
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

// Shared checks codec.DecodeShared, if set, on body against c and err,
// what codec.Decode returned: the same error or none, the same model as
// summary renders it, the same bytes when encoded, and body itself kept
// as the conversation's source.
func Shared(t *testing.T, codec Codec, body []byte, c *chat.Conversation, err error, summary func(*chat.Conversation) []string) {
	t.Helper()
	if codec.DecodeShared == nil {
		return
	}
	shared, serr := codec.DecodeShared(body)
	if fmt.Sprint(serr) != fmt.Sprint(err) {
		t.Fatalf("DecodeShared error %v, Decode %v", serr, err)
	}
	if err != nil {
		return
	}
	if diff := cmp.Diff(summary(c), summary(shared)); diff != "" {
		t.Fatalf("DecodeShared differs from Decode (-Decode +DecodeShared):\n%s", diff)
	}
	if out, err := codec.Encode(shared); err != nil || !bytes.Equal(out, body) {
		t.Fatalf("DecodeShared → Encode = %q, %v; want the body", out, err)
	}
	if src, ok := shared.Source(); !ok || len(body) > 0 && &src[0] != &body[0] {
		t.Fatal("DecodeShared kept a copy of the body")
	}
}
