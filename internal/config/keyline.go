package config

import (
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// A keyLine is one key of a TOML document and the line (1-based) where it is written.
type keyLine struct {
	key  string // as toml.Key.String spells it: index.max_file_bytes, t."quo.ted"
	line int
}

// keyLines lists the keys of a TOML document in document order, with their lines, exactly as
// toml.MetaData.Keys lists them (the decoder keeps positions to itself):
//
//   - a [table] or [[array]] header is its key; an array of tables repeats it per element;
//   - a key/value pair is the enclosing table's key plus every part of the dotted key, and the
//     intermediate tables a dotted key creates are not listed;
//   - keys of an inline table are under the key it is assigned to, and inline tables inside an
//     array are under the array's key (no index).
//
// The document has already been parsed by toml.Decode, so keyLines assumes it is well formed
// (TOML 1.1, which lets inline tables span lines); on anything else it returns what it found.
func keyLines(doc string) []keyLine {
	for _, bom := range []string{"\xef\xbb\xbf", "\xff\xfe", "\xfe\xff"} { // skipped by the decoder too
		if strings.HasPrefix(doc, bom) {
			doc = doc[len(bom):]
			break
		}
	}
	s := &keyScanner{doc: doc, line: 1}
	var table toml.Key
	for {
		s.skipBlank()
		if s.eof() {
			return s.out
		}
		start := s.pos
		if s.peek() == '[' {
			table = s.header()
		} else {
			s.keyValue(table)
		}
		s.skipLine()
		if s.pos == start {
			s.next() // not TOML; step over it rather than loop
		}
	}
}

type keyScanner struct {
	doc  string
	pos  int
	line int
	out  []keyLine
}

func (s *keyScanner) eof() bool { return s.pos >= len(s.doc) }

func (s *keyScanner) peek() byte {
	if s.eof() {
		return 0
	}
	return s.doc[s.pos]
}

func (s *keyScanner) next() {
	if s.eof() {
		return
	}
	if s.doc[s.pos] == '\n' {
		s.line++
	}
	s.pos++
}

func (s *keyScanner) skip(n int) {
	for range n {
		s.next()
	}
}

func (s *keyScanner) has(prefix string) bool { return strings.HasPrefix(s.doc[s.pos:], prefix) }

func (s *keyScanner) emit(key toml.Key, line int) {
	s.out = append(s.out, keyLine{key: key.String(), line: line})
}

// skipSpace skips spaces and tabs.
func (s *keyScanner) skipSpace() {
	for c := s.peek(); c == ' ' || c == '\t'; c = s.peek() {
		s.next()
	}
}

// skipBlank skips whitespace, newlines and comments.
func (s *keyScanner) skipBlank() {
	for !s.eof() {
		switch s.peek() {
		case ' ', '\t', '\r', '\n':
			s.next()
		case '#':
			s.skipLine()
		default:
			return
		}
	}
}

// skipLine skips the rest of the current line, comment included, up to the newline.
func (s *keyScanner) skipLine() {
	for !s.eof() && s.peek() != '\n' {
		s.next()
	}
}

// header reads a [table] or [[array]] header, lists it, and returns its key.
func (s *keyScanner) header() toml.Key {
	line := s.line
	opening, closing := "[", "]"
	if s.has("[[") {
		opening, closing = "[[", "]]"
	}
	s.skip(len(opening))
	key := s.key()
	s.skipSpace()
	if s.has(closing) {
		s.skip(len(closing))
	}
	s.emit(key, line)
	return key
}

// keyValue reads `key = value` inside the table (or inline table) at path.
func (s *keyScanner) keyValue(path toml.Key) {
	line := s.line
	key := s.key()
	if len(key) == 0 {
		return
	}
	full := append(append(toml.Key{}, path...), key...)
	s.emit(full, line)
	s.skipSpace()
	if s.peek() != '=' {
		return
	}
	s.next()
	s.skipSpace()
	s.value(full)
}

// key reads a possibly dotted key: parts separated by dots, with spaces around them allowed.
func (s *keyScanner) key() toml.Key {
	var key toml.Key
	for {
		s.skipSpace()
		part, ok := s.keyPart()
		if !ok {
			return key
		}
		key = append(key, part)
		s.skipSpace()
		if s.peek() != '.' {
			return key
		}
		s.next()
	}
}

// keyPart reads one bare, "basic" or 'literal' key part.
func (s *keyScanner) keyPart() (string, bool) {
	switch s.peek() {
	case '"':
		raw := s.quoted('"')
		return unescape(raw), true
	case '\'':
		return s.quoted('\''), true
	}
	start := s.pos
	for !s.eof() && !strings.ContainsRune(" \t\r\n.=[]{},#\"'", rune(s.peek())) {
		s.next()
	}
	return s.doc[start:s.pos], s.pos > start
}

// quoted reads a single-line string opened by q at s.pos and returns its raw contents; a
// backslash escapes the next byte in basic strings.
func (s *keyScanner) quoted(q byte) string {
	s.next()
	start := s.pos
	for !s.eof() && s.peek() != q && s.peek() != '\n' {
		if q == '"' && s.peek() == '\\' {
			s.next()
		}
		s.next()
	}
	raw := s.doc[start:s.pos]
	s.next()
	return raw
}

// value skips one value, listing the keys of inline tables in it under path.
func (s *keyScanner) value(path toml.Key) {
	switch {
	case s.has(`"""`):
		s.multiline(`"""`)
	case s.has(`'''`):
		s.multiline(`'''`)
	case s.peek() == '"', s.peek() == '\'':
		s.quoted(s.peek())
	case s.peek() == '[':
		s.list(']', func() { s.value(path) })
	case s.peek() == '{':
		s.list('}', func() { s.keyValue(path) })
	default: // number, boolean, date and time: up to the next delimiter
		for !s.eof() && !strings.ContainsRune(",]}\n#", rune(s.peek())) {
			s.next()
		}
	}
}

// multiline skips a multi-line string opened by delim at s.pos. The closing delimiter may be
// followed by up to two more quotes, which belong to the string.
func (s *keyScanner) multiline(delim string) {
	s.skip(len(delim))
	for !s.eof() && !s.has(delim) {
		if delim == `"""` && s.peek() == '\\' {
			s.next()
		}
		s.next()
	}
	s.skip(len(delim))
	for i := 0; i < 2 && s.peek() == delim[0]; i++ {
		s.next()
	}
}

// list skips an array or inline table: an opening bracket, then items read by item and
// separated by commas, blank lines and comments, then the closing bracket end.
func (s *keyScanner) list(end byte, item func()) {
	s.next()
	for {
		s.skipBlank()
		switch s.peek() {
		case 0:
			return
		case end:
			s.next()
			return
		case ',':
			s.next()
			continue
		}
		start := s.pos
		item()
		if s.pos == start {
			s.next()
		}
	}
}

// unescape decodes the escapes of a TOML basic string; an invalid escape is kept as written.
func unescape(raw string) string {
	if !strings.Contains(raw, `\`) {
		return raw
	}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' || i+1 == len(raw) {
			b.WriteByte(c)
			continue
		}
		i++
		n, r := escape(raw[i:])
		if n == 0 {
			b.WriteByte('\\')
			b.WriteByte(raw[i])
			continue
		}
		b.WriteRune(r)
		i += n - 1
	}
	return b.String()
}

// escape decodes the escape whose letter starts s, returning how many bytes of s it takes,
// or 0 if it is not a TOML escape.
func escape(s string) (int, rune) {
	digits := 0
	switch s[0] {
	case 'b':
		return 1, '\b'
	case 't':
		return 1, '\t'
	case 'n':
		return 1, '\n'
	case 'f':
		return 1, '\f'
	case 'r':
		return 1, '\r'
	case 'e':
		return 1, 0x1b
	case '"', '\\':
		return 1, rune(s[0])
	case 'x':
		digits = 2
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	default:
		return 0, 0
	}
	if len(s) < 1+digits {
		return 0, 0
	}
	v, err := strconv.ParseUint(s[1:1+digits], 16, 32)
	if err != nil {
		return 0, 0
	}
	return 1 + digits, rune(v)
}
