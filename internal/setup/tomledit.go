package setup

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// A tomlDoc is the text of a TOML configuration file, edited as text: a key is set by
// rewriting its value's bytes, added after the last key of its table, or removed with
// its lines; a missing table is appended at the end. Every other line, comments
// included, stays as it was. The text is decoded as well, to compare values and to
// refuse a file that is not valid TOML.
type tomlDoc struct {
	text   []byte
	values map[string]any
}

func (d *tomlDoc) bytes() []byte { return d.text }

// A tomlStmt is one statement of the text: a table header or a key/value pair.
type tomlStmt struct {
	header     bool
	array      bool     // [[array.of.tables]]
	key        []string // the header's key, or the pair's dotted key
	start, end int      // its lines: from its first line's start to past its last newline
	// For a pair, its value's extent, without the white space and comment after it.
	value, valueEnd int
}

func parseTOML(data []byte) (*tomlDoc, error) {
	d := &tomlDoc{text: data}
	if _, err := toml.Decode(string(data), &d.values); err != nil {
		var perr toml.ParseError
		if errors.As(err, &perr) {
			// Position.Line is the line after a newline the parser stopped at; the
			// offset is exact.
			line, col := position(data, perr.Position.Start)
			return nil, fmt.Errorf("not valid TOML: line %d, column %d: %s", line, col, perr.Message)
		}
		return nil, fmt.Errorf("not valid TOML: %w", err)
	}
	return d, nil
}

// get returns the decoded value at path and whether it is there.
func (d *tomlDoc) get(path ...string) (any, bool) {
	var v any = d.values
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

// setKey sets key in table (nil: the top level, before any table) to value, which
// must be a table header of the text unless it is nil; it reports whether the text
// changed.
func (d *tomlDoc) setKey(table []string, key string, value any) (bool, error) {
	if cur, ok := d.get(append(slices.Clone(table), key)...); ok && equalTOML(cur, value) {
		return false, nil
	}
	lit, err := tomlLiteral(value)
	if err != nil {
		return false, err
	}
	head, body := d.table(table)
	if table != nil && head == nil {
		return false, fmt.Errorf("no [%s] table", joinKey(table))
	}
	for _, s := range body {
		if slices.Equal(s.key, []string{key}) {
			d.splice(s.value, s.valueEnd, lit)
			return true, d.reparse()
		}
	}
	line := tomlKey(key) + " = " + lit + "\n"
	switch {
	case len(body) > 0:
		d.insertLine(body[len(body)-1].end, line)
	case head != nil:
		d.insertLine(head.end, line)
	default: // a top-level key in a file with none: first, apart from the tables
		if len(d.text) > bomLen(d.text) {
			line += "\n"
		}
		d.insertLine(bomLen(d.text), line)
	}
	return true, d.reparse()
}

// deleteKey removes key, and the lines it spans, from table.
func (d *tomlDoc) deleteKey(table []string, key string) error {
	_, body := d.table(table)
	for _, s := range body {
		if slices.Equal(s.key, []string{key}) {
			d.splice(s.start, s.end, "")
			return d.reparse()
		}
	}
	return nil
}

// appendTable adds [table] with its pairs at the end of the text, after a blank line.
func (d *tomlDoc) appendTable(table []string, pairs []tomlPair) error {
	var b strings.Builder
	if len(d.text) > 0 {
		if !bytes.HasSuffix(d.text, []byte("\n")) {
			b.WriteByte('\n')
		}
		if !bytes.HasSuffix(d.text, []byte("\n\n")) {
			b.WriteByte('\n')
		}
	}
	fmt.Fprintf(&b, "[%s]\n", joinKey(table))
	for _, p := range pairs {
		lit, err := tomlLiteral(p.Value)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s = %s\n", tomlKey(p.Key), lit)
	}
	d.splice(len(d.text), len(d.text), b.String())
	if err := d.reparse(); err != nil {
		// A table defined inline ({…}) cannot take a [sub.table] later.
		return fmt.Errorf("adding [%s] at the end would not parse (is a table above it inline?): %w", joinKey(table), err)
	}
	return nil
}

// A tomlPair is a key and the value it is set to.
type tomlPair struct {
	Key   string
	Value any
}

// table returns the header of [table] (nil for the top level, or when there is no
// such header) and the pairs that follow it up to the next header.
func (d *tomlDoc) table(table []string) (*tomlStmt, []tomlStmt) {
	stmts := scanTOML(d.text)
	in := table == nil
	var head *tomlStmt
	var body []tomlStmt
	for i, s := range stmts {
		switch {
		case s.header && in:
			return head, body
		case s.header:
			if !s.array && slices.Equal(s.key, table) {
				in, head = true, &stmts[i]
			}
		case in:
			body = append(body, s)
		}
	}
	return head, body
}

func (d *tomlDoc) insertLine(at int, line string) {
	if at > bomLen(d.text) && d.text[at-1] != '\n' {
		line = "\n" + line
	}
	d.splice(at, at, line)
}

func (d *tomlDoc) splice(from, to int, with string) {
	d.text = append(d.text[:from:from], append([]byte(with), d.text[to:]...)...)
}

// reparse decodes the text again after an edit, which must have kept it valid.
func (d *tomlDoc) reparse() error {
	d.values = nil
	if _, err := toml.Decode(string(d.text), &d.values); err != nil {
		return fmt.Errorf("the edited TOML does not parse: %w", err)
	}
	return nil
}

// scanTOML cuts valid TOML text into statements. It follows strings (basic, literal,
// multi-line), comments and brackets, so that a line inside a multi-line string or
// array is never taken for a statement of its own.
func scanTOML(t []byte) []tomlStmt {
	var out []tomlStmt
	i := bomLen(t)
	for i < len(t) {
		lineStart := i
		for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
			i++
		}
		if i == len(t) || t[i] == '\n' || t[i] == '\r' || t[i] == '#' {
			i = lineEnd(t, i)
			continue
		}
		s := tomlStmt{start: lineStart}
		if t[i] == '[' {
			s.header = true
			open := i + 1
			if open < len(t) && t[open] == '[' {
				s.array = true
				open++
			}
			k := open
			for k < len(t) && t[k] != ']' { // a quoted key may hold ']'
				if t[k] == '"' || t[k] == '\'' {
					k = skipTOMLString(t, k)
					continue
				}
				k++
			}
			s.key = splitKey(string(t[open:k]))
			i = lineEnd(t, k)
			s.end = i
			out = append(out, s)
			continue
		}
		eq := i
		for eq < len(t) && t[eq] != '=' {
			if t[eq] == '"' || t[eq] == '\'' {
				eq = skipTOMLString(t, eq)
				continue
			}
			eq++
		}
		s.key = splitKey(string(t[i:eq]))
		s.value = eq + 1
		for s.value < len(t) && (t[s.value] == ' ' || t[s.value] == '\t') {
			s.value++
		}
		s.valueEnd = skipTOMLValue(t, s.value)
		s.end = lineEnd(t, s.valueEnd)
		i = s.end
		out = append(out, s)
	}
	return out
}

// bomLen is the length of the byte order mark t starts with: the TOML decoder skips
// UTF-8's, and UTF-16's, which some editors write.
func bomLen(t []byte) int {
	for _, bom := range []string{"\xef\xbb\xbf", "\xff\xfe", "\xfe\xff"} {
		if bytes.HasPrefix(t, []byte(bom)) {
			return len(bom)
		}
	}
	return 0
}

// lineEnd returns the offset past the newline ending the line that holds i.
func lineEnd(t []byte, i int) int {
	if j := bytes.IndexByte(t[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(t)
}

// skipTOMLValue returns the offset just past the value starting at i: a string, an
// array or inline table (over lines, with comments), or a bare word.
func skipTOMLValue(t []byte, i int) int {
	depth := 0
	for i < len(t) {
		switch c := t[i]; {
		case c == '"' || c == '\'':
			i = skipTOMLString(t, i)
		case c == '[' || c == '{':
			depth++
			i++
		case c == ']' || c == '}':
			depth--
			i++
		case depth > 0 && c == '#':
			i = lineEnd(t, i)
			continue
		case depth > 0:
			i++
			continue
		case c == ' ' || c == '\t' || c == '#' || c == '\n' || c == '\r':
			return i
		default:
			i++
			continue
		}
		if depth == 0 {
			return i
		}
	}
	return i
}

// skipTOMLString returns the offset just past the string whose first quote is at i.
func skipTOMLString(t []byte, i int) int {
	q := t[i]
	if bytes.HasPrefix(t[i:], []byte{q, q, q}) {
		delim := []byte{q, q, q}
		for j := i + 3; j < len(t); j++ {
			if q == '"' && t[j] == '\\' {
				j++
				continue
			}
			if bytes.HasPrefix(t[j:], delim) {
				j += 3
				for j < len(t) && t[j] == q { // up to two quotes may end the content
					j++
				}
				return j
			}
		}
		return len(t)
	}
	for j := i + 1; j < len(t); j++ {
		switch {
		case q == '"' && t[j] == '\\':
			j++
		case t[j] == q:
			return j + 1
		}
	}
	return len(t)
}

// splitKey splits a dotted key (a.b, "a.b".c, 'x' . y) into its parts, unquoted.
func splitKey(s string) []string {
	var parts []string
	s = strings.TrimSpace(s)
	for s != "" {
		var part string
		switch s[0] {
		case '"':
			end := skipTOMLString([]byte(s), 0)
			var v map[string]string
			if _, err := toml.Decode("k = "+s[:end], &v); err == nil {
				part = v["k"]
			}
			s = s[end:]
		case '\'':
			end := strings.IndexByte(s[1:], '\'') + 2
			part, s = s[1:end-1], s[end:]
		default:
			end := strings.IndexAny(s, ". \t")
			if end < 0 {
				end = len(s)
			}
			part, s = s[:end], s[end:]
		}
		parts = append(parts, part)
		s = strings.TrimLeft(strings.TrimSpace(s), ".")
		s = strings.TrimSpace(s)
	}
	return parts
}

// joinKey writes a dotted key, quoting the parts that are not bare keys.
func joinKey(parts []string) string {
	q := make([]string, len(parts))
	for i, p := range parts {
		q[i] = tomlKey(p)
	}
	return strings.Join(q, ".")
}

func tomlKey(k string) string {
	if k != "" && strings.Trim(k, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == "" {
		return k
	}
	return quoteJSON(k)
}

// tomlLiteral writes a string or a list of strings as TOML. JSON's string escapes are
// all TOML basic-string escapes.
func tomlLiteral(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return quoteJSON(v), nil
	case []string:
		q := make([]string, len(v))
		for i, s := range v {
			q[i] = quoteJSON(s)
		}
		return "[" + strings.Join(q, ", ") + "]", nil
	}
	return "", fmt.Errorf("internal error: no TOML literal for %T", v)
}

// equalTOML compares a decoded value with a string or a list of strings.
func equalTOML(decoded, v any) bool {
	if list, ok := v.([]string); ok {
		got, ok := decoded.([]any)
		if !ok || len(got) != len(list) {
			return false
		}
		for i := range list {
			if got[i] != list[i] {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(decoded, v)
}
