package tokens

import (
	"fmt"
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// The tests hold the encoder to github.com/tiktoken-go/tokenizer, whose
// counts equal OpenAI's tiktoken. Its codecs are built once per test
// process (o200k: tens of milliseconds) and shared.
var (
	o200kCodec  = sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(tokenizer.O200kBase) })
	cl100kCodec = sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(tokenizer.Cl100kBase) })
)

// codec returns tiktoken-go's codec of enc.
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
