package anthropic_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/anthropic"
)

const (
	extendFirst  = `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"Read a.go"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"p":"a.go"}}]}],"system":"s"}`
	extendSecond = `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"Read a.go"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"p":"a.go"}}]} , {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"package a"}]}],"system":"s2","stream":true}`
)

// TestDecodeExtending checks that decoding a body that extends an earlier
// one gives what a full decode gives: the same messages, fields and
// system prompt, the same bytes when encoded unchanged and when edited,
// and that bodies that do not extend it, or are malformed past it, are
// refused.
func TestDecodeExtending(t *testing.T) {
	prev, err := anthropic.Decode([]byte(extendFirst))
	if err != nil {
		t.Fatal(err)
	}
	full, err := anthropic.Decode([]byte(extendSecond))
	if err != nil {
		t.Fatal(err)
	}
	got, ok, err := anthropic.DecodeExtending(prev, []byte(extendSecond))
	if err != nil || !ok {
		t.Fatalf("DecodeExtending = %v, %v", ok, err)
	}
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
	enc, err := anthropic.Encode(got)
	if err != nil || !bytes.Equal(enc, []byte(extendSecond)) {
		t.Errorf("Encode of the unchanged result: %v\n%s", err, enc)
	}
	// An edit encodes as it does on the full decode.
	edit := func(c *chat.Conversation) []byte {
		c = c.Clone()
		c.Messages[0].Parts[0].Text = "Read b.go"
		c.Messages = c.Messages[1:]
		b, err := anthropic.Encode(c)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if a, b := edit(got), edit(full); !bytes.Equal(a, b) {
		t.Errorf("an edit encodes differently:\n%s\n%s", a, b)
	}
	if prev2, _ := anthropic.Decode([]byte(extendFirst)); !prev2.Messages[0].Identical(&prev.Messages[0]) {
		t.Error("prev changed")
	}

	for name, body := range map[string]string{
		"another history": string(bytes.Replace([]byte(extendSecond), []byte("a.go"), []byte("b.go"), 1)),
		"shorter":         extendFirst[:len(extendFirst)/2],
	} {
		if _, ok, err := anthropic.DecodeExtending(prev, []byte(body)); ok || err != nil {
			t.Errorf("%s: DecodeExtending = %v, %v; want false, nil", name, ok, err)
		}
	}
	end := bytes.LastIndex([]byte(extendSecond), []byte("]"))
	for name, body := range map[string]string{
		"bad tail":            extendSecond[:end] + ",{\"role\":tru}" + extendSecond[end:],
		"control char in key": extendSecond[:len(extendSecond)-1] + ",\"a\x01\":1}",
		"second messages":     extendSecond[:len(extendSecond)-1] + ",\"messages\":[]}",
		"trailing garbage":    extendSecond + "x",
	} {
		_, ok, err := anthropic.DecodeExtending(prev, []byte(body))
		if !ok || !errors.Is(err, chat.ErrMalformed) {
			t.Errorf("%s: DecodeExtending = %v, %v; want true, ErrMalformed", name, ok, err)
		}
	}
	changed := prev.Clone()
	changed.Messages[0].Parts[0].Text = "x"
	if _, ok, _ := anthropic.DecodeExtending(changed, []byte(extendSecond)); ok {
		t.Error("a changed prev was extended")
	}
	if n := anthropic.FirstMessageEnd([]byte(extendSecond)); n < 0 || extendSecond[n-1] != '}' || !bytes.Equal([]byte(extendSecond[:n]), []byte(extendFirst[:n])) {
		t.Errorf("FirstMessageEnd = %d", n)
	}
}
