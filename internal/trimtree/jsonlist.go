package trimtree

import (
	"encoding/json"
	"strconv"
	"strings"
)

// findJSONList reports whether text is a JSON document and, if it is,
// returns its main list, or nil if it has none. The main list of a
// top-level array is that array. The main list of a top-level object (a
// wrapper such as {"total_count": 3, "items": [...]}) is its largest
// array, in bytes, among those reachable through object fields whose
// elements are all objects or arrays; failing those, its largest array of
// anything. The rest of the wrapper is kept as it is.
func findJSONList(text string) (*list, bool) {
	arrays, ok := scanJSON(text)
	if !ok {
		return nil, false
	}
	best := -1
	for i, a := range arrays {
		if len(a.items) > 0 && (best < 0 || better(a, arrays[best])) {
			best = i
		}
	}
	if best < 0 {
		return nil, true
	}
	a := arrays[best]
	return &list{text: text, format: FormatJSON, path: a.path, items: a.items}, true
}

// better reports whether a is a better main list than b: arrays of
// objects and arrays before arrays of scalars, then the larger, then the
// first found.
func better(a, b array) bool {
	if a.composite != b.composite {
		return a.composite
	}
	return a.size > b.size
}

// joinPath appends the field whose quoted key is key to path: dotted for
// keys that are simple names, ["key"] for others.
func joinPath(path, quoted string) string {
	key := quoted[1 : len(quoted)-1]
	if strings.IndexByte(key, '\\') >= 0 {
		if err := json.Unmarshal([]byte(quoted), &key); err != nil {
			key = quoted[1 : len(quoted)-1] // the scanner validated it; keep it raw if not
		}
	}
	if !isName(key) {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
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
