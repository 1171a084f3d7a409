package shape

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
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

// appendCell appends v in the text formats' value syntax. inRow says
// whether the value is a table cell, where the separator must be quoted.
func appendCell(dst []byte, v *value, inRow bool) []byte {
	if v.kind == kindString && bareString(v.text, inRow) {
		return append(dst, v.text...)
	}
	return appendCompact(dst, v)
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
		if x := load64(s[i:]); hasControl(x) || x&highs8 != 0 {
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
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// parseCell reads one value from the start of s: up to the next '|' when
// inRow, else all of s. It returns the value and the bytes it took. An
// empty table cell returns errAbsent. JSON values are parsed with p.
func parseCell(p *parser, s string, inRow bool) (value, int, error) {
	if s == "" || inRow && s[0] == cellSep {
		if inRow {
			return value{}, 0, errAbsent
		}
		return value{}, 0, errors.New("missing value")
	}
	switch s[0] {
	case '"', '{', '[':
		return p.prefix(s)
	}
	n := len(s)
	if inRow {
		if i := strings.IndexByte(s, cellSep); i >= 0 {
			n = i
		}
	}
	return bareValue(s[:n]), n, nil
}

// bareValue reads an unquoted token: a keyword, a number, or else a
// string.
func bareValue(tok string) value {
	switch tok {
	case "null":
		return value{kind: kindNull}
	case "true":
		return value{kind: kindTrue}
	case "false":
		return value{kind: kindFalse}
	}
	if isNumber(tok) {
		return value{kind: kindNumber, text: tok}
	}
	return value{kind: kindString, text: tok}
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

// parseKey reads a key written by appendKey from the start of s: a JSON
// string, or else the bytes up to the first of the characters in stop.
func parseKey(s, stop string) (string, int, error) {
	if strings.HasPrefix(s, `"`) {
		v, n, err := parseJSONPrefix(s)
		if err != nil {
			return "", 0, fmt.Errorf("key: %w", err)
		}
		return v.text, n, nil
	}
	n := strings.IndexAny(s, stop)
	if n < 0 {
		n = len(s)
	}
	if n == 0 {
		return "", 0, errors.New("empty key")
	}
	return s[:n], n, nil
}
