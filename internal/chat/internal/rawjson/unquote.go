package rawjson

import (
	"encoding/binary"
	"math/bits"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// unquote decodes the JSON string literal v (quotes included) exactly as
// encoding/json does, invalid UTF-8 and lone surrogates becoming U+FFFD,
// without encoding/json's second validation pass over v. It reports false
// for a literal that is not well formed. Runs of plain ASCII, most of a
// tool's output, are found eight bytes at a time and copied whole.
func unquote(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	s := v[1 : len(v)-1]
	b := make([]byte, 0, len(s))
	for r := 0; r < len(s); {
		// Copy the run of plain ASCII bytes at s[r]: eight at a time (see
		// stops), then one at a time.
		start := r
		for {
			if r+8 > len(s) {
				for r < len(s) && s[r] < utf8.RuneSelf && s[r] >= 0x20 && s[r] != '"' && s[r] != '\\' {
					r++
				}
				break
			}
			x := binary.LittleEndian.Uint64(s[r:])
			if m := stops(x) | x&high; m != 0 {
				r += bits.TrailingZeros64(m) / 8
				break
			}
			r += 8
		}
		b = append(b, s[start:r]...)
		if r >= len(s) {
			break
		}
		switch c := s[r]; {
		case c == '\\':
			if r+1 >= len(s) {
				return "", false
			}
			if d, ok := simpleEscape(s[r+1]); ok {
				b = append(b, d)
				r += 2
				continue
			}
			if s[r+1] != 'u' {
				return "", false
			}
			rr := hex4(s[r+2:])
			if rr < 0 {
				return "", false
			}
			r += 6
			if utf16.IsSurrogate(rr) {
				if len(s) >= r+6 && s[r] == '\\' && s[r+1] == 'u' {
					if dec := utf16.DecodeRune(rr, hex4(s[r+2:])); dec != unicode.ReplacementChar {
						b = utf8.AppendRune(b, dec)
						r += 6
						continue
					}
				}
				rr = unicode.ReplacementChar
			}
			b = utf8.AppendRune(b, rr)
		case c == '"' || c < ' ':
			return "", false
		default: // a multi-byte sequence, or a byte that begins none
			rr, size := utf8.DecodeRune(s[r:])
			if rr == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, rr)
			} else {
				b = append(b, s[r:r+size]...)
			}
			r += size
		}
	}
	// b is not used again: the string can share its memory, as a
	// strings.Builder's does.
	return unsafe.String(unsafe.SliceData(b), len(b)), true
}

func simpleEscape(c byte) (byte, bool) {
	switch c {
	case '"', '\\', '/':
		return c, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// hex4 decodes the four hex digits at the start of s, or returns -1.
func hex4(s []byte) rune {
	if len(s) < 4 {
		return -1
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}
