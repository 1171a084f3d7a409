package shape

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds the nesting of arrays and objects the parser accepts, as
// encoding/json does, so that hostile input cannot exhaust the stack.
const maxDepth = 10000

// A parser reads JSON (RFC 8259) from a string that is valid UTF-8. It is
// strict: no comments, no trailing commas, no leading zeros, no raw
// control characters in strings.
type parser struct {
	s     string
	pos   int
	depth int
	// inexact is set when a string held an unpaired UTF-16 surrogate
	// escape ("\ud800"): it decodes to U+FFFD, so re-encoding the string
	// would change it, and Encode keeps such documents as they are.
	inexact bool
	// elems and members are stacks that arrays and objects collect their
	// children on, then copy to a slice of the right size: a parse
	// allocates each container's children once instead of growing them.
	elems   []value
	members []member
}

// parseJSON parses s, which must be valid UTF-8, as one JSON value with
// optional surrounding whitespace.
func parseJSON(s string) (value, bool, error) {
	p := parser{s: s}
	p.skipSpace()
	v, err := p.value()
	if err != nil {
		return value{}, false, err
	}
	p.skipSpace()
	if p.pos != len(p.s) {
		return value{}, false, p.errorf("unexpected %s after the value", p.what())
	}
	return v, p.inexact, nil
}

// parseJSONPrefix parses one JSON value at the start of s (no leading
// whitespace) and returns it with the number of bytes it took.
func parseJSONPrefix(s string) (value, int, error) {
	var p parser
	return p.prefix(s)
}

// prefix is parseJSONPrefix reusing p's stacks: a decoder that parses
// many cells keeps one parser.
func (p *parser) prefix(s string) (value, int, error) {
	p.s, p.pos, p.depth, p.inexact = s, 0, 0, false
	v, err := p.value()
	if err != nil {
		return value{}, 0, err
	}
	if p.inexact {
		return value{}, 0, p.errorf("unpaired surrogate escape")
	}
	return v, p.pos, nil
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("json at offset %d: %s", p.pos, fmt.Sprintf(format, args...))
}

// what names the byte at the current position for an error message.
func (p *parser) what() string {
	if p.pos >= len(p.s) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.pos:])
	return fmt.Sprintf("%q", r)
}

func (p *parser) skipSpace() {
	// Pretty-printed JSON indents with runs of spaces: skip them a word
	// at a time.
	for p.pos+8 <= len(p.s) && load64(p.s[p.pos:]) == spaces8 {
		p.pos += 8
	}
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value() (value, error) {
	if p.pos >= len(p.s) {
		return value{}, p.errorf("unexpected end of input, want a value")
	}
	switch c := p.s[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.str()
		return value{kind: kindString, text: s}, err
	case c == '-' || c >= '0' && c <= '9':
		n := numberLen(p.s[p.pos:])
		if n == 0 {
			return value{}, p.errorf("malformed number")
		}
		v := value{kind: kindNumber, text: p.s[p.pos : p.pos+n]}
		p.pos += n
		return v, nil
	case strings.HasPrefix(p.s[p.pos:], "null"):
		p.pos += 4
		return value{kind: kindNull}, nil
	case strings.HasPrefix(p.s[p.pos:], "true"):
		p.pos += 4
		return value{kind: kindTrue}, nil
	case strings.HasPrefix(p.s[p.pos:], "false"):
		p.pos += 5
		return value{kind: kindFalse}, nil
	}
	return value{}, p.errorf("unexpected %s, want a value", p.what())
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.errorf("nested deeper than %d", maxDepth)
	}
	return nil
}

func (p *parser) object() (value, error) {
	if err := p.enter(); err != nil {
		return value{}, err
	}
	p.pos++ // {
	v := value{kind: kindObject}
	p.skipSpace()
	if p.pos < len(p.s) && p.s[p.pos] == '}' {
		p.pos++
		p.depth--
		return v, nil
	}
	base := len(p.members)
	for {
		if p.pos >= len(p.s) || p.s[p.pos] != '"' {
			return value{}, p.errorf("unexpected %s, want a key", p.what())
		}
		key, err := p.str()
		if err != nil {
			return value{}, err
		}
		p.skipSpace()
		if p.pos >= len(p.s) || p.s[p.pos] != ':' {
			return value{}, p.errorf("unexpected %s, want ':'", p.what())
		}
		p.pos++
		p.skipSpace()
		val, err := p.value()
		if err != nil {
			return value{}, err
		}
		p.members = append(p.members, member{key: key, val: val})
		p.skipSpace()
		if p.pos < len(p.s) && p.s[p.pos] == ',' {
			p.pos++
			p.skipSpace()
			continue
		}
		if p.pos < len(p.s) && p.s[p.pos] == '}' {
			p.pos++
			p.depth--
			v.members = append([]member(nil), p.members[base:]...)
			clear(p.members[base:])
			p.members = p.members[:base]
			return v, nil
		}
		return value{}, p.errorf("unexpected %s, want ',' or '}'", p.what())
	}
}

func (p *parser) array() (value, error) {
	if err := p.enter(); err != nil {
		return value{}, err
	}
	p.pos++ // [
	v := value{kind: kindArray}
	p.skipSpace()
	if p.pos < len(p.s) && p.s[p.pos] == ']' {
		p.pos++
		p.depth--
		return v, nil
	}
	base := len(p.elems)
	for {
		elem, err := p.value()
		if err != nil {
			return value{}, err
		}
		p.elems = append(p.elems, elem)
		p.skipSpace()
		if p.pos < len(p.s) && p.s[p.pos] == ',' {
			p.pos++
			p.skipSpace()
			continue
		}
		if p.pos < len(p.s) && p.s[p.pos] == ']' {
			p.pos++
			p.depth--
			v.elems = append([]value(nil), p.elems[base:]...)
			clear(p.elems[base:])
			p.elems = p.elems[:base]
			return v, nil
		}
		return value{}, p.errorf("unexpected %s, want ',' or ']'", p.what())
	}
}

// str reads a string literal and returns its decoded contents. A string
// without escapes is returned as a substring of the input.
func (p *parser) str() (string, error) {
	p.pos++ // opening quote
	start := p.pos
	// Skip a word at a time while no byte of it ends the string, starts an
	// escape or is a control character.
	for p.pos+8 <= len(p.s) && !stringStop(load64(p.s[p.pos:])) {
		p.pos += 8
	}
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c == '"':
			s := p.s[start:p.pos]
			p.pos++
			return s, nil
		case c == '\\':
			return p.escapedStr(start)
		case c < 0x20:
			return "", p.errorf("control character %q in a string", c)
		}
		p.pos++
	}
	return "", p.errorf("unterminated string")
}

// escapedStr finishes reading a string that has escapes, from the first
// backslash; start is where the string's contents begin.
func (p *parser) escapedStr(start int) (string, error) {
	var b strings.Builder
	b.WriteString(p.s[start:p.pos])
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c < 0x20:
			return "", p.errorf("control character %q in a string", c)
		case c != '\\':
			b.WriteByte(c)
			p.pos++
			continue
		}
		if p.pos+1 >= len(p.s) {
			break
		}
		e := p.s[p.pos+1]
		p.pos += 2
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, err := p.unicodeEscape()
			if err != nil {
				return "", err
			}
			b.WriteRune(r)
		default:
			p.pos -= 2
			return "", p.errorf("invalid escape \\%c", e)
		}
	}
	return "", p.errorf("unterminated string")
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
