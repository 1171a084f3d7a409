package shape

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/winnowhq/winnow/internal/swar"
)

// errAbsent is returned for a table cell that is empty: the row's object
// does not have that column's key.
var errAbsent = errors.New("absent")

// cellSep separates the cells of a table row and the names of its
// header; headerSpecial holds the characters that make a header name
// quoted: the separator, the '.' that joins a path and the '=' that
// gives a column's one value.
const (
	cellSep       = '|'
	headerSpecial = ".=|"
)

// appendCell appends value node i in the text formats' value syntax.
// inRow says whether the value is a table cell, where the separator must
// be quoted.
func appendCell(dst []byte, t *tape, i int, inRow bool) []byte {
	if t.nodes[i].kind == kindString {
		if s := t.text(i); bareString(s, inRow) {
			return append(dst, s...)
		}
	}
	dst, _ = t.appendValue(dst, i)
	return dst
}

// bareString reports whether s can be written without quotes.
func bareString(s string, inRow bool) bool {
	if s == "" || s[0] == '"' || s[0] == '{' || s[0] == '[' || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	if inRow && strings.IndexByte(s, cellSep) >= 0 {
		return false
	}
	if !printable(s) || looksScalar(s) {
		return false
	}
	return true
}

// printable reports whether every rune of s is printable; the only space
// character allowed is U+0020.
func printable(s string) bool {
	i := 0
	for i+8 <= len(s) {
		if x := swar.Load64(s[i:]); swar.HasControl(x) || x&swar.Highs8 != 0 {
			break
		}
		i += 8
	}
	for ; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf {
			return !strings.ContainsFunc(s[i:], func(r rune) bool { return !unicode.IsPrint(r) })
		} else if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

// looksScalar reports whether a reader could take s for a number, a
// boolean or null.
func looksScalar(s string) bool {
	if strings.EqualFold(s, "null") || strings.EqualFold(s, "true") || strings.EqualFold(s, "false") {
		return true
	}
	c := s[0]
	if c != '-' && c != '+' && c != '.' && (c < '0' || c > '9') && c != 'i' && c != 'I' && c != 'n' && c != 'N' {
		return false
	}
	if !mayBeFloat(s) {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// mayBeFloat reports false for strings strconv.ParseFloat certainly
// rejects, without the error it would allocate: a decimal number holds
// only digits, '.', '_', and an 'e' or 'E' with an optional sign after
// it, after an optional sign. Hexadecimal numbers ("0x1p-2") and words
// as long as inf, infinity or nan (the only words it takes, in any case)
// are left to ParseFloat.
func mayBeFloat(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	switch {
	case len(s) >= 2 && s[0] == '0' && s[1]|0x20 == 'x':
		return true
	case s != "" && (s[0]|0x20 == 'i' || s[0]|0x20 == 'n'):
		return len(s) == 3 || len(s) == 8
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == '.', c == '_':
		case c|0x20 == 'e':
			if i+1 < len(s) && (s[i+1] == '+' || s[i+1] == '-') {
				i++
			}
		default:
			return false
		}
	}
	return true
}

// parseCell reads one value at offset at of s, where s ends with the
// value's line: up to the next '|' when inRow, else all the rest of s. It
// adds the value to p's tape and returns the offset after it. An empty
// table cell returns errAbsent.
func parseCell(p *parser, s string, at int, inRow bool) (int, error) {
	if at == len(s) || inRow && s[at] == cellSep {
		if inRow {
			return at, errAbsent
		}
		return at, errors.New("missing value")
	}
	switch s[at] {
	case '"', '{', '[':
		return p.prefix(s, at)
	}
	end := len(s)
	if inRow {
		if i := strings.IndexByte(s[at:], cellSep); i >= 0 {
			end = at + i
		}
	}
	p.t.add(bareKind(s[at:end]), at, end)
	return end, nil
}

// bareKind returns what an unquoted token is: a keyword, a number, or
// else a string.
func bareKind(tok string) kind {
	switch tok {
	case "null":
		return kindNull
	case "true":
		return kindTrue
	case "false":
		return kindFalse
	}
	if isNumber(tok) {
		return kindNumber
	}
	return kindString
}

// appendKey appends an object key for a "key: value" line or a table
// header. A key is bare unless it is empty, starts with '"', starts or
// ends with a space, holds a character that is not printable, or holds
// one of the characters in special.
func appendKey(dst []byte, key, special string) []byte {
	if key == "" || key[0] == '"' || key[0] == ' ' || key[len(key)-1] == ' ' ||
		strings.ContainsAny(key, special) || !printable(key) {
		return appendQuoted(dst, key)
	}
	return append(dst, key...)
}

// parseKey reads a key written by appendKey at offset at of s and adds it
// to p's tape: a JSON string, or else the bytes up to the first of the
// characters in stop. It returns the offset after the key.
func parseKey(p *parser, s string, at int, stop string) (int, error) {
	if strings.HasPrefix(s[at:], `"`) {
		end, err := p.prefix(s, at)
		if err != nil {
			return 0, fmt.Errorf("key: %w", err)
		}
		p.t.nodes[len(p.t.nodes)-1].kind = kindKey
		return end, nil
	}
	n := strings.IndexAny(s[at:], stop)
	if n < 0 {
		n = len(s) - at
	}
	if n == 0 {
		return 0, errors.New("empty key")
	}
	p.t.add(kindKey, at, at+n)
	return at + n, nil
}
