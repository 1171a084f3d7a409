package lang

/*
#include <stdint.h>

// From tree-sitter's api.h (v0.25); see matches.go.
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;

extern TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);
*/
import "C"

import (
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// go-tree-sitter's Parser and Tree are each one C pointer and nothing
// else (a compile error here says they are no longer).
var (
	_ [unsafe.Sizeof(sitter.Parser{}) - unsafe.Sizeof(uintptr(0))]struct{}
	_ [unsafe.Sizeof(uintptr(0)) - unsafe.Sizeof(sitter.Parser{})]struct{}
	_ [unsafe.Sizeof(sitter.Tree{}) - unsafe.Sizeof(uintptr(0))]struct{}
	_ [unsafe.Sizeof(uintptr(0)) - unsafe.Sizeof(sitter.Tree{})]struct{}
)

// parseBytes parses src with tp, handing tree-sitter the bytes in place.
// go-tree-sitter's Parse goes through an input callback, a call from C
// into Go, which copies the rest of the file twice (to a Go string, then
// a C one) each time the parser asks for text: a Go allocation and a C
// one the size of every file parsed. tree-sitter reads the bytes during
// the call only, as cgo requires; the tree does not point into them. It
// returns nil as Parse does: no tree (cancelled, timed out).
func parseBytes(tp *sitter.Parser, src []byte) *sitter.Tree {
	if uint64(len(src)) > 1<<32-1 {
		return nil
	}
	ctp := *(**C.TSParser)(unsafe.Pointer(tp))
	ctree := C.ts_parser_parse_string(ctp, nil, (*C.char)(unsafe.Pointer(unsafe.SliceData(src))), C.uint32_t(len(src)))
	if ctree == nil {
		return nil
	}
	tree := new(sitter.Tree)
	*(**C.TSTree)(unsafe.Pointer(tree)) = ctree
	return tree
}
