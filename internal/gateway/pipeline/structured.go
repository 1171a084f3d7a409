package pipeline

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Structured content: what the model reads.
//
// Claude Code and Codex give the model a result's structuredContent, as
// JSON, when it is present, and its text content only when it is not. So
// the savings must be carried in structuredContent itself, and content
// kept consistent with it. How depends on the tool's output schema, which
// the pipeline decides when the gateway re-exports the tool
// (Pipeline.OutputSchema):
//
//   - A text carrier: an object schema whose properties are all strings
//     without constraints (every tool of server-filesystem but
//     read_media_file: {"content": string}). The schema is re-exported
//     unchanged. A top-level string of structuredContent that repeats a
//     text content (a mirror) is shaped with it, as one text, and the
//     shaped text is written to both; a long top-level string that no text
//     content repeats is shaped as a text of its own. The result still
//     validates: the strings are still strings.
//   - Any other output schema: re-exported without it, since a reference
//     or a trimmed array would not validate against it, and shaped as a
//     whole (below).
//   - No output schema: shaped as a whole. structuredContent, serialized
//     as compact JSON, is one more text the stages see (dedup, near
//     references, trim; not Encode: it must stay JSON). A repeat becomes
//     {"winnow": "[same result as ...]"}; a trimmed one keeps its wrapper
//     and the kept items of its main array and gains a "winnow" member
//     holding the winnow__more hint (a non-object becomes {"result": ...,
//     "winnow": ...}). A text content that serializes structuredContent
//     (the spec's SHOULD) becomes the serialization of the shaped one.
//
// Mirrors are shaped in any case, so a tool the pipeline was not told
// about (no OutputSchema call) is shaped only that way.

// noteKey is the member of a shaped structuredContent that holds winnow's
// note: a reference line or a winnow__more hint.
const noteKey = "winnow"

// An outputMode is how the structured content of a tool's results may be
// shaped.
type outputMode uint8

const (
	modeMirrors outputMode = iota // only strings that repeat a text content
	modeCarrier                   // top-level strings, as texts
	modeWhole                     // the whole value, as JSON
)

// outputModes maps a re-exported tool's name to its outputMode.
type outputModes struct{ m sync.Map }

func (o *outputModes) get(tool string) outputMode {
	if v, ok := o.m.Load(tool); ok {
		return v.(outputMode)
	}
	return modeMirrors
}

// OutputSchema returns the output schema the gateway should re-export for
// tool, given the upstream's, and remembers how the tool's results are to
// be shaped: a text-carrier schema is kept as it is, any other is dropped
// (nil) so that shaped results need not validate against it.
func (p *Pipeline) OutputSchema(tool string, schema any) any {
	switch {
	case schema == nil:
		p.modes.m.Store(tool, modeWhole)
		return nil
	case isCarrierSchema(schema):
		p.modes.m.Store(tool, modeCarrier)
		return schema
	}
	p.modes.m.Store(tool, modeWhole)
	return nil
}

// Keywords that describe a schema without constraining what validates.
var annotationKeys = map[string]bool{
	"type": true, "description": true, "title": true, "default": true, "examples": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$comment": true,
}

// isCarrierSchema reports whether schema is an object whose declared
// properties are all strings without constraints.
func isCarrierSchema(schema any) bool {
	data, err := json.Marshal(schema)
	if err != nil {
		return false
	}
	var s map[string]any
	if json.Unmarshal(data, &s) != nil || s["type"] != "object" {
		return false
	}
	for k := range s {
		switch k {
		case "type", "properties", "required", "additionalProperties", "$schema", "$id",
			"description", "title", "$comment":
		default:
			return false
		}
	}
	props, ok := s["properties"].(map[string]any)
	if !ok || len(props) == 0 {
		return false
	}
	for _, p := range props {
		ps, ok := p.(map[string]any)
		if !ok || ps["type"] != "string" {
			return false
		}
		for k := range ps {
			if !annotationKeys[k] {
				return false
			}
		}
	}
	return true
}

// structuredTexts adds to t.Texts what of the result's structured content
// the stages are to shape, according to the tool's mode.
func (t *Turn) structuredTexts() {
	sc := t.Result.StructuredContent
	if sc == nil {
		return
	}
	obj, _ := asObject(sc)
	mirrored := false
	for key, v := range obj {
		s, ok := v.(string)
		if !ok {
			continue
		}
		for _, tx := range t.Texts {
			if tx.index >= 0 && tx.Upstream == s {
				tx.fields = append(tx.fields, key)
				mirrored = true
				break
			}
		}
	}
	if mirrored {
		for _, tx := range t.Texts {
			slices.Sort(tx.fields)
		}
		return
	}
	switch t.p.modes.get(t.Call.Tool) {
	case modeCarrier:
		for _, key := range slices.Sorted(maps.Keys(obj)) {
			if s, ok := obj[key].(string); ok && len(s) >= t.p.opts.MinDedupChars {
				t.Texts = append(t.Texts, &Text{Upstream: s, Text: s, index: -1, fields: []string{key}})
			}
		}
	case modeWhole:
		t.wholeText(sc)
	}
}

// wholeText adds the structured content, as compact JSON, as a text; the
// text contents that serialize it follow it instead of being shaped.
func (t *Turn) wholeText(sc any) {
	if _, ok := sc.(json.RawMessage); !ok {
		if _, ok := sc.(map[string]any); !ok {
			if _, ok := sc.([]any); !ok {
				return // a value the pipeline does not know how to rebuild
			}
		}
	}
	if obj, ok := asObject(sc); ok {
		if _, taken := obj[noteKey]; taken {
			return // the note would overwrite the upstream's own member
		}
	}
	js, err := marshalJSON(sc)
	if err != nil {
		return
	}
	tx := &Text{Upstream: js, Text: js, index: -1, whole: true}
	kept := t.Texts[:0]
	for _, c := range t.Texts {
		if serializes(c.Upstream, js) {
			tx.serial = append(tx.serial, c.index)
			continue
		}
		kept = append(kept, c)
	}
	t.Texts = append(kept, tx)
}

// serializes reports whether text is a JSON document with the same value
// as the compact JSON js.
func serializes(text, js string) bool {
	var b bytes.Buffer
	if json.Compact(&b, []byte(text)) != nil || b.Len() != len(js) {
		return false
	}
	if b.String() == js {
		return true
	}
	var x, y any
	if json.Unmarshal(b.Bytes(), &x) != nil || json.Unmarshal([]byte(js), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// structuredResult returns the structured content the agent receives and
// whether it differs from the upstream's.
func (t *Turn) structuredResult() (any, bool) {
	sc := t.Result.StructuredContent
	if sc == nil {
		return nil, false
	}
	var obj map[string]any
	changed := false
	for _, tx := range t.Texts {
		out := tx.rendered()
		if out == tx.Upstream {
			continue
		}
		if tx.whole {
			if !tx.Final && tx.Hint == "" {
				continue
			}
			return wholeResult(tx), true
		}
		if len(tx.fields) == 0 {
			continue
		}
		if obj == nil {
			src, ok := asObject(sc)
			if !ok {
				return nil, false
			}
			obj = maps.Clone(src)
		}
		for _, k := range tx.fields {
			obj[k] = out
		}
		changed = true
	}
	if !changed {
		return nil, false
	}
	return obj, true
}

// wholeResult returns the shaped structured content of a whole text: a
// reference as {"winnow": line}, a trimmed view with the hint as its
// "winnow" member.
func wholeResult(tx *Text) json.RawMessage {
	if tx.Final || tx.Hint == "" {
		return json.RawMessage(`{"` + noteKey + `":` + quoteJSON(tx.Text) + `}`)
	}
	view := strings.TrimSpace(tx.Text)
	note := `"` + noteKey + `":` + quoteJSON(tx.Hint)
	if strings.HasPrefix(view, "{") && strings.HasSuffix(view, "}") {
		body := strings.TrimSpace(view[1 : len(view)-1])
		if body == "" {
			return json.RawMessage("{" + note + "}")
		}
		return json.RawMessage(view[:len(view)-1] + "," + note + "}")
	}
	return json.RawMessage(`{"result":` + view + "," + note + "}")
}

// asObject returns structured content as a map, decoding it if it is raw
// JSON.
func asObject(sc any) (map[string]any, bool) {
	switch v := sc.(type) {
	case map[string]any:
		return v, true
	case json.RawMessage:
		var m map[string]any
		if json.Unmarshal(v, &m) == nil && m != nil {
			return m, true
		}
	}
	return nil, false
}

// marshalJSON returns v as compact JSON, without escaping <, > and & (as a
// JavaScript client would serialize it).
func marshalJSON(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return string(bytes.TrimRight(b.Bytes(), "\n")), nil
}

// quoteJSON returns s as a JSON string literal.
func quoteJSON(s string) string {
	q, err := marshalJSON(s)
	if err != nil {
		return `""`
	}
	return q
}

// modelView returns what a client that prefers structured content gives
// the model for res: its structured content as compact JSON when it has
// some, else its text contents.
func modelView(res *mcp.CallToolResult) []string {
	if res.StructuredContent != nil {
		if js, err := marshalJSON(res.StructuredContent); err == nil {
			return []string{js}
		}
	}
	var out []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok && tc != nil {
			out = append(out, tc.Text)
		}
	}
	return out
}
