package shape

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/winnowhq/winnow/internal/swar"
)

// maxDepth bounds the nesting of arrays and objects the parser accepts, as
// encoding/json does, so that hostile input cannot exhaust the stack.
const maxDepth = 10000

// A parser reads JSON (RFC 8259) from a string that is valid UTF-8 into a
// tape. It is strict: no comments, no trailing commas, no leading zeros,
// no raw control characters in strings.
type parser struct {
	// s is the text being parsed: the tape's src, or a prefix of it that
	// ends where a cell's line does. Positions in s are positions in src.
	s     string
	pos   int
	base  int // where the value began: errors give offsets from it
	depth int
	// inexact is set when a string held an unpaired UTF-16 surrogate
	// escape ("\ud800"): it decodes to U+FFFD, so re-encoding the string
	// would change it, and Encode keeps such documents as they are.
	inexact bool
	t       *tape
	// spans, when not nil, receives the start and end offsets of each
	// element of the top-level array, in pairs.
	spans *[]int
}

// parse makes t the tape of s, which must be valid UTF-8 and hold one
// JSON value with optional surrounding whitespace, reusing t's memory.
// It reports whether a string could not be decoded exactly.
func (t *tape) parse(s string) (bool, error) {
	return t.parseSpans(s, nil)
}

// parseSpans is parse that, when spans is not nil and s is an array,
// appends to *spans the start and end offsets in s of each of its
// elements, in pairs: the items trimtree finds in a top-level array. On
// an error *spans may hold some of them.
func (t *tape) parseSpans(s string, spans *[]int) (bool, error) {
	t.reset(s)
	p := parser{s: s, t: t, spans: spans}
	p.skipSpace()
	if err := p.value(); err != nil {
		return false, err
	}
	p.skipSpace()
	if p.pos != len(p.s) {
		return false, p.errorf("unexpected %s after the value", p.what())
	}
	t.finish()
	return p.inexact, nil
}

// prefix parses one JSON value at offset at of s (no leading whitespace)
// onto the tape and returns the offset after it. s is the tape's src or a
// prefix of it.
func (p *parser) prefix(s string, at int) (int, error) {
	p.s, p.pos, p.base, p.depth, p.inexact = s, at, at, 0, false
	if err := p.value(); err != nil {
		return 0, err
	}
	if p.inexact {
		return 0, p.errorf("unpaired surrogate escape")
	}
	return p.pos, nil
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("json at offset %d: %s", p.pos-p.base, fmt.Sprintf(format, args...))
}

// what names the byte at the current position for an error message.
func (p *parser) what() string {
	if p.pos >= len(p.s) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.pos:])
	return fmt.Sprintf("%q", r)
}

// skipSpace passes over whitespace. Most tokens follow each other
// without any: a test small enough to be inlined passes over them (every
// whitespace byte is below '!').
func (p *parser) skipSpace() {
	if p.pos < len(p.s) && p.s[p.pos] <= ' ' {
		p.skipSpaces()
	}
}

// skipSpaces passes over a run of whitespace. Pretty-printed JSON has a
// line break and an indentation between tokens: it finds their end a
// word at a time.
func (p *parser) skipSpaces() {
	if !swar.IsSpace(p.s[p.pos]) {
		return
	}
	p.pos++
	if p.pos < len(p.s) && p.s[p.pos] > ' ' {
		return // one space, as after a colon
	}
	for p.pos+8 <= len(p.s) {
		if m := swar.NonSpaces(swar.Load64(p.s[p.pos:])); m != 0 {
			p.pos += swar.FirstByte(m)
			return
		}
		p.pos += 8
	}
	for p.pos < len(p.s) && swar.IsSpace(p.s[p.pos]) {
		p.pos++
	}
}

func (p *parser) value() error {
	if p.pos >= len(p.s) {
		return p.errorf("unexpected end of input, want a value")
	}
	switch c := p.s[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.str(kindString)
	case c == '-' || c >= '0' && c <= '9':
		n := numberLen(p.s[p.pos:])
		if n == 0 {
			return p.errorf("malformed number")
		}
		p.t.add(kindNumber, p.pos, p.pos+n)
		p.pos += n
		return nil
	case strings.HasPrefix(p.s[p.pos:], "null"):
		return p.literal(kindNull, 4)
	case strings.HasPrefix(p.s[p.pos:], "true"):
		return p.literal(kindTrue, 4)
	case strings.HasPrefix(p.s[p.pos:], "false"):
		return p.literal(kindFalse, 5)
	}
	return p.errorf("unexpected %s, want a value", p.what())
}

// literal adds the null, true or false of n bytes at the position.
func (p *parser) literal(k kind, n int) error {
	p.t.add(k, p.pos, p.pos+n)
	p.pos += n
	return nil
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.errorf("nested deeper than %d", maxDepth)
	}
	return nil
}

func (p *parser) object() error {
	if err := p.enter(); err != nil {
		return err
	}
	p.pos++ // {
	obj := p.t.open(kindObject)
	p.skipSpace()
	if p.pos < len(p.s) && p.s[p.pos] == '}' {
		p.pos++
		p.depth--
		p.t.close(obj, 0)
		return nil
	}
	for n := 1; ; n++ {
		if p.pos >= len(p.s) || p.s[p.pos] != '"' {
			return p.errorf("unexpected %s, want a key", p.what())
		}
		if err := p.str(kindKey); err != nil {
			return err
		}
		p.skipSpace()
		if p.pos >= len(p.s) || p.s[p.pos] != ':' {
			return p.errorf("unexpected %s, want ':'", p.what())
		}
		p.pos++
		p.skipSpace()
		if err := p.value(); err != nil {
			return err
		}
		p.skipSpace()
		if p.pos < len(p.s) && p.s[p.pos] == ',' {
			p.pos++
			p.skipSpace()
			continue
		}
		if p.pos < len(p.s) && p.s[p.pos] == '}' {
			p.pos++
			p.depth--
			p.t.close(obj, n)
			return nil
		}
		return p.errorf("unexpected %s, want ',' or '}'", p.what())
	}
}

func (p *parser) array() error {
	if err := p.enter(); err != nil {
		return err
	}
	p.pos++ // [
	arr := p.t.open(kindArray)
	p.skipSpace()
	if p.pos < len(p.s) && p.s[p.pos] == ']' {
		p.pos++
		p.depth--
		p.t.close(arr, 0)
		return nil
	}
	for n := 1; ; n++ {
		start := p.pos
		if err := p.value(); err != nil {
			return err
		}
		if p.spans != nil && p.depth == 1 {
			*p.spans = append(*p.spans, start, p.pos)
		}
		p.skipSpace()
		if p.pos < len(p.s) && p.s[p.pos] == ',' {
			p.pos++
			p.skipSpace()
			continue
		}
		if p.pos < len(p.s) && p.s[p.pos] == ']' {
			p.pos++
			p.depth--
			p.t.close(arr, n)
			return nil
		}
		return p.errorf("unexpected %s, want ',' or ']'", p.what())
	}
}

// str reads a string literal and adds it as a node of kind k (a string
// or a key). A string without escapes is a span of the input.
func (p *parser) str(k kind) error {
	p.pos++ // opening quote
	start := p.pos
	// Find the first byte that ends the string, starts an escape or is a
	// control character a word at a time, and OR the bytes before it
	// into high, whose high bits then say whether any is not ASCII.
	var high uint64
	for p.pos+8 <= len(p.s) {
		x := swar.Load64(p.s[p.pos:])
		if m := swar.StringStops(x); m != 0 {
			n := swar.FirstByte(m)
			high |= x & (1<<(8*n) - 1)
			p.pos += n
			break
		}
		high |= x
		p.pos += 8
	}
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c == '"':
			ascii := high&swar.Highs8 == 0
			p.t.nodes = append(p.t.nodes, node{kind: k, raw: true, ascii: ascii, a: int32(start), b: int32(p.pos)})
			p.pos++
			return nil
		case c == '\\':
			return p.escapedStr(k, start)
		case c < 0x20:
			return p.errorf("control character %q in a string", c)
		}
		high |= uint64(c)
		p.pos++
	}
	return p.errorf("unterminated string")
}

// escapedStr finishes reading a string that has escapes, from the first
// backslash, decoding its contents onto the tape's buffer; start is where
// the string's contents begin.
func (p *parser) escapedStr(k kind, start int) error {
	b := p.t.buf
	first := len(b)
	b = append(b, p.s[start:p.pos]...)
	defer func() { p.t.buf = b }()
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c == '"':
			p.pos++
			p.t.nodes = append(p.t.nodes, node{kind: k, esc: true, a: int32(first), b: int32(len(b))})
			return nil
		case c < 0x20:
			return p.errorf("control character %q in a string", c)
		case c != '\\':
			// Copy up to the next quote, backslash or control byte at once.
			i := p.pos + 1
			for i < len(p.s) && p.s[i] >= 0x20 && p.s[i] != '"' && p.s[i] != '\\' {
				i++
			}
			b = append(b, p.s[p.pos:i]...)
			p.pos = i
			continue
		}
		if p.pos+1 >= len(p.s) {
			break
		}
		e := p.s[p.pos+1]
		p.pos += 2
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, err := p.unicodeEscape()
			if err != nil {
				return err
			}
			b = utf8.AppendRune(b, r)
		default:
			p.pos -= 2
			return p.errorf("invalid escape \\%c", e)
		}
	}
	return p.errorf("unterminated string")
}

// unicodeEscape reads the hex digits of a \u escape (the "\u" already
// read) and, for a high surrogate followed by a low one, the pair.
func (p *parser) unicodeEscape() (rune, error) {
	r, ok := hex4(p.s[p.pos:])
	if !ok {
		return 0, p.errorf("invalid \\u escape")
	}
	p.pos += 4
	if !utf16.IsSurrogate(r) {
		return r, nil
	}
	if strings.HasPrefix(p.s[p.pos:], `\u`) {
		if r2, ok := hex4(p.s[p.pos+2:]); ok {
			if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
				p.pos += 6
				return pair, nil
			}
		}
	}
	p.inexact = true
	return utf8.RuneError, nil
}

// hex4 decodes four hex digits at the start of s.
func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for i := range 4 {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// numberLen returns the length of the JSON number at the start of s, or 0
// if s does not start with one:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func numberLen(s string) int {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(s, i+1)
	default:
		return 0
	}
	if i < len(s) && s[i] == '.' {
		j := digits(s, i+1)
		if j == i+1 {
			return 0
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return 0
		}
		i = j
	}
	return i
}

// digits returns the index of the first non-digit in s at or after i.
func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// isNumber reports whether s is exactly one JSON number.
func isNumber(s string) bool {
	return s != "" && numberLen(s) == len(s)
}
