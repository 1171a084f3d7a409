package llmproxy

import "sync"

// copyBufferSize is the size of the buffers responses are copied through.
const copyBufferSize = 32 << 10

// A bufferPool recycles the response copy buffers of a Proxy (an httputil.BufferPool), so
// hundreds of concurrent streams do not each allocate their own.
type bufferPool struct{ pool sync.Pool }

// Get returns a buffer of copyBufferSize bytes.
func (b *bufferPool) Get() []byte {
	if buf, ok := b.pool.Get().(*[]byte); ok {
		return *buf
	}
	return make([]byte, copyBufferSize)
}

// Put returns buf to the pool.
func (b *bufferPool) Put(buf []byte) {
	if cap(buf) == copyBufferSize {
		buf = buf[:copyBufferSize]
		b.pool.Put(&buf)
	}
}
