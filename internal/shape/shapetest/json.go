package shapetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// An obj is a JSON object whose members keep their order.
type obj []field

// A field is one member of an obj.
type field struct {
	key string
	val any // string, num, bool, nil, int, obj or []any
}

// A num is a JSON number written exactly as given: "1e400", "0.10".
type num string

// writePretty appends v as JSON indented by two spaces per level, the way
// most tool servers pretty-print their responses. Strings are escaped as
// encoding/json does without HTML escaping.
func writePretty(b *bytes.Buffer, v any, indent int) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case int:
		b.WriteString(strconv.Itoa(v))
	case num:
		b.WriteString(string(v))
	case string:
		writeString(b, v)
	case obj:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, f := range v {
			pad(b, indent+1)
			writeString(b, f.key)
			b.WriteString(": ")
			writePretty(b, f.val, indent+1)
			if i < len(v)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		pad(b, indent)
		b.WriteByte('}')
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range v {
			pad(b, indent+1)
			writePretty(b, e, indent+1)
			if i < len(v)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		pad(b, indent)
		b.WriteByte(']')
	default:
		// Only this package builds values; a new type is a bug here.
		panic(fmt.Sprintf("shapetest: no JSON for a %T", v))
	}
}

func pad(b *bytes.Buffer, indent int) {
	for range indent {
		b.WriteString("  ")
	}
}

func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // cannot fail for a string
	b.Truncate(b.Len() - 1) // Encode's newline
}
