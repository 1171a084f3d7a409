package lang

import "bytes"

// The fast scanner's lexer: one pass over a file that splits it into
// identifiers, numbers, strings and punctuation, and sets comments
// aside, so that the language passes (scan_*.go) never mistake a "def"
// in a string or a "{" in a comment for code. It knows each language's
// string and comment syntax and nothing of its grammar.

// tokKind is what a token is.
type tokKind uint8

const (
	tIdent  tokKind = iota // a name or keyword
	tPunct                 // one byte of punctuation
	tString                // a whole string, char, regex or template literal (or a piece of a template between expressions)
	tNumber                // a numeric literal
)

// A token is a span of the source. col is set on the first token of a
// physical line: its indentation, tabs counting to the next multiple of 8.
type token struct {
	start, end int32
	col        int32
	kind       tokKind
	first      bool // the first token on its line
}

// A comment is the span of one comment; own is set when nothing but
// space precedes it on its line.
type comment struct {
	start, end int32
	own        bool
}

// lexSyntax is a language's lexical syntax.
type lexSyntax struct {
	hashComments  bool   // '#' starts a line comment (Python, Ruby)
	slashComments bool   // "//" and "/* */"
	nestComments  bool   // block comments nest (Rust, Kotlin)
	quotes        string // bytes that open a string ending at the same byte
	charQuote     bool   // '\'' opens a char literal (C, Go, Java, C#, Kotlin)
	triple        bool   // """ (and ''' when ' is a quote) open strings that end at the same three
	pyPrefix      bool   // string prefixes r, b, u, f and their pairs (Python)
	goRaw         bool   // '`' opens a raw string without escapes (Go)
	template      bool   // '`' opens a template with ${…} code inside (JavaScript)
	regex         bool   // '/' opens a regular expression where an operand is due (JavaScript)
	lifetimes     bool   // 'a is a lifetime, not a char (Rust)
	rustRaw       bool   // r"…", r#"…"#, b"…", br"…" (Rust)
	csVerbatim    bool   // @"…" with "" for a quote (C#)
	cppRaw        bool   // R"delim(…)delim" (C++)
	dollar        bool   // '$' is a letter of identifiers (JavaScript, PHP)
	rubyLex       bool   // Ruby: =begin/=end, heredocs, %w(…), :symbols, ?c, $globals
}

// lexer is the state of lexing one file.
type lexer struct {
	src  []byte
	syn  *lexSyntax
	toks []token
	cmts []comment

	lineStart int  // offset of the current line
	atLine    bool // no token yet on the current line
	depth     int  // '{' nesting, for templates
	tmpl      []int
	heredocs  []string // Ruby: terminators of heredocs opened on this line
	unclosed  bool     // the file ended inside a string or comment
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// lex splits src into tokens and comments, reusing toks and cmts. It
// reports a string, comment or template that the file ends inside.
func lex(src []byte, syn *lexSyntax, toks []token, cmts []comment) ([]token, []comment, bool) {
	l := &lexer{src: src, syn: syn, toks: toks[:0], cmts: cmts[:0], atLine: true}
	l.run()
	return l.toks, l.cmts, l.unclosed || len(l.tmpl) > 0
}

func (l *lexer) emit(kind tokKind, start, end int) {
	t := token{start: int32(start), end: int32(end), kind: kind}
	if l.atLine {
		t.first = true
		t.col = l.column(start)
		l.atLine = false
	}
	l.toks = append(l.toks, t)
}

// column is the indentation of the line up to start.
func (l *lexer) column(start int) int32 {
	col := int32(0)
	for _, c := range l.src[l.lineStart:start] {
		if c == '\t' {
			col = col/8*8 + 8
		} else {
			col++
		}
	}
	return col
}

func (l *lexer) comment(start, end int) {
	l.cmts = append(l.cmts, comment{start: int32(start), end: int32(end), own: l.atLine})
}

// newline records that a line ended before offset next.
func (l *lexer) newline(next int) {
	l.lineStart = next
	l.atLine = true
}

func (l *lexer) run() {
	i := 0
	if l.syn.rubyLex && len(l.src) > 0 {
		i = l.rubyBegin(0)
	}
	l.runRange(i, len(l.src))
}

// runRange lexes src[i:n]: the file, or code inside a literal (a
// Python f-string's replacement fields).
func (l *lexer) runRange(i, n int) {
	src, syn := l.src, l.syn
	for i < n {
		c := src[i]
		switch {
		case c == '\n':
			i++
			l.newline(i)
			if syn.rubyLex {
				i = l.rubyLineStart(i)
			}
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case isIdentStart(c) || c == '$' && syn.dollar:
			j := i + 1
			for j < n && (isNameByte(src[j]) || src[j] == '$' && syn.dollar) {
				j++
			}
			if j < n && l.stringPrefix(i, j) {
				i = l.prefixedString(i, j)
				continue
			}
			if syn.rubyLex && j < n && (src[j] == '?' || src[j] == '!') && (j+1 >= n || src[j+1] != '=') {
				j++ // predicate and bang methods: empty?, save!
			}
			l.emit(tIdent, i, j)
			i = j
		case isDigit(c) || c == '.' && i+1 < n && isDigit(src[i+1]):
			i = l.number(i)
		case c == '"' || c == '\'' || c == '`':
			i = l.quoted(i)
		case c == '#' && syn.hashComments:
			if syn.rubyLex && i+1 < n && src[i+1] == '{' {
				l.emit(tPunct, i, i+1)
				i++
				continue
			}
			i = l.lineComment(i)
		case c == '/' && syn.slashComments && i+1 < n && src[i+1] == '/':
			i = l.lineComment(i)
		case c == '/' && syn.slashComments && i+1 < n && src[i+1] == '*':
			i = l.blockComment(i)
		case c == '/' && syn.regex && l.regexDue():
			i = l.regexLiteral(i)
		case c == '@' && syn.csVerbatim && i+1 < n && src[i+1] == '"':
			i = l.verbatim(i + 1)
		case c == '$' && syn.csVerbatim && i+1 < n && (src[i+1] == '"' || src[i+1] == '@'):
			if src[i+1] == '@' && i+2 < n && src[i+2] == '"' {
				i = l.verbatim(i + 2)
			} else {
				i = l.quoted(i + 1)
			}
		case syn.rubyLex && l.rubySpecial(c, i):
			i = l.rubyLiteral(c, i)
		default:
			l.emit(tPunct, i, i+1)
			switch c {
			case '{':
				l.depth++
			case '}':
				if k := len(l.tmpl); k > 0 && l.tmpl[k-1] == l.depth {
					l.tmpl = l.tmpl[:k-1]
					l.depth--
					l.toks = l.toks[:len(l.toks)-1] // the "}" closing ${…} belongs to the template
					i = l.templateRest(i, i+1)
					continue
				}
				l.depth--
			}
			i++
		}
	}
}

// number consumes a numeric literal: digits, letters (hex, suffixes,
// exponents), '_', '.' and the sign of an exponent.
func (l *lexer) number(i int) int {
	src := l.src
	start := i
	for i < len(src) {
		c := src[i]
		switch {
		case isNameByte(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			i++
		case c == '.' && !l.syn.rubyLex && (i+1 >= len(src) || src[i+1] != '.'):
			i++ // 1. is a float; 1..2 is a range
		case (c == '+' || c == '-') && (src[i-1] == 'e' || src[i-1] == 'E') && src[start] != '0':
			i++
		default:
			l.emit(tNumber, start, i)
			return i
		}
	}
	l.emit(tNumber, start, i)
	return i
}

// lineComment consumes a comment to the end of its line.
func (l *lexer) lineComment(i int) int {
	end := indexByteFrom(l.src, i, '\n')
	l.comment(i, end)
	return end
}

// blockComment consumes /* … */, nested where the language nests them.
func (l *lexer) blockComment(i int) int {
	src := l.src
	start := i
	depth := 0
	for i < len(src) {
		switch {
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '*' && (depth == 0 || l.syn.nestComments):
			depth++
			i += 2
		case src[i] == '*' && i+1 < len(src) && src[i+1] == '/':
			depth--
			i += 2
			if depth == 0 {
				l.comment(start, i)
				l.afterMultiline(start, i)
				return i
			}
		default:
			i++
		}
	}
	l.unclosed = true
	l.comment(start, i)
	l.afterMultiline(start, i)
	return i
}

// afterMultiline keeps the line bookkeeping right after a comment or
// literal that spans lines: the next token is not first on its line, but
// the line it is on starts after the last newline inside.
func (l *lexer) afterMultiline(start, end int) {
	for k := end - 1; k >= start; k-- {
		if l.src[k] == '\n' {
			l.lineStart = k + 1
			return
		}
	}
}

// stringPrefix reports whether the identifier src[i:j] is the prefix of
// a string that starts at j.
func (l *lexer) stringPrefix(i, j int) bool {
	src, syn := l.src, l.syn
	q := src[j]
	word := src[i:j]
	switch {
	case syn.pyPrefix && (q == '"' || q == '\'') && j-i <= 2:
		for _, c := range word {
			switch c | 0x20 {
			case 'r', 'b', 'u', 'f':
			default:
				return false
			}
		}
		return true
	case syn.rustRaw && (q == '"' || q == '#') && (string(word) == "r" || string(word) == "br" || string(word) == "b" && q == '"' || string(word) == "c" || string(word) == "cr"):
		if q == '#' { // r#"…"#, not the raw identifier r#type
			k := j
			for k < len(src) && src[k] == '#' {
				k++
			}
			return k < len(src) && src[k] == '"' && string(word) != "b"
		}
		return true
	case syn.rustRaw && q == '\'' && string(word) == "b":
		return true // b'x'
	case syn.cppRaw && q == '"' && word[len(word)-1] == 'R' && (j-i == 1 || string(word) == "LR" || string(word) == "uR" || string(word) == "UR" || string(word) == "u8R"):
		return true
	case syn.cppRaw && q == '"' && (string(word) == "L" || string(word) == "u" || string(word) == "U" || string(word) == "u8"):
		return true
	}
	return false
}

// prefixedString consumes a string whose prefix is src[i:j].
func (l *lexer) prefixedString(i, j int) int {
	src, syn := l.src, l.syn
	word := string(src[i:j])
	switch {
	case syn.pyPrefix:
		var raw, format bool
		for _, c := range word {
			raw = raw || c|0x20 == 'r'
			format = format || c|0x20 == 'f'
		}
		end := l.pyString(i, j)
		if format {
			l.fieldsOf(i, j, end, raw)
		}
		return end
	case syn.rustRaw && (word == "r" || word == "br" || word == "cr"):
		hashes := 0
		k := j
		for k < len(src) && src[k] == '#' {
			hashes++
			k++
		}
		k++ // the opening quote
		for k < len(src) {
			if src[k] == '"' && k+hashes < len(src) && allHashes(src[k+1:k+1+hashes]) {
				k += 1 + hashes
				l.emitMultiline(tString, i, k)
				return k
			}
			k++
		}
		return l.eof(i)
	case syn.cppRaw && word[len(word)-1] == 'R':
		open := indexByteFrom(src, j, '(')
		if open == len(src) {
			return l.eof(i)
		}
		closing := ")" + string(src[j+1:open]) + "\""
		end := indexFrom(src, open, closing)
		if end < 0 {
			return l.eof(i)
		}
		end += len(closing)
		l.emitMultiline(tString, i, end)
		return end
	}
	end := l.quotedEnd(j, src[j], true)
	l.emitMultiline(tString, i, end)
	return end
}

func allHashes(b []byte) bool {
	for _, c := range b {
		if c != '#' {
			return false
		}
	}
	return true
}

// quoted consumes a string, char or template that starts at i.
func (l *lexer) quoted(i int) int {
	src, syn := l.src, l.syn
	q := src[i]
	switch {
	case q == '`' && syn.goRaw:
		end := indexByteFrom(src, i+1, '`')
		if end == len(src) {
			return l.eof(i)
		}
		l.emitMultiline(tString, i, end+1)
		return end + 1
	case q == '`' && syn.template:
		return l.templateRest(i, i+1)
	case q == '\'' && syn.lifetimes:
		return l.rustQuote(i)
	case q == '\'' && syn.charQuote:
		end := l.quotedEnd(i, q, false)
		l.emit(tString, i, end)
		return end
	case syn.pyPrefix:
		return l.pyString(i, i)
	case !containsByte(syn.quotes, q):
		l.emit(tPunct, i, i+1)
		return i + 1
	}
	if syn.triple && i+2 < len(src) && src[i+1] == q && src[i+2] == q {
		end := indexFrom(src, i+3, string([]byte{q, q, q}))
		if end < 0 {
			return l.eof(i)
		}
		end += 3
		for end < len(src) && src[end] == q { // """a"""" ends at the last quote
			end++
		}
		l.emitMultiline(tString, i, end)
		return end
	}
	end := l.quotedEnd(i, q, !syn.rubyLex)
	l.emitMultiline(tString, i, end)
	return end
}

// quotedEnd returns the end of a string opened at i by q: after the
// closing q, skipping escapes; with oneLine, a newline ends it too.
func (l *lexer) quotedEnd(i int, q byte, oneLine bool) int {
	src := l.src
	for k := i + 1; k < len(src); k++ {
		switch src[k] {
		case '\\':
			k++
		case q:
			return k + 1
		case '\n':
			if oneLine || q == '\'' && l.syn.charQuote {
				return k
			}
		}
	}
	l.unclosed = true
	return len(src)
}

// pyString consumes a Python string whose quote is at j (its prefix
// starts at i).
func (l *lexer) pyString(i, j int) int {
	src := l.src
	q := src[j]
	if j+2 < len(src) && src[j+1] == q && src[j+2] == q {
		for k := j + 3; k < len(src); k++ {
			if src[k] == '\\' {
				k++
				continue
			}
			if src[k] == q && k+2 < len(src) && src[k+1] == q && src[k+2] == q {
				l.emitMultiline(tString, i, k+3)
				return k + 3
			}
		}
		return l.eof(i)
	}
	// A raw string cannot end at an escaped quote either.
	end := l.quotedEnd(j, q, true)
	l.emit(tString, i, end)
	return end
}

// fieldsOf lexes the code of the replacement fields of an f-string
// whose prefix starts at i, whose quote is at j and which ends at end:
// f"{name!r:>{width}}" holds the references name and width.
func (l *lexer) fieldsOf(i, j, end int, raw bool) {
	src := l.src
	q := src[j]
	open, closing := j+1, end-1
	if j+2 < end && src[j+1] == q && src[j+2] == q {
		open, closing = j+3, end-3
	}
	if closing > len(src) || closing < open || l.unclosed {
		return
	}
	atLine := l.atLine
	l.atLine = false
	for k := open; k < closing; k++ {
		switch {
		case src[k] == '\\' && !raw:
			k++
		case src[k] == '{' && k+1 < closing && src[k+1] == '{':
			k++ // an escaped brace
		case src[k] == '{':
			k = l.field(k+1, closing)
		}
	}
	l.atLine = atLine
}

// field lexes one replacement field of an f-string, whose code starts at
// from, and returns the offset of its closing brace. The code ends at a
// top-level "}", "!" (conversion), ":" (format spec) or "=" before
// either; a format spec may nest fields of its own.
func (l *lexer) field(from, limit int) int {
	src := l.src
	depth := 0
	k := from
	for ; k < limit; k++ {
		c := src[k]
		switch {
		case c == '\'' || c == '"':
			k = l.quotedEndQuiet(k, c, limit) - 1
		case c == '(' || c == '[' || c == '{':
			depth++
		case (c == ')' || c == ']') && depth > 0:
			depth--
		case c == '}' && depth > 0:
			depth--
		case depth == 0 && (c == '}' || c == ':' || c == '!' && k+1 < limit && src[k+1] != '='):
			l.runRange(from, k)
			return l.specEnd(k, limit)
		}
	}
	l.runRange(from, k)
	return k
}

// specEnd returns the offset of the brace that closes a replacement
// field, from k (its "}", "!" or ":"), lexing the fields nested in its
// format spec.
func (l *lexer) specEnd(k, limit int) int {
	for ; k < limit; k++ {
		switch l.src[k] {
		case '}':
			return k
		case '{':
			k = l.field(k+1, limit)
		}
	}
	return k
}

// quotedEndQuiet is quotedEnd for a string inside a replacement field:
// bounded by limit, and not an error when it does not close there.
func (l *lexer) quotedEndQuiet(i int, q byte, limit int) int {
	for k := i + 1; k < limit; k++ {
		switch l.src[k] {
		case '\\':
			k++
		case q:
			return k + 1
		}
	}
	return limit
}

// eof emits a literal from start that the file ends inside.
func (l *lexer) eof(start int) int {
	l.unclosed = true
	l.emitMultiline(tString, start, len(l.src))
	return len(l.src)
}

// emitMultiline emits a token that may span lines.
func (l *lexer) emitMultiline(kind tokKind, start, end int) {
	l.emit(kind, start, end)
	l.afterMultiline(start, end)
}

// templateRest consumes a JavaScript template from i, just past its
// opening backquote or the "}" of an expression inside it (the token
// starts at start, that backquote or brace), up to its end or the next
// "${", whose code the main loop lexes.
func (l *lexer) templateRest(start, i int) int {
	src := l.src
	for k := i; k < len(src); k++ {
		switch src[k] {
		case '\\':
			k++
		case '`':
			l.emitMultiline(tString, start, k+1)
			return k + 1
		case '$':
			if k+1 < len(src) && src[k+1] == '{' {
				l.emitMultiline(tString, start, k)
				l.depth++
				l.tmpl = append(l.tmpl, l.depth)
				return k + 2
			}
		}
	}
	return l.eof(start)
}

// rustQuote tells a char literal from a lifetime ('a, 'static): a char
// closes within a few bytes, a lifetime does not.
func (l *lexer) rustQuote(i int) int {
	src := l.src
	if i+1 < len(src) && src[i+1] == '\\' {
		end := l.quotedEnd(i, '\'', true)
		l.emit(tString, i, end)
		return end
	}
	// One character, possibly several bytes, then the closing quote.
	k := i + 1
	if k < len(src) {
		k++
		for k < len(src) && src[k]&0xC0 == 0x80 {
			k++
		}
	}
	if k < len(src) && src[k] == '\'' {
		l.emit(tString, i, k+1)
		return k + 1
	}
	// A lifetime: the quote and its name are one punctuation token, never a reference.
	j := i + 1
	for j < len(src) && isNameByte(src[j]) {
		j++
	}
	l.emit(tPunct, i, j)
	return j
}

// verbatim consumes a C# verbatim string whose quote is at i.
func (l *lexer) verbatim(i int) int {
	src := l.src
	start := i - 1
	for k := i + 1; k < len(src); k++ {
		if src[k] == '"' {
			if k+1 < len(src) && src[k+1] == '"' {
				k++
				continue
			}
			l.emitMultiline(tString, start, k+1)
			return k + 1
		}
	}
	return l.eof(start)
}

// regexDue reports whether a '/' here opens a regular expression: where
// an operand is due, after an operator, an opening bracket or a keyword.
func (l *lexer) regexDue() bool {
	if len(l.toks) == 0 {
		return true
	}
	prev := &l.toks[len(l.toks)-1]
	switch prev.kind {
	case tNumber, tString:
		return false
	case tIdent:
		switch string(l.src[prev.start:prev.end]) {
		case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await",
			"if", "unless", "when", "and", "or", "not", "puts", "split", "sub", "gsub", "match", "scan":
			return true
		}
		return false
	}
	switch l.src[prev.start] {
	case ')', ']', '}':
		return false
	}
	return true
}

// regexLiteral consumes /…/flags; a newline before the closing slash
// means it was a division after all.
func (l *lexer) regexLiteral(i int) int {
	src := l.src
	class := false
	for k := i + 1; k < len(src); k++ {
		switch src[k] {
		case '\\':
			k++
		case '[':
			class = true
		case ']':
			class = false
		case '\n':
			if !l.syn.rubyLex {
				l.emit(tPunct, i, i+1)
				return i + 1
			}
		case '/':
			if !class {
				k++
				for k < len(src) && isNameByte(src[k]) {
					k++
				}
				l.emitMultiline(tString, i, k)
				return k
			}
		}
	}
	l.emit(tPunct, i, i+1)
	return i + 1
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// indexByteFrom returns the offset of the first c at or after i, or
// len(src).
func indexByteFrom(src []byte, i int, c byte) int {
	if i >= len(src) {
		return len(src)
	}
	if k := bytes.IndexByte(src[i:], c); k >= 0 {
		return i + k
	}
	return len(src)
}

// indexFrom returns the offset of the first s at or after i, or -1.
func indexFrom(src []byte, i int, s string) int {
	if i > len(src) {
		return -1
	}
	if k := bytes.Index(src[i:], []byte(s)); k >= 0 {
		return i + k
	}
	return -1
}
