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

// encodeKV writes a JSON object as key: value lines.
func encodeKV(v *value) (string, bool) {
	if v.kind != kindObject || len(v.members) == 0 {
		return "", false
	}
	return string(appendLines(make([]byte, 0, compactLen(v)), v, -1, nil)), true
}

// decodeKV reads lines written by encodeKV.
func decodeKV(text string) (value, error) {
	return parseLines(text, false)
}

// appendLines appends obj's members as key: value lines; the member at
// index table, if any, is written as a table with columns cols instead
// (see the wrapper_table encoder).
func appendLines(dst []byte, obj *value, table int, cols []column) []byte {
	for i := range obj.members {
		m := &obj.members[i]
		if i > 0 {
			dst = append(dst, '\n')
		}
		dst = appendKey(dst, m.key, ":")
		if i == table {
			dst = appendRowCount(dst, len(m.val.elems))
			dst = appendTable(dst, &m.val, cols)
			continue
		}
		dst = append(dst, ':', ' ')
		dst = appendCell(dst, &m.val, false)
	}
	return dst
}

// parseLines reads key: value lines, and tables opened by "key[rows]:"
// lines when tables is set, into an object.
func parseLines(text string, tables bool) (value, error) {
	obj := value{kind: kindObject}
	var p parser
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		key, n, err := parseKey(line, ":")
		if err != nil {
			return value{}, fmt.Errorf("line %d: %w", i+1, err)
		}
		if rest, ok := strings.CutPrefix(line[n:], ": "); ok {
			v, used, err := parseCell(&p, rest, false)
			if err == nil && used != len(rest) {
				err = fmt.Errorf("unexpected %q after the value", clip(rest[used:]))
			}
			if err != nil {
				return value{}, fmt.Errorf("line %d, key %q: %w", i+1, key, err)
			}
			obj.members = append(obj.members, member{key: key, val: v})
			continue
		}
		key, rows, ok := blockLine(line)
		if !tables || !ok {
			return value{}, fmt.Errorf("line %d: %q is not a key: value line", i+1, clip(line))
		}
		if i+1+rows >= len(lines) {
			return value{}, fmt.Errorf("line %d: table %q announces %d rows, %d lines follow", i+1, key, rows, len(lines)-i-1)
		}
		arr, err := parseTable(lines[i+1], lines[i+2:i+2+rows])
		if err != nil {
			return value{}, fmt.Errorf("line %d: %w", i+1, err)
		}
		obj.members = append(obj.members, member{key: key, val: arr})
		i += 1 + rows
	}
	if len(obj.members) == 0 {
		return value{}, errors.New("no members")
	}
	return obj, nil
}
