package gateway

import (
	"container/list"
	"net/http"
	"sync"
	"time"
)

// An entry is one cached upstream response.
type entry struct {
	key     string
	status  int
	header  http.Header
	body    []byte
	expires time.Time
}

// Cache is a least-recently-used cache of responses, bounded by entry
// count. It is safe for concurrent use; the zero value is not usable,
// use NewCache.
type Cache struct {
	mu    sync.Mutex
	max   int
	items map[string]*list.Element
	order *list.List // front is most recently used
}

// NewCache returns a Cache that holds at most max entries.
func NewCache(max int) *Cache {
	return &Cache{max: max, items: make(map[string]*list.Element), order: list.New()}
}

// Get returns the entry stored under key if it has not expired.
func (c *Cache) Get(key string) (*entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*entry)
	if time.Now().After(e.expires) {
		c.order.Remove(el)
		delete(c.items, key)
		return nil, false
	}
	c.order.MoveToFront(el)
	return e, true
}

// Put stores e under key, evicting the least recently used entries
// beyond the limit.
func (c *Cache) Put(key string, e *entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.key = key
	if el, ok := c.items[key]; ok {
		el.Value = e
		c.order.MoveToFront(el)
		return
	}
	c.items[key] = c.order.PushFront(e)
	c.evict()
}

// evict drops entries from the back until the cache is within its limit.
// The caller holds c.mu.
func (c *Cache) evict() {
	for c.order.Len() > c.max {
		el := c.order.Back()
		c.order.Remove(el)
		delete(c.items, el.Value.(*entry).key)
	}
}

// Len returns the number of entries, expired ones included.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
