package compact

import (
	"container/list"
	"hash/maphash"
	"sync"
	"time"

	"github.com/winnowhq/winnow/internal/chat"
)

// Defaults of CacheOptions.
const (
	// DefaultCacheBytes bounds what a Cache holds, as it reckons it.
	DefaultCacheBytes = 256 << 20
	// DefaultCacheTTL: an entry unused this long is dropped. Agents send
	// the next request of a conversation seconds after the last answer;
	// one idle for ten minutes has most likely ended (and the provider's
	// own prompt cache, five minutes by default, has expired too).
	DefaultCacheTTL = 10 * time.Minute
)

// CacheOptions configure a Cache. Zero fields take their defaults.
type CacheOptions struct {
	// MaxBytes bounds the memory the entries hold, as the cache reckons it
	// (see Cache); the least recently used go first. Default
	// DefaultCacheBytes.
	MaxBytes int64
	// TTL is how long an entry may go unused. Default DefaultCacheTTL.
	TTL time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// A Cache remembers recent requests so that RewriteCached does only the
// new part of the next request of each conversation. Agents resend their
// whole history every turn: request n+1 is request n's messages and a
// few more, with the same other fields. The cache keeps, for each recent
// request, its decoded messages, the facts read off each (estimated
// tokens, tool-call descriptions and arguments, output texts), the memo of
// the token estimates of what the passes wrote, and the bytes the messages
// the passes changed were encoded to (sticky rewrites change them the same
// way on the next request, which copies them). A new body is looked up by a hash of
// its bytes up to the end of its first message (model, the fields before
// the messages, the task) and extends a candidate only if its bytes equal
// the candidate's, compared in full, up to the end of the candidate's
// last message: a hash alone is never trusted. The rest of the Run (the
// replay, the passes, validation) is done again on every request: it is
// a function of the whole history and cheap once nothing is decoded or
// estimated twice.
//
// An entry holds its body and the messages first decoded by earlier
// requests of its conversation; the cache reckons it at twice the body's
// size plus a small amount per message, plus its conversation's memo and
// the bytes of its changed messages.
// When a request extends an entry, its own entry replaces that one: a
// conversation holds one entry, not one per turn. Entries unused for
// TTL, and the least recently used beyond MaxBytes, are dropped when the
// cache is next used; the cache runs no goroutine.
//
// A Cache is safe for concurrent use; its entries are never changed once
// stored, so any number of requests may extend one at once.
type Cache struct {
	maxBytes int64
	ttl      time.Duration
	now      func() time.Time
	seed     maphash.Seed

	mu    sync.Mutex
	lru   list.List // of *cacheEntry, most recently used first
	byKey map[cacheKey][]*list.Element
	bytes int64
	stats CacheStats
}

// CacheStats count what a Cache did.
type CacheStats struct {
	Entries int   `json:"entries"`
	Bytes   int64 `json:"bytes"`
	// Hits counts requests that extended an entry, Misses those that were
	// decoded in full.
	Hits   uint64 `json:"hits"`
	Misses uint64 `json:"misses"`
	// Evicted counts entries dropped for space or age (not replaced).
	Evicted uint64 `json:"evicted"`
}

type cacheKey struct {
	dialect chat.Dialect
	sum     uint64 // maphash of the body up to the end of its first message
}

type cacheEntry struct {
	key   cacheKey
	conv  *chat.Conversation // as decoded; never changed
	facts []msgFacts         // of conv.Messages
	memo  *textMemo
	enc   *chat.EncodeMemo // the bytes of the messages the passes changed
	size  int64
	used  time.Time
}

// NewCache returns an empty Cache with opts (nil: the defaults).
func NewCache(opts *CacheOptions) *Cache {
	var o CacheOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultCacheBytes
	}
	if o.TTL <= 0 {
		o.TTL = DefaultCacheTTL
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Cache{maxBytes: o.MaxBytes, ttl: o.TTL, now: o.Now, seed: maphash.MakeSeed(), byKey: map[cacheKey][]*list.Element{}}
}

// Stats returns what c holds and has done so far.
func (c *Cache) Stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Entries, s.Bytes = c.lru.Len(), c.bytes
	return s
}

// key returns the key of body, false if body has no first message.
func (c *Cache) key(dialect string, body []byte) (cacheKey, bool) {
	codec, err := codecOf(dialect)
	if err != nil {
		return cacheKey{}, false
	}
	end := codec.firstMessageEnd(body)
	if end < 0 {
		return cacheKey{}, false
	}
	return cacheKey{dialect: chat.Dialect(dialect), sum: maphash.Bytes(c.seed, body[:end])}, true
}

// decode decodes body by extending the longest entry it extends, and
// returns what the entry knows of it, the entry itself and body's key for
// store (the zero key when body has none). It returns a nil conversation
// when no entry fits (or c is nil): the caller decodes body in full. A
// body that extends an entry but does not decode is left to the full
// decode too, so that its error is the codec's own.
func (c *Cache) decode(dialect string, body []byte) (*chat.Conversation, seed, *cacheEntry, cacheKey) {
	if c == nil {
		return nil, seed{}, nil, cacheKey{}
	}
	key, ok := c.key(dialect, body)
	if !ok {
		return nil, seed{}, nil, cacheKey{}
	}
	codec := codecs[key.dialect]
	for _, e := range c.candidates(key) {
		conv, ok, err := codec.decodeExtending(e.conv, body)
		if !ok {
			continue
		}
		if err != nil {
			break
		}
		c.count(func(s *CacheStats) { s.Hits++ })
		return conv, seed{facts: e.facts, memo: e.memo}, e, key
	}
	c.count(func(s *CacheStats) { s.Misses++ })
	return nil, seed{}, nil, key
}

// encoded returns e's memo of encoded messages, nil for a nil e.
func (e *cacheEntry) encoded() *chat.EncodeMemo {
	if e == nil {
		return nil
	}
	return e.enc
}

// candidates returns the live entries under key, most messages first.
func (c *Cache) candidates(key cacheKey) []*cacheEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.expire()
	var out []*cacheEntry
	for _, el := range c.byKey[key] {
		out = append(out, el.Value.(*cacheEntry))
	}
	// Few entries share a key (one per conversation): insertion sort.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && len(out[j].conv.Messages) > len(out[j-1].conv.Messages); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func (c *Cache) count(f func(*CacheStats)) {
	c.mu.Lock()
	f(&c.stats)
	c.mu.Unlock()
}

// perMessageBytes is what the cache reckons an entry holds per message
// besides the bytes of the bodies: the decoded message, its parts and
// facts.
const perMessageBytes = 256

// store remembers st's input, the decode of body, under key, body's key
// as decode returned it, replacing prev, the entry it extended (nil for
// none). It does nothing if c is nil or key is zero (body has no key).
func (c *Cache) store(key cacheKey, body []byte, st *State, prev *cacheEntry, enc *chat.EncodeMemo) {
	if c == nil || key == (cacheKey{}) || st == nil || len(st.facts) != len(st.orig.Messages) {
		return
	}
	e := &cacheEntry{key: key, conv: st.orig, facts: st.facts, memo: st.memo, enc: enc}
	e.size = 2*int64(len(body)) + perMessageBytes*int64(len(st.facts)) + st.memo.size() + enc.Size()
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev != nil {
		c.remove(prev)
	}
	if e.size > c.maxBytes {
		return
	}
	e.used = c.now()
	c.byKey[key] = append(c.byKey[key], c.lru.PushFront(e))
	c.bytes += e.size
	for c.bytes > c.maxBytes {
		c.remove(c.lru.Back().Value.(*cacheEntry))
		c.stats.Evicted++
	}
	c.expire()
}

// expire drops the entries unused for longer than the TTL.
func (c *Cache) expire() {
	now := c.now()
	for el := c.lru.Back(); el != nil; el = c.lru.Back() {
		e := el.Value.(*cacheEntry)
		if now.Sub(e.used) <= c.ttl {
			return
		}
		c.remove(e)
		c.stats.Evicted++
	}
}

// remove drops e if it is still held.
func (c *Cache) remove(e *cacheEntry) {
	els := c.byKey[e.key]
	for i, el := range els {
		if el.Value.(*cacheEntry) != e {
			continue
		}
		c.lru.Remove(el)
		c.bytes -= e.size
		els = append(els[:i], els[i+1:]...)
		if len(els) == 0 {
			delete(c.byKey, e.key)
		} else {
			c.byKey[e.key] = els
		}
		return
	}
}
