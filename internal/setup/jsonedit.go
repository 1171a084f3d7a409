package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// A jsonDoc is the text of a JSON configuration file whose top level is an object,
// edited in place: a member is set by rewriting its value's bytes or by inserting it
// after the object's last member, so every other member keeps its bytes, its order and
// its layout, and what is inserted follows the file's indentation.
type jsonDoc struct {
	text []byte
	unit string // one level of indentation: the top-level members', or two spaces
}

func (d *jsonDoc) bytes() []byte { return d.text }

// A jsonObject is one object of the text: its braces and its members in order.
type jsonObject struct {
	open, close int
	members     []jsonMember
}

// A jsonMember is one member of an object: its key's quote, its value's extent.
type jsonMember struct {
	key             string
	start           int // the key's opening quote
	colon           int // just after the key's closing quote
	value, valueEnd int
}

// parseJSON reads a configuration file's text: empty (or only white space) is an empty
// object, anything else must be one JSON object.
func parseJSON(data []byte) (*jsonDoc, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return &jsonDoc{text: []byte("{}\n"), unit: "  "}, nil
	}
	if err := json.Unmarshal(data, new(any)); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			line, col := position(data, int(syn.Offset))
			return nil, fmt.Errorf("not valid JSON: line %d, column %d: %v", line, col, syn)
		}
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	d := &jsonDoc{text: data, unit: "  "}
	root := skipSpace(data, 0)
	if data[root] != '{' {
		return nil, fmt.Errorf("not a JSON object at the top level")
	}
	if o := d.object(root); len(o.members) > 0 && o.multiline(data) {
		d.unit = lineIndent(data, o.members[0].start)
	}
	return d, nil
}

// position is the 1-based line and column of byte offset off (where a JSON decoder
// stopped: the column is that of the byte after the error).
func position(data []byte, off int) (line, col int) {
	off = max(0, min(off, len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	return line, off - bytes.LastIndexByte(before, '\n')
}

func (d *jsonDoc) root() jsonObject { return d.object(skipSpace(d.text, 0)) }

// get returns the value at path, decoded, and whether it is there.
func (d *jsonDoc) get(path ...string) (any, bool) {
	o := d.root()
	for i, key := range path {
		m, ok := o.member(key)
		if !ok {
			return nil, false
		}
		if i == len(path)-1 {
			var v any
			json.Unmarshal(d.text[m.value:m.valueEnd], &v)
			return v, true
		}
		if d.text[m.value] != '{' {
			return nil, false
		}
		o = d.object(m.value)
	}
	return nil, false
}

// set sets the member at path to value (JSON-encodable; a jsonOrdered keeps its keys'
// order), creating the objects on the way, and reports whether the text changed: a
// value already equal to it (as decoded JSON) is left as it is.
func (d *jsonDoc) set(path []string, value any) (bool, error) {
	raw, err := marshalJSON(value)
	if err != nil {
		return false, err
	}
	o := d.root()
	for i, key := range path {
		m, ok := o.member(key)
		if !ok {
			for j := len(path) - 1; j > i; j-- {
				raw = append(append([]byte("{"+quoteJSON(path[j])+":"), raw...), '}')
			}
			d.insert(o, key, raw)
			return true, nil
		}
		if i == len(path)-1 {
			if equalJSON(d.text[m.value:m.valueEnd], raw) {
				return false, nil
			}
			d.splice(m.value, m.valueEnd, d.layout(raw, o, lineIndent(d.text, m.start)))
			return true, nil
		}
		if d.text[m.value] != '{' {
			return false, fmt.Errorf("%s is %s, not an object", strings.Join(path[:i+1], "."), jsonKind(d.text[m.value]))
		}
		o = d.object(m.value)
	}
	return false, nil
}

// insert adds the member key: raw as o's last member.
func (d *jsonDoc) insert(o jsonObject, key string, raw []byte) {
	k := quoteJSON(key)
	if len(o.members) == 0 {
		if !bytes.Contains(d.text, []byte("\n")) {
			d.splice(o.open+1, o.close, []byte(k+": "+string(raw)))
			return
		}
		outer := lineIndent(d.text, o.open)
		inner := outer + d.unit
		d.splice(o.open+1, o.close, []byte("\n"+inner+k+": "+string(d.indent(raw, inner))+"\n"+outer))
		return
	}
	first, last := o.members[0], o.members[len(o.members)-1]
	sep := string(d.text[first.colon:first.value]) // ": " or ":", as the file spells it
	if !o.multiline(d.text) {
		comma := ", "
		if sep == ":" {
			comma = ","
		}
		d.splice(last.valueEnd, last.valueEnd, []byte(comma+k+sep+string(raw)))
		return
	}
	ind := lineIndent(d.text, first.start)
	d.splice(last.valueEnd, last.valueEnd, []byte(",\n"+ind+k+sep+string(d.indent(raw, ind))))
}

// layout is raw as it goes in place of a member of o whose line is indented by ind.
func (d *jsonDoc) layout(raw []byte, o jsonObject, ind string) []byte {
	if !o.multiline(d.text) {
		return raw
	}
	return d.indent(raw, ind)
}

// indent lays raw out over lines as the file does, its nested lines indented past ind.
func (d *jsonDoc) indent(raw []byte, ind string) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, ind, d.unit); err != nil {
		return raw
	}
	return b.Bytes()
}

func (d *jsonDoc) splice(from, to int, with []byte) {
	d.text = append(d.text[:from:from], append(with, d.text[to:]...)...)
}

// object reads the object whose '{' is at offset at. The text is valid JSON.
func (d *jsonDoc) object(at int) jsonObject {
	t := d.text
	o := jsonObject{open: at}
	i := skipSpace(t, at+1)
	if t[i] == '}' {
		o.close = i
		return o
	}
	for {
		keyEnd := skipString(t, i)
		var key string
		json.Unmarshal(t[i:keyEnd], &key)
		v := skipSpace(t, skipSpace(t, keyEnd)+1)
		end := skipValue(t, v)
		o.members = append(o.members, jsonMember{key: key, start: i, colon: keyEnd, value: v, valueEnd: end})
		i = skipSpace(t, end)
		if t[i] == '}' {
			o.close = i
			return o
		}
		i = skipSpace(t, i+1)
	}
}

// member returns o's member named key: the last one, as decoders read duplicates.
func (o jsonObject) member(key string) (jsonMember, bool) {
	for i := len(o.members) - 1; i >= 0; i-- {
		if o.members[i].key == key {
			return o.members[i], true
		}
	}
	return jsonMember{}, false
}

// multiline reports whether o's members start on lines of their own.
func (o jsonObject) multiline(t []byte) bool {
	return len(o.members) > 0 && bytes.IndexByte(t[o.open:o.members[0].start], '\n') >= 0
}

// lineIndent is the white space that starts the line holding offset at.
func lineIndent(t []byte, at int) string {
	start := bytes.LastIndexByte(t[:at], '\n') + 1
	end := start
	for end < at && (t[end] == ' ' || t[end] == '\t') {
		end++
	}
	return string(t[start:end])
}

func skipSpace(t []byte, i int) int {
	for i < len(t) && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the offset just past the string whose quote is at i.
func skipString(t []byte, i int) int {
	for i++; i < len(t); i++ {
		switch t[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// skipValue returns the offset just past the value starting at i.
func skipValue(t []byte, i int) int {
	switch t[i] {
	case '"':
		return skipString(t, i)
	case '{', '[':
		depth := 0
		for ; i < len(t); i++ {
			switch t[i] {
			case '"':
				i = skipString(t, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return i
	}
	for i < len(t) && !strings.ContainsRune(",}] \t\r\n", rune(t[i])) {
		i++
	}
	return i
}

func jsonKind(c byte) string {
	switch c {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func equalJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// A jsonOrdered is a JSON object whose members keep the order they are listed in.
type jsonOrdered []jsonField

type jsonField struct {
	Key   string
	Value any
}

func (o jsonOrdered) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, f := range o {
		if i > 0 {
			b = append(b, ',')
		}
		v, err := marshalJSON(f.Value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, quoteJSON(f.Key)...), ':'), v...)
	}
	return append(b, '}'), nil
}

// marshalJSON is compact JSON without HTML escaping.
func marshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func quoteJSON(s string) string {
	b, _ := marshalJSON(s)
	return string(b)
}
