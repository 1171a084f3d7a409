package openai_test

import (
	"testing"

	"github.com/winnowhq/winnow/internal/chat/internal/chattest"
	"github.com/winnowhq/winnow/internal/chat/openai"
)

var api = chattest.Codec{
	Decode:                openai.Decode,
	DecodeExtending:       openai.DecodeExtending,
	DecodeShared:          openai.DecodeShared,
	DecodeExtendingShared: openai.DecodeExtendingShared,
	Encode:                openai.Encode,
	FirstMessageEnd:       openai.FirstMessageEnd,
}

// TestDecodeExtending checks that decoding a body that extends an earlier
// one gives what a full decode gives, and that bodies that do not extend
// it, or are malformed past it, are refused.
func TestDecodeExtending(t *testing.T) {
	chattest.Extending(t, api,
		`{"model":"m","messages":[{"role":"user","content":"Read a.go"},{"role":"assistant","content":null,"tool_calls":[{"id":"t1","type":"function","function":{"name":"Read","arguments":"{\"p\":\"a.go\"}"}}]}],"temperature":0}`,
		`{"model":"m","messages":[{"role":"user","content":"Read a.go"},{"role":"assistant","content":null,"tool_calls":[{"id":"t1","type":"function","function":{"name":"Read","arguments":"{\"p\":\"a.go\"}"}}]},{"role":"tool","tool_call_id":"t1","content":"package a"}],"stream":true}`)
}

// TestEncodeMemo checks that a memo never changes what Encode returns and
// carries a changed message's bytes to the next request.
func TestEncodeMemo(t *testing.T) {
	chattest.Memo(t, api, openai.EncodeMemo, `{"model":"m","messages":[{"role":"user","content":"Read a.go"},{"role":"user","content":"more"}]}`)
}
