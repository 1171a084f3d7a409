package shape

import (
	"errors"
	"fmt"
	"strings"
)

// EncoderKV names the kv encoder: an object as one "key: value" line per member, in
// order, the way YAML or an HTTP header block reads:
//
//	number: 7
//	title: Crash on start
//	body: "Steps:\n1. open the app"
//	id: "233059123"
//	labels: ["bug","p1"]
//	closed_at: null
//
// Values are in the value syntax (see the package documentation), so the
// string "233059123" is quoted and the number 7 is not, and a string with a line break is a JSON string
// literal on one line; nested arrays and objects are inline compact JSON.
// A key is quoted like a JSON string when it holds ':' or is not plain
// text. Duplicate keys, should an object have them, are kept in place. An
// empty object has no kv form.
const EncoderKV = "kv"

// encodeKV writes object node i as key: value lines.
func encodeKV(t *tape, i int) (string, bool) {
	if t.nodes[i].kind != kindObject || t.count(i) == 0 {
		return "", false
	}
	return bytesString(appendLines(make([]byte, 0, sizeHint(t, i)), t, i, -1, nil)), true
}

// decodeKV reads lines written by encodeKV onto t.
func (t *tape) decodeKV(text string) error {
	return t.parseLines(text, false)
}

// appendLines appends the members of object node obj as key: value
// lines; the member whose key node is table, if any, is written as a
// table with columns cols instead (see the wrapper_table encoder).
func appendLines(dst []byte, t *tape, obj, table int, cols []column) []byte {
	first := true
	for k := range t.members(obj) {
		if !first {
			dst = append(dst, '\n')
		}
		first = false
		dst = appendKey(dst, t.text(k), ":")
		if k == table {
			dst = appendRowCount(dst, t.count(k+1))
			dst = appendTable(dst, t, k+1, cols)
			continue
		}
		dst = append(dst, ':', ' ')
		dst = appendCell(dst, t, k+1, false)
	}
	return dst
}

// parseLines makes t the tape of an object read from key: value lines,
// and from tables opened by "key[rows]:" lines when tables is set.
func (t *tape) parseLines(text string, tables bool) error {
	t.reset(text)
	p := parser{t: t}
	obj := t.open(kindObject)
	members := 0
	lines := splitLines(text)
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		s := text[:line.end]
		mark := len(t.nodes)
		n, err := parseKey(&p, s, line.start, ":")
		if err != nil {
			return fmt.Errorf("line %d: %w", i+1, err)
		}
		if strings.HasPrefix(s[n:], ": ") {
			used, err := parseCell(&p, s, n+2, false)
			if err == nil && used != len(s) {
				err = fmt.Errorf("unexpected %q after the value", clip(s[used:]))
			}
			if err != nil {
				return fmt.Errorf("line %d, key %q: %w", i+1, t.peek(t.nodes[mark]), err)
			}
			members++
			continue
		}
		t.nodes = t.nodes[:mark]
		rows, ok := blockLine(&p, s, line.start)
		if !tables || !ok {
			return fmt.Errorf("line %d: %q is not a key: value line", i+1, clip(s[line.start:]))
		}
		key := node{kind: kindKey} // the empty key of "[rows]:"
		if len(t.nodes) > mark {
			key = t.nodes[mark]
		} else {
			t.nodes = append(t.nodes, key)
		}
		if i+1+rows >= len(lines) {
			return fmt.Errorf("line %d: table %q announces %d rows, %d lines follow", i+1, t.peek(key), rows, len(lines)-i-1)
		}
		if err := parseTable(&p, text, lines[i+1], lines[i+2:i+2+rows]); err != nil {
			return fmt.Errorf("line %d: %w", i+1, err)
		}
		members++
		i += 1 + rows
	}
	if members == 0 {
		return errors.New("no members")
	}
	t.close(obj, members)
	t.finish()
	return nil
}
