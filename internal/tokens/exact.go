package tokens

import "fmt"

// A Counter counts the tokens in a text. Implementations are safe for
// concurrent use.
type Counter interface {
	Count(text string) int
}

// exact counts tokens with the real BPE, over vocabularies compiled in as
// constants (vocab.go): there is nothing to build, so the first count of a
// process costs what any other does.
type exact struct {
	enc *encoder
}

// Exact returns a Counter that gives the same counts as OpenAI's tiktoken for
// enc (precisely, as github.com/tiktoken-go/tokenizer v0.10.0, which the
// tests compare it with). Counters of the same encoding share everything;
// see Estimator for a faster approximation.
func Exact(enc Encoding) (Counter, error) {
	e, err := encoderFor(enc)
	if err != nil {
		return nil, fmt.Errorf("exact counter: %w", err)
	}
	return exact{enc: e}, nil
}

// encoderFor returns the encoder of enc.
func encoderFor(enc Encoding) (*encoder, error) {
	switch enc {
	case O200k:
		return o200kEncoder, nil
	case CL100k:
		return cl100kEncoder, nil
	}
	return nil, fmt.Errorf("unknown token encoding %q", enc)
}

// Encode returns the token ids tiktoken's encode_ordinary gives text under
// enc, for callers that need the ids rather than their number (prefix
// matching in compact/costsim). len(ids) equals Count(enc, text).
func Encode(enc Encoding, text string) ([]uint, error) {
	e, err := encoderFor(enc)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	return e.encode(text), nil
}

// Count returns the number of tokens tiktoken's encode_ordinary would produce
// for text: special-token strings such as "<|endoftext|>" count as ordinary
// text, and each byte that is not part of a valid UTF-8 sequence counts as
// a U+FFFD (as tiktoken-go, matching on the text's runes, sees it).
func (e exact) Count(text string) int {
	return e.enc.count(text)
}

// Count returns the exact number of tokens in text under enc. It panics if
// enc is neither O200k nor CL100k; validate names from configuration with
// ParseEncoding.
func Count(enc Encoding, text string) int {
	c, err := Exact(enc)
	if err != nil {
		panic(err)
	}
	return c.Count(text)
}

// defaultCounter returns the Counter of a Budget whose Counter is nil.
func defaultCounter() Counter {
	return exact{enc: o200kEncoder}
}
