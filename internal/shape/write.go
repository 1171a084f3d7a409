package shape

import "unicode/utf8"

// appendCompact appends v as compact JSON: no whitespace, members in
// their order, numbers as they were written.
func appendCompact(dst []byte, v *value) []byte {
	switch v.kind {
	case kindNull:
		return append(dst, "null"...)
	case kindTrue:
		return append(dst, "true"...)
	case kindFalse:
		return append(dst, "false"...)
	case kindNumber:
		return append(dst, v.text...)
	case kindString:
		return appendQuoted(dst, v.text)
	case kindArray:
		dst = append(dst, '[')
		for i := range v.elems {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendCompact(dst, &v.elems[i])
		}
		return append(dst, ']')
	}
	dst = append(dst, '{')
	for i := range v.members {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendQuoted(dst, v.members[i].key)
		dst = append(dst, ':')
		dst = appendCompact(dst, &v.members[i].val)
	}
	return append(dst, '}')
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
			if x := load64(s[i:]); stringStop(x) || x&highs8 != 0 {
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
