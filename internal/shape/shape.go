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
	json    value   // the parsed JSON, for the JSON shapes
	inexact bool    // the JSON has a string no encoder can reproduce exactly
	table   mdTable // the cells, for MarkdownTable
}

// inspect classifies text and keeps what it parsed doing so.
func inspect(text string) doc {
	switch {
	case len(text) > MaxBytes:
		return doc{shape: Unknown}
	case isBinary(text):
		return doc{shape: Binary}
	}
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		return doc{shape: Empty}
	}
	if looksLikeJSON(trimmed) {
		if v, inexact, err := parseJSON(text); err == nil {
			return doc{shape: jsonShape(&v), json: v, inexact: inexact}
		}
	}
	if t, ok := parseMarkdownTable(text); ok {
		return doc{shape: MarkdownTable, table: t}
	}
	return doc{shape: textShape(text)}
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

// jsonShape returns the shape of a parsed JSON value.
func jsonShape(v *value) Shape {
	switch v.kind {
	case kindArray:
		return arrayShape(v)
	case kindObject:
		if wrappedArray(v) >= 0 {
			return JSONWrapperArray
		}
		for i := range v.members {
			if v.members[i].val.isContainer() {
				return JSONObjectNested
			}
		}
		return JSONObjectFlat
	}
	return JSONScalar
}

func arrayShape(v *value) Shape {
	objects, scalars := 0, 0
	for i := range v.elems {
		switch v.elems[i].kind {
		case kindObject:
			objects++
		case kindArray:
		default:
			scalars++
		}
	}
	switch n := len(v.elems); {
	case n > 0 && objects == n:
		return JSONArrayObjects
	case scalars == n:
		return JSONScalarArray
	}
	return JSONArrayMixed
}

// wrappedArray returns the index of the member of object v that makes it
// a wrapper: its biggest member, by compact JSON length, when that member
// is a non-empty array of objects. It returns -1 when v is no wrapper.
func wrappedArray(v *value) int {
	best, bestLen := -1, -1
	for i := range v.members {
		if n := compactLen(&v.members[i].val); n > bestLen {
			best, bestLen = i, n
		}
	}
	if best < 0 || v.members[best].val.kind != kindArray || arrayShape(&v.members[best].val) != JSONArrayObjects {
		return -1
	}
	return best
}

// compactLen returns the length of v as compact JSON, counting each
// string's contents as if nothing needed escaping.
func compactLen(v *value) int {
	switch v.kind {
	case kindNull, kindTrue:
		return 4
	case kindFalse:
		return 5
	case kindNumber:
		return len(v.text)
	case kindString:
		return len(v.text) + 2
	case kindArray:
		n := 1 + len(v.elems)
		for i := range v.elems {
			n += compactLen(&v.elems[i])
		}
		return n
	}
	n := 1 + len(v.members)
	for i := range v.members {
		n += len(v.members[i].key) + 3 + compactLen(&v.members[i].val)
	}
	return n
}
