package tokens

import (
	"fmt"
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// A Counter counts the tokens in a text. Implementations are safe for
// concurrent use.
type Counter interface {
	Count(text string) int
}

// Codecs are built on first use and shared: building one turns its
// compiled-in vocabulary into a map, which takes tens of milliseconds and a
// few megabytes (o200k: ~50 ms, ~6 MB), so it happens at most once per
// encoding per process. A tokenizer.Codec is safe for concurrent use as long as nobody calls
// SetErrorMode, and nothing here does.
var (
	o200kCodec  = sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(tokenizer.O200kBase) })
	cl100kCodec = sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(tokenizer.Cl100kBase) })
)

// exact counts tokens with the real BPE.
type exact struct {
	codec tokenizer.Codec
	est   Estimator // fallback, see Count
}

// Exact returns a Counter that gives the same counts as OpenAI's tiktoken for
// enc. The first call for an encoding builds its vocabulary; later calls
// return a counter sharing it. Exact counting runs at a few MB/s; see
// Estimator for a faster approximation.
func Exact(enc Encoding) (Counter, error) {
	c, err := codec(enc)
	if err != nil {
		return nil, fmt.Errorf("exact counter: %w", err)
	}
	return exact{codec: c, est: NewEstimator(enc)}, nil
}

// codec returns the shared codec of enc, building it on first use.
func codec(enc Encoding) (tokenizer.Codec, error) {
	var get func() (tokenizer.Codec, error)
	switch enc {
	case O200k:
		get = o200kCodec
	case CL100k:
		get = cl100kCodec
	default:
		return nil, fmt.Errorf("unknown token encoding %q", enc)
	}
	c, err := get()
	if err != nil {
		return nil, fmt.Errorf("codec for %s: %w", enc, err)
	}
	return c, nil
}

// Encode returns the token ids tiktoken's encode_ordinary gives text under
// enc, for callers that need the ids rather than their number (prefix
// matching in compact/costsim). len(ids) equals Count(enc, text).
func Encode(enc Encoding, text string) ([]uint, error) {
	c, err := codec(enc)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	ids, _, err := c.Encode(text)
	if err != nil {
		return nil, fmt.Errorf("encode %d bytes as %s: %w", len(text), enc, err)
	}
	return ids, nil
}

// Count returns the number of tokens tiktoken's encode_ordinary would produce
// for text: special-token strings such as "<|endoftext|>" count as ordinary
// text, and each invalid UTF-8 sequence counts as a U+FFFD. The codec only
// fails if its splitting regexp times out, which it cannot with the default
// (unbounded) timeout; should it ever fail, Count falls back to the estimate
// rather than returning a wrong zero.
func (e exact) Count(text string) int {
	n, err := e.codec.Count(text)
	if err != nil {
		return e.est.Count(text)
	}
	return n
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

// defaultCounter is the Counter of a Budget whose Counter is nil.
var defaultCounter = sync.OnceValue(func() Counter {
	c, err := Exact(O200k)
	if err != nil {
		// tokenizer.Get cannot fail for an encoding it compiles in.
		panic(err)
	}
	return c
})
