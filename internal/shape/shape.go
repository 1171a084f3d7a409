package shape

import "strings"

// A Shape names what a tool response looks like, which decides the
// encodings Encode tries on it.
type Shape string

// The shapes Classify tells apart.
const (
	// JSONArrayObjects is a JSON array whose elements are all objects
	// (GitHub's issue list, GitLab's merge requests).
	JSONArrayObjects Shape = "json_array_objects"
	// JSONWrapperArray is a JSON object whose biggest member is a
	// non-empty array of objects ({"total_count": 3, "items": [...]}).
	JSONWrapperArray Shape = "json_wrapper_array"
	// JSONObjectFlat is a JSON object whose members are all scalars:
	// strings, numbers, booleans and nulls.
	JSONObjectFlat Shape = "json_object_flat"
	// JSONObjectNested is any other JSON object.
	JSONObjectNested Shape = "json_object_nested"
	// JSONScalarArray is a JSON array of scalars only, or an empty array.
	JSONScalarArray Shape = "json_scalar_array"
	// JSONArrayMixed is a JSON array of objects, arrays and scalars
	// mixed, or of arrays.
	JSONArrayMixed Shape = "json_array_mixed"
	// JSONScalar is a lone JSON string, number, boolean or null.
	JSONScalar Shape = "json_scalar"
	// MarkdownTable is a text that is exactly one GitHub-flavoured
	// markdown table: a header row, a delimiter row and body rows.
	MarkdownTable Shape = "markdown_table"
	// Code is source code.
	Code Shape = "code"
	// Log is log output: most lines start with a timestamp or a level.
	Log Shape = "log"
	// Prose is any other text.
	Prose Shape = "prose"
	// Binary is text that is not valid UTF-8 or holds NUL bytes or many
	// control characters.
	Binary Shape = "binary"
	// Empty is the empty text or whitespace only.
	Empty Shape = "empty"
	// Unknown is text longer than MaxBytes, which is not inspected.
	Unknown Shape = "unknown"
)

// MaxBytes is the longest text Classify and Encode inspect. Longer text is
// Unknown and passes through Encode untouched: it is not a tool response
// an agent should read whole, and trimming it is another stage's job.
const MaxBytes = 8 << 20

// Classify returns the shape of text. It never fails: text that is not
// UTF-8 is Binary, text over MaxBytes is Unknown, and text that is not
// JSON or a markdown table is Log, Code or Prose by line heuristics.
func Classify(text string) Shape {
	return inspect(text).shape
}

// A doc is a text with its shape and, for the shapes that have encoders,
// its parsed content.
type doc struct {
	shape   Shape
	json    tape    // the parsed JSON, for the JSON shapes
	inexact bool    // the JSON has a string no encoder can reproduce exactly
	table   mdTable // the cells, for MarkdownTable
}

// inspect classifies text and keeps what it parsed doing so.
func inspect(text string) doc {
	var d doc
	d.inspect(text, nil)
	return d
}

// inspect is the function inspect reusing d's memory. When spans is not
// nil and text is a JSON array, the start and end offsets of its elements
// are appended to *spans, in pairs; nothing is appended otherwise.
func (d *doc) inspect(text string, spans *[]int) {
	d.shape, d.inexact, d.table = "", false, nil
	d.json.reset("")
	switch {
	case len(text) > MaxBytes:
		d.shape = Unknown
		return
	case isBinary(text):
		d.shape = Binary
		return
	}
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		d.shape = Empty
		return
	}
	if looksLikeJSON(trimmed) {
		n := 0
		if spans != nil {
			n = len(*spans)
		}
		if inexact, err := d.json.parseSpans(text, spans); err == nil {
			d.shape, d.inexact = jsonShape(&d.json, 0), inexact
			return
		}
		if spans != nil {
			*spans = (*spans)[:n]
		}
		d.json.reset("")
	}
	if t, ok := parseMarkdownTable(text); ok {
		d.shape, d.table = MarkdownTable, t
		return
	}
	d.shape = textShape(text)
}

// looksLikeJSON reports whether trimmed text starts and ends the way a
// JSON value does, to spare prose a parse attempt.
func looksLikeJSON(trimmed string) bool {
	first, last := trimmed[0], trimmed[len(trimmed)-1]
	switch first {
	case '{':
		return last == '}'
	case '[':
		return last == ']'
	case '"':
		return last == '"'
	}
	return isNumber(trimmed) || trimmed == "true" || trimmed == "false" || trimmed == "null"
}

// jsonShape returns the shape of value node i.
func jsonShape(t *tape, i int) Shape {
	switch t.nodes[i].kind {
	case kindArray:
		return arrayShape(t, i)
	case kindObject:
		if wrappedArray(t, i) >= 0 {
			return JSONWrapperArray
		}
		for m := range t.members(i) {
			if t.isContainer(m + 1) {
				return JSONObjectNested
			}
		}
		return JSONObjectFlat
	}
	return JSONScalar
}

// arrayShape returns the shape of array node i.
func arrayShape(t *tape, i int) Shape {
	n, objects, scalars := t.count(i), 0, 0
	for e := range t.elems(i) {
		switch t.nodes[e].kind {
		case kindObject:
			objects++
		case kindArray:
		default:
			scalars++
		}
	}
	switch {
	case n > 0 && objects == n:
		return JSONArrayObjects
	case scalars == n:
		return JSONScalarArray
	}
	return JSONArrayMixed
}

// wrappedArray returns the index of the key node of the member of object
// node i that makes it a wrapper: its biggest member, by compact JSON
// length, when that member is a non-empty array of objects. It returns -1
// when the object is no wrapper.
func wrappedArray(t *tape, i int) int {
	best, bestLen := -1, -1
	for m := range t.members(i) {
		if n := compactLen(t, m+1); n > bestLen {
			best, bestLen = m, n
		}
	}
	if best < 0 || t.nodes[best+1].kind != kindArray || arrayShape(t, best+1) != JSONArrayObjects {
		return -1
	}
	return best
}

// sizeHint returns about the bytes value node i takes as compact JSON, to
// size buffers: the length of the parsed text for the whole document,
// which costs nothing to know, else compactLen.
func sizeHint(t *tape, i int) int {
	if i == 0 {
		return len(t.src)
	}
	return compactLen(t, i)
}

// compactLen returns the length of value node i as compact JSON, counting
// each string's contents as if nothing needed escaping.
func compactLen(t *tape, i int) int {
	n := 0
	for _, x := range t.nodes[i:t.end(i)] {
		switch x.kind {
		case kindNull, kindTrue:
			n += 4
		case kindFalse:
			n += 5
		case kindNumber:
			n += int(x.b - x.a)
		case kindString:
			n += int(x.b-x.a) + 2 // quotes
		case kindKey:
			n += int(x.b-x.a) + 3 // quotes and colon
		default:
			n += 1 + int(x.a) // brackets, and commas between the children
		}
	}
	return n
}
