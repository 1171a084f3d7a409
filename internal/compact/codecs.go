package compact

import (
	"fmt"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/anthropic"
	"github.com/winnowhq/winnow/internal/chat/openai"
	"github.com/winnowhq/winnow/internal/chat/responses"
)

// A wireCodec is what the compactor needs of one dialect's codec.
type wireCodec struct {
	decode          func([]byte) (*chat.Conversation, error)
	decodeExtending func(*chat.Conversation, []byte) (*chat.Conversation, bool, error)
	encode          func(*chat.Conversation, *chat.EncodeMemo) ([]byte, error)
	firstMessageEnd func([]byte) int
}

// codecs are the dialects the compactor speaks. They decode without
// copying the body: Rewrite never modifies it, and RewriteCached's caller
// promises not to either (see there).
var codecs = map[chat.Dialect]*wireCodec{
	chat.Anthropic: {anthropic.DecodeShared, anthropic.DecodeExtendingShared, anthropic.EncodeMemo, anthropic.FirstMessageEnd},
	chat.OpenAI:    {openai.DecodeShared, openai.DecodeExtendingShared, openai.EncodeMemo, openai.FirstMessageEnd},
	chat.Responses: {responses.DecodeShared, responses.DecodeExtendingShared, responses.EncodeMemo, responses.FirstMessageEnd},
}

// codecOf returns dialect's codec, or ErrDialect.
func codecOf(dialect string) (*wireCodec, error) {
	if c, ok := codecs[chat.Dialect(dialect)]; ok {
		return c, nil
	}
	return nil, fmt.Errorf("compact: %q: %w", dialect, ErrDialect)
}

// codec returns dialect's decoder and its encoder, which copies the bytes
// of messages a memo remembers (nil: none) instead of encoding them again.
func codec(dialect string) (func([]byte) (*chat.Conversation, error), func(*chat.Conversation, *chat.EncodeMemo) ([]byte, error), error) {
	c, err := codecOf(dialect)
	if err != nil {
		return nil, nil, err
	}
	return c.decode, c.encode, nil
}
