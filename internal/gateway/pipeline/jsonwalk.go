package pipeline

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/winnowhq/winnow/internal/swar"
)

// maxNesting is encoding/json's limit on nested arrays and objects.
const maxNesting = 10000

var errNotJSON = errors.New("not a JSON document")

// A step is one element of a JSON path: an object member (by its key as
// written, quotes and escapes included) or an array index.
type step struct {
	rawKey string // `"key"` for a member, "" for an index
	index  int
}

// key returns the member's decoded key.
func (s step) key() string {
	k := s.rawKey[1 : len(s.rawKey)-1]
	if strings.IndexByte(k, '\\') < 0 {
		return k
	}
	var out string
	if json.Unmarshal([]byte(s.rawKey), &out) != nil {
		return k
	}
	return out
}

// A jsonWalk validates one JSON document (what encoding/json.Valid accepts,
// short of its UTF-8 laxness being relevant) and reports its values as byte
// ranges, with the path that leads to each. It allocates nothing per value
// beyond the path stack.
type jsonWalk struct {
	s    string
	path []step
	// scalar, if set, is called for every string, number, true, false and
	// null that is a value (not a key), with its range.
	scalar func(start, end int)
}

// run walks the document; it fails on anything that is not exactly one
// JSON value with optional surrounding whitespace.
func (w *jsonWalk) run() error {
	i := w.space(0)
	end, ok := w.value(i, 0)
	if !ok || w.space(end) != len(w.s) {
		return errNotJSON
	}
	return nil
}

func (w *jsonWalk) space(i int) int { return swar.SkipSpace(w.s, i) }

func (w *jsonWalk) value(i, depth int) (int, bool) {
	if i >= len(w.s) {
		return i, false
	}
	var end int
	var ok bool
	switch c := w.s[i]; {
	case c == '{':
		return w.object(i, depth+1)
	case c == '[':
		return w.array(i, depth+1)
	case c == '"':
		end, ok = w.str(i)
	case c == '-' || isDigit(c):
		end, ok = w.number(i)
	case c == 't':
		end, ok = w.literal(i, "true")
	case c == 'f':
		end, ok = w.literal(i, "false")
	case c == 'n':
		end, ok = w.literal(i, "null")
	}
	if ok && w.scalar != nil {
		w.scalar(i, end)
	}
	return end, ok
}

func (w *jsonWalk) array(i, depth int) (int, bool) {
	if depth > maxNesting {
		return i, false
	}
	i = w.space(i + 1)
	if i < len(w.s) && w.s[i] == ']' {
		return i + 1, true
	}
	w.path = append(w.path, step{})
	defer func() { w.path = w.path[:len(w.path)-1] }()
	for n := 0; ; n++ {
		w.path[len(w.path)-1] = step{index: n}
		end, ok := w.value(i, depth)
		if !ok {
			return end, false
		}
		i = w.space(end)
		if i >= len(w.s) {
			return i, false
		}
		switch w.s[i] {
		case ',':
			i = w.space(i + 1)
		case ']':
			return i + 1, true
		default:
			return i, false
		}
	}
}

func (w *jsonWalk) object(i, depth int) (int, bool) {
	if depth > maxNesting {
		return i, false
	}
	i = w.space(i + 1)
	if i < len(w.s) && w.s[i] == '}' {
		return i + 1, true
	}
	w.path = append(w.path, step{})
	defer func() { w.path = w.path[:len(w.path)-1] }()
	for {
		if i >= len(w.s) || w.s[i] != '"' {
			return i, false
		}
		keyEnd, ok := w.str(i)
		if !ok {
			return keyEnd, false
		}
		w.path[len(w.path)-1] = step{rawKey: w.s[i:keyEnd]}
		i = w.space(keyEnd)
		if i >= len(w.s) || w.s[i] != ':' {
			return i, false
		}
		end, ok := w.value(w.space(i+1), depth)
		if !ok {
			return end, false
		}
		i = w.space(end)
		if i >= len(w.s) {
			return i, false
		}
		switch w.s[i] {
		case ',':
			i = w.space(i + 1)
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
}

func (w *jsonWalk) str(i int) (int, bool) {
	s := w.s
	for i++; i < len(s); {
		if i = swar.StringStop(s, i); i >= len(s) {
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

// escapeLen returns the length of the escape sequence s starts with, or 0.
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
			if !isDigit(c) && (c|0x20 < 'a' || c|0x20 > 'f') {
				return 0
			}
		}
		return 6
	}
	return 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? at i.
func (w *jsonWalk) number(i int) (int, bool) {
	s := w.s
	if s[i] == '-' {
		i++
	}
	digits := func() bool {
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		return i > start
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case !digits():
		return i, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return i, false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return i, false
		}
	}
	return i, true
}

func (w *jsonWalk) literal(i int, word string) (int, bool) {
	if !strings.HasPrefix(w.s[i:], word) {
		return i, false
	}
	return i + len(word), true
}

// scalarLiteral returns the length of the one JSON scalar (string, number,
// true, false, null) s starts with, or 0 if it does not start with one.
func scalarLiteral(s string) int {
	w := jsonWalk{s: s}
	if s == "" {
		return 0
	}
	end, ok := w.value(0, maxNesting) // containers fail: depth is exhausted
	if !ok {
		return 0
	}
	return end
}

// formatPath writes a path as dotted member names, with ["key"] for keys
// that are not simple names (Go-quoted, as package trimtree writes them)
// and [i] for indexes: items[3].user.login, ["a b"][0].
func formatPath(path []step) string {
	var b strings.Builder
	for _, s := range path {
		if s.rawKey == "" {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
			continue
		}
		k := s.key()
		if !isName(k) {
			b.WriteString("[" + strconv.Quote(k) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(k)
	}
	return b.String()
}

// isName reports whether key can be written bare in a dotted path: ASCII
// letters, digits, _ and -, not starting with a digit.
func isName(key string) bool {
	if key == "" || isDigit(key[0]) {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// parsePath reads a path written by formatPath from the start of s and
// returns it rendered back (canonical) with the number of bytes it took.
// A path ends at the first byte that cannot continue it.
func parsePath(s string) (steps []pathPart, n int, ok bool) {
	i := 0
	for i < len(s) {
		switch {
		case s[i] == '[' && i+1 < len(s) && s[i+1] == '"':
			q, err := strconv.QuotedPrefix(s[i+1:])
			if err != nil || i+1+len(q) >= len(s) || s[i+1+len(q)] != ']' {
				return nil, 0, false
			}
			k, err := strconv.Unquote(q)
			if err != nil {
				return nil, 0, false
			}
			steps = append(steps, pathPart{key: k, isKey: true})
			i += len(q) + 2
		case s[i] == '[':
			j := i + 1
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			if j == i+1 || j >= len(s) || s[j] != ']' {
				return nil, 0, false
			}
			idx, err := strconv.Atoi(s[i+1 : j])
			if err != nil {
				return nil, 0, false
			}
			steps = append(steps, pathPart{index: idx})
			i = j + 1
		case s[i] == '.' && len(steps) > 0 || len(steps) == 0 && isNameStart(s[i]):
			if s[i] == '.' {
				i++
			}
			j := i
			for j < len(s) && isNameByte(s[j]) {
				j++
			}
			if j == i || !isName(s[i:j]) {
				return nil, 0, false
			}
			steps = append(steps, pathPart{key: s[i:j], isKey: true})
			i = j
		default:
			return steps, i, len(steps) > 0
		}
	}
	return steps, i, len(steps) > 0
}

// A pathPart is one parsed step of a path: a decoded key or an index.
type pathPart struct {
	key   string
	index int
	isKey bool
}

// matches reports whether the walker's path equals want.
func matches(path []step, want []pathPart) bool {
	if len(path) != len(want) {
		return false
	}
	for i, s := range path {
		w := want[i]
		if (s.rawKey != "") != w.isKey || (w.isKey && s.key() != w.key) || (!w.isKey && s.index != w.index) {
			return false
		}
	}
	return true
}

func isNameStart(c byte) bool { return isNameByte(c) && !isDigit(c) }

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_' || c == '-'
}
