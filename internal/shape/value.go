package shape

import "iter"

// A kind is the JSON type of a node: a value's, or kindKey for an object
// key.
type kind uint8

const (
	kindNull kind = iota
	kindFalse
	kindTrue
	kindNumber
	kindString
	kindArray
	kindObject
	kindKey
)

// A tape is a parsed JSON document as a flat slice of nodes in document
// order (preorder): a container's node comes first, then its children,
// an object's as key and value node pairs. It keeps what map[string]any
// loses: the order of an object's members (and duplicate keys, should a
// document have them) and the exact text of every number, so that "1e400"
// and "0.10" survive a re-encoding unchanged.
//
// Nodes do not hold strings. A number's or string's text is a span of
// src, the text that was parsed, or, for a string that had escapes, of
// unesc, where the parser wrote its decoded contents. A document is
// therefore one slice of nodes and at most one string, however many
// values it has.
type tape struct {
	nodes []node
	src   string // the parsed text
	unesc string // decoded contents of strings with escapes
	buf   []byte // unesc while it is written; see finish
	// cells and ends are appendTable's grid, kept to be reused.
	cells []byte
	ends  []int
}

// A node is one value or object key of a tape.
type node struct {
	kind kind
	// esc says that the text is a span of unesc rather than of src.
	esc bool
	// raw marks a string or key read from a JSON string literal without
	// escapes: its text holds no quote, backslash or control character.
	raw bool
	// ascii marks a raw string or key, read by the parser, whose text is
	// all ASCII; it is false when not known.
	ascii bool
	// For a scalar or key, a and b are the span of its text: a number's
	// literal or a string's decoded contents. For an array or object, a
	// is the number of elements or members and b the index of the node
	// after its last descendant.
	a, b int32
}

// reset empties t for a new document parsed from src, keeping its
// memory.
func (t *tape) reset(src string) {
	t.nodes, t.buf = t.nodes[:0], t.buf[:0]
	t.src, t.unesc = src, ""
}

// finish makes the decoded contents written to buf readable as unesc.
// It must be called once all nodes are added and before any text is read.
func (t *tape) finish() {
	if len(t.buf) > 0 {
		t.unesc = string(t.buf)
	}
}

// text returns the literal of number node i or the contents of string or
// key node i.
func (t *tape) text(i int) string {
	n := t.nodes[i]
	if n.esc {
		return t.unesc[n.a:n.b]
	}
	return t.src[n.a:n.b]
}

// peek returns the text of node n of t while t is being built, before
// finish. It allocates for a string with escapes: it is for error
// messages.
func (t *tape) peek(n node) string {
	if n.esc {
		return string(t.buf[n.a:n.b])
	}
	return t.src[n.a:n.b]
}

// sameText reports whether nodes m and n of t have the same text, while t
// is being built.
func (t *tape) sameText(m, n node) bool {
	switch {
	case m.esc && n.esc:
		return string(t.buf[m.a:m.b]) == string(t.buf[n.a:n.b])
	case m.esc:
		return string(t.buf[m.a:m.b]) == t.src[n.a:n.b]
	case n.esc:
		return t.src[m.a:m.b] == string(t.buf[n.a:n.b])
	}
	return t.src[m.a:m.b] == t.src[n.a:n.b]
}

// end returns the index of the node after node i and its descendants.
func (t *tape) end(i int) int {
	if n := t.nodes[i]; n.kind == kindArray || n.kind == kindObject {
		return int(n.b)
	}
	return i + 1
}

// count returns the number of elements or members of container node i.
func (t *tape) count(i int) int { return int(t.nodes[i].a) }

// elems yields the index of each element node of array node i.
func (t *tape) elems(i int) iter.Seq[int] {
	return func(yield func(int) bool) {
		e := i + 1
		for range t.count(i) {
			if !yield(e) {
				return
			}
			e = t.end(e)
		}
	}
}

// members yields the index of each key node of object node i; the
// member's value is the node after its key.
func (t *tape) members(i int) iter.Seq[int] {
	return func(yield func(int) bool) {
		k := i + 1
		for range t.count(i) {
			if !yield(k) {
				return
			}
			k = t.end(k + 1)
		}
	}
}

// isContainer reports whether node i is an array or an object.
func (t *tape) isContainer(i int) bool {
	k := t.nodes[i].kind
	return k == kindArray || k == kindObject
}

// add appends a scalar or key node whose text is src[start:end].
func (t *tape) add(k kind, start, end int) {
	t.nodes = append(t.nodes, node{kind: k, a: int32(start), b: int32(end)})
}

// open appends the node of a container whose children follow, and
// returns its index for close.
func (t *tape) open(k kind) int {
	t.nodes = append(t.nodes, node{kind: k})
	return len(t.nodes) - 1
}

// close records that container node i, opened with open, has n children
// and that its last descendant is the last node added.
func (t *tape) close(i, n int) {
	t.nodes[i].a, t.nodes[i].b = int32(n), int32(len(t.nodes))
}

// appendTree appends the nodes of one value and its descendants, cut
// from a tape whose texts are t's and where the value's node was at index
// origin: the containers' ends are shifted to the nodes' new place.
func (t *tape) appendTree(tree []node, origin int) {
	shift := int32(len(t.nodes) - origin)
	for _, n := range tree {
		if n.kind == kindArray || n.kind == kindObject {
			n.b += shift
		}
		t.nodes = append(t.nodes, n)
	}
}

// equal reports whether a and b are the same JSON: the same types, the
// same string contents, the same number text, the same elements and the
// same members in the same order. The tapes' layout makes it one pass
// over their nodes.
func equal(a, b *tape) bool {
	if len(a.nodes) != len(b.nodes) {
		return false
	}
	for i, n := range a.nodes {
		m := b.nodes[i]
		switch {
		case n.kind != m.kind:
			return false
		case n.kind == kindArray || n.kind == kindObject:
			if n.a != m.a {
				return false
			}
		case n.kind == kindNumber || n.kind == kindString || n.kind == kindKey:
			if a.text(i) != b.text(i) {
				return false
			}
		}
	}
	return true
}
