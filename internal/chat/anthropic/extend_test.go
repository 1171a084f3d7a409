package anthropic_test

import (
	"testing"

	"github.com/winnowhq/winnow/internal/chat/anthropic"
	"github.com/winnowhq/winnow/internal/chat/internal/chattest"
)

var api = chattest.Codec{
	Decode:                anthropic.Decode,
	DecodeExtending:       anthropic.DecodeExtending,
	DecodeShared:          anthropic.DecodeShared,
	DecodeExtendingShared: anthropic.DecodeExtendingShared,
	Encode:                anthropic.Encode,
	FirstMessageEnd:       anthropic.FirstMessageEnd,
}

// TestDecodeExtending checks that decoding a body that extends an earlier
// one gives what a full decode gives, and that bodies that do not extend
// it, or are malformed past it, are refused.
func TestDecodeExtending(t *testing.T) {
	chattest.Extending(t, api,
		`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"Read a.go"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"p":"a.go"}}]}],"system":"s"}`,
		`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"Read a.go"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"p":"a.go"}}]} , {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"package a"}]}],"system":"s2","stream":true}`)
}

// TestEncodeMemo checks that a memo never changes what Encode returns and
// carries a changed message's bytes to the next request.
func TestEncodeMemo(t *testing.T) {
	chattest.Memo(t, api, anthropic.EncodeMemo, `{"model":"m","messages":[{"role":"user","content":"Read a.go"},{"role":"user","content":"more"}]}`)
}
