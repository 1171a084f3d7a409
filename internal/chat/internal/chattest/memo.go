package chattest

import (
	"bytes"
	"testing"

	"github.com/winnowhq/winnow/internal/chat"
)

// Memo checks encodeMemo on body, whose first message's first part is a
// Text: with a memo it encodes as Encode does, a later request's memo
// finds the changed message it remembered, and a message changed again
// is encoded afresh, not taken from the memo.
func Memo(t *testing.T, codec Codec, encodeMemo func(*chat.Conversation, *chat.EncodeMemo) ([]byte, error), body string) {
	t.Helper()
	c, err := codec.Decode([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	c.Messages[0].Parts[0].Text = "edited"
	want, err := codec.Encode(c)
	if err != nil {
		t.Fatal(err)
	}
	memo := chat.NewEncodeMemo(nil)
	if got, err := encodeMemo(c, memo); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("EncodeMemo = %q, %v; want %q", got, err, want)
	}
	if memo.Size() == 0 {
		t.Error("the memo remembered nothing")
	}
	next := chat.NewEncodeMemo(memo)
	if got, err := encodeMemo(c.Clone(), next); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("EncodeMemo of the same change = %q, %v; want %q", got, err, want)
	}
	if next.Size() == 0 {
		t.Error("the next request's memo did not find the changed message")
	}
	again := c.Clone()
	again.Messages[0].Parts[0].Text = "edited again"
	want, err = codec.Encode(again)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := encodeMemo(again, chat.NewEncodeMemo(next)); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("EncodeMemo of another change = %q, %v; want %q", got, err, want)
	}
}
