package rawjson

import (
	"encoding/binary"
	"math/bits"
)

// maxDepth is encoding/json's limit on nesting: json.Valid rejects a
// document with more than this many arrays and objects open at once.
const maxDepth = 10000

// Valid reports whether b is valid JSON, exactly as encoding/json.Valid
// does: the same grammar (strings may hold any byte but a control
// character, and invalid UTF-8 is accepted), the same whitespace and the
// same nesting limit. It is several times faster: it checks the bytes of
// a string eight at a time, where encoding/json runs its state machine on
// every byte, and the strings are most of a chat request's bytes.
func Valid(b []byte) bool {
	i, ok := validValue(b, skipSpace(b, 0), 0)
	return ok && skipSpace(b, i) == len(b)
}

// validValue checks the value at b[i], inside depth arrays and objects of
// its document, and returns the offset just past it. It keeps the open
// containers on a stack of its own rather than recursing, so deep nesting
// costs no goroutine stack.
func validValue(b []byte, i, depth int) (int, bool) {
	var buf [64]byte
	open := buf[:0] // '{' or '[' for each container open at i
	for {
		// A value starts at b[i].
		if i >= len(b) {
			return 0, false
		}
		var ok bool
		switch c := b[i]; c {
		case '"':
			if i, ok = validString(b, i); !ok {
				return 0, false
			}
		case '{', '[':
			if open = append(open, c); depth+len(open) > maxDepth {
				return 0, false
			}
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == c+2 { // '}' or ']'
				open = open[:len(open)-1]
				i++
				break
			}
			if c == '{' {
				if i, ok = validKey(b, i); !ok {
					return 0, false
				}
			}
			continue
		case 't':
			if i, ok = literal(b, i, "true"); !ok {
				return 0, false
			}
		case 'f':
			if i, ok = literal(b, i, "false"); !ok {
				return 0, false
			}
		case 'n':
			if i, ok = literal(b, i, "null"); !ok {
				return 0, false
			}
		default:
			if i, ok = validNumber(b, i); !ok {
				return 0, false
			}
		}
		// A value ends at b[i]: close containers until one goes on.
		for {
			if len(open) == 0 {
				return i, true
			}
			i = skipSpace(b, i)
			if i >= len(b) {
				return 0, false
			}
			top := open[len(open)-1]
			if b[i] == top+2 {
				open = open[:len(open)-1]
				i++
				continue
			}
			if b[i] != ',' {
				return 0, false
			}
			i = skipSpace(b, i+1)
			if top == '{' {
				if i, ok = validKey(b, i); !ok {
					return 0, false
				}
			}
			break
		}
	}
}

// validKey checks the key and colon of an object member at b[i] and
// returns the offset of its value.
func validKey(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	i, ok := validString(b, i)
	if !ok {
		return 0, false
	}
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != ':' {
		return 0, false
	}
	return skipSpace(b, i+1), true
}

func literal(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return 0, false
	}
	return i + len(lit), true
}

// validNumber checks the number at b[i]:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return 0, false
	case b[i] == '0':
		i++
	case '1' <= b[i] && b[i] <= '9':
		i = digits(b, i+1)
	default:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return 0, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return 0, false
		}
		i = j
	}
	return i, true
}

func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}

// validString checks the string at b[i] and returns the offset just past
// its closing quote.
func validString(b []byte, i int) (int, bool) {
	i++
	for {
		// Skip the bytes that stand for themselves: eight at a time (see
		// stops), then one at a time.
		for {
			if i+8 > len(b) {
				for i < len(b) && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20 {
					i++
				}
				break
			}
			if m := stops(binary.LittleEndian.Uint64(b[i:])); m != 0 {
				i += bits.TrailingZeros64(m) / 8
				break
			}
			i += 8
		}
		if i >= len(b) {
			return 0, false
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, true
		case c == '\\':
			if i+1 >= len(b) {
				return 0, false
			}
			if _, ok := simpleEscape(b[i+1]); ok {
				i += 2
				continue
			}
			if b[i+1] != 'u' || hex4(b[i+2:]) < 0 {
				return 0, false
			}
			i += 6
		default: // a control character
			return 0, false
		}
	}
}

// Masks for examining eight bytes at once.
const (
	ones = 0x0101010101010101
	high = 0x8080808080808080
)

// stops flags, by its high bit, the first byte of x (in memory order)
// that is a quote, a backslash or a control character, and perhaps bytes
// after it: each term flags the bytes that are zero (or below 0x20); a
// borrow can flag a byte wrongly, but only one above a byte flagged
// rightly, so the lowest flag is exact.
func stops(x uint64) uint64 {
	q := x ^ (ones * '"')
	e := x ^ (ones * '\\')
	return (((q - ones) &^ q) | ((e - ones) &^ e) | ((x - ones*0x20) &^ x)) & high
}
