package lang

/*
#include "captures.h"

// The rest of api.h used here (see captures.h).
typedef struct TSQueryMatch {
	uint32_t id;
	uint16_t pattern_index;
	uint16_t capture_count;
	const TSQueryCapture *captures;
} TSQueryMatch;

typedef struct TSQuery TSQuery;
typedef struct TSQueryCursor TSQueryCursor;

extern void ts_query_cursor_exec(TSQueryCursor *self, const TSQuery *query, TSNode node);
extern void ts_query_cursor_set_max_start_depth(TSQueryCursor *self, uint32_t max_start_depth);
extern bool ts_query_cursor_next_match(TSQueryCursor *self, TSQueryMatch *match);

typedef struct {
	uint32_t pattern, first, count; // captures[first:first+count]
} winnow_match;

// A winnow_batch holds the matches of one call of winnow_fill, in
// buffers it grows as needed and keeps from call to call.
typedef struct {
	winnow_match *matches;
	uint32_t nmatches, capmatches;
	TSQueryCapture *captures;
	winnow_span *spans; // of each capture's node
	uint32_t ncaptures, capcaptures;
} winnow_batch;

static bool winnow_add(winnow_batch *b, const TSQueryMatch *m) {
	if (!winnow_grow_captures(&b->captures, &b->spans, b->ncaptures, &b->capcaptures, m->capture_count)) {
		return false;
	}
	b->matches[b->nmatches++] = (winnow_match){m->pattern_index, b->ncaptures, m->capture_count};
	for (uint16_t i = 0; i < m->capture_count; i++) {
		winnow_put_capture(b->captures, b->spans, &b->ncaptures, m->captures[i]);
	}
	return true;
}

// winnow_fill replaces the batch's matches with the cursor's next ones,
// up to capmatches of them. It returns 1 while the cursor may have more,
// 0 when it has none, -1 when memory ran out.
static int winnow_fill(TSQueryCursor *cursor, winnow_batch *b) {
	b->nmatches = 0;
	b->ncaptures = 0;
	TSQueryMatch m;
	while (b->nmatches < b->capmatches) {
		if (!ts_query_cursor_next_match(cursor, &m)) {
			return 0;
		}
		if (!winnow_add(b, &m)) {
			return -1;
		}
	}
	return 1;
}

// A winnow_roots is a query run over the matches rooted at each of
// nodes in turn: nodes[next-1]'s while running.
typedef struct {
	const TSQuery *query;
	const TSNode *nodes;
	uint32_t n, next;
	bool running;
} winnow_roots;

// winnow_fill_roots is winnow_fill for the matches of a winnow_roots.
// The cursor's maximum start depth must be 0.
static int winnow_fill_roots(TSQueryCursor *cursor, winnow_roots *r, winnow_batch *b) {
	b->nmatches = 0;
	b->ncaptures = 0;
	TSQueryMatch m;
	while (b->nmatches < b->capmatches) {
		if (!r->running) {
			if (r->next == r->n) {
				return 0;
			}
			ts_query_cursor_exec(cursor, r->query, r->nodes[r->next++]);
			r->running = true;
		}
		if (!ts_query_cursor_next_match(cursor, &m)) {
			r->running = false;
			continue;
		}
		if (!winnow_add(b, &m)) {
			return -1;
		}
	}
	return 1;
}

static winnow_batch *winnow_batch_new(uint32_t capmatches) {
	winnow_batch *b = calloc(1, sizeof *b);
	if (b == NULL) {
		return NULL;
	}
	b->matches = malloc(capmatches * sizeof *b->matches);
	if (b->matches == NULL) {
		free(b);
		return NULL;
	}
	b->capmatches = capmatches;
	return b;
}

static void winnow_batch_free(winnow_batch *b) {
	free(b->matches);
	free(b->captures);
	free(b->spans);
	free(b);
}
*/
import "C"

import (
	"errors"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// A matchBatch reads a query's matches a batch at a time in one cgo
// call, where go-tree-sitter's QueryMatches.Next makes three per match
// (and a C allocation, and a Go one): a file's query has a match for
// nearly every identifier, hundreds of thousands on a large file. The
// batch also holds each captured node's byte span, which would cost two
// more calls per capture. It is C memory, owned by one Parser.
type matchBatch struct {
	b *C.winnow_batch
}

// The captures are read in place as go-tree-sitter's QueryCaptures: the
// two layouts must agree (a compile error here says they do not).
var (
	_ [unsafe.Sizeof(sitter.QueryCapture{}) - C.sizeof_TSQueryCapture]struct{}
	_ [C.sizeof_TSQueryCapture - unsafe.Sizeof(sitter.QueryCapture{})]struct{}
	_ [unsafe.Sizeof(byteSpan{}) - C.sizeof_winnow_span]struct{}
	_ [C.sizeof_winnow_span - unsafe.Sizeof(byteSpan{})]struct{}
	// The cursor is one C pointer (a Query's is its first field).
	_ [unsafe.Sizeof(sitter.QueryCursor{}) - unsafe.Sizeof(uintptr(0))]struct{}
	_ [unsafe.Sizeof(uintptr(0)) - unsafe.Sizeof(sitter.QueryCursor{})]struct{}
)

// matchesPerBatch bounds the matches of one call: 40 bytes a capture.
const matchesPerBatch = 1024

var errNoMemory = errors.New("out of C memory reading query matches")

func newMatchBatch() *matchBatch {
	return &matchBatch{b: C.winnow_batch_new(matchesPerBatch)}
}

func (mb *matchBatch) close() {
	if mb.b != nil {
		C.winnow_batch_free(mb.b)
		mb.b = nil
	}
}

// A byteSpan is a captured node's src[start:end].
type byteSpan struct{ start, end uint32 }

// captureSlices are n captures and their spans (captures.h), in place.
func captureSlices(caps *C.TSQueryCapture, spans *C.winnow_span, n C.uint32_t) ([]sitter.QueryCapture, []byteSpan) {
	if n == 0 {
		return nil, nil
	}
	return unsafe.Slice((*sitter.QueryCapture)(unsafe.Pointer(caps)), n), unsafe.Slice((*byteSpan)(unsafe.Pointer(spans)), n)
}

// forEachMatch runs q over the tree under root and calls fn with every
// match whose text predicates hold, as QueryMatches.Next would return
// it. The captures are valid during the call only.
func (mb *matchBatch) forEachMatch(cursor *sitter.QueryCursor, q *sitter.Query, root *sitter.Node, src []byte,
	fn func(pattern uint, caps []sitter.QueryCapture, spans []byteSpan)) error {
	if mb.b == nil {
		return errNoMemory
	}
	// go-tree-sitter's cursor, query and node are each one C value or
	// pointer and nothing else.
	ccursor := *(**C.TSQueryCursor)(unsafe.Pointer(cursor))
	C.ts_query_cursor_set_max_start_depth(ccursor, C.UINT32_MAX)
	C.ts_query_cursor_exec(ccursor, cQuery(q), *(*C.TSNode)(unsafe.Pointer(root)))
	return mb.each(q, src, func() C.int { return C.winnow_fill(ccursor, mb.b) }, fn)
}

// forEachMatchAt is forEachMatch over the matches whose pattern starts
// at one of roots (C memory): at each in turn, its matches in the
// order QueryMatches.Next would return them. Over every node at which
// some pattern of q can start, in document order, it finds the matches
// of the whole tree, and visits only the parts of the tree that patterns
// look at.
func (mb *matchBatch) forEachMatchAt(cursor *sitter.QueryCursor, q *sitter.Query, roots unsafe.Pointer, nroots int, src []byte,
	fn func(pattern uint, caps []sitter.QueryCapture, spans []byteSpan)) error {
	if mb.b == nil {
		return errNoMemory
	}
	ccursor := *(**C.TSQueryCursor)(unsafe.Pointer(cursor))
	C.ts_query_cursor_set_max_start_depth(ccursor, 0)
	r := &C.winnow_roots{query: cQuery(q), nodes: (*C.TSNode)(roots), n: C.uint32_t(nroots)}
	return mb.each(q, src, func() C.int { return C.winnow_fill_roots(ccursor, r, mb.b) }, fn)
}

// cQuery is go-tree-sitter's query's C pointer, its one field.
func cQuery(q *sitter.Query) *C.TSQuery { return *(**C.TSQuery)(unsafe.Pointer(q)) }

// each calls fill until it reports no more matches and fn with every
// match of every batch whose text predicates hold.
func (mb *matchBatch) each(q *sitter.Query, src []byte, fill func() C.int,
	fn func(pattern uint, caps []sitter.QueryCapture, spans []byteSpan)) error {
	for {
		more := fill()
		if more < 0 {
			return errNoMemory
		}
		b := mb.b
		matches := unsafe.Slice(b.matches, b.nmatches)
		caps, spans := captureSlices(b.captures, b.spans, b.ncaptures)
		for _, m := range matches {
			first, end := uint(m.first), uint(m.first+m.count)
			mc, ms := caps[first:end:end], spans[first:end:end]
			if len(q.TextPredicates[m.pattern]) > 0 {
				qm := sitter.QueryMatch{Captures: mc, PatternIndex: uint(m.pattern)}
				if !qm.SatisfiesTextPredicate(q, nil, nil, src) {
					continue
				}
			}
			fn(uint(m.pattern), mc, ms)
		}
		if more == 0 {
			return nil
		}
	}
}
