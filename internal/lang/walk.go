package lang

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

// From tree-sitter's api.h (v0.25); see matches.go.
typedef struct TSNode {
	uint32_t context[4];
	const void *id;
	const void *tree;
} TSNode;

typedef struct TSTreeCursor {
	const void *tree;
	const void *id;
	uint32_t context[3];
} TSTreeCursor;

extern uint32_t ts_node_start_byte(TSNode self);
extern uint32_t ts_node_end_byte(TSNode self);
extern uint16_t ts_node_symbol(TSNode self);
extern bool ts_node_is_named(TSNode self);
extern TSTreeCursor ts_tree_cursor_new(TSNode node);
extern void ts_tree_cursor_delete(TSTreeCursor *self);
extern TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
extern uint16_t ts_tree_cursor_current_field_id(const TSTreeCursor *self);
extern bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
extern bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
extern bool ts_tree_cursor_goto_parent(TSTreeCursor *self);

enum { WINNOW_EXACT = 0, WINNOW_NAMED = 1, WINNOW_ANY = 2 };

#define WINNOW_ERROR_SYMBOL ((uint16_t)-1)

// One step of a chain: the node, its symbol (or a wildcard), and the
// field it must hold in its parent (0: any).
typedef struct {
	uint16_t symbol, field;
	uint8_t match;
} winnow_step;

// A chain is a node pattern with one child per node, read upwards:
// steps[first] is the captured node, steps[first+len-1] the pattern's
// root. A rule's predicates may read the text of the node span steps
// above the captured one.
typedef struct {
	uint32_t first, len, rule, span;
} winnow_chain;

// The chains of one language, by the symbol of their captured node:
// chains[index[s]:index[s+1]] capture symbol s;
// chains[index[nsymbols]:nchains] capture a wildcard.
typedef struct {
	winnow_step *steps;
	winnow_chain *chains;
	uint32_t nchains;
	uint32_t *index;
	uint32_t nsymbols;
	uint8_t *need_field; // per symbol: some step with a field can match it
	bool field_all;      // some wildcard step has a field
	bool need_nodes;     // some chain reads an ancestor's span
	// root, when not NULL, flags the symbols at which a pattern of the
	// query can start (root_error: ERROR nodes); the walk lists them.
	uint8_t *root;
	bool root_error;
} winnow_rules;

// A use found by the walk: src[start:end], matched by rule; and the
// span of the ancestor its chain's predicates read.
typedef struct {
	uint32_t start, end, rule, span_start, span_end;
} winnow_use;

// What one walk found, in buffers kept from walk to walk, and the
// walk's stack of ancestors.
typedef struct {
	winnow_use *uses;
	uint32_t nuses, capuses;
	uint16_t *symbols, *fields;
	uint8_t *named;
	TSNode *nodes; // when the rules need them
	uint32_t capdepth;
	TSNode *roots; // where the query's patterns can match, in document order
	uint32_t nroots, caproots;
} winnow_walk_buf;

static bool winnow_step_matches(const winnow_step *s, uint16_t symbol, uint16_t field, uint8_t named) {
	if (s->field && s->field != field) {
		return false;
	}
	switch (s->match) {
	case WINNOW_EXACT:
		return s->symbol == symbol;
	case WINNOW_NAMED:
		return symbol != WINNOW_ERROR_SYMBOL && named;
	default:
		return symbol != WINNOW_ERROR_SYMBOL;
	}
}

static bool winnow_chain_matches(const winnow_rules *r, const winnow_chain *c, const winnow_walk_buf *b, uint32_t depth) {
	if (c->len > depth + 1) {
		return false;
	}
	const winnow_step *s = r->steps + c->first;
	for (uint32_t i = 0; i < c->len; i++) {
		uint32_t d = depth - i;
		if (!winnow_step_matches(&s[i], b->symbols[d], b->fields[d], b->named[d])) {
			return false;
		}
	}
	return true;
}

static bool winnow_push(winnow_walk_buf *b, uint32_t depth) {
	if (depth < b->capdepth) {
		return true;
	}
	uint32_t n = b->capdepth ? 2 * b->capdepth : 256;
	uint16_t *s = realloc(b->symbols, n * sizeof *s);
	if (s == NULL) {
		return false;
	}
	b->symbols = s;
	uint16_t *f = realloc(b->fields, n * sizeof *f);
	if (f == NULL) {
		return false;
	}
	b->fields = f;
	uint8_t *m = realloc(b->named, n);
	if (m == NULL) {
		return false;
	}
	b->named = m;
	TSNode *t = realloc(b->nodes, n * sizeof *t);
	if (t == NULL) {
		return false;
	}
	b->nodes = t;
	b->capdepth = n;
	return true;
}

static bool winnow_emit(winnow_walk_buf *b, TSNode n, const winnow_chain *c, uint32_t depth) {
	if (b->nuses == b->capuses) {
		uint32_t c = b->capuses ? 2 * b->capuses : 1024;
		winnow_use *u = realloc(b->uses, c * sizeof *u);
		if (u == NULL) {
			return false;
		}
		b->uses = u;
		b->capuses = c;
	}
	winnow_use u = {ts_node_start_byte(n), ts_node_end_byte(n), c->rule, 0, 0};
	if (c->span) {
		TSNode a = b->nodes[depth - c->span];
		u.span_start = ts_node_start_byte(a);
		u.span_end = ts_node_end_byte(a);
	}
	b->uses[b->nuses++] = u;
	return true;
}

static bool winnow_add_root(winnow_walk_buf *b, TSNode n) {
	if (b->nroots == b->caproots) {
		uint32_t c = b->caproots ? 2 * b->caproots : 256;
		TSNode *r = realloc(b->roots, c * sizeof *r);
		if (r == NULL) {
			return false;
		}
		b->roots = r;
		b->caproots = c;
	}
	b->roots[b->nroots++] = n;
	return true;
}

static bool winnow_check(const winnow_rules *r, winnow_walk_buf *b, TSNode n, uint32_t depth, uint32_t from, uint32_t to) {
	for (uint32_t i = from; i < to; i++) {
		const winnow_chain *c = &r->chains[i];
		if (winnow_chain_matches(r, c, b, depth) && !winnow_emit(b, n, c, depth)) {
			return false;
		}
	}
	return true;
}

// winnow_walk visits every node under root, in document order, and
// records the nodes that chains match. It returns false when memory ran
// out.
static bool winnow_walk(TSNode root, const winnow_rules *r, winnow_walk_buf *b) {
	b->nuses = 0;
	b->nroots = 0;
	TSTreeCursor c = ts_tree_cursor_new(root);
	uint32_t depth = 0;
	bool ok = true;
	uint32_t wild = r->index[r->nsymbols];
	for (;;) {
		if (!winnow_push(b, depth)) {
			ok = false;
			break;
		}
		TSNode n = ts_tree_cursor_current_node(&c);
		uint16_t sym = ts_node_symbol(n);
		bool known = sym < r->nsymbols;
		b->symbols[depth] = sym;
		b->named[depth] = ts_node_is_named(n);
		b->fields[depth] = 0;
		if (r->need_nodes) {
			b->nodes[depth] = n;
		}
		if (r->field_all || (known && r->need_field[sym])) {
			b->fields[depth] = ts_tree_cursor_current_field_id(&c);
		}
		if (known && !winnow_check(r, b, n, depth, r->index[sym], r->index[sym + 1])) {
			ok = false;
			break;
		}
		if (wild < r->nchains && !winnow_check(r, b, n, depth, wild, r->nchains)) {
			ok = false;
			break;
		}
		if (r->root && (known ? r->root[sym] : sym == WINNOW_ERROR_SYMBOL && r->root_error) && !winnow_add_root(b, n)) {
			ok = false;
			break;
		}
		if (ts_tree_cursor_goto_first_child(&c)) {
			depth++;
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&c)) {
			if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) {
				goto done;
			}
			depth--;
		}
	}
done:
	ts_tree_cursor_delete(&c);
	return ok;
}

static winnow_walk_buf *winnow_walk_buf_new(void) {
	return calloc(1, sizeof(winnow_walk_buf));
}

static void winnow_walk_buf_free(winnow_walk_buf *b) {
	free(b->uses);
	free(b->symbols);
	free(b->fields);
	free(b->named);
	free(b->nodes);
	free(b->roots);
	free(b);
}
*/
import "C"

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/winnowhq/winnow/internal/symbol"
)

// Reference patterns that are chains, a node with at most one child
// pattern down to the captured identifier ((call function: (identifier)
// @reference.call), (identifier) @reference.name), do not go to
// tree-sitter's query: a query has a match per identifier, each a state
// in the cursor and a match to read, and they were a quarter of a parse's
// CPU. A walk (winnow_walk) visits every node of the tree once with a
// tree cursor, keeps the symbols and fields of the node's ancestors, and
// checks the chains whose captured symbol is the node's against them, in
// C, one call per file. It matches as tree-sitter does: a node's kind is
// its public symbol (aliases included), a field is the one the cursor
// reports, and a wildcard never matches an ERROR node.

// walkRules are one language's chains, in C memory that lives for the
// process, as the language's query does, and the kinds of node at which
// the query's patterns start, when it knows them all.
type walkRules struct {
	c     *C.winnow_rules
	rules []walkRule // by rule number
}

// rooted reports whether the walk lists the nodes at which the query's
// patterns can start.
func (w *walkRules) rooted() bool { return w != nil && w.c.root != nil }

// unroot stops the walk listing roots.
func (w *walkRules) unroot() {
	C.free(unsafe.Pointer(w.c.root))
	w.c.root = nil
}

// A walkRule is the reference kind of a chain and the text predicates
// on its captured node and on one ancestor of it (the chain's span).
type walkRule struct {
	kind      symbol.RefKind
	preds     []walkPred
	spanPreds []walkPred
}

type walkPred struct {
	re       *regexp.Regexp // match?, not-match?
	values   []string       // eq?, not-eq?, any-of?, not-any-of?
	positive bool
}

// holds reports whether a text satisfies every predicate.
func holds(preds []walkPred, text []byte) bool {
	for _, p := range preds {
		var ok bool
		if p.re != nil {
			ok = p.re.Match(text)
		} else {
			ok = slices.Contains(p.values, string(text))
		}
		if ok != p.positive {
			return false
		}
	}
	return true
}

type walkStep struct {
	symbol, field uint16
	match         uint8 // C.WINNOW_EXACT, …
}

type walkChain struct {
	steps []walkStep // from the captured node up
	rule  int
	span  int // steps[span] is the node the rule's spanPreds read; 0 if none
}

// pathStep is one node of a chain as parsed, from the root down.
type pathStep struct {
	kind     string
	named    bool
	field    string
	captures []string
}

// walkChains reads a pattern as chains for the walk. It returns no
// chains and no error for a pattern the query must keep: one with
// captures other than references (and "_" helpers), or with syntax the
// walk does not match.
func walkChains(ts *sitter.Language, src string) ([]walkChain, []walkRule, error) {
	if !strings.Contains(src, "@reference.") {
		return nil, nil, nil
	}
	n, err := parsePattern(src)
	if err != nil {
		return nil, nil, nil
	}
	paths, err := expandPaths(n, "", nil)
	if err != nil {
		return nil, nil, nil
	}
	var (
		chains []walkChain
		rules  []walkRule
	)
	for _, path := range paths {
		c, rule, ok := chainOf(ts, path, n.preds)
		if !ok {
			return nil, nil, nil
		}
		c.rule = len(rules)
		rules = append(rules, rule)
		chains = append(chains, c)
	}
	return chains, rules, nil
}

// expandPaths lists the paths from n down to its leaves, one per
// alternative; a node with more than one child pattern is not a chain.
func expandPaths(n *qnode, field string, inherited []string) ([][]pathStep, error) {
	captures := append(slices.Clip(inherited), n.captures...)
	if n.alts != nil {
		var paths [][]pathStep
		for _, alt := range n.alts {
			p, err := expandPaths(alt, field, captures)
			if err != nil {
				return nil, err
			}
			paths = append(paths, p...)
		}
		return paths, nil
	}
	step := pathStep{kind: n.kind, named: n.named, field: field, captures: captures}
	switch len(n.children) {
	case 0:
		return [][]pathStep{{step}}, nil
	case 1:
		sub, err := expandPaths(n.children[0].node, n.children[0].field, nil)
		if err != nil {
			return nil, err
		}
		for i := range sub {
			sub[i] = append([]pathStep{step}, sub[i]...)
		}
		return sub, nil
	}
	return nil, errUnsupported
}

// chainOf makes one path a chain: its leaf captures one reference, its
// other captures are helpers no predicate reads, its predicates read the
// reference, and every kind and field is the grammar's.
func chainOf(ts *sitter.Language, path []pathStep, preds []qpred) (walkChain, walkRule, bool) {
	var rule walkRule
	ref := ""
	for i, st := range path {
		for _, c := range st.captures {
			if k, ok := strings.CutPrefix(c, "reference."); ok && i == len(path)-1 && ref == "" {
				kind, ok := symbol.ParseRefKind(k)
				if !ok {
					return walkChain{}, rule, false // the query reports it
				}
				ref, rule.kind = c, kind
				continue
			}
			if !strings.HasPrefix(c, "_") {
				return walkChain{}, rule, false
			}
		}
	}
	if ref == "" {
		return walkChain{}, rule, false
	}
	var c walkChain
	for _, p := range preds {
		into := &rule.preds
		if p.capture != ref {
			i := slices.IndexFunc(path, func(st pathStep) bool { return slices.Contains(st.captures, p.capture) })
			if i < 0 {
				continue // another alternative's capture: not in this match
			}
			level := len(path) - 1 - i
			if level == 0 || c.span != 0 && c.span != level {
				return walkChain{}, rule, false
			}
			c.span, into = level, &rule.spanPreds
		}
		wp := walkPred{positive: !strings.HasPrefix(p.op, "not-")}
		if strings.HasSuffix(p.op, "match?") {
			re, err := regexp.Compile(p.args[0])
			if err != nil {
				return walkChain{}, rule, false
			}
			wp.re = re
		} else {
			wp.values = p.args
		}
		*into = append(*into, wp)
	}
	for i := len(path) - 1; i >= 0; i-- {
		st, ok := resolveStep(ts, path[i])
		if !ok {
			return walkChain{}, rule, false
		}
		c.steps = append(c.steps, st)
	}
	return c, rule, true
}

func resolveStep(ts *sitter.Language, st pathStep) (walkStep, bool) {
	var s walkStep
	if st.field != "" {
		s.field = ts.FieldIdForName(st.field)
		if s.field == 0 {
			return s, false
		}
	}
	switch {
	case st.kind == "_" && st.named:
		s.match = C.WINNOW_NAMED
	case st.kind == "_":
		s.match = C.WINNOW_ANY
	default:
		s.symbol = ts.IdForNodeKind(st.kind, st.named)
		if s.symbol == 0 || s.symbol != C.WINNOW_ERROR_SYMBOL && ts.NodeKindIsSupertype(s.symbol) {
			return s, false
		}
	}
	return s, true
}

// newWalkRules lays chains out in C memory for winnow_walk, and the
// symbols of roots, if not nil.
func newWalkRules(ts *sitter.Language, chains []walkChain, rules []walkRule, roots []rootKind) *walkRules {
	nsym := int(ts.NodeKindCount())
	// By captured symbol; wildcards last.
	key := func(c walkChain) int {
		if c.steps[0].match != C.WINNOW_EXACT || int(c.steps[0].symbol) >= nsym {
			return nsym
		}
		return int(c.steps[0].symbol)
	}
	chains = slices.Clone(chains)
	slices.SortStableFunc(chains, func(a, b walkChain) int { return cmp.Compare(key(a), key(b)) })
	nsteps := 0
	for _, c := range chains {
		nsteps += len(c.steps)
	}
	r := (*C.winnow_rules)(C.calloc(1, C.sizeof_winnow_rules))
	r.steps = (*C.winnow_step)(C.calloc(C.size_t(max(nsteps, 1)), C.sizeof_winnow_step))
	r.chains = (*C.winnow_chain)(C.calloc(C.size_t(max(len(chains), 1)), C.sizeof_winnow_chain))
	r.index = (*C.uint32_t)(C.calloc(C.size_t(nsym+1), 4))
	r.need_field = (*C.uint8_t)(C.calloc(C.size_t(max(nsym, 1)), 1))
	r.nchains = C.uint32_t(len(chains))
	r.nsymbols = C.uint32_t(nsym)
	steps := unsafe.Slice(r.steps, max(nsteps, 1))
	cchains := unsafe.Slice(r.chains, max(len(chains), 1))
	index := unsafe.Slice(r.index, nsym+1)
	needField := unsafe.Slice(r.need_field, max(nsym, 1))
	first := 0
	for i, c := range chains {
		cchains[i] = C.winnow_chain{first: C.uint32_t(first), len: C.uint32_t(len(c.steps)), rule: C.uint32_t(c.rule), span: C.uint32_t(c.span)}
		if c.span != 0 {
			r.need_nodes = true
		}
		for _, s := range c.steps {
			steps[first] = C.winnow_step{symbol: C.uint16_t(s.symbol), field: C.uint16_t(s.field), match: C.uint8_t(s.match)}
			first++
			if s.field == 0 {
				continue
			}
			if s.match != C.WINNOW_EXACT {
				r.field_all = true
			} else if int(s.symbol) < nsym {
				needField[s.symbol] = 1
			}
		}
	}
	if roots != nil {
		r.root = (*C.uint8_t)(C.calloc(C.size_t(max(nsym, 1)), 1))
		root := unsafe.Slice(r.root, max(nsym, 1))
		for _, k := range roots {
			sym := ts.IdForNodeKind(k.kind, k.named)
			switch {
			case sym == C.WINNOW_ERROR_SYMBOL:
				r.root_error = true
			case int(sym) < nsym:
				root[sym] = 1
			}
		}
	}
	// index[s] is the first chain capturing s or a later symbol.
	k := 0
	for s := 0; s <= nsym; s++ {
		for k < len(chains) && key(chains[k]) < s {
			k++
		}
		index[s] = C.uint32_t(k)
	}
	return &walkRules{c: r, rules: rules}
}

// A walkBuf is the C memory of one Parser's walks.
type walkBuf struct {
	b *C.winnow_walk_buf
}

func newWalkBuf() *walkBuf { return &walkBuf{b: C.winnow_walk_buf_new()} }

func (wb *walkBuf) close() {
	if wb.b != nil {
		C.winnow_walk_buf_free(wb.b)
		wb.b = nil
	}
}

// walk runs the chains over the tree under root, keeping the uses they
// match for forEachUse, and lists the roots of the query's patterns.
func (wb *walkBuf) walk(w *walkRules, root *sitter.Node) error {
	if wb.b == nil {
		return errNoMemory
	}
	if w == nil || w.c.nchains == 0 && w.c.root == nil {
		wb.b.nuses, wb.b.nroots = 0, 0
		return nil
	}
	if !C.winnow_walk(*(*C.TSNode)(unsafe.Pointer(root)), w.c, wb.b) {
		return fmt.Errorf("walk: %w", errNoMemory)
	}
	return nil
}

// roots returns the nodes the last walk listed (C memory) and their
// number.
func (wb *walkBuf) roots() (unsafe.Pointer, int) {
	return unsafe.Pointer(wb.b.roots), int(wb.b.nroots)
}

// forEachUse calls fn with each use the last walk found, in document
// order, and the span its rule's spanPreds read.
func (wb *walkBuf) forEachUse(w *walkRules, fn func(use, span byteSpan, rule *walkRule)) {
	if w == nil || wb.b.nuses == 0 {
		return
	}
	for _, u := range unsafe.Slice(wb.b.uses, wb.b.nuses) {
		fn(byteSpan{uint32(u.start), uint32(u.end)}, byteSpan{uint32(u.span_start), uint32(u.span_end)}, &w.rules[u.rule])
	}
}

// close frees the rules' C memory. Languages keep theirs for the
// process; benchmarks that load a language many times free them.
func (w *walkRules) close() {
	if w == nil || w.c == nil {
		return
	}
	C.free(unsafe.Pointer(w.c.steps))
	C.free(unsafe.Pointer(w.c.chains))
	C.free(unsafe.Pointer(w.c.index))
	C.free(unsafe.Pointer(w.c.need_field))
	C.free(unsafe.Pointer(w.c.root))
	C.free(unsafe.Pointer(w.c))
	w.c = nil
}
