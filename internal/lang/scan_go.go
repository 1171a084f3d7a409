package lang

import (
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/winnowhq/winnow/internal/symbol"
)

var goKeywords = sync.OnceValue(func() map[string]bool {
	return set(`break case chan const continue default defer else fallthrough for func go goto if import
	interface map package range return select struct switch type var nil true false iota`)
})

// scanGo reads Go's top-level declarations: the grammar puts them only
// at the top level (function literals have no name), Go's own rule for
// ending statements at line ends is lexical, and bodies are braces, so
// a definition spans from its keyword to the token that ends it. Types
// are told from names where Go's syntax says so: parameter and result
// lists, struct fields, declared types, composite literals, conversions
// to slices and maps, type assertions.
func scanGo(s *scanFile) {
	match := s.matchBrackets()
	g := &goScan{scanFile: s, match: match, interfaces: make(map[int]bool)}
	for i := 0; i < len(s.toks); i++ {
		switch {
		case s.is(i, "package") && s.ident(i+1):
			s.x.file.Package = s.text(i + 1)
			s.quiet(s.toks[i].start, s.toks[i+1].end)
			s.kinds[i+1] = refNone
			i++
		case s.is(i, "import"):
			i = s.goImport(i, match)
		case s.is(i, "func"):
			i = g.function(i)
		case s.is(i, "type"):
			i = s.goDecl(i, match, func(k, start int) int { return g.typeSpec(k, start) })
		case s.is(i, "const") || s.is(i, "var"):
			kind := symbol.Variable
			if s.is(i, "const") {
				kind = symbol.Constant
			}
			i = s.goDecl(i, match, func(k, start int) int { return s.goValueSpec(k, start, kind, match) })
		default:
			if m := match[i]; m > int32(i) {
				i = int(m)
			}
		}
	}
	// Interface types anywhere (a parameter's, a type switch's case)
	// declare their methods too.
	for k := range s.toks {
		if s.is(k, "interface") && s.punct(k+1, '{') && !g.interfaces[k+1] {
			s.goInterface(k+1, int(match[k+1]), match)
		}
	}
	s.goExpressionTypes()
	s.emitRefs(goKeywords())
}

// goScan is what the Go pass keeps across declarations.
type goScan struct {
	*scanFile
	match      []int32
	interfaces map[int]bool // opening braces of the interface types read
}

// function reads a function declaration at token i, then the types its
// body declares.
func (g *goScan) function(i int) int {
	end, body := g.goFunc(i, g.match)
	if body < 0 {
		return end
	}
	for k := body + 1; k < end; k++ {
		if g.is(k, "type") && (g.toks[k].first || g.punct(k-1, ';') || g.punct(k-1, '{')) {
			k = g.goDecl(k, g.match, func(k, start int) int { return g.typeSpec(k, start) })
		}
	}
	return end
}

// typeSpec is goTypeSpec, noting the interfaces it read.
func (g *goScan) typeSpec(k, start int) int {
	end, iface := g.goTypeSpec(k, start, g.match)
	if iface >= 0 {
		g.interfaces[iface] = true
	}
	return end
}

// goEnd returns the last token of the statement or spec that starts at
// token i: Go ends one at a newline after an identifier, a literal, a
// closing bracket, ++, -- or one of break, continue, fallthrough and
// return, at a ';', and where the group holding it closes.
func (s *scanFile) goEnd(i int, match []int32) int {
	if i >= len(s.toks) {
		return len(s.toks) - 1 // the file ended: a declaration cut short
	}
	k := i
	for {
		if m := match[k]; m > int32(k) {
			k = int(m)
		}
		next := k + 1
		if next >= len(s.toks) || s.punct(next, ';') || s.punct(next, ')') || s.punct(next, '}') {
			return k
		}
		if s.toks[next].first && s.goEndsLine(k) {
			return k
		}
		k = next
	}
}

// goEndsLine reports whether token k, last on its line, ends a statement.
func (s *scanFile) goEndsLine(k int) bool {
	t := &s.toks[k]
	switch t.kind {
	case tNumber, tString:
		return true
	case tIdent:
		w := s.text(k)
		return !goKeywords()[w] || w == "break" || w == "continue" || w == "fallthrough" || w == "return" ||
			w == "nil" || w == "true" || w == "false" || w == "iota"
	}
	switch s.src[t.start] {
	case ')', ']', '}':
		return true
	case '+', '-':
		return k > 0 && s.adjacent(k-1) && s.src[s.toks[k-1].start] == s.src[t.start]
	}
	return false
}

// goImport reads an import declaration at token i, single or grouped.
func (s *scanFile) goImport(i int, match []int32) int {
	line := func(k int) int { return s.x.lineIndex().line(uint(s.toks[k].start)) }
	spec := func(k int) int {
		end := s.goEnd(k, match)
		path := end
		if s.toks[path].kind != tString {
			return end
		}
		imp := symbol.Import{Module: trimQuotes(s.text(path)), Line: line(k)}
		if path > k {
			imp.Alias = s.text(k)
		}
		s.x.file.Imports = append(s.x.file.Imports, imp)
		s.quiet(s.toks[k].start, s.toks[end].end)
		return end
	}
	if !s.punct(i+1, '(') {
		return spec(i + 1)
	}
	closing := int(match[i+1])
	for k := i + 2; k < closing; k++ {
		if !s.punct(k, ';') {
			k = spec(k)
		}
	}
	return closing
}

// goDecl reads a const, var or type declaration at token i, a single
// spec or a group of them, with spec reading one spec. A single spec's
// definition starts at the keyword, as the parser's wrapper rule has it.
func (s *scanFile) goDecl(i int, match []int32, spec func(k, start int) int) int {
	if !s.punct(i+1, '(') {
		return spec(i+1, i)
	}
	closing := int(match[i+1])
	// A group of one spec belongs to it too: its definition starts at the keyword.
	single := false
	if first := i + 2; first < closing {
		single = s.goEnd(first, match) >= closing-1 || s.punct(s.goEnd(first, match)+1, ';') && s.goEnd(first, match)+2 >= closing
	}
	for k := i + 2; k < closing; k++ {
		if s.punct(k, ';') {
			continue
		}
		if !single {
			k = spec(k, k)
			continue
		}
		defs := len(s.x.defs)
		k = spec(k, i)
		if len(s.x.defs) > defs {
			s.x.defs[defs].end = uint(s.toks[closing].end) // to the group's parenthesis
		}
	}
	return closing
}

// goTypeSpec reads "Name[TypeParams] [=] Type" at token k, whose
// definition starts at token start; it returns the spec's last token and
// the opening brace of the interface type it read, or -1.
func (s *scanFile) goTypeSpec(k, start int, match []int32) (int, int) {
	end := s.goEnd(k, match)
	if !s.ident(k) {
		return end, -1
	}
	name := k
	t := k + 1
	if s.punct(t, '[') && s.goTypeParams(t, match) {
		s.goParams(t, match)
		t = int(match[t]) + 1
	}
	if s.punct(t, '=') {
		t++
	}
	kind := symbol.Type
	switch {
	case s.is(t, "struct"):
		kind = symbol.Struct
	case s.is(t, "interface"):
		kind = symbol.Interface
	}
	d := s.addDef(kind, name, s.toks[start].start, s.toks[end].end)
	d.vis = goVisibilityOf(d.name)
	d.decl = true
	switch {
	case kind == symbol.Struct && s.punct(t+1, '{'):
		d.decl, d.sigEnd = false, s.toks[t+1].start
		s.goFields(t+1, int(match[t+1]), match)
	case kind == symbol.Interface && s.punct(t+1, '{'):
		s.goInterface(t+1, int(match[t+1]), match)
		return end, t + 1
	default:
		s.goTypes(t, end+1)
	}
	return end, -1
}

// goTypeParams reports whether the bracket at token k opens type
// parameters ([T any], [K comparable, V any]) rather than an array
// length ([4]int, [N]T).
func (s *scanFile) goTypeParams(k int, match []int32) bool {
	closing := int(match[k])
	return closing > k+2 && s.ident(k+1) && !s.punct(k+2, ']')
}

// goValueSpec reads "a, b [Type] [= values]" at token k, a constant or a
// variable (kind) named by its first name.
func (s *scanFile) goValueSpec(k, start int, kind symbol.Kind, match []int32) int {
	end := s.goEnd(k, match)
	if !s.ident(k) {
		return end
	}
	d := s.addDef(kind, k, s.toks[start].start, s.toks[end].end)
	d.vis = goVisibilityOf(d.name)
	d.decl = true
	t := k + 1
	for s.punct(t, ',') && s.ident(t+1) {
		s.kinds[t+1] = refNone // the other names: the parser keeps the first
		t += 2
	}
	s.goStructSignature(d, t)
	if t <= end && !s.punct(t, '=') {
		eq := s.nextAt(t, end+1, '=', match)
		if eq < 0 {
			eq = end + 1
		}
		s.goTypes(t, eq)
	}
	return end
}

// goFunc reads a function or method declaration at token i and returns
// its last token and its body's opening brace (-1 without a body).
func (s *scanFile) goFunc(i int, match []int32) (int, int) {
	k := i + 1
	parent := ""
	if s.punct(k, '(') {
		closing := int(match[k])
		for j := k + 1; j < closing && !s.punct(j, '['); j++ {
			if s.ident(j) {
				parent = s.text(j)
			}
		}
		s.goParams(k, match)
		k = closing + 1
	}
	if !s.ident(k) {
		return s.goEnd(i, match), -1
	}
	name := k
	k++
	if s.punct(k, '[') {
		s.goParams(k, match)
		k = int(match[k]) + 1
	}
	body, last := s.goSignature(k, match)
	kind := symbol.Function
	if parent != "" {
		kind = symbol.Method
	}
	end := last
	if body >= 0 {
		end = int(match[body])
	}
	d := s.addDef(kind, name, s.toks[i].start, s.toks[end].end)
	d.parent = parent
	d.vis = goVisibilityOf(d.name)
	if body >= 0 {
		d.sigEnd = s.toks[body].start
	} else {
		d.decl = true
	}
	return end, body
}

// goSignature reads the parameters and results from token k and returns
// the body's opening brace (-1 without a body) and the signature's last
// token.
func (s *scanFile) goSignature(k int, match []int32) (body, last int) {
	last = k - 1
	if s.punct(k, '(') {
		s.goParams(k, match)
		last = int(match[k])
		k = last + 1
	}
	if s.punct(k, '(') {
		s.goParams(k, match)
		last = int(match[k])
		k = last + 1
	}
	start := k
	for ; k < len(s.toks); k++ {
		switch {
		case (s.is(k, "struct") || s.is(k, "interface")) && s.punct(k+1, '{'):
			k = int(match[k+1])
		case s.punct(k, '{'):
			s.goTypes(start, k)
			return k, k - 1
		case s.toks[k].first && s.goEndsLine(k-1), s.punct(k, ';'):
			s.goTypes(start, k)
			return -1, k - 1
		default:
			if m := match[k]; m > int32(k) {
				k = int(m)
			}
		}
		last = k
	}
	return -1, last
}

// goParams marks the types of a parameter or result list whose opening
// parenthesis is token open: in each comma-separated group, what follows
// the name, or the whole group when no group of the list has a name.
func (s *scanFile) goParams(open int, match []int32) {
	closing := int(match[open])
	type group struct{ from, to int }
	var groups []group
	named := false
	from := open + 1
	for k := from; k <= closing; k++ {
		if k == closing || s.punct(k, ',') {
			if k > from {
				g := group{from, k}
				groups = append(groups, g)
				// "name Type", "name ...Type": a name, then not a selector.
				if s.ident(g.from) && g.to-g.from > 1 && !(s.punct(g.from+1, '.') && !s.punct(g.from+2, '.')) {
					named = true
				}
			}
			from = k + 1
			continue
		}
		if m := match[k]; m > int32(k) && m < int32(closing) {
			k = int(m)
		}
	}
	for _, g := range groups {
		if named {
			if g.to-g.from > 1 {
				s.goTypes(g.from+1, g.to)
			}
			continue
		}
		s.goTypes(g.from, g.to)
	}
}

// goTypes marks the identifiers of tokens [from, to), a type, as type
// references; a package qualifier (pkg. in pkg.T) is none, and so are
// the field names of a struct type.
func (s *scanFile) goTypes(from, to int) {
	for k := from; k < to && k < len(s.toks); k++ {
		switch {
		case !s.ident(k):
		case s.punct(k+1, '.'):
			s.kinds[k] = refNone
		case s.is(k, "struct") && s.punct(k+1, '{'):
			// "name Type" lines: the name is a field's, not a use.
			for j := k + 2; j < to && !s.punct(j, '}'); j++ {
				if (s.punct(j-1, '{') || s.punct(j-1, ';') || s.toks[j].first) && s.ident(j) && s.ident(j+1) {
					s.kinds[j] = refNone
				}
			}
		default:
			s.setRef(k, symbol.RefType)
		}
	}
}

// goFields reads a struct's fields between its braces: a field is named
// by the first name of a line ("a, b int" by a), an embedded type is none.
func (s *scanFile) goFields(open, closing int, match []int32) {
	for k := open + 1; k < closing; k++ {
		if s.punct(k, ';') {
			continue
		}
		end := min(s.goEnd(k, match), closing-1)
		switch {
		case s.ident(k) && !s.punct(k+1, '.') && k < end && s.toks[k+1].kind != tString:
			d := s.addDef(symbol.Field, k, s.toks[k].start, s.toks[end].end)
			d.vis = goVisibilityOf(d.name)
			d.decl = true
			t := k + 1
			for s.punct(t, ',') && s.ident(t+1) {
				s.kinds[t+1] = refNone
				t += 2
			}
			s.goStructSignature(d, t)
			s.goTypes(t, end+1)
		default:
			s.goTypes(k, end+1) // an embedded type
		}
		k = end
	}
}

// goStructSignature cuts the signature of a field or variable whose type,
// at token t, is a struct at the struct's brace, as the parser cuts a
// definition at its body.
func (s *scanFile) goStructSignature(d *scanDef, t int) {
	if s.is(t, "struct") && s.punct(t+1, '{') {
		d.decl, d.sigEnd = false, s.toks[t+1].start
	}
}

// goInterface reads an interface's methods between its braces.
func (s *scanFile) goInterface(open, closing int, match []int32) {
	for k := open + 1; k < closing; k++ {
		if s.punct(k, ';') {
			continue
		}
		end := min(s.goEnd(k, match), closing-1)
		if s.ident(k) && s.punct(k+1, '(') {
			d := s.addDef(symbol.Method, k, s.toks[k].start, s.toks[end].end)
			d.vis = goVisibilityOf(d.name)
			d.decl = true
			for j := k + 1; j <= end; j++ {
				if s.punct(j, '(') {
					s.goParams(j, match)
					j = int(match[j])
				} else {
					s.goTypes(j, j+1)
				}
			}
		} else {
			s.goTypes(k, end+1) // an embedded interface or a type set
		}
		k = end
	}
}

// goExpressionTypes marks the types that expressions name: composite
// literals (T{…}, &T{…}), element types of slices and maps ([]T, map[K]V),
// channels (chan T), type assertions (x.(T)) and what new and make take.
func (s *scanFile) goExpressionTypes() {
	for k := range s.toks {
		if !s.ident(k) || s.kinds[k] != refAuto || s.punct(k+1, '.') {
			continue
		}
		switch {
		case s.punct(k+1, '{') && !s.goBlockHeader(k):
		case s.punct(k-1, ']'), s.is(k-1, "chan"):
		case s.punct(k-1, '[') && s.is(k-2, "map"):
		case s.punct(k-1, '(') && s.punct(k-2, '.') && s.punct(k+1, ')'):
		case s.punct(k-1, '(') && (s.is(k-2, "new") || s.is(k-2, "make")):
		default:
			continue
		}
		s.setRef(k, symbol.RefType)
	}
}

// goBlockHeader reports whether the statement holding token k is one whose
// brace opens a block (if x {, for … range xs {, switch v {): the name
// before that brace is a value, not a composite literal's type.
func (s *scanFile) goBlockHeader(k int) bool {
	for j := k; j >= 0; j-- {
		if s.toks[j].first || s.punct(j-1, ';') || s.punct(j-1, '{') {
			switch s.text(j) {
			case "if", "for", "switch", "select", "else", "}":
				return true
			}
			return false
		}
	}
	return false
}

func isUpperName(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

// goVisibilityOf is goVisibility by name alone.
func goVisibilityOf(name string) symbol.Visibility {
	if isUpperName(name) {
		return symbol.Public
	}
	return symbol.Internal
}
