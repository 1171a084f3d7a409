package lang

/*
#include "captures.h"

// From tree-sitter's api.h (v0.25), as captures.h.
typedef struct TSTreeCursor {
	const void *tree;
	const void *id;
	uint32_t context[3];
} TSTreeCursor;

extern uint16_t ts_node_symbol(TSNode self);
extern bool ts_node_is_named(TSNode self);
extern TSTreeCursor ts_tree_cursor_new(TSNode node);
extern void ts_tree_cursor_delete(TSTreeCursor *self);
extern TSNode ts_tree_cursor_current_node(const TSTreeCursor *self);
extern bool ts_tree_cursor_goto_first_child(TSTreeCursor *self);
extern bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *self);
extern bool ts_tree_cursor_goto_parent(TSTreeCursor *self);

// Not in api.h, but what the query cursor itself reads of each node
// (tree_cursor.h, v0.25): compiled into go-tree-sitter's runtime.
extern void ts_tree_cursor_current_status(const TSTreeCursor *self, uint16_t *field_id,
	bool *has_later_siblings, bool *has_later_named_siblings,
	bool *can_have_later_siblings_with_this_field, uint16_t *supertypes, unsigned *supertype_count);

enum { WINNOW_EXACT = 0, WINNOW_NAMED = 1, WINNOW_ANY = 2 };
enum { WINNOW_DEAD = 8 };

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
	uint32_t caps, ncaps; // captures[caps:caps+ncaps], for a chain that makes matches
} winnow_chain;

// A capture of a chain: the node level steps above the captured node,
// as capture index of the language's query.
typedef struct {
	uint32_t level, index;
} winnow_chain_capture;

// The chains of one language, by the symbol of their captured node:
// chains[index[s]:index[s+1]] capture symbol s;
// chains[index[nsymbols]:nchains] capture a wildcard.
typedef struct {
	winnow_step *steps;
	winnow_chain *chains;
	uint32_t nchains;
	winnow_chain_capture *captures;
	uint32_t *index;
	uint32_t nsymbols;
	// field_parent flags, per symbol, the nodes whose children's fields
	// a step reads (field_parent_all: any node's).
	uint8_t *field_parent;
	bool field_parent_all;
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
	uint32_t first, count; // its match's captures, caps[first:first+count]
} winnow_use;

// What one walk found, in buffers kept from walk to walk, and the
// walk's stack of ancestors.
typedef struct {
	winnow_use *uses;
	uint32_t nuses, capuses;
	TSQueryCapture *caps;
	winnow_span *spans;
	uint32_t ncaps, capcaps;
	uint16_t *symbols, *fields;
	uint8_t *named;
	uint8_t *fieldok; // no earlier sibling with the node's field ended the query's states for it
	uint16_t *dead;   // per depth, WINNOW_DEAD fields no later child can match
	uint8_t *ndead;
	TSNode *nodes; // when the rules need them
	uint32_t capdepth;
	TSNode *roots; // where the query's patterns can match, in document order
	uint32_t nroots, caproots;
} winnow_walk_buf;

static bool winnow_step_matches(const winnow_step *s, uint16_t symbol, uint16_t field, uint8_t named, uint8_t fieldok) {
	if (s->field && (s->field != field || !fieldok)) {
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
		if (!winnow_step_matches(&s[i], b->symbols[d], b->fields[d], b->named[d], b->fieldok[d])) {
			return false;
		}
	}
	return true;
}

// winnow_regrow is realloc(p, size), or p, unchanged, with *ok false
// when memory ran out.
static void *winnow_regrow(void *p, size_t size, bool *ok) {
	void *q = realloc(p, size);
	if (q == NULL) {
		*ok = false;
		return p;
	}
	return q;
}

static bool winnow_push(winnow_walk_buf *b, uint32_t depth) {
	if (depth < b->capdepth) {
		return true;
	}
	uint32_t n = b->capdepth ? 2 * b->capdepth : 256;
	bool ok = true;
	b->symbols = winnow_regrow(b->symbols, n * sizeof *b->symbols, &ok);
	b->fields = winnow_regrow(b->fields, n * sizeof *b->fields, &ok);
	b->named = winnow_regrow(b->named, n * sizeof *b->named, &ok);
	b->fieldok = winnow_regrow(b->fieldok, n * sizeof *b->fieldok, &ok);
	b->dead = winnow_regrow(b->dead, n * WINNOW_DEAD * sizeof *b->dead, &ok);
	b->ndead = winnow_regrow(b->ndead, n * sizeof *b->ndead, &ok);
	b->nodes = winnow_regrow(b->nodes, n * sizeof *b->nodes, &ok);
	if (ok) {
		b->capdepth = n;
	}
	return ok;
}

static bool winnow_emit(const winnow_rules *r, winnow_walk_buf *b, TSNode n, const winnow_chain *c, uint32_t depth) {
	if (b->nuses == b->capuses) {
		uint32_t c = b->capuses ? 2 * b->capuses : 1024;
		winnow_use *u = realloc(b->uses, c * sizeof *u);
		if (u == NULL) {
			return false;
		}
		b->uses = u;
		b->capuses = c;
	}
	winnow_use u = {ts_node_start_byte(n), ts_node_end_byte(n), c->rule, 0, 0, b->ncaps, c->ncaps};
	if (c->span) {
		TSNode a = b->nodes[depth - c->span];
		u.span_start = ts_node_start_byte(a);
		u.span_end = ts_node_end_byte(a);
	}
	if (c->ncaps) {
		if (!winnow_grow_captures(&b->caps, &b->spans, b->ncaps, &b->capcaps, c->ncaps)) {
			return false;
		}
		for (uint32_t i = 0; i < c->ncaps; i++) {
			const winnow_chain_capture *cc = &r->captures[c->caps + i];
			TSNode a = cc->level ? b->nodes[depth - cc->level] : n;
			winnow_put_capture(b->caps, b->spans, &b->ncaps, (TSQueryCapture){a, cc->index});
		}
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
		if (winnow_chain_matches(r, c, b, depth) && !winnow_emit(r, b, n, c, depth)) {
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
	b->ncaps = 0;
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
		if (r->need_nodes) {
			b->nodes[depth] = n;
		}
		// A node's field, as the query cursor reads it. A query's state
		// waiting for a child in a field ends at the first child in that
		// field that the grammar says can have no later sibling in it,
		// whether or not that child matches: later ones never match.
		uint16_t field = 0;
		bool fieldok = true, later = true;
		if (depth > 0) {
			uint16_t parent = b->symbols[depth - 1];
			if (r->field_parent_all || (parent < r->nsymbols && r->field_parent[parent])) {
				bool siblings, named_siblings;
				uint16_t supertypes[8];
				unsigned nsupertypes = 8;
				ts_tree_cursor_current_status(&c, &field, &siblings, &named_siblings, &later, supertypes, &nsupertypes);
				const uint16_t *dead = b->dead + (depth - 1) * WINNOW_DEAD;
				for (uint8_t i = 0; field && i < b->ndead[depth - 1]; i++) {
					if (dead[i] == field) {
						fieldok = false;
					}
				}
			}
		}
		b->fields[depth] = field;
		b->fieldok[depth] = fieldok;
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
		if (field && fieldok && !later && b->ndead[depth - 1] < WINNOW_DEAD) {
			b->dead[(depth - 1) * WINNOW_DEAD + b->ndead[depth - 1]++] = field;
		}
		if (ts_tree_cursor_goto_first_child(&c)) {
			b->ndead[depth] = 0;
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
	free(b->fieldok);
	free(b->dead);
	free(b->ndead);
	free(b->nodes);
	free(b->roots);
	free(b->caps);
	free(b->spans);
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
	names []string   // of captures: the query's, then the definition chains'
}

// rooted reports whether the walk lists the nodes at which the query's
// patterns can start.
func (w *walkRules) rooted() bool { return w != nil && w.c.root != nil }

// A walkRule is what a chain's matches mean: the reference kind of a
// reference chain, the pattern (its place in the query source) of a
// definition chain, and the text predicates on the chain's leaf and on
// one ancestor of it (the chain's span).
type walkRule struct {
	kind      symbol.RefKind
	pattern   uint
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
	steps    []walkStep // from the captured node up
	rule     int
	span     int            // steps[span] is the node the rule's spanPreds read; 0 if none
	captures []chainCapture // of a definition chain
}

// A chainCapture is a capture of a definition chain: the node level
// steps above the leaf.
type chainCapture struct {
	level int
	name  string
}

// pathStep is one node of a chain as parsed, from the root down.
type pathStep struct {
	kind     string
	named    bool
	field    string
	captures []string
}

// walkChains reads a pattern as chains for the walk. It returns no
// chains for a pattern the query must keep: one with captures chains
// do not take, or with syntax the walk does not match (tree-sitter
// reports the errors of the patterns it keeps).
func walkChains(ts *sitter.Language, src string) ([]walkChain, []walkRule) {
	if !strings.Contains(src, "@reference.") && !strings.Contains(src, "@definition.") && !strings.Contains(src, "@scope") {
		return nil, nil
	}
	n, err := parsePattern(src)
	if err != nil {
		return nil, nil
	}
	paths, err := expandPaths(n, "", nil)
	if err != nil {
		return nil, nil
	}
	var (
		chains []walkChain
		rules  []walkRule
	)
	for _, path := range paths {
		c, rule, ok := chainOf(ts, path, n.preds)
		if !ok {
			return nil, nil
		}
		c.rule = len(rules)
		rules = append(rules, rule)
		chains = append(chains, c)
	}
	return chains, rules
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

// chainOf makes one path a chain, of one of two sorts. A reference
// chain's leaf captures one reference and nothing else; a definition
// chain captures definitions, scopes, names and parents, each at some
// step (imports and the package stay in the query: the order of their
// matches counts). Helpers ("_…") may be captured anywhere; predicates
// read the leaf or one other step, and every kind and field is the
// grammar's.
func chainOf(ts *sitter.Language, path []pathStep, preds []qpred) (walkChain, walkRule, bool) {
	var (
		rule walkRule
		c    walkChain
		ref  bool
	)
	leaf := len(path) - 1
	for i, st := range path {
		for _, name := range st.captures {
			if strings.HasPrefix(name, "_") {
				continue
			}
			r, err := parseRole(name)
			if err != nil {
				return c, rule, false // the query reports it
			}
			switch r.kind {
			case roleReference:
				if i != leaf || ref {
					return c, rule, false
				}
				ref, rule.kind = true, r.ref
			case roleDefinition, roleScope, roleName, roleParent:
				c.captures = append(c.captures, chainCapture{level: leaf - i, name: name})
			default:
				return c, rule, false
			}
		}
	}
	if ref == (len(c.captures) > 0) {
		return c, rule, false // neither sort, or both
	}
	for _, p := range preds {
		i := slices.IndexFunc(path, func(st pathStep) bool { return slices.Contains(st.captures, p.capture) })
		if i < 0 {
			continue // another alternative's capture: not in this match
		}
		into := &rule.preds
		if level := leaf - i; level != 0 {
			if c.span != 0 && c.span != level {
				return c, rule, false
			}
			c.span, into = level, &rule.spanPreds
		}
		wp := walkPred{positive: !strings.HasPrefix(p.op, "not-")}
		if strings.HasSuffix(p.op, "match?") {
			re, err := regexp.Compile(p.args[0])
			if err != nil {
				return c, rule, false
			}
			wp.re = re
		} else {
			wp.values = p.args
		}
		*into = append(*into, wp)
	}
	for i := leaf; i >= 0; i-- {
		st, ok := resolveStep(ts, path[i])
		if !ok {
			return c, rule, false
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
// symbols of roots, if not nil. The captures of definition chains are
// numbered after the query's captures, names; the rules' names holds
// both.
func newWalkRules(ts *sitter.Language, chains []walkChain, rules []walkRule, roots []rootKind, names []string) *walkRules {
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
	nsteps, ncaps := 0, 0
	for _, c := range chains {
		nsteps += len(c.steps)
		ncaps += len(c.captures)
	}
	names = slices.Clip(names)
	r := (*C.winnow_rules)(C.calloc(1, C.sizeof_winnow_rules))
	r.steps = (*C.winnow_step)(C.calloc(C.size_t(max(nsteps, 1)), C.sizeof_winnow_step))
	r.chains = (*C.winnow_chain)(C.calloc(C.size_t(max(len(chains), 1)), C.sizeof_winnow_chain))
	r.index = (*C.uint32_t)(C.calloc(C.size_t(nsym+1), 4))
	r.field_parent = (*C.uint8_t)(C.calloc(C.size_t(max(nsym, 1)), 1))
	r.captures = (*C.winnow_chain_capture)(C.calloc(C.size_t(max(ncaps, 1)), C.sizeof_winnow_chain_capture))
	captures := unsafe.Slice(r.captures, max(ncaps, 1))
	ncaps = 0
	r.nchains = C.uint32_t(len(chains))
	r.nsymbols = C.uint32_t(nsym)
	steps := unsafe.Slice(r.steps, max(nsteps, 1))
	cchains := unsafe.Slice(r.chains, max(len(chains), 1))
	index := unsafe.Slice(r.index, nsym+1)
	fieldParent := unsafe.Slice(r.field_parent, max(nsym, 1))
	first := 0
	for i, c := range chains {
		cchains[i] = C.winnow_chain{first: C.uint32_t(first), len: C.uint32_t(len(c.steps)), rule: C.uint32_t(c.rule), span: C.uint32_t(c.span)}
		if c.span != 0 || len(c.captures) > 0 {
			r.need_nodes = true
		}
		cchains[i].caps, cchains[i].ncaps = C.uint32_t(ncaps), C.uint32_t(len(c.captures))
		for _, cc := range c.captures {
			index := slices.Index(names, cc.name)
			if index < 0 {
				index = len(names)
				names = append(names, cc.name)
			}
			captures[ncaps] = C.winnow_chain_capture{level: C.uint32_t(cc.level), index: C.uint32_t(index)}
			ncaps++
		}
		for k, s := range c.steps {
			steps[first] = C.winnow_step{symbol: C.uint16_t(s.symbol), field: C.uint16_t(s.field), match: C.uint8_t(s.match)}
			first++
			if s.field == 0 || k+1 == len(c.steps) {
				continue
			}
			// The step above reads its children's fields.
			if p := c.steps[k+1]; p.match != C.WINNOW_EXACT {
				r.field_parent_all = true
			} else if int(p.symbol) < nsym {
				fieldParent[p.symbol] = 1
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
	return &walkRules{c: r, rules: rules, names: names}
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
	if w == nil || w.c == nil || w.c.nchains == 0 && w.c.root == nil {
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

// forEachUse calls ref with each use the last walk found by a
// reference chain, and match with each match of a definition chain,
// in document order. The captures are valid during the call only.
func (wb *walkBuf) forEachUse(w *walkRules, ref func(use, span byteSpan, rule *walkRule),
	match func(use, span byteSpan, rule *walkRule, caps []sitter.QueryCapture, spans []byteSpan)) {
	if w == nil || wb.b.nuses == 0 {
		return
	}
	caps, spans := captureSlices(wb.b.caps, wb.b.spans, wb.b.ncaps)
	for _, u := range unsafe.Slice(wb.b.uses, wb.b.nuses) {
		use, span := byteSpan{uint32(u.start), uint32(u.end)}, byteSpan{uint32(u.span_start), uint32(u.span_end)}
		if u.count == 0 {
			ref(use, span, &w.rules[u.rule])
			continue
		}
		first, end := uint(u.first), uint(u.first+u.count)
		match(use, span, &w.rules[u.rule], caps[first:end:end], spans[first:end:end])
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
	C.free(unsafe.Pointer(w.c.field_parent))
	C.free(unsafe.Pointer(w.c.root))
	C.free(unsafe.Pointer(w.c.captures))
	C.free(unsafe.Pointer(w.c))
	w.c = nil
}
