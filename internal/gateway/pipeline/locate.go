package pipeline

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/winnowhq/winnow/internal/swar"
)

// A locator finds the elements of the arrays at one path of a JSON
// document that package trimtree has already validated. It follows the
// path and passes over everything else structurally, strings by their
// quotes and containers by their brackets, without checking the grammar
// again: a walk that validated would read the whole document once more
// for nothing. It never panics, whatever the text: malformed text gives
// errNotJSON or spans that listOf's check (the kept items must render as
// trimtree's text) turns down.
type locator struct {
	s     string
	want  []pathPart
	items []span
}

// arrayItems returns the element ranges of the arrays at path (as
// trimtree writes paths: object fields only, "" for the root), in
// document order: those of every array at that path, should duplicate
// keys give it more than one.
func arrayItems(text, path string) ([]span, error) {
	var want []pathPart
	if path != "" {
		var n int
		var ok bool
		want, n, ok = parsePath(path)
		if !ok || n != len(path) {
			return nil, errors.New("unreadable array path")
		}
	}
	l := &locator{s: text, want: want}
	if end, ok := l.value(l.space(0), 0); !ok || l.space(end) != len(text) {
		return nil, errNotJSON
	}
	return l.items, nil
}

// value reads the value at i, at depth steps along the path, and returns
// its end.
func (l *locator) value(i, depth int) (int, bool) {
	if i >= len(l.s) {
		return i, false
	}
	switch {
	case depth == len(l.want) && l.s[i] == '[':
		return l.elements(i, depth, true)
	case depth < len(l.want) && !l.want[depth].isKey && l.s[i] == '[':
		return l.elements(i, depth, false)
	case depth < len(l.want) && l.want[depth].isKey && l.s[i] == '{':
		return l.members(i, depth)
	}
	return l.skip(i)
}

// elements reads the array at i; its elements are recorded when record
// is set, and the one the path's index names is followed.
func (l *locator) elements(i, depth int, record bool) (int, bool) {
	i = l.space(i + 1)
	if i < len(l.s) && l.s[i] == ']' {
		return i + 1, true
	}
	for n := 0; ; n++ {
		var end int
		var ok bool
		if !record && n == l.want[depth].index {
			end, ok = l.value(i, depth+1)
		} else {
			end, ok = l.skip(i)
		}
		if !ok {
			return end, false
		}
		if record {
			l.items = append(l.items, span{i, end})
		}
		if i = l.space(end); i >= len(l.s) {
			return i, false
		}
		switch l.s[i] {
		case ',':
			i = l.space(i + 1)
		case ']':
			return i + 1, true
		default:
			return i, false
		}
	}
}

// members reads the object at i and follows the members whose key is the
// path's next one.
func (l *locator) members(i, depth int) (int, bool) {
	i = l.space(i + 1)
	if i < len(l.s) && l.s[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(l.s) || l.s[i] != '"' {
			return i, false
		}
		keyEnd, ok := l.str(i)
		if !ok {
			return keyEnd, false
		}
		match := decodeKey(l.s[i:keyEnd]) == l.want[depth].key
		if i = l.space(keyEnd); i >= len(l.s) || l.s[i] != ':' {
			return i, false
		}
		i = l.space(i + 1)
		var end int
		if match {
			end, ok = l.value(i, depth+1)
		} else {
			end, ok = l.skip(i)
		}
		if !ok {
			return end, false
		}
		if i = l.space(end); i >= len(l.s) {
			return i, false
		}
		switch l.s[i] {
		case ',':
			i = l.space(i + 1)
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
}

// skip passes over the value at i and returns its end: a string to its
// closing quote, a container to its closing bracket, anything else to
// the next byte that ends a value.
func (l *locator) skip(i int) (int, bool) {
	s := l.s
	if i >= len(s) {
		return i, false
	}
	switch s[i] {
	case '"':
		return l.str(i)
	case '[', '{':
		depth := 0
		for i < len(s) {
			switch s[i] {
			case '"':
				end, ok := l.str(i)
				if !ok {
					return end, false
				}
				i = end
				continue
			case '[', '{':
				depth++
			case ']', '}':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return i, false
	}
	start := i
	for i < len(s) && !strings.ContainsRune(",]} \t\r\n", rune(s[i])) {
		i++
	}
	return i, i > start
}

// str passes over the string whose opening quote is at i and returns the
// end of its closing quote.
func (l *locator) str(i int) (int, bool) {
	s := l.s
	for i++; i < len(s); {
		if i = swar.StringStop(s, i); i >= len(s) {
			break
		}
		switch s[i] {
		case '"':
			return i + 1, true
		case '\\':
			i += 2
		default:
			i++
		}
	}
	return len(s), false
}

func (l *locator) space(i int) int { return swar.SkipSpace(l.s, i) }

// decodeKey returns the contents of a quoted key, its escapes decoded.
func decodeKey(quoted string) string {
	k := quoted[1 : len(quoted)-1]
	if strings.IndexByte(k, '\\') < 0 {
		return k
	}
	var out string
	if json.Unmarshal([]byte(quoted), &out) != nil {
		return k
	}
	return out
}
