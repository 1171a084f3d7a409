package responses_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/winnowhq/winnow/internal/chat/internal/chattest"
	"github.com/winnowhq/winnow/internal/chat/responses"
)

var api = chattest.Codec{
	Decode:                responses.Decode,
	DecodeExtending:       responses.DecodeExtending,
	DecodeShared:          responses.DecodeShared,
	DecodeExtendingShared: responses.DecodeExtendingShared,
	Encode:                responses.Encode,
	FirstMessageEnd:       responses.FirstMessageEnd,
	Array:                 "input",
}

// TestDecodeExtending checks that decoding only the appended items gives
// what a full decode gives, and that bodies that do not extend the first
// are refused.
func TestDecodeExtending(t *testing.T) {
	chattest.Extending(t, api,
		`{"model":"m","input":[{"role":"user","content":"Read a.go"},{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAA"},{"type":"function_call","call_id":"t1","name":"Read","arguments":"{\"p\":\"a.go\"}"}],"store":false}`,
		`{"model":"m","input":[{"role":"user","content":"Read a.go"},{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAA"},{"type":"function_call","call_id":"t1","name":"Read","arguments":"{\"p\":\"a.go\"}"},{"type":"function_call_output","call_id":"t1","output":"package a"}],"stream":true}`)
}

// TestDecodeExtendingCodex extends the first turn Codex CLI sent with the
// request of its next turn, as recorded: Codex resends its whole history
// (store: false), so every request extends the one before.
func TestDecodeExtendingCodex(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	first, second := read("responses_codex_turn1.json"), read("responses_codex_turn2.json")
	prev, err := responses.Decode(first)
	if err != nil {
		t.Fatal(err)
	}
	got, ok, err := responses.DecodeExtending(prev, second)
	if err != nil || !ok {
		t.Fatalf("DecodeExtending = %v, %v", ok, err)
	}
	if len(got.Messages) != 16 || !got.Messages[0].SameOrigin(&prev.Messages[0]) {
		t.Errorf("%d messages; first shared with prev: %v", len(got.Messages), got.Messages[0].SameOrigin(&prev.Messages[0]))
	}
	if enc, err := responses.Encode(got); err != nil || !bytes.Equal(enc, second) {
		t.Errorf("Encode of the extended decode: %v", err)
	}
	if n := responses.FirstMessageEnd(second); n < 0 || !bytes.Equal(second[:n], first[:n]) {
		t.Errorf("FirstMessageEnd = %d", n)
	}
}

// TestEncodeMemo checks that a memo never changes what Encode returns and
// carries a changed message's bytes to the next request.
func TestEncodeMemo(t *testing.T) {
	chattest.Memo(t, api, responses.EncodeMemo, `{"model":"m","input":[{"role":"user","content":"Read a.go"},{"type":"message","role":"user","content":[{"type":"input_text","text":"more"}]}]}`)
}
