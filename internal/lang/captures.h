// What matches.go and walk.go both lay out in C memory: the parts of
// tree-sitter's api.h (v0.25) they use, declared again (the runtime is
// compiled into go-tree-sitter, whose header is not on this package's
// include path; the layouts must match api.h, and TSQueryCapture must
// match go-tree-sitter's QueryCapture, which the binding itself makes
// from it by a cast), and the buffers of captures, with their nodes'
// spans, that a query's matches and the walk's both fill.

#ifndef WINNOW_CAPTURES_H
#define WINNOW_CAPTURES_H

#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

typedef struct TSNode {
	uint32_t context[4];
	const void *id;
	const void *tree;
} TSNode;

typedef struct TSQueryCapture {
	TSNode node;
	uint32_t index;
} TSQueryCapture;

extern uint32_t ts_node_start_byte(TSNode self);
extern uint32_t ts_node_end_byte(TSNode self);

typedef struct {
	uint32_t start, end;
} winnow_span;

// winnow_grow_captures makes room in captures and spans, which hold len
// of *capacity, for n more. It returns false when memory ran out.
static inline bool winnow_grow_captures(TSQueryCapture **captures, winnow_span **spans, uint32_t len,
	uint32_t *capacity, uint32_t n) {
	if (len + n <= *capacity) {
		return true;
	}
	uint32_t c = 2 * *capacity;
	if (c < len + n) {
		c = len + n;
	}
	TSQueryCapture *cs = realloc(*captures, c * sizeof *cs);
	if (cs == NULL) {
		return false;
	}
	*captures = cs;
	winnow_span *s = realloc(*spans, c * sizeof *s);
	if (s == NULL) {
		return false;
	}
	*spans = s;
	*capacity = c;
	return true;
}

// winnow_put_capture appends a capture and its node's span, where
// winnow_grow_captures made room.
static inline void winnow_put_capture(TSQueryCapture *captures, winnow_span *spans, uint32_t *len, TSQueryCapture c) {
	captures[*len] = c;
	spans[*len] = (winnow_span){ts_node_start_byte(c.node), ts_node_end_byte(c.node)};
	(*len)++;
}

#endif
