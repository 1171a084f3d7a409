package lang

/*
#include <stddef.h>

// Defined by the tree-sitter runtime that go-tree-sitter compiles in.
extern void ts_set_allocator(
	void *(*new_malloc)(size_t),
	void *(*new_calloc)(size_t, size_t),
	void *(*new_realloc)(void *, size_t),
	void (*new_free)(void *));
*/
import "C"

import "sync"

// useLibcAllocator points tree-sitter back at the C library's allocator.
//
// go-tree-sitter installs an allocator that calls from C into Go and back
// into C for every malloc and free, so that Go programs could plug in
// their own. Parsing allocates constantly: on a large Python tree those
// round trips cost more than a tenth of all parsing time. The functions
// it forwards to are plain malloc and free, so memory allocated either
// way is freed correctly the other way.
var useLibcAllocator = sync.OnceFunc(func() {
	C.ts_set_allocator(nil, nil, nil, nil)
})
