package costsim

import (
	"fmt"

	"github.com/tiktoken-go/tokenizer"
)

// An Encoder turns text into o200k_base token ids, the ids OpenAI's
// tiktoken gives (encode_ordinary: special-token strings are ordinary
// text). It stands in for Claude's tokenizer too, which is not public;
// see internal/tokens. It is safe for concurrent use.
//
// internal/tokens counts tokens but does not hand out ids, and prefix
// matching needs the ids; the Encoder uses the same library and
// vocabulary, and its tests hold it to internal/tokens' exact counts.
type Encoder struct {
	codec tokenizer.Codec
}

// NewEncoder returns an o200k Encoder. The vocabulary is built once per
// process, on first use (tens of milliseconds), and shared with every
// other o200k user, internal/tokens included.
func NewEncoder() (*Encoder, error) {
	c, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		return nil, fmt.Errorf("o200k encoder: %w", err)
	}
	return &Encoder{codec: c}, nil
}

// Encode returns the token ids of text.
func (e *Encoder) Encode(text string) ([]uint32, error) {
	ids, _, err := e.codec.Encode(text)
	if err != nil {
		return nil, fmt.Errorf("encode %d bytes: %w", len(text), err)
	}
	out := make([]uint32, len(ids))
	for i, id := range ids {
		out[i] = uint32(id)
	}
	return out, nil
}
