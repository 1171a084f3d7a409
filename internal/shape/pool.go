package shape

import "sync"

// Documents and tapes are reused across calls: a parse then allocates
// nothing but the string of decoded escapes, whatever the document's
// size. Tapes grown past maxPooledNodes are left to the collector, so
// that one huge response does not pin its memory.
const maxPooledNodes = 1 << 16

var (
	docPool  = sync.Pool{New: func() any { return new(doc) }}
	tapePool = sync.Pool{New: func() any { return new(tape) }}
)

// newDoc returns an empty doc from the pool; free returns it.
func newDoc() *doc { return docPool.Get().(*doc) }

// free empties d, so that it holds no text, and returns it to the pool.
func (d *doc) free() {
	d.json.reset("")
	d.table = nil
	if cap(d.json.nodes) <= maxPooledNodes {
		docPool.Put(d)
	}
}

// newTape returns an empty tape from the pool; free returns it.
func newTape() *tape { return tapePool.Get().(*tape) }

// free empties t, so that it holds no text, and returns it to the pool.
func (t *tape) free() {
	t.reset("")
	if cap(t.nodes) <= maxPooledNodes {
		tapePool.Put(t)
	}
}
