package costsim

import "github.com/winnowhq/winnow/internal/tokens"

// An Encoder turns text into o200k_base token ids, the ids OpenAI's
// tiktoken gives (encode_ordinary: special-token strings are ordinary
// text). It stands in for Claude's tokenizer too, which is not public;
// see internal/tokens. It is safe for concurrent use.
//
// Prefix matching needs the ids, not just their number; the Encoder takes
// them from tokens.Encode, so they agree with internal/tokens' exact counts.
type Encoder struct{}

// NewEncoder returns an o200k Encoder. The vocabulary is built once per
// process, on first use (tens of milliseconds), and shared with every
// other o200k user, internal/tokens included; NewEncoder builds it now so
// that a broken vocabulary fails here rather than on the first Encode.
func NewEncoder() (*Encoder, error) {
	if _, err := tokens.Encode(tokens.O200k, ""); err != nil {
		return nil, err
	}
	return &Encoder{}, nil
}

// Encode returns the token ids of text.
func (e *Encoder) Encode(text string) ([]uint32, error) {
	ids, err := tokens.Encode(tokens.O200k, text)
	if err != nil {
		return nil, err
	}
	out := make([]uint32, len(ids))
	for i, id := range ids {
		out[i] = uint32(id)
	}
	return out, nil
}
