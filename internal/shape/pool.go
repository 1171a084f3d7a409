package shape

import (
	"sync"
	"unsafe"
)

// Documents and tapes are reused across calls: a parse then allocates
// nothing but the string of decoded escapes, whatever the document's
// size, and a table's grid of cells is written in the tape's memory.
// Tapes grown past maxPooledNodes nodes or maxPooledCells bytes of cells
// are left to the collector, so that one huge response does not pin its
// memory.
const (
	maxPooledNodes = 1 << 16
	maxPooledCells = 1 << 20
)

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
	if cap(d.json.nodes) <= maxPooledNodes && cap(d.json.cells) <= maxPooledCells {
		docPool.Put(d)
	}
}

// newTape returns an empty tape from the pool; free returns it.
func newTape() *tape { return tapePool.Get().(*tape) }

// free empties t, so that it holds no text, and returns it to the pool.
func (t *tape) free() {
	t.reset("")
	if cap(t.nodes) <= maxPooledNodes && cap(t.cells) <= maxPooledCells {
		tapePool.Put(t)
	}
}

// bytesString returns the bytes of b as a string without copying them.
// The encoders build their output in a buffer of their own and never
// touch it again, so the string may share it: a 100 KiB response is then
// not copied once more, as strings.Builder does not copy either.
func bytesString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
