package traj

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxPythonDepth bounds the nesting of a Python literal.
const maxPythonDepth = 64

// pythonToJSON converts a Python literal as repr() prints it (dicts,
// lists, tuples, strings in either quote, numbers, None, True, False)
// to JSON. Some SWE-agent versions store tool_calls that way.
func pythonToJSON(s string) ([]byte, error) {
	p := pyParser{s: s}
	out, err := p.value(nil, 0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(p.s) {
		return nil, fmt.Errorf("python literal: unexpected %q at offset %d", p.s[p.i], p.i)
	}
	return out, nil
}

type pyParser struct {
	s string
	i int
}

func (p *pyParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *pyParser) errorf(format string, args ...any) error {
	return fmt.Errorf("python literal at offset %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *pyParser) value(dst []byte, depth int) ([]byte, error) {
	if depth > maxPythonDepth {
		return nil, p.errorf("nested too deeply")
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, p.errorf("unexpected end")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.dict(dst, depth)
	case c == '[':
		return p.sequence(dst, ']', depth)
	case c == '(':
		return p.sequence(dst, ')', depth)
	case c == '\'' || c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return appendString(dst, s), nil
	case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
		return p.number(dst)
	}
	for _, w := range []struct{ py, js string }{{"None", "null"}, {"True", "true"}, {"False", "false"}} {
		if strings.HasPrefix(p.s[p.i:], w.py) {
			p.i += len(w.py)
			return append(dst, w.js...), nil
		}
	}
	return nil, p.errorf("unexpected %q", p.s[p.i])
}

func (p *pyParser) dict(dst []byte, depth int) ([]byte, error) {
	p.i++ // {
	dst = append(dst, '{')
	for n := 0; ; n++ {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return append(dst, '}'), nil
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
			return nil, p.errorf("want a string key")
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		dst = append(appendString(dst, key), ':')
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errorf("want ':' after a key")
		}
		p.i++
		if dst, err = p.value(dst, depth+1); err != nil {
			return nil, err
		}
		if err := p.separator('}'); err != nil {
			return nil, err
		}
	}
}

func (p *pyParser) sequence(dst []byte, end byte, depth int) ([]byte, error) {
	p.i++ // [ or (
	dst = append(dst, '[')
	for n := 0; ; n++ {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == end {
			p.i++
			return append(dst, ']'), nil
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = p.value(dst, depth+1); err != nil {
			return nil, err
		}
		if err := p.separator(end); err != nil {
			return nil, err
		}
	}
}

// separator consumes a comma, or leaves the closing end for the caller.
func (p *pyParser) separator(end byte) error {
	p.space()
	switch {
	case p.i >= len(p.s):
		return p.errorf("unexpected end, want ',' or %q", end)
	case p.s[p.i] == ',':
		p.i++
		return nil
	case p.s[p.i] == end:
		return nil
	}
	return p.errorf("want ',' or %q, have %q", end, p.s[p.i])
}

func (p *pyParser) number(dst []byte) ([]byte, error) {
	start := p.i
	for p.i < len(p.s) && strings.IndexByte("+-.0123456789eE_", p.s[p.i]) >= 0 {
		p.i++
	}
	lit := strings.ReplaceAll(p.s[start:p.i], "_", "")
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return nil, fmt.Errorf("python literal at offset %d: bad number %q", start, lit)
	}
	if n, err := strconv.ParseInt(lit, 10, 64); err == nil {
		return strconv.AppendInt(dst, n, 10), nil
	}
	return strconv.AppendFloat(dst, f, 'g', -1, 64), nil
}

// str reads a quoted string, single or double (not triple-quoted, not
// prefixed), with Python's escapes.
func (p *pyParser) str() (string, error) {
	quote := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == quote:
			p.i++
			return b.String(), nil
		case c == '\n':
			return "", p.errorf("line break in a string")
		case c != '\\':
			b.WriteByte(c)
			p.i++
			continue
		}
		p.i++ // backslash
		if p.i >= len(p.s) {
			break
		}
		if err := p.escape(&b); err != nil {
			return "", err
		}
	}
	return "", errors.New("python literal: unterminated string")
}

func (p *pyParser) escape(b *strings.Builder) error {
	c := p.s[p.i]
	if r, ok := simpleEscape(c); ok {
		b.WriteString(r)
		p.i++
		return nil
	}
	var width int
	switch c {
	case 'x':
		width = 2
	case 'u':
		width = 4
	case 'U':
		width = 8
	default:
		b.WriteByte('\\') // Python keeps unknown escapes as written
		return nil
	}
	p.i++
	if p.i+width > len(p.s) {
		return p.errorf("short \\%c escape", c)
	}
	n, err := strconv.ParseUint(p.s[p.i:p.i+width], 16, 32)
	if err != nil || !utf8.ValidRune(rune(n)) {
		return p.errorf("bad \\%c escape", c)
	}
	p.i += width
	b.WriteRune(rune(n))
	return nil
}

// simpleEscape returns what a one-character escape after a backslash
// stands for.
func simpleEscape(c byte) (string, bool) {
	switch c {
	case '\\', '\'', '"':
		return string(c), true
	case 'n':
		return "\n", true
	case 't':
		return "\t", true
	case 'r':
		return "\r", true
	case 'a':
		return "\a", true
	case 'b':
		return "\b", true
	case 'f':
		return "\f", true
	case 'v':
		return "\v", true
	case '0':
		return "\x00", true
	case '\n':
		return "", true // a line continuation
	}
	return "", false
}
