package lang

import (
	"strings"
	"sync"

	"github.com/winnowhq/winnow/internal/symbol"
)

var pythonKeywords = sync.OnceValue(func() map[string]bool {
	return set(`False None True and as assert async await break class continue def del elif else
	except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield`)
})

// pyBlock is a definition whose body is still open.
type pyBlock struct {
	d      *scanDef
	indent int32 // column of the line it starts on
	body   int32 // column of its body's statements; -1 until the first one
	class  bool
}

// scanPython finds Python's definitions by their keywords at the start
// of logical lines (lines outside brackets, not continued by a
// backslash), and ends each where a logical line is indented no deeper
// than the line that opened it. Decorators belong to the definition
// after them; a string opening a body is its docstring; module-level and
// class-level assignments are constants, variables and fields, as the
// parser's query has them.
func scanPython(s *scanFile) {
	toks := s.toks
	var open []pyBlock
	// closeUntil ends the blocks indented at col or deeper before token
	// next: after their last token, or after the comments that follow it
	// indented deeper than the block's own line, which the parser counts in.
	closeUntil := func(col int32, next int) {
		if next == 0 {
			return
		}
		last := s.reach(next - 1)
		limit := int32(len(s.src))
		if next < len(toks) {
			limit = toks[next].start
		}
		for len(open) > 0 && open[len(open)-1].indent >= col {
			b := open[len(open)-1]
			end := last
			for _, c := range s.commentsIn(last, limit) {
				if int32(s.column(int(c.start))) <= b.indent {
					break
				}
				end = c.end
			}
			b.d.end = uint(max(end, int32(b.d.sigEnd)))
			open = open[:len(open)-1]
		}
	}
	depth := 0
	deco := int32(-1) // start of the decorators of the next definition
	decoCol := int32(-1)
	lineCol := int32(0) // indentation of the current logical line
	for i := 0; i < len(toks); i++ {
		t := &toks[i]
		lineStart := t.first && depth == 0 && !s.pyContinued(i)
		stmt := lineStart || depth == 0 && s.punct(i-1, ';')
		if lineStart {
			lineCol = t.col
			closeUntil(t.col, i)
			if n := len(open); n > 0 && open[n-1].body < 0 {
				open[n-1].body = t.col
			}
		}
		if stmt {
			col := lineCol
			switch {
			case s.punct(i, '@') && lineStart:
				if deco < 0 {
					deco, decoCol = t.start, col
				}
				s.pyDecorator(i)
			case s.is(i, "def") || s.is(i, "class") || s.is(i, "async") && s.is(i+1, "def"):
				start := t.start
				if deco >= 0 && decoCol == col {
					start = deco
				}
				deco = -1
				if b, ok := s.pyDefinition(i, start); ok && lineStart {
					b.indent = col
					open = append(open, b)
				}
			case s.is(i, "import") || s.is(i, "from"):
				deco = -1
				i = s.pyImport(i) - 1
				continue
			default:
				if lineStart {
					deco = -1
				}
				s.pyAssignment(i, col, open)
			}
		}
		if t.kind == tPunct {
			switch s.src[t.start] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth--; depth < 0 {
					s.fail("a closing bracket without an opening one")
				}
			}
		}
	}
	if depth != 0 {
		s.fail("brackets do not balance")
	}
	closeUntil(-1, len(toks))
	s.emitRefs(pythonKeywords())
}

// pyContinued reports whether token i, first on its line, continues the
// line before it: that line ends in a backslash right before its newline.
func (s *scanFile) pyContinued(i int) bool {
	if !s.punct(i-1, '\\') {
		return false
	}
	newlines := 0
	for _, c := range s.src[s.toks[i-1].end:s.toks[i].start] {
		switch c {
		case '\n':
			newlines++
		case ' ', '\t', '\r', '\f':
		default:
			return false // a comment: the backslash joined it, and it ended the line
		}
	}
	return newlines <= 1
}

// pyDecorator makes the last name of a decorator's dotted name a call:
// @property calls property.
func (s *scanFile) pyDecorator(i int) {
	k := i + 1
	for s.ident(k) && s.punct(k+1, '.') && s.ident(k+2) {
		k += 2
	}
	if s.ident(k) {
		s.setRef(k, symbol.RefCall)
	}
}

// pyDefinition reads a def or class header from token i (def, class or
// async), whose definition starts at start (its first decorator).
func (s *scanFile) pyDefinition(i int, start int32) (pyBlock, bool) {
	class := s.is(i, "class")
	if s.is(i, "async") {
		i++
	}
	name := i + 1
	if !s.ident(name) || pythonKeywords()[s.text(name)] {
		return pyBlock{}, false
	}
	colon, end := s.pyHeader(name+1, class)
	kind := symbol.Function
	if class {
		kind = symbol.Class
	}
	d := s.addDef(kind, name, start, end)
	d.vis = pythonVisibilityOf(d.name)
	if colon >= 0 && colon+1 < len(s.toks) {
		d.sigEnd = s.toks[colon+1].start // the body's first statement
		if s.pyDocstring(colon + 1) {
			d.doc = cleanDocstring(s.text(colon + 1))
		}
	}
	return pyBlock{d: d, body: -1, class: class}, true
}

// pyHeader walks a header from token i to its colon, marking the types
// it names: base classes, parameter and return annotations. It returns
// the colon's index and the end of the header.
func (s *scanFile) pyHeader(i int, class bool) (colon int, end int32) {
	depth := 0
	annotation := false // inside a parameter's or the return annotation
	argStart := true    // at the start of a class's argument
	params := false     // inside the parameter (or base class) list
	for ; i < len(s.toks); i++ {
		t := &s.toks[i]
		if t.first && depth == 0 && !s.pyContinued(i) {
			break // a broken header: the next line is another statement
		}
		if t.kind == tPunct {
			switch c := s.src[t.start]; c {
			case '(', '[', '{':
				params = params || depth == 0 && c == '('
				depth++
			case ')', ']', '}':
				depth--
				if depth == 0 && params {
					annotation, params = false, false
				}
			case ':':
				if depth == 0 {
					return i, t.end
				}
				if depth == 1 && params && !class {
					annotation = true
				}
			case ',', '=':
				if depth == 1 && params {
					annotation = false
					argStart = c == ','
				}
			case '-':
				if depth == 0 && s.punct(i+1, '>') {
					annotation = true
				}
			}
			continue
		}
		switch {
		case t.kind != tIdent:
			argStart = false
		case annotation:
			if !s.punct(i+1, '.') {
				s.setRef(i, symbol.RefType)
			}
		case class && depth == 1 && params && argStart:
			// A base is a dotted name alone between commas: its last name.
			k := i
			for s.punct(k+1, '.') && s.ident(k+2) {
				k += 2
			}
			if s.punct(k+1, ',') || s.punct(k+1, ')') {
				s.setRef(k, symbol.RefType)
			}
			argStart = false
		}
	}
	if i > 0 {
		end = s.reach(i - 1)
	}
	return -1, end
}

// pyDocstring reports whether token i, the first of a body, is a string
// that is a statement of its own.
func (s *scanFile) pyDocstring(i int) bool {
	if i >= len(s.toks) || s.toks[i].kind != tString {
		return false
	}
	next := i + 1
	return next == len(s.toks) || s.toks[next].first || s.punct(next, ';')
}

// pyImport reads an import statement from token i and returns the index
// of the token after it.
func (s *scanFile) pyImport(i int) int {
	end := i + 1
	depth := 0
	for ; end < len(s.toks); end++ {
		t := &s.toks[end]
		if depth == 0 && (t.first && !s.pyContinued(end) || s.punct(end, ';')) {
			break
		}
		if t.kind == tPunct {
			switch s.src[t.start] {
			case '(':
				depth++
			case ')':
				depth--
			}
		}
	}
	s.quiet(s.toks[i].start, s.reach(end-1))
	line := s.x.lineIndex().line(uint(s.toks[i].start))
	if s.is(i, "import") {
		for _, item := range s.pyImportItems(i+1, end) {
			s.x.file.Imports = append(s.x.file.Imports, symbol.Import{Module: item[0], Alias: item[1], Line: line})
		}
		return end
	}
	k := i + 1
	var module strings.Builder
	for ; k < end && !s.is(k, "import"); k++ {
		module.WriteString(s.text(k))
	}
	if module.Len() == 0 {
		return end
	}
	for _, item := range s.pyImportItems(k+1, end) {
		s.x.file.Imports = append(s.x.file.Imports, symbol.Import{Module: module.String(), Name: item[0], Alias: item[1], Line: line})
	}
	return end
}

// pyImportItems reads "a.b as c, d" (or "*") between tokens i and end.
func (s *scanFile) pyImportItems(i, end int) [][2]string {
	var items [][2]string
	var name, alias strings.Builder
	aliasing := false
	flush := func() {
		if name.Len() > 0 {
			items = append(items, [2]string{name.String(), alias.String()})
		}
		name.Reset()
		alias.Reset()
		aliasing = false
	}
	for k := i; k < end; k++ {
		switch {
		case s.punct(k, ','):
			flush()
		case s.punct(k, '(') || s.punct(k, ')') || s.punct(k, '\\'):
		case s.is(k, "as"):
			aliasing = true
		case aliasing:
			alias.WriteString(s.text(k))
		default:
			name.WriteString(s.text(k))
		}
	}
	flush()
	return items
}

// pyAssignment records "NAME = …" or "NAME: T …" at token i as a
// constant or variable at module level and a field directly in a class
// body, as the parser's query does.
func (s *scanFile) pyAssignment(i int, col int32, open []pyBlock) {
	if !s.ident(i) || pythonKeywords()[s.text(i)] {
		return
	}
	var kind symbol.Kind
	switch n := len(open); {
	case n == 0 && col == 0:
		kind = symbol.Variable
		if isConstantName(s.text(i)) {
			kind = symbol.Constant
		}
	case n > 0 && open[n-1].class && col == open[n-1].body:
		kind = symbol.Field
	default:
		return
	}
	annotated := s.punct(i+1, ':')
	if !annotated && !(s.punct(i+1, '=') && !s.punct(i+2, '=')) {
		return
	}
	// The statement ends at the next logical line or ';'.
	end := i + 1
	depth := 0
	for ; end < len(s.toks); end++ {
		t := &s.toks[end]
		if depth == 0 && (t.first && !s.pyContinued(end) || s.punct(end, ';')) {
			break
		}
		if t.kind == tPunct {
			switch s.src[t.start] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			case '=':
				annotated = false
			}
		} else if annotated && t.kind == tIdent && !s.punct(end+1, '.') {
			s.setRef(end, symbol.RefType)
		}
	}
	d := s.addDef(kind, i, s.toks[i].start, s.reach(end-1))
	d.decl, d.noDoc = true, true
	d.vis = pythonVisibilityOf(d.name)
}

// isConstantName matches ^_*[A-Z][A-Z0-9_]*$, the query's constant rule.
func isConstantName(name string) bool {
	name = strings.TrimLeft(name, "_")
	if name == "" || name[0] < 'A' || name[0] > 'Z' {
		return false
	}
	for i := 1; i < len(name); i++ {
		c := name[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// pythonVisibilityOf is pythonVisibility by name alone.
func pythonVisibilityOf(name string) symbol.Visibility {
	if strings.HasPrefix(name, "_") && !(strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")) {
		return symbol.Private
	}
	return symbol.Public
}
