package lang

import (
	"strings"
	"sync"

	"github.com/winnowhq/winnow/internal/symbol"
)

// The pass of the languages whose blocks are braces (JavaScript,
// TypeScript, Java, C#, Kotlin, Rust, C, C++): a declaration is found by
// its keyword (class, interface, fn, function …) or, in the C family, by
// its shape ("Type name(…) {", "Type name;"), after the annotations,
// attributes and modifiers that precede it, and spans to the brace that
// closes its body or the ';' that ends it. Containers (a file, a type's
// body, a namespace) are read member by member; function bodies only for
// the declarations their keywords announce. A braceLang says what
// differs between languages.

// A braceLang is one language's words and habits for the brace pass.
type braceLang struct {
	keywords map[string]bool        // reserved words: never references, never names
	types    map[string]symbol.Kind // a keyword that declares a type (or namespace) → its kind
	funcs    map[string]bool        // keywords that declare a function: function, fn, fun
	vars     map[string]symbol.Kind // keywords that declare a value at the top level or in a type: const, let, var, val, static
	mods     map[string]bool        // modifiers that may precede a declaration
	scope    string                 // a keyword whose block qualifies names without being a definition (Rust's impl)
	control  map[string]bool        // words before "(" that are not names of functions: if, for, while …

	cMembers    bool // "Type name(…)" declares a function, "Type name;" a field (C, C++, Java, C#)
	jsMembers   bool // class bodies hold "name(…) {…}" methods, "name = …" and "name: T" fields, get/set properties
	semicolons  bool // statements end at ';' or a block, not at line ends (C, C++, Java, C#, Rust)
	attrSibling bool // attributes (#[…]) stand beside the definition: its span starts after them (Rust)
	hashAttr    bool // #[…] and #![…] are attributes (Rust)
	csAttr      bool // […] before a member is an attribute (C#)
	atAnno      bool // @Name(…) is an annotation or decorator (Java, Kotlin, TypeScript, JavaScript)
	decoSibling bool // a class member's decorators stand beside it (JavaScript, TypeScript)
	template    bool // template<…> belongs to the definition after it (C++)
	ctorByName  bool // a function named as its class is a constructor (Java, C#, C++)
	exported    bool // "export" and "export default" belong to the definition (JavaScript, TypeScript)
	qualified   bool // A::B::f names f in A.B (C++, Rust)
	colonTypes  bool // "name: Type" (TypeScript, Kotlin, Rust): the type after the colon
	preproc     bool // '#' at a line's start is a directive to the line's end (C, C++)

	// imports reads an import statement, tokens [i, end], when it is one.
	imports func(b *braceScan, i, end int) bool

	visibility func(mods []string, name string, inType symbol.Kind) symbol.Visibility
}

// braceScan is the state of the brace pass over one file.
type braceScan struct {
	*scanFile
	lang  *braceLang
	match []int32

	// JavaScript's modules: whether the file exports anything (an ES
	// module; a script or CommonJS file exports everything), and the
	// names its export clauses list.
	esm     bool
	exports map[string]bool
	ambient int // depth of declare blocks: what they declare is public

	steps, maxSteps int // loop iterations so far, and the most a file may take

	access string // C++: the access section the members being read are in ("" for the default)
}

// tick counts one step of a loop over the tokens. The passes always move
// forward; should one not, on some input, the file is refused rather
// than scanned forever.
func (b *braceScan) tick() {
	if b.steps++; b.steps > b.maxSteps {
		b.fail("no progress")
	}
}

func scanBraces(langOf func() *braceLang) func(*scanFile) {
	return func(s *scanFile) {
		lang := langOf()
		b := &braceScan{scanFile: s, lang: lang, match: s.matchBrackets(), maxSteps: 64*len(s.toks) + 1024}
		if lang.exported {
			b.exportClauses()
			if strings.HasSuffix(s.x.file.Path, ".d.ts") {
				b.ambient = 1 // a declaration file: everything in it is declared for others
			}
		}
		b.container(0, len(s.toks), symbol.Unknown)
		s.emitRefs(lang.keywords)
	}
}

// exportClauses notes whether the file exports anything, and the names
// of its export clauses (export { a, b as c }).
func (b *braceScan) exportClauses() {
	b.exports = make(map[string]bool)
	for k := range b.toks {
		if !b.is(k, "export") || !b.toks[k].first && !b.punct(k-1, ';') && !b.punct(k-1, '}') {
			continue
		}
		b.esm = true
		if b.punct(k+1, '{') {
			for t := k + 2; t < int(b.match[k+1]); t++ {
				if b.ident(t) && !b.is(t-1, "as") {
					b.exports[b.text(t)] = true
				}
			}
		}
	}
}

// container reads the members of a file, a type's body or a namespace,
// tokens [from, to); kind is the container's (Unknown for a file).
func (b *braceScan) container(from, to int, kind symbol.Kind) {
	saved := b.access
	b.access = ""
	defer func() { b.access = saved }()
	for i := from; i < to; {
		b.tick()
		end := b.member(i, to, kind)
		if end < i {
			end = i
		}
		i = end + 1
	}
}

// member reads one member starting at token i and returns its last token.
func (b *braceScan) member(i, to int, in symbol.Kind) int {
	l := b.lang
	if b.punct(i, ';') || b.punct(i, ',') {
		return i
	}
	if l.preproc && b.punct(i, '#') && b.toks[i].first {
		return b.directive(i, to)
	}
	if l.template && in.IsType() && (b.is(i, "public") || b.is(i, "private") || b.is(i, "protected")) &&
		b.punct(i+1, ':') && !b.punct(i+2, ':') {
		b.access = b.text(i) // C++: public: starts a section
		return i + 1
	}
	start := i // where the definition's span starts
	doc := i   // where its doc comment ends, above any attribute
	var mods []string
	j := i
	for j < to {
		switch {
		case l.atAnno && b.punct(j, '@') && b.is(j+1, "interface"):
			j++ // Java's @interface: the keyword follows
			continue
		case l.atAnno && b.punct(j, '@') && b.ident(j+1):
			j += 2
			for b.punct(j, '.') && b.ident(j+1) {
				j += 2
			}
			if b.punct(j, '(') {
				j = int(b.match[j]) + 1
			}
			if l.decoSibling && in.IsType() {
				start = j
			}
			continue
		case l.hashAttr && b.punct(j, '#') && (b.punct(j+1, '[') || b.punct(j+1, '!') && b.punct(j+2, '[')):
			if b.punct(j+1, '!') {
				j++
			}
			if b.is(j+2, "macro_export") {
				mods = append(mods, "macro_export")
			}
			j = int(b.match[j+1]) + 1
			if l.attrSibling {
				start = j
			}
			continue
		case l.csAttr && b.punct(j, '[') && j == i:
			j = int(b.match[j]) + 1
			i = j
			continue
		case l.template && b.is(j, "template") && b.punct(j+1, '<'):
			if k := b.angleEnd(j+1, to); k > 0 {
				j = k + 1
				continue
			}
		case b.ident(j) && l.mods[b.text(j)] && (b.ident(j+1) || b.punct(j+1, '#') || b.punct(j+1, '[') || b.punct(j+1, '*') ||
			b.punct(j+1, '@') || b.punct(j+1, '<') || b.punct(j+1, '~') || b.is(j, "pub") && b.punct(j+1, '(')):
			mods = append(mods, b.text(j))
			j++
			if b.is(j-1, "pub") && b.punct(j, '(') { // pub(crate), pub(super): the crate's
				mods[len(mods)-1] = "pub(crate)"
				j = int(b.match[j]) + 1
			}
			continue
		case l.hashAttr && b.is(j, "const") && (b.is(j+1, "fn") || b.is(j+1, "unsafe") || b.is(j+1, "async")):
			j++ // Rust's const fn
			continue
		case l.exported && b.is(j, "export"):
			mods = append(mods, "export")
			j++
			if b.is(j, "default") {
				j++
				if b.ecmaFunction(j) && !b.is(j, "function") && !b.is(j+1, "function") {
					// export default (…) => …: a function named default.
					end := b.statementEnd(j, to)
					d := b.addDef(symbol.Function, j-1, b.toks[start].start, b.toks[end].end)
					d.vis, d.decl, d.noDoc = symbol.Public, true, true
					d.doc = b.leadingDoc(b.toks[doc].start)
					b.body(j, end+1)
					return end
				}
			}
			continue
		case b.ident(j) && l.vars[b.text(j)] != symbol.Unknown && b.ident(j+1) && l.types[b.text(j+1)] != symbol.Unknown:
			j++ // TypeScript's const enum
			continue
		}
		break
	}
	if j >= to {
		return to - 1
	}
	w := b.text(j)
	if l.exported && w == "global" && b.punct(j+1, '{') { // TypeScript: declare global { … }
		closing := int(b.match[j+1])
		b.ambient++
		b.container(j+2, closing, symbol.Namespace)
		b.ambient--
		return closing
	}
	if hasWord(mods, "declare") {
		b.ambient++
		defer func() { b.ambient-- }()
	}
	if l.imports != nil && (in == symbol.Unknown || in == symbol.Namespace) && importWords()[w] {
		end := b.statementEnd(j, to)
		if l.imports(b, j, end) {
			b.quiet(b.toks[j].start, b.toks[end].end)
			return end
		}
	}
	switch {
	case l.hashAttr && w == "macro_rules" && b.punct(j+1, '!') && b.ident(j+2):
		// Rust: macro_rules! name { … }
		end := b.statementEnd(j, to)
		d := b.addDef(symbol.Macro, j+2, b.toks[start].start, b.toks[end].end)
		d.vis = symbol.Private
		if hasWord(mods, "macro_export") {
			d.vis = symbol.Public
		}
		d.doc = b.leadingDoc(b.toks[doc].start)
		d.noDoc = true
		if open := b.nextAt(j, end+1, '{', b.match); open > 0 {
			d.sigEnd = b.toks[open].start
		}
		return end
	case l.preproc && hasWord(mods, "typedef"):
		return b.typedef(start, doc, j, to)
	case l.preproc && w == "extern" && j+1 < to && b.toks[j+1].kind == tString && b.punct(j+2, '{'):
		// extern "C" { … }: what it holds is its container's.
		closing := int(b.match[j+2])
		b.container(j+3, closing, in)
		return closing
	case l.preproc && w == "namespace" && b.punct(j+1, '{'):
		closing := int(b.match[j+1]) // namespace { … }: the same
		b.container(j+2, closing, in)
		return closing
	case l.preproc && l.types[w] != symbol.Unknown && b.punct(j+1, '{') && in.IsType():
		// An anonymous struct or union in a struct: its fields are the struct's.
		closing := int(b.match[j+1])
		b.container(j+2, closing, in)
		return b.statementEnd(closing, to)
	case hasWord(mods, "companion") && w == "object":
		// Kotlin: a companion object's members are its class's.
		if open := b.nextAt(j, to, '{', b.match); open > 0 {
			closing := int(b.match[open])
			b.container(open+1, closing, in)
			return closing
		}
	case w == "constructor" && b.punct(j+1, '(') && in.IsType() && !l.cMembers && !l.jsMembers:
		// Kotlin: a secondary constructor, named as its class.
		end := b.function(start, doc, j, to, symbol.Constructor, "", mods, in)
		if d := b.x.defs[len(b.x.defs)-1]; d.kind == symbol.Constructor {
			d.name = b.enclosingType(j)
		}
		return end
	case l.types[w] != symbol.Unknown && b.typeName(j) > 0:
		return b.typeDecl(start, doc, j, to, mods, in)
	case l.scope != "" && w == l.scope:
		return b.scopeDecl(j, to)
	case l.funcs[w]:
		return b.funcDecl(start, doc, j, to, mods, in)
	case l.vars[w] != symbol.Unknown && b.ident(j+1) && (in == symbol.Unknown || in == symbol.Namespace || in.IsType()):
		return b.varDecl(start, doc, j, to, mods, in)
	case l.jsMembers && (in.IsType() || in == symbol.Type):
		return b.jsMember(start, doc, j, to, mods, in)
	case l.jsMembers && in == symbol.Unknown:
		if end, ok := b.jsAssignedMethod(j, to); ok {
			return end
		}
	case l.cMembers:
		if end, ok := b.cMember(start, doc, j, to, mods, in); ok {
			return end
		}
	}
	end := b.statementEnd(i, to)
	b.body(i, end+1)
	return end
}

// importWords start the statements an imports function reads.
var importWords = sync.OnceValue(func() map[string]bool { return set("import using package use export namespace") })

// directive reads a preprocessor line at token i ('#'), continued by
// backslashes: #define NAME is a macro, #include an import. It returns
// the line's last token.
func (b *braceScan) directive(i, to int) int {
	end := i
	for end+1 < to && (!b.toks[end+1].first || b.punct(end, '\\')) {
		end++
	}
	switch {
	case b.is(i+1, "define") && b.ident(i+2) && end > i+2:
		d := b.addDef(symbol.Macro, i+2, b.toks[i].start, b.reach(end))
		d.decl = true
		d.doc = b.leadingDoc(b.toks[i].start)
		d.noDoc = true
	case b.is(i+1, "include") && i+2 <= end:
		module := b.toks[i+2].kind == tString
		text := strings.TrimSpace(string(b.src[b.toks[i+2].start:b.reach(end)]))
		if module || strings.HasPrefix(text, "<") {
			line := b.x.lineIndex().line(uint(b.toks[i].start))
			b.x.file.Imports = append(b.x.file.Imports, symbol.Import{Module: trimQuotes(text), Line: line})
			b.quiet(b.toks[i].start, b.reach(end))
		}
	case i+1 < len(b.kinds):
		b.kinds[i+1] = refNone // if, ifdef, pragma … are not uses
	}
	return end
}

// importsDotted reads "import a.b.C;", "import static a.b.c;", "import
// a.b.*;", "import a.b.C as D" (Java, Kotlin), "using A.B;" (C#), and
// "package a.b" and "namespace A.B;" as the file's package.
func importsDotted(b *braceScan, i, end int) bool {
	w := b.text(i)
	var parts []string
	alias := ""
	for k := i + 1; k <= end; k++ {
		switch {
		case b.is(k, "static") && k == i+1:
		case b.is(k, "as") && b.ident(k+1):
			alias = b.text(k + 1)
			k++
		case b.ident(k) || b.punct(k, '*'):
			parts = append(parts, b.text(k))
		case b.punct(k, '.'), b.punct(k, ';'):
		case b.punct(k, '='): // using Alias = A.B;
			if len(parts) == 1 {
				alias, parts = parts[0], nil
			}
		default:
			return false
		}
	}
	if len(parts) == 0 {
		return false
	}
	switch w {
	case "package", "namespace":
		if b.x.file.Package == "" {
			b.x.file.Package = strings.Join(parts, ".")
		}
		return true
	case "import", "using":
		imp := symbol.Import{Line: b.x.lineIndex().line(uint(b.toks[i].start)), Alias: alias}
		if w == "using" || len(parts) == 1 {
			imp.Module = strings.Join(parts, ".")
		} else {
			imp.Module, imp.Name = strings.Join(parts[:len(parts)-1], "."), parts[len(parts)-1]
		}
		b.x.file.Imports = append(b.x.file.Imports, imp)
		return true
	}
	return false
}

// importsECMA reads "import … from 'm'", "import 'm'" and "export … from
// 'm'": an import of module m for each name, or of the module.
func importsECMA(b *braceScan, i, end int) bool {
	w := b.text(i)
	if w != "import" && w != "export" || b.punct(i+1, '(') {
		return false
	}
	module := -1
	for k := i + 1; k <= end; k++ {
		if b.toks[k].kind == tString && (b.is(k-1, "from") || k == i+1) {
			module = k
		}
	}
	if module < 0 {
		return w == "import" // import x = require(…) and the like: nothing to record, still no uses
	}
	line := b.x.lineIndex().line(uint(b.toks[i].start))
	mod := trimQuotes(b.text(module))
	names := 0
	for k := i + 1; k < module; k++ {
		if !b.ident(k) || b.lang.keywords[b.text(k)] && !b.is(k, "default") || b.is(k, "from") || b.is(k-1, "as") {
			continue
		}
		imp := symbol.Import{Module: mod, Name: b.text(k), Line: line}
		if b.is(k+1, "as") && b.ident(k+2) {
			imp.Alias = b.text(k + 2)
		}
		if b.punct(k-1, '*') || b.is(k-1, "as") {
			continue
		}
		b.x.file.Imports = append(b.x.file.Imports, imp)
		names++
	}
	if names == 0 {
		b.x.file.Imports = append(b.x.file.Imports, symbol.Import{Module: mod, Line: line})
	}
	return true
}

// importsRust reads "use a::b::{c, d as e};": an import of each name
// from its path.
func importsRust(b *braceScan, i, end int) bool {
	if !b.is(i, "use") {
		return false
	}
	line := b.x.lineIndex().line(uint(b.toks[i].start))
	var walk func(from, to int, prefix []string)
	walk = func(from, to int, prefix []string) {
		path := append([]string(nil), prefix...)
		for k := from; k < to; k++ {
			switch {
			case b.punct(k, '{'):
				closing := int(b.match[k])
				walk(k+1, closing, path)
				k = closing
			case b.punct(k, ','):
				path = append([]string(nil), prefix...)
			case b.is(k, "as") && b.ident(k+1) && len(path) > 0:
				b.x.file.Imports = append(b.x.file.Imports[:len(b.x.file.Imports)-1],
					symbol.Import{Module: strings.Join(path[:len(path)-1], "."), Name: path[len(path)-1], Alias: b.text(k + 1), Line: line})
				k++
			case b.ident(k) || b.punct(k, '*'):
				path = append(path, b.text(k))
				if !b.punct(k+1, ':') {
					b.x.file.Imports = append(b.x.file.Imports,
						symbol.Import{Module: strings.Join(path[:len(path)-1], "."), Name: path[len(path)-1], Line: line})
				}
			}
		}
	}
	walk(i+1, end+1, nil)
	return true
}

// typeName returns the token naming the type a keyword at k declares,
// or 0: a name right after the keyword (enum class Name, @interface Name).
func (b *braceScan) typeName(k int) int {
	n := k + 1
	if (b.is(k, "enum") || b.is(k, "record")) && (b.is(n, "class") || b.is(n, "struct")) {
		n++ // enum class, record struct
	}
	if b.ident(n) && !b.lang.keywords[b.text(n)] {
		return n
	}
	if b.is(k, "module") && n < len(b.toks) && b.toks[n].kind == tString {
		return n // TypeScript: declare module "name"
	}
	return 0
}

// typeDecl reads a class, interface, enum, struct … whose keyword is at
// token k, whose span starts at start.
func (b *braceScan) typeDecl(start, doc, k, to int, mods []string, in symbol.Kind) int {
	kind := b.lang.types[b.text(k)]
	switch {
	case b.punct(k-1, '@'): // Java's @interface
		kind = symbol.Interface
	case hasWord(mods, "enum"): // Kotlin's enum class
		kind = symbol.Enum
	}
	name := b.typeName(k)
	// The body: the first "{" at this depth before a ";"; C-family
	// declarations without one ("struct a;") have none.
	open, end := -1, -1
	for t := name + 1; t < to; t++ {
		if !b.lang.semicolons && b.toks[t].first && !b.punct(t, '{') && !b.continues(t-1) && !b.continuesLine(t) {
			end = t - 1 // Kotlin: interface Event, class Point(val x: Int), without a body
			break
		}
		if b.punct(t, '<') {
			if e := b.angleEnd(t, to); e > 0 {
				b.types(t+1, e)
				t = e // type parameters, whose defaults have '='
				continue
			}
		}
		if b.punct(t, '{') {
			open = t
			break
		}
		if b.punct(t, ';') || b.punct(t, '=') && kind != symbol.Module && kind != symbol.Namespace {
			end = t
			break
		}
		if b.lang.qualified && b.punct(t, ':') && b.punct(t+1, ':') && b.ident(t+2) {
			name = t + 2 // namespace a::b
		}
		if m := b.match[t]; m > int32(t) {
			t = int(m)
		}
	}
	if open < 0 && end < 0 {
		end = to - 1
	}
	last := end
	if open >= 0 {
		last = int(b.match[open])
	}
	if open < 0 && b.lang.preproc {
		// class Server; struct a *p; namespace fs = std::filesystem: no definition here.
		b.body(name+1, last+1)
		return last
	}
	d := b.addDef(kind, name, b.toks[start].start, b.toks[last].end)
	d.vis = b.visibility(mods, d.name, in)
	d.doc = b.leadingDoc(b.toks[doc].start)
	d.noDoc = true
	if kind == symbol.Module || kind == symbol.Namespace {
		d.name = b.dottedName(name) // module com.example.cache, namespace A.B
	}
	b.components(name+1, min(last, max(open, end)+1), kind)
	if kind == symbol.Module && b.lang.cMembers {
		d.vis = symbol.Public // a Java module: its body holds directives, not members
		d.sigEnd = b.toks[max(open, name+1)].start
		return last
	}
	if open >= 0 {
		d.sigEnd = b.toks[open].start
		b.header(name+1, open)
		switch {
		case kind == symbol.Enum:
			b.enumBody(open, int(b.match[open]), kind)
		case b.lang.hashAttr && (kind == symbol.Struct || kind == symbol.Union):
			b.rustFields(open)
		default:
			b.container(open+1, int(b.match[open]), kind)
		}
	} else {
		d.decl = true
		b.header(name+1, last+1)
	}
	return last
}

// dottedName returns the dotted name that starts at token k (a.b.c,
// A::B), as one name.
func (b *braceScan) dottedName(k int) string {
	if b.toks[k].kind == tString {
		return trimQuotes(b.text(k))
	}
	name := b.text(k)
	for b.ident(k+2) && (b.punct(k+1, '.') || b.punct(k+1, ':') && b.punct(k+2, ':') && b.ident(k+3)) {
		if b.punct(k+1, ':') {
			k++
		}
		name += "." + b.text(k+2)
		k += 2
	}
	return name
}

// components reads the parameters a type declares in its header, up to
// its body at token limit: a Java record's components, a Kotlin class's
// val and var parameters, a C# record's: properties.
func (b *braceScan) components(k, limit int, kind symbol.Kind) {
	if b.punct(k, '<') {
		if e := b.angleEnd(k, limit); e > 0 {
			k = e + 1
		}
	}
	for b.ident(k) && b.lang.mods[b.text(k)] || b.is(k, "constructor") { // Kotlin: private constructor(…)
		k++
	}
	if !b.punct(k, '(') || !kind.IsType() {
		return
	}
	closing := int(b.match[k])
	kotlin := b.lang.colonTypes
	from := k + 1
	for t := from; t <= closing; t++ {
		if t < closing && !b.punct(t, ',') {
			if m := b.match[t]; m > int32(t) && m < int32(closing) {
				t = int(m)
			}
			continue
		}
		name := -1
		var mods []string
		for p := from; p < t; p++ {
			if b.ident(p) && b.lang.mods[b.text(p)] {
				mods = append(mods, b.text(p))
			}
			switch {
			case kotlin && (b.is(p, "val") || b.is(p, "var")) && b.ident(p+1):
				name = p + 1
			case !kotlin && b.ident(p) && !b.lang.keywords[b.text(p)]:
				name = p
			case b.punct(p, '@') && b.ident(p+1):
				p++
				if b.punct(p+1, '(') {
					p = int(b.match[p+1])
				}
			case b.punct(p, '<'):
				if e := b.angleEnd(p, t); e > 0 {
					p = e
				}
			}
			if kotlin && name >= 0 || b.punct(p, '=') {
				break
			}
		}
		if name >= 0 {
			d := b.addDef(symbol.Property, name, b.toks[from].start, b.reach(t-1))
			d.decl, d.noDoc = true, true
			d.vis = symbol.Public // a record's components are public, as a class's parameters unless said otherwise
			if len(mods) > 0 {
				d.vis = b.visibility(mods, d.name, kind)
			}
		}
		from = t + 1
	}
}

// header reads a type's header between its name and its body: the types
// it extends, and (Kotlin, records) the parameters it declares.
func (b *braceScan) header(from, to int) {
	for k := from; k < to; k++ {
		if b.ident(k) && !b.lang.keywords[b.text(k)] && !b.punct(k+1, '.') && !b.punct(k+1, '(') && isUpperName(b.text(k)) {
			b.setRef(k, symbol.RefType)
		}
	}
}

// enumBody reads an enum's members: the names at the start of its items,
// up to a ';' that ends them (Java), then its other members.
func (b *braceScan) enumBody(open, closing int, kind symbol.Kind) {
	k := open + 1
	for k < closing {
		b.tick()
		if b.punct(k, ';') {
			b.container(k+1, closing, kind)
			return
		}
		if b.lang.preproc && b.punct(k, '#') && b.toks[k].first {
			k = b.directive(k, closing) + 1 // #ifdef in an enum
			continue
		}
		j := k
		for j < closing {
			switch {
			case b.punct(j, '@') && b.ident(j+1):
				j += 2
				if b.punct(j, '(') {
					j = int(b.match[j]) + 1
				}
				continue
			case b.lang.hashAttr && b.punct(j, '#') && b.punct(j+1, '['):
				j = int(b.match[j+1]) + 1
				continue
			case b.lang.csAttr && b.punct(j, '['):
				j = int(b.match[j]) + 1
				continue
			}
			break
		}
		end := k
		for end < closing && !b.punct(end, ',') && !b.punct(end, ';') {
			if m := b.match[end]; m > int32(end) {
				end = int(m)
			}
			end++
		}
		if b.ident(j) || j < closing && b.toks[j].kind == tString {
			last := end - 1
			d := b.addDef(symbol.EnumMember, j, b.toks[j].start, b.toks[last].end)
			d.decl, d.noDoc = true, true
			d.doc = b.leadingDoc(b.toks[k].start)
			// A member with a body of its own (Java's FIFO { … }) holds methods.
			for t := j + 1; t <= last; t++ {
				if b.punct(t, '{') {
					d.decl, d.sigEnd = false, b.toks[t].start
					b.container(t+1, int(b.match[t]), symbol.Class)
					break
				}
				if m := b.match[t]; m > int32(t) {
					t = int(m)
				}
			}
		}
		if end < closing && b.punct(end, ';') {
			b.container(end+1, closing, kind) // the members after the constants
			return
		}
		k = end + 1
	}
}

// rustFields reads the fields of a Rust struct, union or struct-like
// enum variant between the braces at token open: "[pub] name: Type,".
func (b *braceScan) rustFields(open int) {
	closing := int(b.match[open])
	for k := open + 1; k < closing; k++ {
		start := k
		var mods []string
		for b.punct(k, '#') && b.punct(k+1, '[') {
			k = int(b.match[k+1]) + 1
			start = k
		}
		if b.is(k, "pub") {
			mods = append(mods, "pub")
			if b.punct(k+1, '(') {
				mods[0] = "pub(crate)"
				k = int(b.match[k+1])
			}
			k++
		}
		end := b.nextAt(k, closing, ',', b.match)
		if end < 0 {
			end = closing
		}
		if b.ident(k) && b.punct(k+1, ':') {
			d := b.addDef(symbol.Field, k, b.toks[start].start, b.reach(end-1))
			d.decl = true
			d.vis = rustScanVisibility(mods, d.name, symbol.Unknown)
			b.colonTypes(k+1, end)
		}
		k = end
	}
}

// typedef reads a C typedef from token k (after the keyword): a struct,
// union or enum with a body is named by the typedef's name, as the
// parser does; anything else is a type of that name.
func (b *braceScan) typedef(start, doc, k, to int) int {
	end := b.statementEnd(k, to)
	// The name: the last identifier outside brackets before the ';', or
	// the one inside (*name) of a function pointer.
	name := -1
	for t := k; t <= end; t++ {
		switch {
		case b.punct(t, '(') && b.punct(t+1, '*') && b.ident(t+2):
			name = t + 2
			t = int(b.match[t])
		case b.punct(t, '{') || b.punct(t, '[') || b.punct(t, '('):
			t = int(b.match[t])
		case b.ident(t) && !b.lang.keywords[b.text(t)]:
			name = t
		}
	}
	if name < 0 {
		return end
	}
	kind := symbol.Type
	open := -1
	if tk := b.lang.types[b.text(k)]; tk != symbol.Unknown {
		if o := b.nextAt(k, end, '{', b.match); o > 0 {
			kind, open = tk, o
		}
	}
	d := b.addDef(kind, name, b.toks[start].start, b.toks[end].end)
	d.vis = symbol.Public
	d.doc = b.leadingDoc(b.toks[doc].start)
	d.noDoc = true
	d.decl = open < 0
	if open >= 0 {
		d.sigEnd = b.toks[open].start
		if kind == symbol.Enum {
			b.enumBody(open, int(b.match[open]), kind)
		} else {
			b.container(open+1, int(b.match[open]), kind)
		}
	}
	b.types(k, name)
	return end
}

// scopeDecl reads Rust's impl block: "impl<T> Trait for Type<T> {":
// the names inside are qualified by the type, and it is no definition.
func (b *braceScan) scopeDecl(k, to int) int {
	open := b.nextAt(k+1, to, '{', b.match)
	if open < 0 {
		return b.statementEnd(k, to)
	}
	name := ""
	for t := k + 1; t < open; t++ {
		switch {
		case b.punct(t, '<'):
			if e := b.angleEnd(t, open); e > 0 {
				b.types(t+1, e)
				t = e
			}
		case b.is(t, "for"):
			name = ""
		case b.ident(t) && !b.lang.keywords[b.text(t)]:
			name = b.text(t)
			b.setRef(t, symbol.RefType)
		}
	}
	closing := int(b.match[open])
	if name != "" {
		b.addScope(name, b.toks[k].start, b.toks[closing].end)
	}
	in := symbol.Class
	if b.hasWordIn(k+1, open, "for") {
		in = symbol.Trait // impl Trait for Type: its items are the trait's, public
	}
	b.container(open+1, closing, in)
	return closing
}

// hasPunctIn reports whether the punctuation c is among tokens [from, to).
func (b *braceScan) hasPunctIn(from, to int, c byte) bool {
	for k := from; k < to; k++ {
		if b.punct(k, c) {
			return true
		}
	}
	return false
}

// hasWordIn reports whether the identifier w is among tokens [from, to).
func (b *braceScan) hasWordIn(from, to int, w string) bool {
	for k := from; k < to; k++ {
		if b.is(k, w) {
			return true
		}
	}
	return false
}

// funcDecl reads a function whose keyword is at token k: its name, its
// parameters, and its body, or its end without one.
func (b *braceScan) funcDecl(start, doc, k, to int, mods []string, in symbol.Kind) int {
	n := k + 1
	if b.punct(n, '*') { // function*
		n++
	}
	if b.punct(n, '<') { // fun <T> name
		if e := b.angleEnd(n, to); e > 0 {
			n = e + 1
		}
	}
	// Kotlin's extension functions: fun Type.name, fun Type<T>.name.
	parent := ""
	for b.ident(n) && (b.punct(n+1, '.') || b.punct(n+1, '<') || b.punct(n+1, '?') && b.punct(n+2, '.')) {
		if b.punct(n+1, '?') { // fun String?.orBlank()
			parent = b.text(n)
			b.setRef(n, symbol.RefType)
			n += 3
			continue
		}
		if b.punct(n+1, '<') {
			e := b.angleEnd(n+1, to)
			if e < 0 || !b.punct(e+1, '.') {
				break
			}
			parent = b.text(n)
			b.setRef(n, symbol.RefType)
			n = e + 2
			continue
		}
		parent = b.text(n)
		b.setRef(n, symbol.RefType)
		n += 2
	}
	if !b.ident(n) {
		// An anonymous function: only what it declares inside.
		end := b.statementEnd(k, to)
		b.body(k+1, end+1)
		return end
	}
	kind := symbol.Function
	if parent != "" || in.IsType() {
		kind = symbol.Method
	}
	return b.function(start, doc, n, to, kind, parent, mods, in)
}

// function records a function named by token name (its parameters, or
// type parameters, follow) and reads its body; it returns its last token.
func (b *braceScan) function(start, doc, name, to int, kind symbol.Kind, parent string, mods []string, in symbol.Kind) int {
	t := name + 1
	if b.punct(t, '<') {
		if e := b.angleEnd(t, to); e > 0 {
			b.types(t+1, e)
			t = e + 1
		}
	}
	if b.punct(t, '(') {
		b.params(t)
		t = int(b.match[t]) + 1
	}
	// What follows the parameters up to the body: results, throws, const,
	// where clauses, initializer lists; "=>" or "=" an expression body.
	open, end := -1, -1
	for ; t < to; t++ {
		if b.punct(t, '{') {
			open = t
			break
		}
		if b.punct(t, ';') || b.punct(t, '=') && b.punct(t+1, '>') || b.punct(t, '=') && !b.lang.cMembers {
			end = b.statementEnd(t, to)
			break
		}
		if b.ident(t) && !b.lang.keywords[b.text(t)] && !b.punct(t+1, '.') && !b.punct(t+1, '(') {
			b.setRef(t, symbol.RefType)
		}
		if m := b.match[t]; m > int32(t) {
			t = int(m) // a group of the signature: (…), […]
		}
		if !b.lang.semicolons && t+1 < to && b.toks[t+1].first && !b.continues(t) && !b.punct(t+1, '{') && !b.continuesLine(t+1) {
			end = t // Kotlin, TypeScript: a declaration without a body ends with its line
			break
		}
	}
	if open < 0 && end < 0 {
		end = to - 1
	}
	last := end
	if open >= 0 {
		last = int(b.match[open])
	}
	d := b.addDef(kind, name, b.toks[start].start, b.toks[last].end)
	d.parent = parent
	d.vis = b.visibility(mods, d.name, in)
	d.doc = b.leadingDoc(b.toks[doc].start)
	d.noDoc = true
	if open >= 0 {
		d.sigEnd = b.toks[open].start
		b.body(open+1, last)
	} else {
		d.decl = true
		b.body(name+1, last+1)
	}
	return last
}

// params marks the types of a parameter list whose "(" is token open.
func (b *braceScan) params(open int) {
	closing := int(b.match[open])
	if b.lang.colonTypes {
		b.colonTypes(open+1, closing)
		return
	}
	// C family: in each comma-separated parameter, the last name is the
	// parameter's and the names before it its type.
	from := open + 1
	for k := from; k <= closing; k++ {
		if k == closing || b.punct(k, ',') {
			last := -1
			for t := from; t < k; t++ {
				if b.ident(t) && !b.lang.keywords[b.text(t)] {
					last = t
				}
			}
			for t := from; t < last; t++ {
				if b.ident(t) && !b.punct(t+1, '.') && !b.punct(t+1, ':') {
					b.setRef(t, symbol.RefType)
				}
			}
			from = k + 1
			continue
		}
		if m := b.match[k]; m > int32(k) && m < int32(closing) {
			k = int(m)
		}
	}
}

// colonTypes marks as types the names after ':' (up to a ',', '=' or the
// end) in tokens [from, to).
func (b *braceScan) colonTypes(from, to int) {
	typing := false
	for k := from; k < to; k++ {
		switch {
		case b.punct(k, ':') && !b.punct(k+1, ':') && !b.punct(k-1, ':'):
			typing = true
		case b.punct(k, ',') || b.punct(k, '='):
			typing = false
		case typing && b.ident(k) && !b.punct(k+1, '.') && !b.punct(k+1, ':'):
			b.setRef(k, symbol.RefType)
		}
		if m := b.match[k]; m > int32(k) && m < int32(to) && !typing {
			k = int(m)
		}
	}
}

// types marks the names of tokens [from, to), a type, as type references.
func (b *braceScan) types(from, to int) {
	for k := from; k < to; k++ {
		if b.ident(k) && !b.lang.keywords[b.text(k)] && !b.punct(k+1, '.') && !b.punct(k+1, ':') {
			b.setRef(k, symbol.RefType)
		}
	}
}

// varDecl reads "const name = …" (JavaScript), "val name: T = …" (Kotlin),
// "const NAME: T = …" and "static NAME" (Rust) at token k: a constant or
// a variable, or a function when its value is one.
func (b *braceScan) varDecl(start, doc, k, to int, mods []string, in symbol.Kind) int {
	end := b.statementEnd(k, to)
	name := k + 1
	if b.is(name, "mut") {
		name++
	}
	if !b.ident(name) {
		b.body(k, end+1)
		return end
	}
	kind := b.lang.vars[b.text(k)]
	switch {
	case hasWord(mods, "const"), kind == symbol.Constant && b.lang.hashAttr:
		kind = symbol.Constant // Kotlin's const val, Rust's const in a trait
	case in.IsType():
		kind = symbol.Property
		if b.lang.cMembers {
			kind = symbol.Field
		}
	}
	// What the value is, in JavaScript: a function, a class, an object
	// literal with methods, a module (require: no definition).
	value, members := -1, -1
	from := name + 1
	if b.punct(from, '<') { // type T<K, V = string> = …
		if e := b.angleEnd(from, end+1); e > 0 {
			from = e + 1
		}
	}
	eq := b.nextAt(from, end+1, '=', b.match)
	for eq > 0 && b.punct(eq+1, '>') && b.adjacent(eq) { // const f: (x: T) => U = …: an arrow of the type
		eq = b.nextAt(eq+2, end+1, '=', b.match)
	}
	if eq > 0 && b.lang.jsMembers && !in.IsType() {
		v := eq + 1
		whole := b.punct(v, '{') && (int(b.match[v]) == end || int(b.match[v]) == end-1 && b.punct(end, ';'))
		switch {
		case b.is(v, "require") && b.punct(v+1, '('):
			b.body(v, end+1)
			return end
		case kind == symbol.Type:
			if whole {
				value = v // type T = { … }: its members; not type T = { … } & U
			}
		case b.ecmaFunction(v):
			kind = symbol.Function
		case b.is(v, "class"):
			kind, value = symbol.Class, b.nextAt(v, end+1, '{', b.match)
		case b.punct(v, '{'):
			members = v
		}
	}
	d := b.addDef(kind, name, b.toks[start].start, b.toks[end].end)
	d.vis = b.visibility(mods, d.name, in)
	d.decl = true
	d.doc = b.leadingDoc(b.toks[doc].start)
	d.noDoc = true
	if b.lang.colonTypes {
		b.colonTypes(name+1, end+1)
	}
	if kind == symbol.Function {
		b.cutAtFunctionBody(d, name+1, end)
	}
	switch {
	case value > 0:
		if kind == symbol.Class {
			d.decl, d.sigEnd = false, b.toks[value].start
		}
		b.container(value+1, int(b.match[value]), kind)
	case members > 0:
		b.objectMethods(members)
		b.body(members, end+1)
	default:
		b.body(name+1, end+1)
	}
	return end
}

// ecmaFunction reports whether the value at token v is a function: a
// function expression or an arrow function.
func (b *braceScan) ecmaFunction(v int) bool {
	if b.is(v, "async") {
		v++
	}
	if b.punct(v, '<') { // <T>(x: T) => …
		if e := b.angleEnd(v, len(b.toks)); e > 0 {
			v = e + 1
		}
	}
	switch {
	case b.is(v, "function"):
		return true
	case b.ident(v):
		return b.punct(v+1, '=') && b.punct(v+2, '>')
	case !b.punct(v, '('):
		return false
	}
	// (params) => …, or with a return type: (params): T => …
	for k := int(b.match[v]) + 1; k < len(b.toks) && k < int(b.match[v])+24; k++ {
		switch {
		case b.punct(k, '=') && b.punct(k+1, '>'):
			return true
		case k == int(b.match[v])+1 && !b.punct(k, ':'), b.punct(k, ';'), b.punct(k, '{') && !b.punct(k-1, ':'):
			return false
		}
		if m := b.match[k]; m > int32(k) {
			k = int(m)
		}
	}
	return false
}

// cutAtFunctionBody ends the signature of a definition whose value is a
// function, in tokens [from, end], where the parser cuts it: at an arrow
// function's body (block or expression), at a function expression's block.
func (b *braceScan) cutAtFunctionBody(d *scanDef, from, end int) {
	for k := from; k < end; k++ {
		if b.punct(k, '=') && b.punct(k+1, '>') && b.adjacent(k) {
			if k+2 < len(b.toks) {
				d.decl, d.sigEnd = false, b.toks[k+2].start
			}
			return
		}
		if b.is(k, "function") {
			if open := b.nextAt(k, end+1, '{', b.match); open > 0 {
				d.decl, d.sigEnd = false, b.toks[open].start
			}
			return
		}
		if m := b.match[k]; m > int32(k) {
			k = int(m)
		}
	}
}

// objectMethods reads the methods of an object literal whose "{" is
// token open: name(…) { … } and name: function or arrow.
func (b *braceScan) objectMethods(open int) {
	closing := int(b.match[open])
	for k := open + 1; k < closing; k++ {
		if !b.punct(k-1, '{') && !b.punct(k-1, ',') {
			if m := b.match[k]; m > int32(k) {
				k = int(m)
			}
			continue
		}
		n := k
		for b.is(n, "async") || b.is(n, "get") && b.ident(n+1) || b.is(n, "set") && b.ident(n+1) || b.punct(n, '*') {
			n++
		}
		if !b.ident(n) {
			continue
		}
		switch {
		case b.punct(n+1, '('):
			k = b.function(k, k, n, closing, symbol.Method, "", nil, symbol.Class)
		case b.punct(n+1, ':') && b.ecmaFunction(n+2):
			end := b.nextAt(n+2, closing, ',', b.match)
			if end < 0 {
				end = closing
			}
			d := b.addDef(symbol.Method, n, b.toks[k].start, b.reach(end-1))
			d.decl, d.noDoc = true, true
			d.vis = symbol.Public
			b.body(n+2, end)
			k = end - 1
		}
	}
}

// jsMember reads a member of a JavaScript or TypeScript class (or
// interface) body at token k: a method, a constructor, a get or set
// property, or a field.
func (b *braceScan) jsMember(start, doc, k, to int, mods []string, in symbol.Kind) int {
	n := k
	accessor := false
	if (b.is(n, "get") || b.is(n, "set")) && (b.ident(n+1) || b.punct(n+1, '#')) {
		accessor = true
		n++
	}
	for (b.is(n, "async") || b.punct(n, '*')) && (b.ident(n+1) || b.punct(n+1, '*') || b.punct(n+1, '#') || b.punct(n+1, '[')) {
		n++ // async name(…), *gen(…); not a member named async
	}
	private := b.punct(n, '#') && b.adjacent(n)
	nameTok := n
	if private {
		nameTok = n + 1
	}
	if !b.ident(nameTok) && b.toks[nameTok].kind != tString {
		end := b.statementEnd(k, to)
		b.body(k, end+1)
		return end
	}
	after := nameTok + 1
	if b.punct(after, '?') || b.punct(after, '!') {
		after++
	}
	if b.punct(after, '(') || b.punct(after, '<') {
		kind := symbol.Method
		switch {
		case accessor:
			kind = symbol.Property
		case b.text(nameTok) == "constructor":
			kind = symbol.Constructor
		}
		end := b.function(start, doc, nameTok, to, kind, "", mods, in)
		b.hashName(n, private)
		if kind == symbol.Constructor && b.punct(after, '(') {
			b.parameterProperties(after)
		}
		return end
	}
	end := b.statementEnd(k, to)
	kind := symbol.Field
	if in == symbol.Interface || in == symbol.Type {
		kind = symbol.Property
	}
	arrow := b.punct(after, '=') && b.ecmaFunction(after+1)
	if arrow {
		kind = symbol.Method // onChange = (item) => { … }
	}
	d := b.addDef(kind, nameTok, b.toks[start].start, b.toks[end].end)
	d.vis = b.visibility(mods, d.name, in)
	d.decl = true
	if open := b.nextAt(after+1, end+1, '{', b.match); arrow && open > 0 {
		d.decl, d.sigEnd = false, b.toks[open].start
	}
	d.doc = b.leadingDoc(b.toks[doc].start)
	d.noDoc = true
	b.hashName(n, private)
	b.colonTypes(after, end+1)
	b.body(after, end+1)
	return end
}

// parameterProperties reads TypeScript's constructor parameters that
// declare fields: constructor(public id: string, private origin: Point).
func (b *braceScan) parameterProperties(open int) {
	closing := int(b.match[open])
	for k := open + 1; k < closing; k++ {
		if !b.punct(k-1, '(') && !b.punct(k-1, ',') {
			if m := b.match[k]; m > int32(k) {
				k = int(m)
			}
			continue
		}
		var mods []string
		n := k
		for b.ident(n) && (b.is(n, "public") || b.is(n, "private") || b.is(n, "protected") || b.is(n, "readonly") || b.is(n, "override")) {
			mods = append(mods, b.text(n))
			n++
		}
		if len(mods) == 0 || !b.ident(n) {
			continue
		}
		end := b.nextAt(n, closing, ',', b.match)
		if end < 0 {
			end = closing
		}
		d := b.addDef(symbol.Field, n, b.toks[k].start, b.reach(end-1))
		d.decl, d.noDoc = true, true
		d.vis = b.visibility(mods, d.name, symbol.Class)
		d.parent = b.enclosingType(n) // the class's, though the constructor holds it
	}
}

// hashName gives a #private member the name with its '#'.
func (b *braceScan) hashName(n int, private bool) {
	if !private || len(b.x.defs) == 0 {
		return
	}
	d := b.x.defs[len(b.x.defs)-1]
	if !strings.HasPrefix(d.name, "#") {
		d.name = "#" + d.name
	}
	if sd := b.info[d]; sd != nil {
		sd.vis = symbol.Private
	}
}

// jsAssignedMethod reads "X.prototype.m = function …" and "X.m = function
// …" (or an arrow function) at the top level: a method m of X.
func (b *braceScan) jsAssignedMethod(k, to int) (int, bool) {
	if !b.ident(k) || !b.punct(k+1, '.') {
		return 0, false
	}
	t := k
	var names []int
	for b.ident(t) && b.punct(t+1, '.') {
		names = append(names, t)
		t += 2
	}
	if !b.ident(t) || !b.punct(t+1, '=') || b.punct(t+2, '=') {
		return 0, false
	}
	v := t + 2
	if b.is(v, "async") {
		v++
	}
	if !b.ecmaFunction(v) {
		return 0, false
	}
	end := b.statementEnd(k, to)
	kind, parent := symbol.Method, b.text(names[0])
	if parent == "module" || parent == "exports" {
		kind, parent = symbol.Function, "" // module.exports.f = …: a function of the module
	}
	d := b.addDef(kind, t, b.toks[k].start, b.toks[end].end)
	d.parent = parent
	d.doc = b.leadingDoc(b.toks[k].start)
	d.noDoc = true
	if open := b.nextAt(v, end+1, '{', b.match); open > 0 {
		d.sigEnd = b.toks[open].start
	} else {
		d.decl = true
	}
	if b.is(v, "function") && b.ident(v+1) {
		v += 2 // function load(…): the same function, not one inside it
	}
	b.body(v, end+1)
	return end, true
}

// cMember reads a member in the C family's shape at token k: "Type
// name(…) …" is a function (a constructor when named as its class, a
// method in a type), "Type name [= …];" a field or variable.
func (b *braceScan) cMember(start, doc, k, to int, mods []string, in symbol.Kind) (int, bool) {
	// The declarator: the last name before "(", "=", ";", "{" or ",",
	// with what comes before it as its type.
	name, parent := -1, ""
	t := k
	pointer := false    // a C function pointer: Type (*name)(…)
	destructor := false // ~Name(…)
	for ; t < to; t++ {
		if b.punct(t, '(') && b.punct(t+1, '*') && b.ident(t+2) && b.punct(t+3, ')') && b.punct(t+4, '(') && b.lang.preproc {
			name, pointer = t+2, true
			t = int(b.match[t+4]) + 1
			for t < to && !b.punct(t, ';') && !b.punct(t, '=') && !b.punct(t, ',') {
				t++
			}
			break
		}
		if b.punct(t, '(') || b.punct(t, '=') || b.punct(t, ';') || b.punct(t, '{') || b.punct(t, ',') {
			break
		}
		switch {
		case b.punct(t, '<'):
			if e := b.angleEnd(t, to); e > 0 {
				t = e
				continue
			}
		case b.punct(t, '[') || b.punct(t, '{'):
			t = int(b.match[t])
			continue
		case b.punct(t, '~') && b.ident(t+1):
			name, destructor = t+1, true // a C++ destructor
			t++
			continue
		case b.is(t, "operator") && in.IsType():
			// An operator: its name is its symbol, operator== is "==".
			p := t + 1
			for p < to && b.toks[p].kind == tPunct && !b.punct(p, '(') {
				p++
			}
			if p == t+1 || !b.punct(p, '(') {
				return 0, false
			}
			end := b.function(start, doc, t, to, symbol.Method, "", mods, in)
			if d := b.x.defs[len(b.x.defs)-1]; d.kind == symbol.Method {
				d.name = string(b.src[b.toks[t+1].start:b.toks[p-1].end])
			}
			return end, true
		case b.is(t, "operator"):
			return 0, false
		case b.ident(t) && b.lang.control[b.text(t)]:
			return 0, false // if (…), return x;
		case b.ident(t) && b.lang.keywords[b.text(t)]:
			// int, void, unsigned: part of the type
		case b.ident(t):
			q := t + 1
			if b.lang.qualified && b.punct(q, '<') { // Conn<Codec>::Conn
				if e := b.angleEnd(q, to); e > 0 && b.punct(e+1, ':') && b.punct(e+2, ':') {
					q = e + 1
				}
			}
			if b.lang.qualified && b.punct(q, ':') && b.punct(q+1, ':') {
				parent = join(parent, b.text(t))
				t = q + 1
				continue
			}
			name = t
		}
	}
	if name < 0 || t >= to {
		return 0, false
	}
	if b.punct(t, '{') && name == k && in.IsType() && b.lang.ctorByName && b.isOwnName(name) {
		// A Java record's compact constructor: public Entry { … }.
		closing := int(b.match[t])
		d := b.addDef(symbol.Constructor, name, b.toks[start].start, b.toks[closing].end)
		d.vis = b.visibility(mods, d.name, in)
		d.sigEnd = b.toks[t].start
		d.doc = b.leadingDoc(b.toks[doc].start)
		d.noDoc = true
		b.body(t+1, closing)
		return closing, true
	}
	switch {
	case b.punct(t, '(') && !pointer:
		ctor := in.IsType() && b.lang.ctorByName && b.isOwnName(name) || parent != "" && b.text(name) == lastName(parent)
		if name == k && !ctor && len(mods) == 0 {
			return 0, false // a call, f(x); a function's declaration has a type first
		}
		if b.lang.csAttr && b.punct(name-1, '.') {
			mods = append(mods, "public") // C#: void IDisposable.Dispose(), an interface's
		}
		kind := symbol.Function
		switch {
		case destructor:
			end := b.function(start, doc, name, to, symbol.Method, parent, mods, in)
			if d := b.x.defs[len(b.x.defs)-1]; d.kind == symbol.Method {
				d.name = "~" + d.name
			}
			return end, true
		case b.is(k, "delegate"):
			kind = symbol.Type // C#: delegate void Handler(…);
		case ctor:
			kind = symbol.Constructor
			if in == symbol.Enum && len(mods) == 0 {
				mods = []string{"private"} // an enum's constructors are its own
			}
		case in.IsType():
			kind = symbol.Method
		}
		for f := k; f < name; f++ {
			if b.ident(f) && !b.lang.keywords[b.text(f)] && !b.lang.mods[b.text(f)] && !b.punct(f+1, ':') && !b.punct(f+1, '.') {
				b.setRef(f, symbol.RefType)
			}
		}
		return b.function(start, doc, name, to, kind, parent, mods, in), true
	case in == symbol.Unknown && !b.lang.semicolons:
		return 0, false
	}
	end := b.statementEnd(k, to)
	if b.lang.csAttr && (b.punct(name+1, '{') || b.punct(name+1, '=') && b.punct(name+2, '>')) {
		// C#: Type Name { get; set; } [= …;] and Type Name => …; are properties.
		d := b.addDef(symbol.Property, name, b.toks[start].start, b.toks[end].end)
		d.vis = b.visibility(mods, d.name, in)
		d.doc = b.leadingDoc(b.toks[doc].start)
		d.noDoc = true
		if open := b.nextAt(name+1, end+1, '{', b.match); open > 0 {
			d.sigEnd = b.toks[open].start
		}
		return end, true
	}
	if b.lang.preproc && hasWord(mods, "extern") {
		return end, true // a declaration of what another file defines
	}
	kind := symbol.Variable
	if in.IsType() {
		kind = symbol.Field
	}
	switch {
	case hasWord(mods, "const") && b.lang.csAttr, hasWord(mods, "final") && hasWord(mods, "static"), in == symbol.Interface:
		kind = symbol.Constant
	case hasWord(mods, "constexpr"), hasWord(mods, "const") && b.lang.preproc && !pointer && !b.hasPunctIn(k, name, '*'):
		kind = symbol.Constant // C: static const size_t n = …; not const char *s
	}
	d := b.addDef(kind, name, b.toks[start].start, b.toks[end].end)
	d.vis = b.visibility(mods, d.name, in)
	d.decl = true
	d.doc = b.leadingDoc(b.toks[doc].start)
	d.noDoc = true
	for f := k; f < name; f++ {
		if b.ident(f) && !b.lang.keywords[b.text(f)] && !b.punct(f+1, '.') {
			b.setRef(f, symbol.RefType)
		}
	}
	// An anonymous class in the initializer: new T(…) { members }; the
	// signature stops at its body, as the parser's does.
	for f := name + 1; f < end; f++ {
		if b.is(f, "new") {
			if open := b.nextAt(f, end, '{', b.match); open > 0 && b.punct(open-1, ')') {
				d.decl, d.sigEnd = false, b.toks[open].start
				b.container(open+1, int(b.match[open]), symbol.Class)
				break
			}
		}
	}
	b.body(name+1, end+1)
	return end, true
}

// isOwnName reports whether token name names the type whose body holds it.
func (b *braceScan) isOwnName(name int) bool {
	for i := len(b.x.defs) - 1; i >= 0; i-- {
		d := b.x.defs[i]
		if d.kind.IsType() && d.start <= uint(b.toks[name].start) && uint(b.toks[name].end) <= d.end {
			return d.name == b.text(name)
		}
	}
	return false
}

func lastName(qual string) string {
	if i := strings.LastIndexByte(qual, '.'); i >= 0 {
		return qual[i+1:]
	}
	return qual
}

func hasWord(words []string, w string) bool {
	for _, x := range words {
		if x == w {
			return true
		}
	}
	return false
}

// body reads the declarations a function body (or any statement),
// tokens [from, to), announces by keyword: local classes, nested
// functions.
func (b *braceScan) body(from, to int) {
	l := b.lang
	for k := from; k < to; k++ {
		b.tick()
		if !b.ident(k) {
			continue
		}
		w := b.text(k)
		switch {
		case l.types[w] != symbol.Unknown && b.typeName(k) > 0 && !b.punct(k-1, '.') && b.declaresBody(b.typeName(k)):
			k = b.typeDecl(k, k, k, to, nil, symbol.Function)
		case l.funcs[w] && (b.ident(k+1) || b.punct(k+1, '*') && b.ident(k+2)) && !b.punct(k-1, '.'):
			k = b.funcDecl(k, k, k, to, nil, symbol.Function)
		case l.vars[w] == symbol.Type && b.ident(k+1) && (b.punct(k+2, '=') || b.punct(k+2, '<')):
			k = b.varDecl(k, k, k, to, nil, symbol.Function) // TypeScript: a type alias in a body
		}
	}
}

// declaresBody reports whether the type named at token name has a body
// of its own, "{" before anything that ends a type's use: struct s {
// declares, struct s *p uses.
func (b *braceScan) declaresBody(name int) bool {
	for t := name + 1; t < len(b.toks); t++ {
		switch {
		case b.punct(t, '{'):
			return true
		case b.punct(t, '<'):
			if e := b.angleEnd(t, len(b.toks)); e > 0 {
				t = e
				continue
			}
			return false
		case b.punct(t, ';'), b.punct(t, ')'), b.punct(t, ','), b.punct(t, '='), b.punct(t, '*'):
			return false
		}
		if m := b.match[t]; m > int32(t) {
			t = int(m)
		}
	}
	return false
}

// statementEnd returns the last token of the statement that starts at
// token i, before limit: at a ';', after a block that ends its line, or,
// where lines end statements, at a line end that does not continue.
func (b *braceScan) statementEnd(i, limit int) int {
	k := i
	for k < limit {
		b.tick()
		if b.punct(k, ';') {
			return k
		}
		if m := b.match[k]; m > int32(k) {
			block := b.punct(k, '{')
			k = int(m)
			if k >= limit-1 {
				return min(k, limit-1)
			}
			if block && b.toks[k+1].first && !b.continuesAfterBlock(k+1) && (b.lang.semicolons || !b.continuesLine(k+1)) {
				return k
			}
		}
		if k+1 >= limit {
			return k
		}
		if !b.lang.semicolons && b.toks[k+1].first && !b.continues(k) && !b.continuesLine(k+1) {
			return k
		}
		k++
	}
	return limit - 1
}

// continues reports whether token k, last on its line, leaves the
// statement open: an operator, a comma, an opening bracket, a dot.
func (b *braceScan) continues(k int) bool {
	t := &b.toks[k]
	if t.kind != tPunct {
		return false
	}
	switch b.src[t.start] {
	case ')', ']', '}', ';':
		return false
	case '+', '-':
		return !(k > 0 && b.adjacent(k-1) && b.src[b.toks[k-1].start] == b.src[t.start]) // ++ and -- end
	}
	return true
}

// continuesLine reports whether token k, first on its line, continues the
// statement of the line before: a member access, an operator.
func (b *braceScan) continuesLine(k int) bool {
	t := &b.toks[k]
	if t.kind != tPunct {
		return b.is(k, "else") || b.is(k, "catch") || b.is(k, "finally")
	}
	switch b.src[t.start] {
	case '.', '?', ':', '&', '|', '+', '*', '/', '%', '=', '>', '<':
		return true
	}
	return false
}

// continuesAfterBlock reports whether the statement goes on after a
// block, at token k: else, catch, finally, while (of a do), or a call
// or member on an object literal.
func (b *braceScan) continuesAfterBlock(k int) bool {
	if b.ident(k) {
		switch b.text(k) {
		case "else", "catch", "finally", "while":
			return true
		}
		return false
	}
	return b.punct(k, '.') || b.punct(k, ')') || b.punct(k, ',')
}

// angleEnd returns the '>' closing the '<' at token k (type parameters
// and arguments: names, dots, commas, brackets, nested angles), or -1.
func (b *braceScan) angleEnd(k, limit int) int {
	depth := 0
	for t := k; t < limit; t++ {
		switch {
		case b.punct(t, '<'):
			depth++
		case b.punct(t, '>'):
			if b.punct(t-1, '-') || b.punct(t-1, '=') {
				continue
			}
			depth--
			if depth == 0 {
				return t
			}
		case b.punct(t, ';') || b.punct(t, '}'):
			return -1
		default:
			if m := b.match[t]; m > int32(t) {
				t = int(m)
			}
		}
	}
	return -1
}

// visibility applies the language's rule.
func (b *braceScan) visibility(mods []string, name string, in symbol.Kind) symbol.Visibility {
	if b.lang.visibility == nil {
		return symbol.Public
	}
	if b.lang.template && in.IsType() {
		switch {
		case b.access == "private", b.access == "" && in == symbol.Class:
			return symbol.Private
		case b.access == "protected":
			return symbol.Protected
		}
		return symbol.Public
	}
	if b.lang.exported && !in.IsType() && in != symbol.Type && in != symbol.Function {
		// A module's own: public when exported, or when the file is no
		// ES module, or when declared for others (declare …).
		if b.ambient > 0 || in == symbol.Unknown && (!b.esm || b.exports[name]) {
			mods = append(mods, "export")
		}
	}
	return b.lang.visibility(mods, name, in)
}

// enclosingType returns the name of the innermost type whose span holds
// token k, or "".
func (b *braceScan) enclosingType(k int) string {
	for i := len(b.x.defs) - 1; i >= 0; i-- {
		d := b.x.defs[i]
		if d.kind.IsType() && d.start <= uint(b.toks[k].start) && uint(b.toks[k].end) <= d.end {
			return d.name
		}
	}
	return ""
}
