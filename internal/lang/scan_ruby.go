package lang

import (
	"strconv"
	"strings"
	"sync"

	"github.com/winnowhq/winnow/internal/symbol"
)

var rubyKeywords = sync.OnceValue(func() map[string]bool {
	return set(`BEGIN END alias and begin break case class def defined? do else elsif end ensure false for if in
	module next nil not or redo rescue retry return self super then true undef unless until when while yield
	__FILE__ __LINE__ __method__ require require_relative attr_reader attr_writer attr_accessor include extend
	prepend private protected public private_constant module_function raise puts`)
})

// rubyBlock is a block that an "end" closes: a definition, or any other
// (do, if, case …) that only counts.
type rubyBlock struct {
	d       *scanDef // nil for a block that is no definition
	kind    symbol.Kind
	private string // the visibility a bare private/protected line set inside it
	self    bool   // class << self: its defs are its class's
}

// scanRuby reads Ruby's definitions by their keywords at the start of a
// statement, and ends each at the "end" that closes it, counting the
// blocks opened in between: do, begin, case, for, and if, unless, while
// and until where they start a statement (not as modifiers). Constants
// and class variables assigned in a class or module, aliases, requires,
// and private sections are read too.
func scanRuby(s *scanFile) {
	r := &rubyScan{scanFile: s}
	r.run()
	s.emitRefs(rubyKeywords())
}

type rubyScan struct {
	*scanFile
	stack []rubyBlock
}

// statementStart reports whether token i starts a statement: first on
// its line (not continuing the line before), or after a ';'.
func (r *rubyScan) statementStart(i int) bool {
	if i == 0 {
		return true
	}
	if r.punct(i-1, ';') {
		return true
	}
	return r.toks[i].first && !r.continues(i-1)
}

// continues reports whether a line ending with token k goes on.
func (r *rubyScan) continues(k int) bool {
	t := &r.toks[k]
	if t.kind != tPunct {
		return r.is(k, "and") || r.is(k, "or") || r.is(k, "not")
	}
	switch c := r.src[t.end-1]; c {
	case ',', '(', '[', '.', '\\', '+', '-', '*', '/', '=', '&', '<', '>', '?', ':':
		return true
	case '|':
		// || goes on; a block's |params| ends its line, as does its {.
		return k > 0 && r.adjacent(k-1) && r.punct(k-1, '|')
	}
	return false
}

// lineEnd returns the last token of the logical line holding token i.
func (r *rubyScan) lineEnd(i int) int {
	depth := 0
	for k := i; k < len(r.toks); k++ {
		if r.toks[k].kind == tPunct {
			switch r.src[r.toks[k].start] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			case ';':
				if depth <= 0 {
					return k - 1
				}
			}
		}
		if k+1 < len(r.toks) && depth <= 0 && r.toks[k+1].first && !r.continues(k) {
			return k
		}
	}
	return len(r.toks) - 1
}

func (r *rubyScan) top() *rubyBlock {
	if len(r.stack) == 0 {
		return nil
	}
	return &r.stack[len(r.stack)-1]
}

// inType reports the kind of the innermost definition block: Class,
// Module or Unknown (the top level, or inside a method).
func (r *rubyScan) inType() symbol.Kind {
	for i := len(r.stack) - 1; i >= 0; i-- {
		if b := r.stack[i]; b.d != nil || b.self {
			if b.self {
				return symbol.Class
			}
			return b.kind
		}
	}
	return symbol.Unknown
}

func (r *rubyScan) run() {
	lineStart := -1 // the first token of the current statement
	opener := ""    // while, until or for opened on this line: its do is no block
	for i := 0; i < len(r.toks); i++ {
		if r.statementStart(i) {
			lineStart, opener = i, ""
		}
		t := &r.toks[i]
		if i == lineStart && t.kind == tPunct && (r.src[t.start] == '$' || r.src[t.start] == '@') {
			r.assignment(i) // $global = …, @@class_variable = …
			continue
		}
		if t.kind != tIdent || r.punct(i-1, '.') || r.punct(i+1, ':') && !r.punct(i+2, ':') {
			continue // a method called end, a hash key if:
		}
		w := r.text(i)
		switch w {
		case "end":
			r.close(i)
		case "def":
			if i == lineStart || r.modifierBefore(i) {
				i = r.def(i, lineStart)
			}
		case "class", "module":
			if i == lineStart || r.punct(i-1, '=') {
				r.typeDecl(i, lineStart)
			}
		case "do":
			if opener == "" {
				r.stack = append(r.stack, rubyBlock{})
			}
			opener = ""
		case "begin", "case":
			r.stack = append(r.stack, rubyBlock{})
		case "if", "unless", "while", "until", "for":
			if i == lineStart || r.valueStart(i) {
				r.stack = append(r.stack, rubyBlock{})
				if w != "if" && w != "unless" {
					opener = w
				}
			}
		case "private", "protected", "public":
			if i == lineStart && r.lineEnd(i) == i {
				if b := r.top(); b != nil {
					b.private = w // a section: the defs after it
				}
			}
		case "alias":
			if i == lineStart && r.ident(i+1) {
				end := r.lineEnd(i)
				d := r.addDef(symbol.Method, i+1, r.toks[i].start, r.reach(end))
				d.decl = true
				d.vis = r.sectionVisibility()
				r.kinds[min(i+2, len(r.kinds)-1)] = refNone
			}
		case "require", "require_relative", "autoload":
			r.require(i)
		case "private_constant":
			r.privateConstants(i)
		default:
			if i == lineStart {
				r.assignment(i)
			}
		}
	}
	if len(r.stack) > 0 {
		r.fail("a block does not end")
	}
}

// valueStart reports whether an if or while at token i starts a value
// (x = if …, return if …is a modifier though), not a modifier.
func (r *rubyScan) valueStart(i int) bool {
	return r.punct(i-1, '=') && !r.punct(i-2, '=') || r.punct(i-1, '(') || r.punct(i-1, ',') || r.punct(i-1, '[') ||
		r.is(i-1, "then") || r.is(i-1, "do") || r.is(i-1, "else")
}

// modifierBefore reports "private def x" and the like.
func (r *rubyScan) modifierBefore(i int) bool {
	return r.is(i-1, "private") || r.is(i-1, "protected") || r.is(i-1, "public") || r.is(i-1, "module_function")
}

// close ends the innermost block at its "end", token i.
func (r *rubyScan) close(i int) {
	b := r.top()
	if b == nil {
		r.fail("an end without a block at line " + strconv.Itoa(r.x.lineIndex().line(uint(r.toks[i].start))))
	}
	if b.d != nil {
		b.d.end = uint(r.toks[i].end)
	}
	r.stack = r.stack[:len(r.stack)-1]
}

// sectionVisibility is the visibility a private or protected section of
// the innermost class gives, or Public.
func (r *rubyScan) sectionVisibility() symbol.Visibility {
	for i := len(r.stack) - 1; i >= 0; i-- {
		b := r.stack[i]
		if b.d == nil && !b.self {
			continue
		}
		switch b.private {
		case "private":
			return symbol.Private
		case "protected":
			return symbol.Protected
		}
		return symbol.Public
	}
	return symbol.Public
}

// def reads a method definition at token i, of the statement that starts
// at start ("protected def x" starts at protected); it returns the last
// token of its header.
func (r *rubyScan) def(i, start int) int {
	n := i + 1
	if n >= len(r.toks) {
		return i // the file ends at the keyword
	}
	parent := ""
	self := false
	switch {
	case r.is(n, "self") && r.punct(n+1, '.'):
		self = true
		n += 2
	case r.ident(n) && r.punct(n+1, '.') && n+2 < len(r.toks) && (r.ident(n+2) || r.toks[n+2].kind == tPunct):
		parent = r.text(n) // def Billing.reset!
		r.setRef(n, symbol.RefType)
		n += 2
	}
	// The name: an identifier (with ?, ! or a setter's =) or an operator.
	nameEnd := n
	if r.toks[n].kind == tPunct {
		for nameEnd+1 < len(r.toks) && r.adjacent(nameEnd) && r.toks[nameEnd+1].kind == tPunct && !r.punct(nameEnd+1, '(') {
			nameEnd++
		}
	} else if r.punct(n+1, '=') && r.adjacent(n) && (r.punct(n+2, '(') || r.ident(n+2)) {
		nameEnd = n + 1 // def name=(v)
	}
	header := r.lineEnd(i)
	endless := false
	for k := nameEnd + 1; k <= header; k++ {
		if r.punct(k, '(') {
			for depth := 0; k <= header; k++ {
				if r.punct(k, '(') {
					depth++
				} else if r.punct(k, ')') {
					if depth--; depth == 0 {
						break
					}
				}
			}
			continue
		}
		if r.punct(k, '=') && !r.punct(k+1, '=') && !r.punct(k-1, '=') {
			endless = true // def issued = @@issued
			header = k - 1
			break
		}
	}
	kind := symbol.Function
	in := r.inType()
	switch {
	case r.text(n) == "initialize" && in != symbol.Unknown:
		kind = symbol.Constructor
	case parent != "" || in != symbol.Unknown || self:
		kind = symbol.Method
	}
	d := r.addDef(kind, n, r.toks[start].start, r.reach(header))
	if nameEnd > n {
		d.name = string(r.src[r.toks[n].start:r.toks[nameEnd].end])
		for k := n + 1; k <= nameEnd; k++ {
			r.kinds[k] = refNone
		}
	}
	d.parent = parent
	d.sigEnd = int32(r.reach(header))
	d.vis = r.sectionVisibility()
	switch {
	case r.is(i-1, "private"):
		d.vis = symbol.Private
	case r.is(i-1, "protected"):
		d.vis = symbol.Protected
	}
	if endless {
		d.end = uint(r.reach(r.lineEnd(header + 1)))
		return header
	}
	r.stack = append(r.stack, rubyBlock{d: d, kind: kind})
	return header
}

// typeDecl reads "class A::B < Base", "module M" or "class << self" at
// token i.
func (r *rubyScan) typeDecl(i, start int) {
	kind := symbol.Class
	if r.is(i, "module") {
		kind = symbol.Module
	}
	if r.punct(i+1, '<') && r.punct(i+2, '<') {
		r.stack = append(r.stack, rubyBlock{self: true}) // class << self
		return
	}
	n := i + 1
	if !r.ident(n) {
		r.stack = append(r.stack, rubyBlock{}) // Class.new do … end and the like
		return
	}
	var parents []string
	for r.ident(n) && r.punct(n+1, ':') && r.punct(n+2, ':') && r.ident(n+3) {
		parents = append(parents, r.text(n))
		r.setRef(n, symbol.RefType)
		n += 3
	}
	header := r.lineEnd(i)
	d := r.addDef(kind, n, r.toks[start].start, r.reach(header))
	d.parent = strings.Join(parents, ".")
	d.sigEnd = int32(r.reach(header))
	d.vis = symbol.Public
	for k := n + 1; k <= header; k++ {
		if r.ident(k) && !r.punct(k+1, ':') {
			r.setRef(k, symbol.RefType)
		}
	}
	r.stack = append(r.stack, rubyBlock{d: d, kind: kind})
}

// assignment reads "NAME = …" (a constant, a Struct or a class) and
// "@@name = …" in a class or module, "$name = …" at the top level.
func (r *rubyScan) assignment(i int) {
	if !r.punct(i+1, '=') || r.punct(i+2, '=') || r.punct(i+2, '~') {
		return
	}
	name := r.text(i)
	in := r.inType()
	var kind symbol.Kind
	switch {
	case strings.HasPrefix(name, "@@") && in != symbol.Unknown:
		kind = symbol.Field
	case strings.HasPrefix(name, "$") && len(r.stack) == 0:
		kind = symbol.Variable
	case r.ident(i) && isUpperName(name) && (in != symbol.Unknown || len(r.stack) == 0):
		kind = symbol.Constant
		switch {
		case r.is(i+2, "Struct") && r.punct(i+3, '.') && r.is(i+4, "new"):
			kind = symbol.Struct
		case r.is(i+2, "Class") && r.punct(i+3, '.') && r.is(i+4, "new"):
			kind = symbol.Class
		}
	default:
		return
	}
	end := r.lineEnd(i)
	d := r.addDef(kind, i, r.toks[i].start, r.reach(end))
	d.decl, d.noDoc = true, true
	d.vis = symbol.Public
}

// require reads require "x", require_relative "x" and autoload :X, "x".
func (r *rubyScan) require(i int) {
	end := r.lineEnd(i)
	for k := i + 1; k <= end; k++ {
		if r.toks[k].kind == tString && !strings.HasPrefix(r.text(k), ":") {
			line := r.x.lineIndex().line(uint(r.toks[i].start))
			r.x.file.Imports = append(r.x.file.Imports, symbol.Import{Module: trimQuotes(r.text(k)), Line: line})
			r.quiet(r.toks[i].start, r.reach(end))
			return
		}
	}
}

// privateConstants makes the constants private_constant names private.
func (r *rubyScan) privateConstants(i int) {
	end := r.lineEnd(i)
	for k := i + 1; k <= end; k++ {
		name := strings.TrimPrefix(r.text(k), ":")
		for _, d := range r.x.defs {
			if sd := r.info[d]; sd != nil && d.name == name && !d.kind.IsCallable() {
				sd.vis = symbol.Private
			}
		}
	}
}
