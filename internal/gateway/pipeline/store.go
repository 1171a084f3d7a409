package pipeline

import (
	"container/list"
	"sync"
)

// A store holds trimmed responses for winnow__more, across sessions,
// bounded in bytes and entries; the least recently used go first. Refs
// are unique across sessions, and a lookup must name the session too.
type store struct {
	mu         sync.Mutex
	maxBytes   int64
	maxEntries int
	bytes      int64
	m          map[string]*list.Element // session+"\x00"+ref → *held
	lru        *list.List
}

// A held response: the full text cut into items, and what the agent has
// not seen of it.
type held struct {
	key     string
	session string
	ref     string
	tool    string
	items   *itemList
	rest    []int   // indexes of the items left out, in order
	encoded bool    // pages are re-encoded as the first view was
	ratio   float64 // tokens of the encoded view per token of its source
	budget  int

	mu    sync.Mutex
	pages []pageSpan // the pages computed so far, in order
	// split holds the parts of the item numbered splitItem, the last one
	// too large for a page alone.
	split     []string
	splitItem int
}

func (h *held) size() int64 {
	return int64(len(h.items.text)) + 16*int64(len(h.items.items)) + 8*int64(len(h.rest))
}

func newStore(maxBytes int64, maxEntries int) *store {
	return &store{maxBytes: maxBytes, maxEntries: maxEntries, m: map[string]*list.Element{}, lru: list.New()}
}

func storeKey(session, ref string) string { return session + "\x00" + ref }

// put adds h, evicting the least recently used entries to make room. It
// reports false, adding nothing, when h alone exceeds the byte bound.
func (s *store) put(h *held) bool {
	n := h.size()
	if n > s.maxBytes {
		return false
	}
	h.key = storeKey(h.session, h.ref)
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.m[h.key]; ok {
		s.removeLocked(el)
	}
	s.m[h.key] = s.lru.PushFront(h)
	s.bytes += n
	for s.bytes > s.maxBytes || s.lru.Len() > s.maxEntries {
		s.removeLocked(s.lru.Back())
	}
	return true
}

func (s *store) removeLocked(el *list.Element) {
	h := s.lru.Remove(el).(*held)
	delete(s.m, h.key)
	s.bytes -= h.size()
}

// get returns the response held under session and ref, or nil.
func (s *store) get(session, ref string) *held {
	s.mu.Lock()
	defer s.mu.Unlock()
	el, ok := s.m[storeKey(session, ref)]
	if !ok {
		return nil
	}
	s.lru.MoveToFront(el)
	return el.Value.(*held)
}
