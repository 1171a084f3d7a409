// Package rawjson splits JSON objects and arrays into exact byte spans and
// splices edited members back into an object, so that every byte that was
// not edited (whitespace, key order, unknown members, escapes) survives.
//
// The functions expect input that Valid (or json.Valid) accepts; callers validate a
// whole document once and then take it apart here. On input that is not
// valid JSON they return an error, never panic.
package rawjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// Errors returned for input of the wrong shape.
var (
	ErrNotObject = errors.New("not a JSON object")
	ErrNotArray  = errors.New("not a JSON array")
	ErrSyntax    = errors.New("malformed JSON")
)

// A Member is one key/value pair of an object, located by offsets into
// the object's source.
type Member struct {
	Key        string // the decoded key
	KeyStart   int    // offset of the key's opening quote
	ValueStart int    // offset of the value's first byte
	ValueEnd   int    // offset just past the value's last byte
	// Object or Array is the value split, if it is an object or an array
	// and was split with its document (ParseDocument); else both are nil.
	Object *Object
	Array  *ArraySpans
}

// An Object is a parsed JSON object: its source bytes (including any
// whitespace around it) and its members in source order.
type Object struct {
	Src     []byte
	Open    int // offset of '{'
	Close   int // offset of '}'
	Members []Member
}

// ParseObject splits src, a JSON object with optional surrounding
// whitespace, into its members. Duplicate keys are kept in order.
func ParseObject(src []byte) (*Object, error) {
	i := skipSpace(src, 0)
	if i >= len(src) || src[i] != '{' {
		return nil, ErrNotObject
	}
	o := &Object{Src: src, Open: i}
	i = skipSpace(src, i+1)
	if i < len(src) && src[i] == '}' {
		o.Close = i
		return o, trailing(src, i+1)
	}
	for {
		if i >= len(src) || src[i] != '"' {
			return nil, ErrSyntax
		}
		keyEnd, err := skipString(src, i)
		if err != nil {
			return nil, err
		}
		key, err := decodeString(src[i:keyEnd])
		if err != nil {
			return nil, err
		}
		j := skipSpace(src, keyEnd)
		if j >= len(src) || src[j] != ':' {
			return nil, ErrSyntax
		}
		vs := skipSpace(src, j+1)
		ve, err := skipValue(src, vs)
		if err != nil {
			return nil, err
		}
		o.Members = append(o.Members, Member{Key: key, KeyStart: i, ValueStart: vs, ValueEnd: ve})
		i = skipSpace(src, ve)
		if i >= len(src) {
			return nil, ErrSyntax
		}
		switch src[i] {
		case ',':
			i = skipSpace(src, i+1)
		case '}':
			o.Close = i
			return o, trailing(src, i+1)
		default:
			return nil, ErrSyntax
		}
	}
}

// ObjectOf returns obj if it is src split (the same bytes in memory), and
// else src parsed with ParseObject: a decoder hands down what it split
// with the document, when it did.
func ObjectOf(obj *Object, src []byte) (*Object, error) {
	if obj != nil && Same(obj.Src, src) {
		return obj, nil
	}
	return ParseObject(src)
}

// ArrayOf is ObjectOf for an array: a if it is src split, else src parsed
// with ParseArray.
func ArrayOf(a *ArraySpans, src []byte) (*ArraySpans, error) {
	if a != nil && Same(a.Src, src) {
		return a, nil
	}
	return ParseArray(src)
}

// Value returns the bytes of m's value. The slice is capped, so appending
// to it never overwrites the source.
func (o *Object) Value(m Member) []byte {
	return o.Src[m.ValueStart:m.ValueEnd:m.ValueEnd]
}

// Get returns the value of the last member named key, as a JSON decoder
// would see it, and whether there is one.
func (o *Object) Get(key string) ([]byte, bool) {
	for i := len(o.Members) - 1; i >= 0; i-- {
		if o.Members[i].Key == key {
			return o.Value(o.Members[i]), true
		}
	}
	return nil, false
}

// Last returns the index in o.Members of the last member named key, the
// one a JSON decoder reads, or -1 if there is none.
func (o *Object) Last(key string) int {
	for i := len(o.Members) - 1; i >= 0; i-- {
		if o.Members[i].Key == key {
			return i
		}
	}
	return -1
}

// Elements splits src, a JSON array with optional surrounding whitespace,
// into its elements. Each element is a capped slice of src.
func Elements(src []byte) ([][]byte, error) {
	a, err := ParseArray(src)
	if err != nil {
		return nil, err
	}
	return a.Elements(), nil
}

// An ArraySpans is a parsed JSON array: its source bytes (including any
// whitespace around it) and the spans of its elements in them.
type ArraySpans struct {
	Src   []byte
	Spans [][2]int
	// Objects are the elements split, as Member.Object is, when the array
	// was split with its document and holds objects: nil for an element
	// that is not one. Nil otherwise.
	Objects []*Object
}

// Object returns element k split, if a has it (see Objects), or nil.
func (a *ArraySpans) Object(k int) *Object {
	if k < len(a.Objects) {
		return a.Objects[k]
	}
	return nil
}

// ParseArray splits src, a JSON array with optional surrounding
// whitespace, into its elements.
func ParseArray(src []byte) (*ArraySpans, error) {
	spans, err := elementSpans(src)
	if err != nil {
		return nil, err
	}
	return &ArraySpans{Src: src, Spans: spans}, nil
}

// Elements returns a's elements, each a capped slice of a.Src.
func (a *ArraySpans) Elements() [][]byte {
	var elems [][]byte
	for _, s := range a.Spans {
		elems = append(elems, a.Src[s[0]:s[1]:s[1]])
	}
	return elems
}

// Same reports whether a and b are the same bytes in memory, as a split
// recorded for one and used for the other must be.
func Same(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// elementSpans returns the [start, end) offsets of src's elements.
func elementSpans(src []byte) ([][2]int, error) {
	i := skipSpace(src, 0)
	if i >= len(src) || src[i] != '[' {
		return nil, ErrNotArray
	}
	i = skipSpace(src, i+1)
	if i < len(src) && src[i] == ']' {
		return nil, trailing(src, i+1)
	}
	var spans [][2]int
	for {
		end, err := skipValue(src, i)
		if err != nil {
			return nil, err
		}
		spans = append(spans, [2]int{i, end})
		i = skipSpace(src, end)
		if i >= len(src) {
			return nil, ErrSyntax
		}
		switch src[i] {
		case ',':
			i = skipSpace(src, i+1)
		case ']':
			return spans, trailing(src, i+1)
		default:
			return nil, ErrSyntax
		}
	}
}

// String decodes v if it is a JSON string.
func String(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	s, err := decodeString(v)
	return s, err == nil
}

// Quote returns s as a JSON string. Unlike json.Marshal it does not escape
// <, > and &, so text reads the same to a model and costs no extra tokens.
func Quote(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		// Encoding a string cannot fail; invalid UTF-8 becomes U+FFFD.
		return []byte(`""`)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// IsNull reports whether v is absent or the JSON literal null.
func IsNull(v []byte) bool {
	return len(v) == 0 || string(v) == "null"
}

func decodeString(v []byte) (string, error) {
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner), nil
	}
	s, ok := unquote(v)
	if !ok {
		return "", ErrSyntax
	}
	return s, nil
}

func trailing(src []byte, i int) error {
	if skipSpace(src, i) != len(src) {
		return ErrSyntax
	}
	return nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the offset just past the string starting at b[i].
func skipString(b []byte, i int) (int, error) {
	for i++; i < len(b); {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			break
		}
		i += q
		// The quote is escaped if an odd number of backslashes precede it
		// (the run cannot reach back past the opening quote).
		n := 0
		for j := i - 1; b[j] == '\\'; j-- {
			n++
		}
		if n%2 == 0 {
			return i + 1, nil
		}
		i++
	}
	return 0, ErrSyntax
}

// skipValue returns the offset just past the value starting at b[i]. It
// counts brackets rather than recursing, so deep nesting costs no stack.
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, ErrSyntax
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				end, err := skipString(b, i)
				if err != nil {
					return 0, err
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, nil
				}
			}
			i++
		}
		return 0, ErrSyntax
	case ',', ':', '}', ']':
		return 0, ErrSyntax
	}
	start := i
	for i < len(b) && !isDelim(b[i]) {
		i++
	}
	if i == start {
		return 0, ErrSyntax
	}
	return i, nil
}

func isDelim(c byte) bool {
	switch c {
	case ',', '}', ']', ':', ' ', '\t', '\n', '\r', '"', '{', '[':
		return true
	}
	return false
}
