package shape

import (
	"strings"
	"unicode/utf8"

	"github.com/winnowhq/winnow/internal/swar"
)

// appendCompact appends the document t as compact JSON: no whitespace,
// members in their order, numbers as they were written.
func appendCompact(dst []byte, t *tape) []byte {
	dst, _ = t.appendValue(dst, 0)
	return dst
}

// appendValue appends value node i as compact JSON and returns the index
// of the node after it.
func (t *tape) appendValue(dst []byte, i int) ([]byte, int) {
	switch n := t.nodes[i]; n.kind {
	case kindNull:
		return append(dst, "null"...), i + 1
	case kindTrue:
		return append(dst, "true"...), i + 1
	case kindFalse:
		return append(dst, "false"...), i + 1
	case kindNumber:
		return append(dst, t.text(i)...), i + 1
	case kindString:
		return t.appendString(dst, i), i + 1
	case kindArray:
		dst = append(dst, '[')
		j := i + 1
		for k := range int(n.a) {
			if k > 0 {
				dst = append(dst, ',')
			}
			dst, j = t.appendValue(dst, j)
		}
		return append(dst, ']'), j
	}
	dst = append(dst, '{')
	j := i + 1
	for k := range int(t.nodes[i].a) {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = t.appendString(dst, j)
		dst = append(dst, ':')
		dst, j = t.appendValue(dst, j+1)
	}
	return append(dst, '}'), j
}

// appendString appends string or key node i as a JSON string literal. A
// raw string needs an escape only for U+2028 or U+2029, whose encodings
// start with the byte 0xE2; without one it is copied as it is.
func (t *tape) appendString(dst []byte, i int) []byte {
	s := t.text(i)
	if n := t.nodes[i]; n.raw && (n.ascii || strings.IndexByte(s, 0xE2) < 0) {
		dst = append(dst, '"')
		dst = append(dst, s...)
		return append(dst, '"')
	}
	return appendQuoted(dst, s)
}

const hexDigits = "0123456789abcdef"

// appendQuoted appends s as a JSON string literal. It escapes only what
// JSON requires (quote, backslash, control characters) plus U+2028 and
// U+2029, which some readers take for line breaks; everything else,
// non-ASCII included, is written as is, which is what costs the fewest
// tokens.
func appendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		// Copy a word at a time while it is plain ASCII with nothing to
		// escape.
		for i+8 <= len(s) {
			if x := swar.Load64(s[i:]); swar.StringStops(x) != 0 || x&swar.Highs8 != 0 {
				break
			}
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != '\u2028' && r != '\u2029' {
				i += size
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\u202`...)
			dst = append(dst, hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
