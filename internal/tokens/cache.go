package tokens

import (
	"strings"
	"sync"
)

// A Cache counts exactly like the exact counter of its encoding and
// remembers the counts of the chunks of text it has counted, so that
// text it has seen before (the same definitions in the next context
// pack) is not tokenized again. It is safe for concurrent use.
//
// Text is cut into chunks where both encodings' pre-tokenizer must start
// a new piece: after a line break and before an ASCII character that is
// neither white space nor '/'. No piece of o200k or cl100k can run on
// past a line break into such a character (only white space, line
// breaks and, in o200k, '/' can follow a line break inside a piece), no
// piece looks behind, and BPE merges only within a piece, so the count
// of a text is the sum of its chunks' counts. A chunk boundary never
// falls inside a UTF-8 sequence, valid or not.
type Cache struct {
	exact Counter
	max   int // bytes of chunks held before the cache starts over

	mu     sync.Mutex
	counts map[string]int
	bytes  int
}

// NewCache returns a Cache for enc holding up to maxBytes of chunks (at
// least 1 MiB); when full it forgets them all and starts over.
func NewCache(enc Encoding, maxBytes int) (*Cache, error) {
	exact, err := Exact(enc)
	if err != nil {
		return nil, err
	}
	return &Cache{exact: exact, max: max(maxBytes, 1<<20), counts: make(map[string]int)}, nil
}

// Count returns the exact number of tokens in text.
func (c *Cache) Count(text string) int {
	n := 0
	for len(text) > 0 {
		end := chunkEnd(text)
		n += c.count(text[:end])
		text = text[end:]
	}
	return n
}

func (c *Cache) count(chunk string) int {
	c.mu.Lock()
	n, ok := c.counts[chunk]
	c.mu.Unlock()
	if ok {
		return n
	}
	n = c.exact.Count(chunk)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bytes+len(chunk) > c.max {
		clear(c.counts)
		c.bytes = 0
	}
	if len(chunk) <= c.max/4 {
		c.counts[strings.Clone(chunk)] = n
		c.bytes += len(chunk)
	}
	return n
}

// chunkEnd returns the end of the first chunk of text: the first
// position after a line break whose byte starts a new piece in any
// case, or len(text).
func chunkEnd(text string) int {
	for i := 1; i < len(text); i++ {
		if text[i-1] == '\n' && startsPiece(text[i]) {
			return i
		}
	}
	return len(text)
}

// startsPiece reports an ASCII byte that no piece continuing past a line
// break can hold.
func startsPiece(b byte) bool {
	return b > ' ' && b < 0x7f && b != '/'
}
