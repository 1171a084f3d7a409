package chattest

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/winnowhq/winnow/internal/chat"
)

// Extending checks codec's DecodeExtending on second, a request that
// extends first and whose first message's first part is a Text: decoding
// it gives what a full decode gives (the same messages, fields and system
// prompt, the same bytes when encoded unchanged and when edited), and
// bodies that do not extend first, or are malformed past it, are refused.
func Extending(t *testing.T, codec Codec, first, second string) {
	t.Helper()
	prev, err := codec.Decode([]byte(first))
	if err != nil {
		t.Fatal(err)
	}
	full, err := codec.Decode([]byte(second))
	if err != nil {
		t.Fatal(err)
	}
	got, ok, err := codec.DecodeExtending(prev, []byte(second))
	if err != nil || !ok {
		t.Fatalf("DecodeExtending = %v, %v", ok, err)
	}
	extendShared(t, codec, prev, []byte(second), ok, err)
	if len(got.Messages) != len(full.Messages) || len(got.Fields) != len(full.Fields) || len(got.System) != len(full.System) {
		t.Fatalf("shape: %d messages, %d fields, %d system; full decode %d, %d, %d",
			len(got.Messages), len(got.Fields), len(got.System), len(full.Messages), len(full.Fields), len(full.System))
	}
	for i := range full.Messages {
		if !got.Messages[i].Identical(&full.Messages[i]) {
			t.Errorf("message %d differs from the full decode", i)
		}
	}
	if !got.Messages[0].SameOrigin(&prev.Messages[0]) {
		t.Error("the leading messages are not shared with prev")
	}
	for i, f := range full.Fields {
		if got.Fields[i].Name != f.Name || !bytes.Equal(got.Fields[i].Value, f.Value) {
			t.Errorf("field %d: %s=%s, full decode %s=%s", i, got.Fields[i].Name, got.Fields[i].Value, f.Name, f.Value)
		}
	}
	enc, err := codec.Encode(got)
	if err != nil || !bytes.Equal(enc, []byte(second)) {
		t.Errorf("Encode of the unchanged result: %v\n%s", err, enc)
	}
	// An edit encodes as it does on the full decode.
	edit := func(c *chat.Conversation) []byte {
		c = c.Clone()
		c.Messages[0].Parts[0].Text = "Read b.go"
		c.Messages = c.Messages[1:]
		b, err := codec.Encode(c)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if a, b := edit(got), edit(full); !bytes.Equal(a, b) {
		t.Errorf("an edit encodes differently:\n%s\n%s", a, b)
	}
	if prev2, _ := codec.Decode([]byte(first)); !prev2.Messages[0].Identical(&prev.Messages[0]) {
		t.Error("prev changed")
	}

	for name, body := range map[string]string{
		"another history": string(bytes.Replace([]byte(second), []byte("a.go"), []byte("b.go"), 1)),
		"shorter":         first[:len(first)/2],
	} {
		_, ok, err := codec.DecodeExtending(prev, []byte(body))
		if ok || err != nil {
			t.Errorf("%s: DecodeExtending = %v, %v; want false, nil", name, ok, err)
		}
		extendShared(t, codec, prev, []byte(body), ok, err)
	}
	end := bytes.LastIndex([]byte(second), []byte("]"))
	for name, body := range map[string]string{
		"bad tail":            second[:end] + ",{\"role\":tru}" + second[end:],
		"control char in key": second[:len(second)-1] + ",\"a\x01\":1}",
		"second messages":     second[:len(second)-1] + ",\"" + codec.array() + "\":[]}",
		"trailing garbage":    second + "x",
	} {
		_, ok, err := codec.DecodeExtending(prev, []byte(body))
		if !ok || !errors.Is(err, chat.ErrMalformed) {
			t.Errorf("%s: DecodeExtending = %v, %v; want true, ErrMalformed", name, ok, err)
		}
		extendShared(t, codec, prev, []byte(body), ok, err)
	}
	changed := prev.Clone()
	changed.Messages[0].Parts[0].Text = "x"
	if _, ok, _ := codec.DecodeExtending(changed, []byte(second)); ok {
		t.Error("a changed prev was extended")
	}
	if n := codec.FirstMessageEnd([]byte(second)); n < 0 || second[n-1] != '}' || !bytes.Equal([]byte(second[:n]), []byte(first[:n])) {
		t.Errorf("FirstMessageEnd = %d", n)
	}
}

// extendShared checks codec.DecodeExtendingShared, if set, on body
// against ok and err, what codec.DecodeExtending returned: the same
// answer and, when it extends prev, the body encoded back as it came,
// kept itself as the source.
func extendShared(t *testing.T, codec Codec, prev *chat.Conversation, body []byte, ok bool, err error) {
	t.Helper()
	if codec.DecodeExtendingShared == nil {
		return
	}
	got, sok, serr := codec.DecodeExtendingShared(prev, body)
	if sok != ok || fmt.Sprint(serr) != fmt.Sprint(err) {
		t.Errorf("DecodeExtendingShared = %v, %v; DecodeExtending %v, %v", sok, serr, ok, err)
		return
	}
	if !ok || err != nil {
		return
	}
	if enc, err := codec.Encode(got); err != nil || !bytes.Equal(enc, body) {
		t.Errorf("DecodeExtendingShared → Encode = %q, %v; want the body", enc, err)
	}
	if src, _ := got.Source(); &src[0] != &body[0] {
		t.Error("DecodeExtendingShared kept a copy of the body")
	}
}
