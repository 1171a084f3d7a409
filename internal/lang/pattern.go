package lang

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// This file reads the patterns of a query's source: enough of
// tree-sitter's query syntax to cut the source into its top-level
// patterns and to parse the simple ones, so that the reference patterns
// a walk can match (walk.go) leave the query. Anything it does not
// understand stays in the query for tree-sitter to compile, and to
// reject if it is wrong.

// A qpattern is one top-level pattern of a query source: src[start:end].
type qpattern struct {
	start, end int
}

// splitPatterns cuts a query source into its top-level patterns, in
// order. A pattern ends at its last token: comments between patterns
// belong to none.
func splitPatterns(src string) ([]qpattern, error) {
	toks, err := lexQuery(src)
	if err != nil {
		return nil, err
	}
	var (
		pats  []qpattern
		depth int
	)
	for _, t := range toks {
		text := src[t.start:t.end]
		// A node, an alternation, a grouping, an anonymous node or a
		// wildcard as a whole pattern.
		starts := depth == 0 && (text == "(" || text == "[" || text == "_" || text[0] == '"')
		switch text {
		case "(", "[":
			depth++
		case ")", "]":
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("query: unbalanced %q at byte %d", text[0], t.start)
			}
		}
		if starts {
			pats = append(pats, t)
		} else if len(pats) == 0 {
			return nil, fmt.Errorf("query: unexpected %q at byte %d", text[0], t.start)
		}
		pats[len(pats)-1].end = t.end
	}
	if depth != 0 {
		return nil, errors.New("query: unbalanced parentheses at end")
	}
	return pats, nil
}

func skipString(src string, i int) (int, error) {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return 0, fmt.Errorf("query: unterminated string at byte %d", i)
}

func isQueryWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '-' || c == '.' || c == '?' || c == '!' || c >= utf8.RuneSelf
}

// A qnode is a parsed node pattern, limited to what chains need.
type qnode struct {
	kind     string // node kind; "_" is any node, "(_)" any named node
	named    bool   // (kind) rather than "kind"
	alts     []*qnode
	children []qchild
	captures []string
	preds    []qpred
}

type qchild struct {
	field string
	node  *qnode
}

// A qpred is a text predicate on one capture: #eq? @c "text" and the
// like, with string arguments only.
type qpred struct {
	op      string // "eq?", "not-eq?", "match?", "not-match?", "any-of?", "not-any-of?"
	capture string
	args    []string
}

// errUnsupported marks a pattern outside what parsePattern reads; the
// pattern stays in the query.
var errUnsupported = errors.New("pattern not supported by the walk")

// queryTokens splits one pattern into tokens: brackets, strings (with
// their quotes), captures (with their @), words, and the single bytes
// of the syntax that parsePattern refuses (anchors, quantifiers).
func queryTokens(src string) ([]string, error) {
	spans, err := lexQuery(src)
	if err != nil {
		return nil, err
	}
	toks := make([]string, len(spans))
	for i, t := range spans {
		toks[i] = src[t.start:t.end]
	}
	return toks, nil
}

// lexQuery is queryTokens as spans of src; comments and blanks are no
// tokens.
func lexQuery(src string) ([]qpattern, error) {
	var toks []qpattern
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '"':
			j, err := skipString(src, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, qpattern{i, j})
			i = j
		case c == '@' || c == '#' || isQueryWordByte(c):
			j := i + 1
			for j < len(src) && (isQueryWordByte(src[j]) || src[j] == ':') {
				j++
			}
			toks = append(toks, qpattern{i, j})
			i = j
		default:
			toks = append(toks, qpattern{i, i + 1})
			i++
		}
	}
	return toks, nil
}

// parsePattern parses one top-level pattern made only of nodes,
// alternations, fields, captures and text predicates on captures.
// Anything else (anchors, quantifiers, negated fields, supertypes,
// predicates between captures) is errUnsupported.
func parsePattern(src string) (*qnode, error) {
	toks, err := queryTokens(src)
	if err != nil {
		return nil, err
	}
	p := &patternParser{toks: toks}
	n, err := p.top()
	if err != nil {
		return nil, err
	}
	if p.i != len(p.toks) {
		return nil, errUnsupported // several patterns in one, or trailing syntax
	}
	return n, nil
}

type patternParser struct {
	toks []string
	i    int
}

func (p *patternParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *patternParser) next() string {
	t := p.peek()
	p.i++
	return t
}

// top reads a node, or a grouping of one node and its predicates:
// ((node) (#pred …)).
func (p *patternParser) top() (*qnode, error) {
	if p.peek() == "(" && p.i+1 < len(p.toks) && (p.toks[p.i+1] == "(" || p.toks[p.i+1] == "[" ||
		strings.HasPrefix(p.toks[p.i+1], `"`)) {
		p.next()
		n, err := p.node()
		if err != nil {
			return nil, err
		}
		for p.peek() == "(" {
			pred, err := p.predicate()
			if err != nil {
				return nil, err
			}
			n.preds = append(n.preds, pred)
		}
		if p.next() != ")" {
			return nil, errUnsupported
		}
		if err := p.captures(n); err != nil {
			return nil, err
		}
		return n, nil
	}
	return p.node()
}

// node reads one node pattern and the captures after it.
func (p *patternParser) node() (*qnode, error) {
	n := &qnode{}
	switch t := p.next(); {
	case t == "(":
		kind := p.next()
		if kind == "" || !isQueryWordByte(kind[0]) || strings.ContainsAny(kind, ":/") || kind[0] == '!' {
			return nil, errUnsupported
		}
		n.kind, n.named = kind, true
		err := p.until(")", func() error {
			c, err := p.child()
			n.children = append(n.children, c)
			return err
		})
		if err != nil {
			return nil, err
		}
	case t == "[":
		err := p.until("]", func() error {
			alt, err := p.node()
			n.alts = append(n.alts, alt)
			return err
		})
		if err != nil {
			return nil, err
		}
	case t == "_":
		n.kind = "_"
	case strings.HasPrefix(t, `"`):
		s, err := unquoteQuery(t)
		if err != nil {
			return nil, err
		}
		n.kind = s
	default:
		return nil, errUnsupported
	}
	if err := p.captures(n); err != nil {
		return nil, err
	}
	return n, nil
}

// until calls item for each item up to the token end, and reads past it;
// a pattern that ends first is unsupported.
func (p *patternParser) until(end string, item func() error) error {
	for p.peek() != end {
		if p.peek() == "" {
			return errUnsupported
		}
		if err := item(); err != nil {
			return err
		}
	}
	p.next()
	return nil
}

func (p *patternParser) captures(n *qnode) error {
	for strings.HasPrefix(p.peek(), "@") {
		n.captures = append(n.captures, p.next()[1:])
	}
	switch p.peek() {
	case "*", "+", "?":
		return errUnsupported
	}
	return nil
}

// child reads one child of a node: [field:] node. A predicate among
// the children is read as one of the node's.
func (p *patternParser) child() (qchild, error) {
	t := p.peek()
	if field, ok := strings.CutSuffix(t, ":"); ok && field != "" && !strings.ContainsAny(field, ":!") {
		p.next()
		n, err := p.node()
		return qchild{field: field, node: n}, err
	}
	if t == "(" && p.i+1 < len(p.toks) && strings.HasPrefix(p.toks[p.i+1], "#") {
		return qchild{}, errUnsupported // a predicate inside a node: rare, left to the query
	}
	n, err := p.node()
	return qchild{node: n}, err
}

// predicate reads (#op @capture "arg" …).
func (p *patternParser) predicate() (qpred, error) {
	p.next() // (
	op, ok := strings.CutPrefix(p.next(), "#")
	if !ok {
		return qpred{}, errUnsupported
	}
	switch op {
	case "eq?", "not-eq?", "match?", "not-match?", "any-of?", "not-any-of?":
	default:
		return qpred{}, errUnsupported
	}
	capture, ok := strings.CutPrefix(p.next(), "@")
	if !ok {
		return qpred{}, errUnsupported
	}
	pred := qpred{op: op, capture: capture}
	for p.peek() != ")" {
		t := p.next()
		if !strings.HasPrefix(t, `"`) {
			return qpred{}, errUnsupported // another capture, or the end of the source
		}
		s, err := unquoteQuery(t)
		if err != nil {
			return qpred{}, err
		}
		pred.args = append(pred.args, s)
	}
	p.next()
	if len(pred.args) == 0 || (op != "any-of?" && op != "not-any-of?" && len(pred.args) != 1) {
		return qpred{}, errUnsupported
	}
	return pred, nil
}

// unquoteQuery decodes a query string literal: tree-sitter's escapes
// are \n, \r, \t, \0 and a backslash before any other character.
func unquoteQuery(t string) (string, error) {
	t = t[1 : len(t)-1]
	if !strings.Contains(t, `\`) {
		return t, nil
	}
	var b strings.Builder
	for i := 0; i < len(t); i++ {
		if t[i] != '\\' || i+1 == len(t) {
			b.WriteByte(t[i])
			continue
		}
		i++
		switch t[i] {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case '0':
			b.WriteByte(0)
		default:
			b.WriteByte(t[i])
		}
	}
	return b.String(), nil
}

// A rootKind is a node kind a pattern's root can match: a kind, or any
// node at all.
type rootKind struct {
	kind  string
	named bool
	any   bool // a wildcard or a supertype: any node
}

// patternRoots lists the kinds of node a top-level pattern can start at:
// its root node's, or each alternative's. ok is false for a pattern
// with more than one root (siblings at the top level, a quantified
// root), which only a query over the whole tree finds.
func patternRoots(src string) (roots []rootKind, ok bool) {
	toks, err := queryTokens(src)
	if err != nil {
		return nil, false
	}
	roots, end, ok := elementRoots(toks, 0)
	if !ok {
		return nil, false
	}
	// Only captures may follow the root.
	for _, t := range toks[end:] {
		if !strings.HasPrefix(t, "@") {
			return nil, false
		}
	}
	return roots, true
}

// elementRoots reads the element at toks[i] and returns the roots it
// can match and the index after it.
func elementRoots(toks []string, i int) ([]rootKind, int, bool) {
	if i >= len(toks) {
		return nil, i, false
	}
	switch t := toks[i]; {
	case t == "_":
		return []rootKind{{any: true}}, i + 1, true
	case strings.HasPrefix(t, `"`):
		s, err := unquoteQuery(t)
		return []rootKind{{kind: s}}, i + 1, err == nil
	case t == "[":
		var roots []rootKind
		j := i + 1
		for j < len(toks) && toks[j] != "]" {
			if strings.HasPrefix(toks[j], "@") {
				j++
				continue
			}
			r, next, ok := elementRoots(toks, j)
			if !ok || next < len(toks) && isQuantifier(toks[next]) {
				return nil, j, false
			}
			roots, j = append(roots, r...), next
		}
		return roots, j + 1, j < len(toks) && len(roots) > 0
	case t == "(":
		if i+1 >= len(toks) {
			return nil, i, false
		}
		end := closeOf(toks, i)
		if end < 0 {
			return nil, i, false
		}
		switch k := toks[i+1]; {
		case k == "(" || k == "[" || strings.HasPrefix(k, `"`):
			// A grouping: rooted when it holds one node and predicates.
			var roots []rootKind
			nodes := 0
			for j := i + 1; j < end; {
				switch {
				case toks[j] == "(" && j+1 < end && strings.HasPrefix(toks[j+1], "#"):
					j = closeOf(toks, j) + 1
				case strings.HasPrefix(toks[j], "@"):
					j++
				default:
					r, next, ok := elementRoots(toks, j)
					if !ok || next < end && isQuantifier(toks[next]) {
						return nil, j, false
					}
					roots, j = r, next
					nodes++
				}
			}
			return roots, end + 1, nodes == 1
		case k == "_":
			// Any node. (Narrowing it to the parents of a required child
			// would not help: tree-sitter starts such a pattern at its
			// first child, not rooted, and only a query over the whole
			// tree matches it.)
			return []rootKind{{any: true}}, end + 1, true
		case strings.HasPrefix(k, "#"):
			return nil, i, false
		case isQueryWordByte(k[0]) && !strings.HasSuffix(k, ":"):
			if toks[i+2] == "/" {
				return []rootKind{{any: true}}, end + 1, true // supertype/subtype
			}
			return []rootKind{{kind: k, named: true}}, end + 1, true
		}
	}
	return nil, i, false
}

// closeOf returns the index of the bracket closing toks[i], or -1.
func closeOf(toks []string, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		switch toks[j] {
		case "(", "[":
			depth++
		case ")", "]":
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

func isQuantifier(t string) bool { return t == "*" || t == "+" || t == "?" }
