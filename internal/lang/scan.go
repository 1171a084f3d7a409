package lang

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/winnowhq/winnow/internal/symbol"
)

// ScanVersion identifies what the fast scanner produces. Files it
// scanned are parsed again by the next full update whatever it is, so a
// change needs no rebuild; the version is for tests and diagnostics.
const ScanVersion = 1

var (
	// ErrNoScanner means the language has no fast scanner: its files get
	// lexical documents of the whole file only until they are parsed.
	ErrNoScanner = errors.New("no fast scanner for the language")
	// ErrScan means the scanner could not read a file; it is left to the
	// parser.
	ErrScan = errors.New("fast scanner failed")
)

// scanPasses are the languages with a fast scanner and their passes.
var scanPasses = map[*Language]func(*scanFile){
	pythonLang:     scanPython,
	goLang:         scanGo,
	javascriptLang: scanBraces(javascriptBraces),
	typescriptLang: scanBraces(typescriptBraces),
	tsxLang:        scanBraces(typescriptBraces),
	javaLang:       scanBraces(javaBraces),
	csharpLang:     scanBraces(csharpBraces),
	kotlinLang:     scanBraces(kotlinBraces),
	rustLang:       scanBraces(rustBraces),
	cLang:          scanBraces(cBraces),
	cppLang:        scanBraces(cppBraces),
	rubyLang:       scanRuby,
}

// HasScanner reports whether the language has a fast scanner.
func (l *Language) HasScanner() bool { return scanPasses[l] != nil }

// A Scanner extracts definitions, references and imports from source
// files without parsing them: a lexer-level pass per language (strings
// and comments skipped as the language writes them, definitions found
// by their keywords, spans by indentation or matching brackets). It is
// the quick tier of the index: about a tenth of a parse's cost, with
// the same records, less precise (no types of expressions, heuristic
// spans for unusual layouts). A Scanner reuses its buffers from file to
// file, so it is not safe for concurrent use.
type Scanner struct {
	toks  []token
	cmts  []comment
	kinds []uint8
	ends  []int32
}

// Scan extracts what it can of one file. A language without a scanner
// is ErrNoScanner; a file the scanner cannot read is ErrScan, never a
// crash.
func (sc *Scanner) Scan(l *Language, path string, src []byte) (f *symbol.File, err error) {
	pass := scanPasses[l]
	if pass == nil {
		return nil, fmt.Errorf("scan %s: %w", path, ErrNoScanner)
	}
	defer func() {
		switch r := recover().(type) {
		case nil:
		case scanFailure:
			f, err = nil, fmt.Errorf("scan %s: %w: %s", path, ErrScan, r)
		default:
			// A bug of the scanner's, met on some input: the file goes to
			// the parser like any other it cannot read, and is counted.
			f, err = nil, fmt.Errorf("scan %s: %w: internal error: %v", path, ErrScan, r)
		}
	}()
	s := &scanFile{
		x:    &extraction{lang: l, src: src, file: &symbol.File{Path: path, Lang: l.Name}},
		src:  src,
		info: make(map[*def]*scanDef),
	}
	var unclosed bool
	s.toks, s.cmts, unclosed = lex(src, scanSyntax[l], sc.toks, sc.cmts)
	sc.toks, sc.cmts = s.toks, s.cmts
	if unclosed {
		return nil, fmt.Errorf("scan %s: %w: a string or comment does not close", path, ErrScan)
	}
	if cap(sc.kinds) < len(s.toks) {
		sc.kinds = make([]uint8, len(s.toks)+len(s.toks)/4)
	}
	s.kinds = sc.kinds[:len(s.toks)]
	clear(s.kinds)
	s.ends = sc.ends[:0]
	end := int32(0)
	for i := range s.toks {
		end = max(end, s.toks[i].end)
		s.ends = append(s.ends, end)
	}
	sc.ends = s.ends
	pass(s)
	sc.toks, sc.cmts = s.toks, s.cmts
	s.x.resolveWith(s.symbol)
	return s.x.file, nil
}

// scanSyntax is the lexical syntax of each language with a scanner.
var scanSyntax = map[*Language]*lexSyntax{
	pythonLang: {hashComments: true, quotes: `"'`, triple: true, pyPrefix: true},
	goLang:     {slashComments: true, quotes: `"`, charQuote: true, goRaw: true},

	javascriptLang: {slashComments: true, quotes: `"'`, template: true, regex: true, dollar: true},
	typescriptLang: {slashComments: true, quotes: `"'`, template: true, regex: true, dollar: true},
	tsxLang:        {slashComments: true, quotes: `"'`, template: true, regex: true, dollar: true},
	javaLang:       {slashComments: true, quotes: `"`, charQuote: true, triple: true},
	csharpLang:     {slashComments: true, quotes: `"`, charQuote: true, triple: true, csVerbatim: true},
	kotlinLang:     {slashComments: true, nestComments: true, quotes: `"`, charQuote: true, triple: true},
	rustLang:       {slashComments: true, nestComments: true, quotes: `"`, lifetimes: true, rustRaw: true},
	cLang:          {slashComments: true, quotes: `"`, charQuote: true},
	cppLang:        {slashComments: true, quotes: `"`, charQuote: true, cppRaw: true},
	rubyLang:       {hashComments: true, quotes: "\"'`", regex: true, rubyLex: true},
}

// scanFile is the state of scanning one file.
type scanFile struct {
	x     *extraction
	src   []byte
	toks  []token
	cmts  []comment
	kinds []uint8 // per token: refAuto, refNone or 1+RefKind
	ends  []int32 // per token: the furthest end of it and the tokens before
	info  map[*def]*scanDef
}

// reach returns where the code up to token i ends: its end, or that of
// the literal holding it (code lexed inside a literal follows it).
func (s *scanFile) reach(i int) int32 {
	if i < 0 {
		return 0
	}
	return s.ends[i]
}

// Per-token reference decisions a pass makes ahead of emitRefs.
const (
	refAuto uint8 = 0   // decided by the neighbours: call, member or name
	refNone uint8 = 255 // not a reference
)

// scanDef is a definition as a pass found it, with what its symbol
// needs besides the nesting.
type scanDef struct {
	def
	sigEnd  int32 // the signature is src[start:sigEnd]
	decl    bool  // a definition without a body: its signature is its first lines
	doc     string
	noDoc   bool // no leading comments as doc (Python assignments)
	vis     symbol.Visibility
	sigFrom int32 // the signature starts here rather than at start, when >= 0
}

// text returns the source of token i.
func (s *scanFile) text(i int) string {
	t := &s.toks[i]
	return string(s.src[t.start:t.end])
}

// is reports whether token i is the identifier or punctuation word.
func (s *scanFile) is(i int, word string) bool {
	if i < 0 || i >= len(s.toks) {
		return false
	}
	t := &s.toks[i]
	return t.kind != tString && t.kind != tNumber && string(s.src[t.start:t.end]) == word
}

// punct reports whether token i is the punctuation byte c.
func (s *scanFile) punct(i int, c byte) bool {
	if i < 0 || i >= len(s.toks) {
		return false
	}
	t := &s.toks[i]
	return t.kind == tPunct && s.src[t.start] == c
}

// ident reports whether token i is an identifier.
func (s *scanFile) ident(i int) bool {
	return i >= 0 && i < len(s.toks) && s.toks[i].kind == tIdent
}

// adjacent reports whether token i ends where token i+1 starts.
func (s *scanFile) adjacent(i int) bool {
	return i+1 < len(s.toks) && s.toks[i].end == s.toks[i+1].start
}

// addDef records a definition named by token name, spanning
// src[start:end].
func (s *scanFile) addDef(kind symbol.Kind, name int, start, end int32) *scanDef {
	d := &scanDef{sigFrom: -1}
	d.kind = kind
	d.name = normalizeName(s.text(name))
	if s.toks[name].kind == tString {
		d.name = trimQuotes(d.name) // enum { "Blue" }, declare module "x"
	}
	d.start, d.end = uint(start), uint(end)
	d.sigEnd = end
	if d.name == "" || len(d.name) > maxNameBytes {
		return d // not recorded; callers may still set fields
	}
	s.x.quiet = append(s.x.quiet, [2]uint{uint(s.toks[name].start), uint(s.toks[name].end)})
	s.kinds[name] = refNone
	s.x.defs = append(s.x.defs, &d.def)
	s.info[&d.def] = d
	return d
}

// addScope records a node that qualifies the definitions inside it but
// is not one itself (Rust's impl blocks).
func (s *scanFile) addScope(name string, start, end int32) {
	d := &scanDef{sigFrom: -1}
	d.scope = true
	d.name = name
	d.start, d.end = uint(start), uint(end)
	s.x.defs = append(s.x.defs, &d.def)
	s.info[&d.def] = d
}

// quiet marks src[start:end] as holding no references.
func (s *scanFile) quiet(start, end int32) {
	s.x.quiet = append(s.x.quiet, [2]uint{uint(start), uint(end)})
}

// emitRefs turns the identifiers into references: the kind a pass
// decided, else a call when "(" follows, a member after ".", a name
// otherwise. keywords are not references.
func (s *scanFile) emitRefs(keywords map[string]bool) {
	for i := range s.toks {
		t := &s.toks[i]
		if t.kind != tIdent || s.kinds[i] == refNone {
			continue
		}
		if keywords[string(s.src[t.start:t.end])] {
			continue
		}
		kind := symbol.RefName
		switch {
		case s.kinds[i] != refAuto:
			kind = symbol.RefKind(s.kinds[i] - 1)
		case s.punct(i+1, '('):
			kind = symbol.RefCall
		case s.punct(i-1, '.'):
			kind = symbol.RefMember
		}
		s.x.refs = append(s.x.refs, refUse{start: uint(t.start), end: uint(t.end), kind: kind})
	}
}

// scanFailure is what fail panics with: Scan turns it into ErrScan.
type scanFailure string

// fail abandons the scan of a file the pass cannot read with confidence:
// one whose brackets do not balance, say, as in the middle of an edit.
// The parser, which recovers from errors, reads it instead.
func (s *scanFile) fail(why string) { panic(scanFailure(why)) }

// setRef decides the reference kind of token i.
func (s *scanFile) setRef(i int, kind symbol.RefKind) {
	if i >= 0 && i < len(s.kinds) && s.kinds[i] != refNone {
		s.kinds[i] = uint8(kind) + 1
	}
}

// symbol makes the symbol of a definition the pass found.
func (s *scanFile) symbol(d *def) symbol.Symbol {
	x := s.x
	sd := s.info[d]
	sym := symbol.Symbol{
		Name:       d.name,
		Qual:       d.qual,
		Kind:       d.kind,
		Path:       x.file.Path,
		Span:       s.span(int(d.start), int(d.end)),
		Signature:  s.signature(sd),
		Parent:     x.parentQual(d),
		Visibility: sd.vis,
	}
	sym.Doc = sd.doc
	if sym.Doc == "" && !sd.noDoc {
		sym.Doc = s.leadingDoc(int32(d.start))
	}
	sym.Doc = truncate(sym.Doc, maxDocBytes)
	return sym
}

// span is the symbol span of src[start:end].
func (s *scanFile) span(start, end int) symbol.Span {
	lines := s.x.lineIndex()
	last := max(end-1, start)
	return symbol.Span{
		StartLine: lines.line(uint(start)),
		EndLine:   lines.line(uint(last)),
		StartByte: start,
		EndByte:   end,
	}
}

// signature cuts a definition's signature the way the parser does: the
// text up to the body, or the first lines of a definition without one.
func (s *scanFile) signature(sd *scanDef) string {
	start, end := int(sd.start), int(sd.sigEnd)
	if sd.sigFrom >= 0 {
		start = int(sd.sigFrom)
	}
	if end > len(s.src) || start > end {
		return ""
	}
	maxLines := maxSignatureLines
	if sd.decl {
		maxLines = maxDeclLines
	}
	text := dedentContinuation(string(s.src[start:end]), s.column(start))
	text = dropTrailingComments(text)
	sig := cleanSignature(text, maxLines)
	return strings.TrimRight(sig, s.x.lang.rules.trimSignature+" \t")
}

// column is the number of bytes between the start of off's line and off.
func (s *scanFile) column(off int) int {
	k := off
	for k > 0 && s.src[k-1] != '\n' {
		k--
	}
	return off - k
}

// leadingDoc gathers the comments right above offset at: adjacent lines
// only, each on a line of its own, with no code in between.
func (s *scanFile) leadingDoc(at int32) string {
	lines := s.x.lineIndex()
	i, _ := slices.BinarySearchFunc(s.cmts, at, func(c comment, at int32) int { return int(c.end - at) })
	var parts []string
	anchor := at
	for i--; i >= 0; i-- {
		c := &s.cmts[i]
		if c.end > anchor || !c.own || s.codeBetween(c.end, anchor) {
			break
		}
		if lines.line(uint(max(c.end-1, c.start)))+1 < lines.line(uint(anchor)) {
			break
		}
		parts = append(parts, string(s.src[c.start:c.end]))
		anchor = c.start
	}
	if len(parts) == 0 {
		return ""
	}
	slices.Reverse(parts)
	return cleanComment(strings.Join(parts, "\n"))
}

// commentsIn returns the comments that start in src[from:to].
func (s *scanFile) commentsIn(from, to int32) []comment {
	i, _ := slices.BinarySearchFunc(s.cmts, from, func(c comment, at int32) int { return int(c.start - at) })
	j := i
	for j < len(s.cmts) && s.cmts[j].start < to {
		j++
	}
	return s.cmts[i:j]
}

// codeBetween reports whether a token lies in src[from:to].
func (s *scanFile) codeBetween(from, to int32) bool {
	i, _ := slices.BinarySearchFunc(s.toks, from, func(t token, at int32) int { return int(t.start - at) })
	return i < len(s.toks) && s.toks[i].start < to
}

// set makes a lookup set of space-separated words.
func set(words string) map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
