package trimtree

import "github.com/winnowhq/winnow/internal/swar"

// jsonscan.go validates a JSON document in one pass, without allocating for
// values it does not keep, and records the element ranges of the arrays
// Trim may trim: the root array, or the arrays reachable from a root
// object through object fields alone. It accepts exactly what
// encoding/json's Valid accepts (the fuzz test holds it to that): RFC 8259
// grammar, whitespace of space, tab, CR and LF, no control characters in
// strings, invalid UTF-8 allowed, at most maxNesting levels of nesting.
// encoding/json.Valid is not used: it takes over three times as long as
// this scanner on a 100 KiB response (BenchmarkScanJSON) and would still
// leave the structure to be found.

// maxNesting is encoding/json's limit on nested arrays and objects.
const maxNesting = 10000

// maxWrapperDepth bounds how deep inside objects an array is looked for:
// {"data": {"repository": {"issues": {"nodes": [...]}}}} is depth 4.
const maxWrapperDepth = 8

// An array is an array that Trim could trim.
type array struct {
	path      string
	items     []span
	size      int  // bytes from [ to ]
	composite bool // every element is an object or an array
}

// A scanner walks one document.
type scanner struct {
	s      string
	arrays []array
}

// scanJSON reports whether s is one valid JSON value, and returns the
// arrays it found if so.
func scanJSON(s string) ([]array, bool) {
	p := &scanner{s: s}
	i := p.space(0)
	var (
		end int
		ok  bool
	)
	switch {
	case i < len(s) && s[i] == '[':
		var items []span
		end, ok = p.array(i, 1, &items)
		if ok {
			p.arrays = append(p.arrays, array{items: items, size: end - i, composite: composite(s, items)})
		}
	case i < len(s) && s[i] == '{':
		end, ok = p.object(i, 1, "", true)
	default:
		end, ok = p.value(i, 0)
	}
	if !ok || p.space(end) != len(s) {
		return nil, false
	}
	return p.arrays, true
}

// space skips JSON whitespace from i. Most tokens follow each other
// without any: a test small enough to be inlined passes over them (every
// whitespace byte is below '!').
func (p *scanner) space(i int) int {
	if i < len(p.s) && p.s[i] <= ' ' {
		return p.spaces(i)
	}
	return i
}

// spaces skips a run of whitespace from i. Pretty-printed JSON has a line
// break and an indentation between tokens, whose end is found a word at a
// time.
func (p *scanner) spaces(i int) int {
	if !swar.IsSpace(p.s[i]) {
		return i
	}
	if i++; i < len(p.s) && p.s[i] > ' ' {
		return i // one space, as after a colon
	}
	for i+8 <= len(p.s) {
		if m := swar.NonSpaces(swar.Load64(p.s[i:])); m != 0 {
			return i + swar.FirstByte(m)
		}
		i += 8
	}
	for i < len(p.s) && swar.IsSpace(p.s[i]) {
		i++
	}
	return i
}

// value checks the value at i, at nesting depth, and returns its end.
func (p *scanner) value(i, depth int) (int, bool) {
	if i >= len(p.s) {
		return i, false
	}
	switch c := p.s[i]; {
	case c == '{':
		return p.object(i, depth+1, "", false)
	case c == '[':
		return p.array(i, depth+1, nil)
	case c == '"':
		return p.str(i)
	case c == '-' || c >= '0' && c <= '9':
		return p.number(i)
	case c == 't':
		return p.literal(i, "true")
	case c == 'f':
		return p.literal(i, "false")
	case c == 'n':
		return p.literal(i, "null")
	}
	return i, false
}

// array checks the array starting at i; items, when not nil, receives the
// ranges of its elements.
func (p *scanner) array(i, depth int, items *[]span) (int, bool) {
	if depth > maxNesting {
		return i, false
	}
	i = p.space(i + 1)
	if i < len(p.s) && p.s[i] == ']' {
		return i + 1, true
	}
	for {
		end, ok := p.value(i, depth)
		if !ok {
			return end, false
		}
		if items != nil {
			*items = append(*items, span{i, end})
		}
		i = p.space(end)
		if i >= len(p.s) {
			return i, false
		}
		switch p.s[i] {
		case ',':
			i = p.space(i + 1)
		case ']':
			return i + 1, true
		default:
			return i, false
		}
	}
}

// object checks the object starting at i. When wrap is set, the object is
// the root or reached from it through fields alone: its array fields are
// recorded under their path and its object fields searched in turn, down
// to maxWrapperDepth.
func (p *scanner) object(i, depth int, path string, wrap bool) (int, bool) {
	if depth > maxNesting {
		return i, false
	}
	i = p.space(i + 1)
	if i < len(p.s) && p.s[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(p.s) || p.s[i] != '"' {
			return i, false
		}
		keyEnd, ok := p.str(i)
		if !ok {
			return keyEnd, false
		}
		key := p.s[i:keyEnd]
		i = p.space(keyEnd)
		if i >= len(p.s) || p.s[i] != ':' {
			return i, false
		}
		i = p.space(i + 1)
		end, ok := p.field(i, depth, path, key, wrap)
		if !ok {
			return end, false
		}
		i = p.space(end)
		if i >= len(p.s) {
			return i, false
		}
		switch p.s[i] {
		case ',':
			i = p.space(i + 1)
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
}

// field checks the value of a field whose quoted key is key, recording it
// if it is an array of a wrapper object.
func (p *scanner) field(i, depth int, path, key string, wrap bool) (int, bool) {
	if !wrap || i >= len(p.s) || depth > maxWrapperDepth {
		return p.value(i, depth)
	}
	switch p.s[i] {
	case '[':
		var items []span
		end, ok := p.array(i, depth+1, &items)
		if ok && len(items) > 0 {
			p.arrays = append(p.arrays, array{
				path:      joinPath(path, key),
				items:     items,
				size:      end - i,
				composite: composite(p.s, items),
			})
		}
		return end, ok
	case '{':
		return p.object(i, depth+1, joinPath(path, key), true)
	}
	return p.value(i, depth)
}

// str checks the string starting at the quote at i.
func (p *scanner) str(i int) (int, bool) {
	s := p.s
	for i++; i < len(s); {
		// Find the first byte that ends the string, starts an escape or
		// is a control character a word at a time.
		for i+8 <= len(s) {
			if m := swar.StringStops(swar.Load64(s[i:])); m != 0 {
				i += swar.FirstByte(m)
				break
			}
			i += 8
		}
		if i >= len(s) {
			break
		}
		switch c := s[i]; {
		case c == '"':
			return i + 1, true
		case c == '\\':
			n := escapeLen(s[i:])
			if n == 0 {
				return i, false
			}
			i += n
		case c < 0x20:
			return i, false
		default:
			i++
		}
	}
	return i, false
}

// escapeLen returns the length of the escape sequence s starts with, or 0
// if it is not a valid one.
func escapeLen(s string) int {
	if len(s) < 2 {
		return 0
	}
	switch s[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if len(s) < 6 {
			return 0
		}
		for _, c := range []byte(s[2:6]) {
			if !isHex(c) {
				return 0
			}
		}
		return 6
	}
	return 0
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number checks the number at i: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *scanner) number(i int) (int, bool) {
	s := p.s
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i++; i < len(s) && isDigit(s[i]); i++ {
		}
	default:
		return i, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || !isDigit(s[i]) {
			return i, false
		}
		for ; i < len(s) && isDigit(s[i]); i++ {
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !isDigit(s[i]) {
			return i, false
		}
		for ; i < len(s) && isDigit(s[i]); i++ {
		}
	}
	return i, true
}

// literal checks that word (true, false or null) is at i.
func (p *scanner) literal(i int, word string) (int, bool) {
	if len(p.s)-i < len(word) || p.s[i:i+len(word)] != word {
		return i, false
	}
	return i + len(word), true
}

// composite reports whether every item is an object or an array.
func composite(s string, items []span) bool {
	for _, it := range items {
		if c := s[it.start]; c != '{' && c != '[' {
			return false
		}
	}
	return true
}
