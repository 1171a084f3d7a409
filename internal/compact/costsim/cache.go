package costsim

import (
	"encoding/binary"
	"hash/maphash"
	"slices"
	"time"
)

// A Request is one request of a conversation as a prompt cache sees it:
// its segments (tool definitions, system prompt, each message) as token
// ids, in the order the provider lays them out. Segments are framed apart
// in the token stream (a chat template puts special tokens between
// messages), so tokens never merge across a segment boundary, and two
// requests share a prefix exactly as far as they share leading segments
// and, within the first segment that differs, leading token ids.
type Request struct {
	Segments [][]uint32
	// Time is when the request was sent. The zero Time means "at the
	// time of the previous request", within every TTL; give every
	// request of a conversation a Time, or none.
	Time time.Time
}

// Tokens returns the number of input tokens in r.
func (r Request) Tokens() int {
	n := 0
	for _, s := range r.Segments {
		n += len(s)
	}
	return n
}

// A Cache is one provider's prompt cache for one conversation: Send
// prices each request of the conversation in order and remembers what it
// left in the cache. It is not safe for concurrent use.
type Cache struct {
	p    Pricing
	root node
	now  time.Time
	seed maphash.Seed
	buf  []byte // scratch for hashing
}

// node is one segment of a prefix of some earlier request: the trie of
// all requests sent so far.
type node struct {
	seg      []uint32
	tokens   int // tokens from the start of the request through seg
	children map[uint64][]*node
	seen     time.Time // last time a request went through this node
	written  time.Time // Breakpoints: last time an entry ending here was written or read
	hasEntry bool      // Breakpoints: a request ended here and was cached
}

// NewCache returns an empty cache priced by p.
func NewCache(p Pricing) (*Cache, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Cache{p: p, seed: maphash.MakeSeed()}, nil
}

// Send prices r against what earlier requests left in the cache, then
// leaves r's own prefix there, and returns r's usage.
func (c *Cache) Send(r Request) Usage {
	if !r.Time.IsZero() {
		c.now = r.Time
	}
	n := r.Tokens()
	u := Usage{Requests: 1, Input: n}
	path := c.match(r)
	switch c.p.Mode {
	case Breakpoints:
		u.CacheRead, u.CacheWrite = c.breakpoints(r, path, n)
	case AutoPrefix:
		u.CacheRead = c.autoPrefix(r, path, n)
	}
	u.Cost = float64(n-u.CacheRead-u.CacheWrite) + float64(u.CacheRead)*c.p.Read + float64(u.CacheWrite)*c.p.Write
	return u
}

// match returns the nodes of the live segments r starts with.
func (c *Cache) match(r Request) []*node {
	var path []*node
	cur := &c.root
	for _, seg := range r.Segments {
		next := cur.child(c.hash(seg), seg)
		if next == nil || c.now.Sub(next.seen) > c.p.TTL {
			break
		}
		path = append(path, next)
		cur = next
	}
	return path
}

// breakpoints prices r under Breakpoints: it reads the deepest live entry
// on its path and, if long enough to cache, writes the rest up to its end,
// where its breakpoint is.
func (c *Cache) breakpoints(r Request, path []*node, n int) (read, write int) {
	if n < c.p.MinPrefix {
		c.insert(r, path)
		return 0, 0
	}
	for i := len(path) - 1; i >= 0; i-- {
		if e := path[i]; e.hasEntry && c.now.Sub(e.written) <= c.p.TTL {
			read = e.tokens
			e.written = c.now // a hit refreshes the entry's TTL
			break
		}
	}
	end := c.insert(r, path)
	end.hasEntry, end.written = true, c.now
	return read, n - read
}

// autoPrefix prices r under AutoPrefix: it reads the longest prefix it
// shares with any live earlier request, in the cache's increments.
func (c *Cache) autoPrefix(r Request, path []*node, n int) int {
	lcp := 0
	last := &c.root
	if len(path) > 0 {
		last = path[len(path)-1]
		lcp = last.tokens
	}
	if k := len(path); k < len(r.Segments) {
		lcp += c.partial(last, r.Segments[k])
	}
	c.insert(r, path)
	if n < c.p.MinPrefix || lcp < c.p.MinPrefix {
		return 0
	}
	if c.p.Increment > 1 {
		lcp = c.p.MinPrefix + (lcp-c.p.MinPrefix)/c.p.Increment*c.p.Increment
	}
	return lcp
}

// partial returns how many leading tokens seg shares with the live
// segment after parent that shares the most.
func (c *Cache) partial(parent *node, seg []uint32) int {
	best := 0
	for _, kids := range parent.children {
		for _, k := range kids {
			if c.now.Sub(k.seen) > c.p.TTL {
				continue
			}
			best = max(best, commonPrefix(k.seg, seg))
		}
	}
	return best
}

// insert adds r's segments past path to the trie, marks every node of r
// as seen now, and returns the node of r's last segment (the root for an
// empty request).
func (c *Cache) insert(r Request, path []*node) *node {
	cur := &c.root
	for i, seg := range r.Segments {
		var next *node
		if i < len(path) {
			next = path[i]
		} else {
			h := c.hash(seg)
			if next = cur.child(h, seg); next == nil {
				next = &node{seg: seg, tokens: cur.tokens + len(seg)}
				if cur.children == nil {
					cur.children = make(map[uint64][]*node)
				}
				cur.children[h] = append(cur.children[h], next)
			}
		}
		next.seen = c.now
		cur = next
	}
	return cur
}

func (n *node) child(h uint64, seg []uint32) *node {
	for _, k := range n.children[h] {
		if slices.Equal(k.seg, seg) {
			return k
		}
	}
	return nil
}

func (c *Cache) hash(seg []uint32) uint64 {
	c.buf = c.buf[:0]
	for _, t := range seg {
		c.buf = binary.LittleEndian.AppendUint32(c.buf, t)
	}
	return maphash.Bytes(c.seed, c.buf)
}

func commonPrefix(a, b []uint32) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// Simulate sends reqs, one conversation's requests in order, through a
// new Cache priced by p, and returns their total usage and each one's.
func Simulate(p Pricing, reqs []Request) (Usage, []Usage, error) {
	c, err := NewCache(p)
	if err != nil {
		return Usage{}, nil, err
	}
	var total Usage
	per := make([]Usage, len(reqs))
	for i, r := range reqs {
		per[i] = c.Send(r)
		total.Add(per[i])
	}
	return total, per, nil
}
