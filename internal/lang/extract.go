package lang

import (
	"bytes"
	"cmp"
	"slices"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/winnowhq/winnow/internal/symbol"
)

// Limits on what one definition carries, so that a pathological file
// cannot blow up the index.
const (
	maxNameBytes      = 256
	maxSignatureLines = 8
	maxSignatureBytes = 600
	maxDocBytes       = 2000
	maxDeclLines      = 4 // signature of a definition without a body (fields, constants)
)

// extraction is the state of extracting one file.
type extraction struct {
	lang *Language
	src  []byte
	file *symbol.File

	defs    []*def
	byNode  map[uintptr]*def
	refs    []refUse
	imports map[importKey]int
	// quiet holds byte ranges with no references in them: definition
	// names, import statements, the package clause.
	quiet   [][2]uint
	pkgSeen bool
	lines   lineIndex // made on first use by lineIndex
	// linesBuf is memory for lines, from an earlier file.
	linesBuf lineIndex
}

// lineIndex returns the line index of the source, making it once.
func (x *extraction) lineIndex() lineIndex {
	if x.lines == nil {
		x.lines = appendLineIndex(x.linesBuf, x.src)
	}
	return x.lines
}

// importKey identifies one imported name of one statement, so that two
// patterns matching the same import (with and without its alias) yield
// one Import.
type importKey struct {
	stmt         uintptr
	module, name string
}

// def is one definition or scope found by the query.
type def struct {
	node    sitter.Node
	outer   *sitter.Node // node, or the wrapper that belongs to it
	kind    symbol.Kind
	scope   bool // qualifies names inside it, is not itself a symbol
	name    string
	parent  string // explicit container name from @parent
	pattern uint

	start, end uint
	enclosing  *def
	qual       string
	sym        int // index into file.Symbols, or -1
}

// refUse is one captured use; its text is src[start:end].
type refUse struct {
	start, end uint
	kind       symbol.RefKind
}

// collect walks the tree for the references the query leaves to the
// walk and for the nodes the query's patterns can start at, runs the
// query from those (over the whole tree when it cannot tell them) and
// records what each match captured, then the walk's references.
func (x *extraction) collect(cursor *sitter.QueryCursor, batch *matchBatch, wb *walkBuf, root *sitter.Node) error {
	x.byNode = make(map[uintptr]*def)
	x.imports = make(map[importKey]int)
	w := x.lang.walk
	if err := wb.walk(w, root); err != nil {
		return err
	}
	// Query patterns are numbered by their place in the query source, as
	// the walk's are, for match to rank them.
	match := x.match
	if ord := x.lang.ordinals; ord != nil {
		match = func(pattern uint, caps []sitter.QueryCapture, spans []byteSpan) {
			x.match(ord[pattern], caps, spans)
		}
	}
	var err error
	if w.rooted() {
		roots, n := wb.roots()
		err = batch.forEachMatchAt(cursor, x.lang.query, roots, n, x.src, match)
	} else {
		err = batch.forEachMatch(cursor, x.lang.query, root, x.src, match)
	}
	if err != nil {
		return err
	}
	wb.forEachUse(w, x.walkedRef, x.walkedMatch)
	return nil
}

// walkedRef records one use the walk found, if its rule's predicates hold.
func (x *extraction) walkedRef(use, span byteSpan, r *walkRule) {
	if x.walkHolds(use, span, r) {
		x.addRef(uint(use.start), uint(use.end), r.kind)
	}
}

// walkedMatch records one match of a definition chain, if its rule's
// predicates hold.
func (x *extraction) walkedMatch(use, span byteSpan, r *walkRule, caps []sitter.QueryCapture, spans []byteSpan) {
	if x.walkHolds(use, span, r) {
		x.match(r.pattern, caps, spans)
	}
}

func (x *extraction) walkHolds(use, span byteSpan, r *walkRule) bool {
	return holds(r.preds, x.bytesAt(use)) && holds(r.spanPreds, x.bytesAt(span))
}

// match records one match: caps are its captures, spans their nodes'
// byte ranges.
func (x *extraction) match(pattern uint, caps []sitter.QueryCapture, spans []byteSpan) {
	var (
		d       *def
		name    = -1 // index in caps
		parent  string
		imp     symbol.Import
		impNode = -1
	)
	for i := range caps {
		c := &caps[i]
		sp := spans[i]
		r := x.lang.roles[c.Index]
		switch r.kind {
		case roleDefinition:
			d = &def{node: c.Node, kind: r.def, pattern: pattern}
		case roleScope:
			d = &def{node: c.Node, scope: true, pattern: pattern}
		case roleName:
			name = i
		case roleParent:
			parent = normalizeName(x.textAt(sp))
		case roleReference:
			x.addRef(uint(sp.start), uint(sp.end), r.ref)
		case roleImport:
			impNode = i
		case roleImportModule:
			// Some grammars (Scala) give a dotted path as sibling segments.
			seg := trimQuotes(x.textAt(sp))
			if imp.Module != "" {
				seg = imp.Module + "." + seg
			}
			imp.Module = seg
		case roleImportName:
			imp.Name = strings.TrimSpace(x.textAt(sp))
		case roleImportAlias:
			imp.Alias = strings.TrimSpace(x.textAt(sp))
		case rolePackage:
			// The package name is a declaration, not a use.
			x.quiet = append(x.quiet, [2]uint{uint(sp.start), uint(sp.end)})
			if !x.pkgSeen {
				x.pkgSeen = true
				x.file.Package = normalizeName(x.textAt(sp))
			}
		}
	}
	if impNode >= 0 && (imp.Module != "" || imp.Name != "") {
		x.addImport(&caps[impNode].Node, spans[impNode], imp)
	}
	if d == nil || name < 0 {
		return
	}
	d.name = normalizeName(x.textAt(spans[name]))
	if d.name == "" || len(d.name) > maxNameBytes {
		return
	}
	d.parent = parent
	d.outer = x.outer(&d.node)
	d.start, d.end = d.outer.StartByte(), d.outer.EndByte()
	x.quiet = append(x.quiet, [2]uint{uint(spans[name].start), uint(spans[name].end)})
	// The same node can match several patterns; the earliest pattern in
	// the query file wins, so queries list specific patterns first.
	if prev, ok := x.byNode[d.node.Id()]; ok {
		if prev.pattern <= d.pattern {
			return
		}
		*prev = *d
		return
	}
	x.byNode[d.node.Id()] = d
	x.defs = append(x.defs, d)
}

func (x *extraction) addImport(stmt *sitter.Node, sp byteSpan, imp symbol.Import) {
	k := importKey{stmt.Id(), imp.Module, imp.Name}
	if i, ok := x.imports[k]; ok {
		if x.file.Imports[i].Alias == "" {
			x.file.Imports[i].Alias = imp.Alias
		}
		return
	}
	if n := len(x.quiet); n == 0 || x.quiet[n-1][0] != uint(sp.start) {
		x.quiet = append(x.quiet, [2]uint{uint(sp.start), uint(sp.end)})
	}
	x.imports[k] = len(x.file.Imports)
	imp.Line = int(stmt.StartPosition().Row) + 1
	x.file.Imports = append(x.file.Imports, imp)
}

// addRef records a use. Uses are many (every identifier of a file), so
// this keeps only byte offsets: names become strings, and offsets line
// numbers, once per distinct use in resolveRefs.
func (x *extraction) addRef(start, end uint, kind symbol.RefKind) {
	if end <= start || end-start > maxNameBytes || end > uint(len(x.src)) {
		return
	}
	x.refs = append(x.refs, refUse{start: start, end: end, kind: kind})
}

// resolveWith nests definitions by containment, qualifies their names
// and turns them into symbols with symbolOf, then attributes references
// to scopes. symbolOf makes a definition's symbol once it is nested and
// qualified: the parser reads it from the syntax tree, the fast scanner
// from what its pass noted (scan.go).
func (x *extraction) resolveWith(symbolOf func(*def) symbol.Symbol) {
	x.resolveDefs(symbolOf)
	x.resolveRefs()
}

// resolveDefs is resolveWith's first half, the last that reads the
// syntax tree: references are attributed from spans and source alone.
func (x *extraction) resolveDefs(symbolOf func(*def) symbol.Symbol) {
	slices.SortFunc(x.defs, func(a, b *def) int {
		if c := cmp.Compare(a.start, b.start); c != 0 {
			return c
		}
		return cmp.Compare(b.end, a.end)
	})
	var stack []*def
	for _, d := range x.defs {
		stack = popUntilContains(stack, d.start, d.end)
		if len(stack) > 0 {
			d.enclosing = stack[len(stack)-1]
		}
		x.qualify(d)
		d.sym = -1
		if !d.scope {
			d.sym = len(x.file.Symbols)
			x.file.Symbols = append(x.file.Symbols, symbolOf(d))
		}
		stack = append(stack, d)
	}
}

func popUntilContains(stack []*def, start, end uint) []*def {
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		if top.start <= start && end <= top.end {
			break
		}
		stack = stack[:len(stack)-1]
	}
	return stack
}

// qualify sets d.qual and settles a function's kind: a function directly
// inside a type or a scope (or with an explicit receiver) is a method.
func (x *extraction) qualify(d *def) {
	container := x.containerQual(d)
	d.qual = join(container, d.name)
	if d.kind == symbol.Function && d.parent != "" {
		d.kind = symbol.Method
	}
	if e := d.enclosing; d.kind == symbol.Function && e != nil && (e.scope || e.kind.IsType()) {
		d.kind = symbol.Method
	}
}

// containerQual is the qualified name d's own name is appended to.
func (x *extraction) containerQual(d *def) string {
	pkg := ""
	if x.lang.rules.packageQualifies {
		pkg = x.file.Package
	}
	switch {
	case d.parent != "" && d.enclosing != nil && !d.enclosing.scope &&
		(d.enclosing.kind == symbol.Namespace || d.enclosing.kind == symbol.Module):
		// namespace net { void Conn::Send() {} } defines net.Conn.Send.
		return join(d.enclosing.qual, d.parent)
	case d.parent != "":
		return join(pkg, d.parent)
	case d.enclosing != nil:
		return d.enclosing.qual
	default:
		return pkg
	}
}

// parentQual is the qualified name of the definition that holds d, or "".
func (x *extraction) parentQual(d *def) string {
	if d.parent != "" || d.enclosing != nil {
		return x.containerQual(d)
	}
	return ""
}

func (x *extraction) symbol(d *def) symbol.Symbol {
	outer := d.outer
	c := &defContext{x: x, def: d, node: &d.node, outer: outer}
	s := symbol.Symbol{
		Name:      d.name,
		Qual:      d.qual,
		Kind:      d.kind,
		Path:      x.file.Path,
		Span:      span(outer),
		Signature: x.signature(outer, &d.node),
		Parent:    x.parentQual(d),
	}
	if f := x.lang.rules.bodyDoc; f != nil {
		s.Doc = f(c)
	}
	if s.Doc == "" {
		s.Doc = x.leadingDoc(outer)
	}
	s.Doc = truncate(s.Doc, maxDocBytes)
	if f := x.lang.rules.visibility; f != nil {
		s.Visibility = f(c)
	}
	return s
}

// resolveRefs attributes each use to its innermost enclosing definition
// and aggregates uses per scope, name and kind.
func (x *extraction) resolveRefs() {
	if len(x.refs) == 0 {
		return
	}
	// Several patterns can capture the same node (obj.m() is a call and a
	// member access); the most specific kind wins.
	slices.SortFunc(x.refs, func(a, b refUse) int {
		if c := cmp.Compare(a.start, b.start); c != 0 {
			return c
		}
		return cmp.Compare(refRank(a.kind), refRank(b.kind))
	})
	x.refs = slices.CompactFunc(x.refs, func(a, b refUse) bool { return a.start == b.start })
	// Uses are aggregated per scope, kind and name. Names are numbered
	// first, by a map keyed by the name alone, which lookups convert from
	// the bytes without allocating; -1 numbers a name that is no name.
	type group struct {
		scope *def
		kind  symbol.RefKind
		name  int32
	}
	names := make(map[string]int32)
	var nameOf []string // by number
	seen := make(map[group]int)
	lines := x.lineIndex()
	slices.SortFunc(x.quiet, func(a, b [2]uint) int { return cmp.Compare(a[0], b[0]) })
	imp := 0
	var stack []*def
	next := 0
	for _, r := range x.refs {
		// The first quiet range ending after r is the only one that can
		// hold it: later ones start after it, earlier ones ended before.
		for imp < len(x.quiet) && x.quiet[imp][1] <= r.start {
			imp++
		}
		if imp < len(x.quiet) && x.quiet[imp][0] <= r.start {
			continue
		}
		for next < len(x.defs) && x.defs[next].start <= r.start {
			d := x.defs[next]
			stack = popUntilContains(stack, d.start, d.end)
			stack = append(stack, d)
			next++
		}
		stack = popUntilContains(stack, r.start, r.start)
		var scope *def
		scopeQual := ""
		if len(stack) > 0 {
			scope = stack[len(stack)-1]
			scopeQual = scope.qual
		}
		text := x.src[r.start:r.end]
		id, ok := names[string(text)]
		if !ok {
			name := string(text)
			id = -1
			if !strings.ContainsAny(name, " \t\r\n") {
				id = int32(len(nameOf))
				nameOf = append(nameOf, name)
			}
			names[name] = id
		}
		if id < 0 {
			continue
		}
		g := group{scope, r.kind, id}
		if i, ok := seen[g]; ok {
			x.file.Refs[i].Count++
			continue
		}
		seen[g] = len(x.file.Refs)
		x.file.Refs = append(x.file.Refs, symbol.Ref{Name: nameOf[id], Kind: r.kind, Scope: scopeQual, Line: lines.line(r.start), Count: 1})
	}
}

// lineIndex maps byte offsets to 1-based line numbers.
type lineIndex []uint // start offset of each line after the first

func newLineIndex(src []byte) lineIndex { return appendLineIndex(nil, src) }

// appendLineIndex makes the line index of src in buf's memory.
func appendLineIndex(buf lineIndex, src []byte) lineIndex {
	idx := buf[:0]
	if idx == nil {
		idx = lineIndex{} // not nil: made
	}
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return idx
		}
		i += j + 1
		idx = append(idx, uint(i))
	}
}

func (l lineIndex) line(off uint) int {
	n, _ := slices.BinarySearch(l, off+1)
	return n + 1
}

// outer returns the node whose span the definition covers: the
// definition itself, or a wrapper around it that belongs to it alone
// (decorators, export, template<…>).
func (x *extraction) outer(n *sitter.Node) *sitter.Node {
	outer := n
	for range 3 {
		p := outer.Parent()
		if p == nil || !slices.Contains(x.lang.rules.wrappers, p.Kind()) || countKind(p, outer.Kind()) != 1 {
			break
		}
		outer = p
	}
	return outer
}

func countKind(n *sitter.Node, kind string) int {
	count := 0
	for i := range n.NamedChildCount() {
		if c := n.NamedChild(i); c != nil && c.Kind() == kind {
			count++
		}
	}
	return count
}

// signature is the definition's text up to its body, or its first lines
// when it has none.
func (x *extraction) signature(outer, n *sitter.Node) string {
	start := outer.StartByte()
	end := n.EndByte()
	maxLines := maxDeclLines
	if b := x.body(n); b != nil && b.StartByte() >= start {
		end = b.StartByte()
		maxLines = maxSignatureLines
	}
	if end > uint(len(x.src)) || start > end {
		return ""
	}
	text := dedentContinuation(string(x.src[start:end]), int(outer.StartPosition().Column))
	text = dropTrailingComments(text)
	sig := cleanSignature(text, maxLines)
	sig = strings.TrimRight(sig, x.lang.rules.trimSignature+" \t")
	return sig
}

// body finds the node holding a definition's body: its "body" field, or
// a child (or grandchild) of one of the language's body kinds.
func (x *extraction) body(n *sitter.Node) *sitter.Node {
	if b := n.ChildByFieldName("body"); b != nil {
		return b
	}
	// const f = (a) => …: the body of the value bound to the name.
	if v := n.ChildByFieldName("value"); v != nil {
		if b := v.ChildByFieldName("body"); b != nil {
			return b
		}
	}
	bodies := x.lang.rules.bodies
	if len(bodies) == 0 {
		return nil
	}
	for i := range n.NamedChildCount() {
		c := n.NamedChild(i)
		if c == nil {
			continue
		}
		if slices.Contains(bodies, c.Kind()) {
			return c
		}
		for j := range c.NamedChildCount() {
			if g := c.NamedChild(j); g != nil && slices.Contains(bodies, g.Kind()) {
				return g
			}
		}
	}
	return nil
}

// leadingDoc gathers the comments right above a definition: adjacent
// lines only, skipping attributes, and never a comment that trails code
// on its own line.
func (x *extraction) leadingDoc(outer *sitter.Node) string {
	r := &x.lang.rules
	var parts []string
	line := outer.StartPosition().Row
	for n := outer.PrevSibling(); n != nil; n = n.PrevSibling() {
		kind := n.Kind()
		if slices.Contains(r.attributes, kind) {
			line = n.StartPosition().Row
			continue
		}
		if !slices.Contains(r.comments, kind) || n.EndPosition().Row+1 < line {
			break
		}
		if p := n.PrevSibling(); p != nil && p.EndPosition().Row == n.StartPosition().Row && !slices.Contains(r.comments, p.Kind()) {
			break // a trailing comment of the code before it
		}
		parts = append(parts, x.text(n))
		line = n.StartPosition().Row
	}
	if len(parts) == 0 {
		return ""
	}
	slices.Reverse(parts)
	return cleanComment(strings.Join(parts, "\n"))
}

func (x *extraction) text(n *sitter.Node) string {
	return x.textAt(byteSpan{uint32(n.StartByte()), uint32(n.EndByte())})
}

// textAt is the source text of a span.
func (x *extraction) textAt(sp byteSpan) string { return string(x.bytesAt(sp)) }

// bytesAt is the source of a span, or nil.
func (x *extraction) bytesAt(sp byteSpan) []byte {
	if sp.end > uint32(len(x.src)) || sp.start > sp.end {
		return nil
	}
	return x.src[sp.start:sp.end]
}

func span(n *sitter.Node) symbol.Span {
	start, end := n.StartPosition(), n.EndPosition()
	endLine := int(end.Row) + 1
	if end.Column == 0 && end.Row > start.Row {
		endLine-- // the node ends with a newline
	}
	return symbol.Span{
		StartLine: int(start.Row) + 1,
		EndLine:   endLine,
		StartByte: int(n.StartByte()),
		EndByte:   int(n.EndByte()),
	}
}

func join(container, name string) string {
	if container == "" {
		return name
	}
	return container + "." + name
}

// refRank orders reference kinds from most to least specific.
func refRank(k symbol.RefKind) int {
	switch k {
	case symbol.RefCall:
		return 0
	case symbol.RefType:
		return 1
	case symbol.RefMember:
		return 2
	}
	return 3
}

// clampSpans keeps spans inside the first size bytes, when the parser
// saw a newline the file does not have.
func (x *extraction) clampSpans(size int) {
	lines := bytes.Count(x.src[:size], []byte{'\n'}) + 1
	for i := range x.file.Symbols {
		sp := &x.file.Symbols[i].Span
		sp.EndByte = min(sp.EndByte, size)
		sp.StartByte = min(sp.StartByte, sp.EndByte)
		sp.EndLine = min(sp.EndLine, lines)
		sp.StartLine = min(sp.StartLine, sp.EndLine)
	}
	for i := range x.file.Refs {
		x.file.Refs[i].Line = min(x.file.Refs[i].Line, lines)
	}
}
