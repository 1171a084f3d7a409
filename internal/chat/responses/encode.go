package responses

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/internal/rawjson"
	"github.com/winnowhq/winnow/internal/chat/internal/wire"
)

// Encode returns c as a Responses API request body. An unchanged
// conversation encodes to the exact body it was decoded from; a changed
// one is the original body with only the changed items re-encoded, each
// from its original object with only the modelled members replaced (see
// package chat).
//
// Which item a message encodes to follows from its parts: a ToolCall is a
// call (of the type it was decoded from, else a function_call), a
// ToolResult an output, a Thinking or RedactedThinking part a reasoning
// item, an Unknown part that stood for a whole item that item, and
// anything else a message. Encode fails on a conversation of another
// dialect, on a message that mixes such a part with others, on a tool
// message that holds no tool result, on a new image, document or unknown
// part (it has no bytes of its own), and on a local_shell_call or
// shell_call whose action is not valid JSON.
func Encode(c *chat.Conversation) ([]byte, error) {
	return EncodeMemo(c, nil)
}

// EncodeMemo is Encode that takes the bytes of changed messages memo
// remembers from it instead of encoding them again, and remembers those
// it encodes. The result is Encode's, memo or not.
func EncodeMemo(c *chat.Conversation, memo *chat.EncodeMemo) ([]byte, error) {
	if c.Dialect != chat.Responses {
		return nil, fmt.Errorf("encode responses request: conversation is %q", c.Dialect)
	}
	if raw := c.Original(); raw != nil {
		return bytes.Clone(raw), nil
	}
	src, ok := c.Source()
	var obj *rawjson.Object
	var orig []byte // the original input
	req := rawjson.ForSource(c.Layout(), src)
	switch {
	case req != nil:
		obj = req.Obj // the split recorded at decoding: no need to scan the body again
		orig = obj.Value(obj.Members[req.Messages])
	case ok:
		var err error
		if obj, err = rawjson.ParseObject(src); err != nil {
			return nil, fmt.Errorf("encode responses request: original body: %w", err)
		}
		orig, _ = obj.Get("input")
	}
	if req != nil && orig[0] == '[' {
		elems, err := wire.EncodeMessages(c.Messages, memo, encodeItem)
		if err != nil {
			return nil, fmt.Errorf("encode responses request: %w", err)
		}
		return req.SpliceBody(elems, wire.FieldEdits(obj, c.Fields, "input")), nil
	}
	input, err := encodeInput(c.Messages, memo, orig)
	if err != nil {
		return nil, fmt.Errorf("encode responses request: %w", err)
	}
	if obj == nil {
		var members []rawjson.Edit
		for _, f := range c.Fields {
			members = append(members, rawjson.Edit{Key: f.Name, Value: f.Value})
		}
		return rawjson.NewObject(append(members, rawjson.Edit{Key: "input", Value: input})...), nil
	}
	var edits []rawjson.Edit
	if e, ok := rawjson.ValueEdit(obj, "input", input); ok {
		edits = append(edits, e)
	}
	return obj.Splice(append(edits, wire.FieldEdits(obj, c.Fields, "input")...)), nil
}

// encodeInput encodes msgs as the input member that replaces orig (nil
// for a new request). A string input stays a string while it is one user
// message of one text.
func encodeInput(msgs []chat.Message, memo *chat.EncodeMemo, orig []byte) ([]byte, error) {
	if len(orig) > 0 && orig[0] == '"' {
		if len(msgs) == 1 && msgs[0].Role == chat.RoleUser && len(msgs[0].Parts) == 1 && msgs[0].Parts[0].Type == chat.Text {
			return wire.TextString(&msgs[0].Parts[0]), nil
		}
		// The message decoded from the string has no item of its own
		// to keep, so no message is taken as it was.
		elems := make([][]byte, len(msgs))
		for i := range msgs {
			b, err := encodeItem(&msgs[i])
			if err != nil {
				return nil, fmt.Errorf("input[%d]: %w", i, err)
			}
			elems[i] = b
		}
		return rawjson.Array(elems), nil
	}
	elems, err := wire.EncodeMessages(msgs, memo, encodeItem)
	if err != nil {
		return nil, err
	}
	return rawjson.SpliceArray(orig, elems), nil
}

// encodeItem encodes m as one input item.
func encodeItem(m *chat.Message) ([]byte, error) {
	if raw := m.Original(); raw != nil && raw[0] == '{' {
		return raw, nil
	}
	kind, p, err := kindOf(m)
	if err != nil {
		return nil, err
	}
	if p != nil && p.Type == chat.Unknown {
		src, _ := p.Source()
		return src, nil // an item the codec does not model travels as it came
	}
	e := &editor{obj: sourceObject(m, kind)}
	switch kind {
	case typeMessage:
		err = messageEdits(e, m)
	case typeReasoning:
		reasoningEdits(e, p)
	case typeFunctionOutput, typeCustomOutput, typeLocalShellOut:
		err = outputEdits(e, p)
	default:
		err = callEdits(e, kind, p)
	}
	if err != nil {
		return nil, err
	}
	return e.encode(kind), nil
}

// kindOf returns the type of the item m encodes to and, for any item but
// a message, the one part that stands for it.
func kindOf(m *chat.Message) (string, *chat.Part, error) {
	for i := range m.Parts {
		p := &m.Parts[i]
		kind, ok := itemKind(m, p)
		if !ok {
			continue
		}
		if len(m.Parts) != 1 {
			return "", nil, fmt.Errorf("a %s part stands for a whole %s item and cannot share its message with %d other parts", p.Type, kind, len(m.Parts)-1)
		}
		return kind, p, nil
	}
	if m.Role == chat.RoleTool || m.Role == chat.RoleFunction {
		return "", nil, fmt.Errorf("a %s message must hold exactly one tool result", m.Role)
	}
	return typeMessage, nil, nil
}

// itemKind returns the type of the item p stands for, and false for a
// part of a message's content.
func itemKind(m *chat.Message, p *chat.Part) (string, bool) {
	w := p.WireType()
	switch p.Type {
	case chat.ToolCall:
		if w == typeCustomCall || w == typeLocalShellCall || w == typeShellCall {
			return w, true
		}
		return typeFunctionCall, true
	case chat.ToolResult:
		if w == typeCustomOutput || w == typeLocalShellOut {
			return w, true
		}
		return typeFunctionOutput, true
	case chat.Thinking, chat.RedactedThinking:
		return typeReasoning, true
	case chat.Unknown:
		return w, wholeItem(m, p)
	}
	return "", false
}

// wholeItem reports whether p was decoded from all of m's bytes: it is an
// item the codec does not model, not a part of a message's content.
func wholeItem(m *chat.Message, p *chat.Part) bool {
	ms, ok := m.Source()
	ps, okP := p.Source()
	return ok && okP && len(ms) == len(ps) && len(ms) > 0 && &ms[0] == &ps[0]
}

// sourceObject returns the object m was decoded from if it is an item of
// type kind, and an empty object, for an item encoded afresh, otherwise.
func sourceObject(m *chat.Message, kind string) *rawjson.Object {
	if src, ok := m.Source(); ok && src[0] == '{' {
		if obj, err := rawjson.ParseObject(src); err == nil && itemType(obj) == kind {
			return obj
		}
	}
	return &rawjson.Object{}
}

// An editor collects the edits that bring obj, an item's original object
// (empty for a new item), in line with the model. A new item gets every
// member it is given; an original one only those that differ.
type editor struct {
	obj   *rawjson.Object
	edits []rawjson.Edit
}

func (e *editor) fresh() bool { return e.obj.Src == nil }

// str makes member key the string cur, keeping an equal member's bytes.
func (e *editor) str(key, cur string) {
	if e.fresh() {
		e.edits = append(e.edits, rawjson.Edit{Key: key, Value: rawjson.Quote(cur)})
	} else if ed, ok := rawjson.StringEdit(e.obj, key, cur); ok {
		e.edits = append(e.edits, ed)
	}
}

// value makes member key the encoded value cur; nil deletes it.
func (e *editor) value(key string, cur []byte) {
	if e.fresh() {
		if cur != nil {
			e.edits = append(e.edits, rawjson.Edit{Key: key, Value: cur})
		}
	} else if ed, ok := rawjson.ValueEdit(e.obj, key, cur); ok {
		e.edits = append(e.edits, ed)
	}
}

// encode returns the edited item; a new one is typed kind.
func (e *editor) encode(kind string) []byte {
	if e.fresh() {
		return rawjson.NewObject(append([]rawjson.Edit{wire.TypeMember(kind)}, e.edits...)...)
	}
	return e.obj.Splice(e.edits)
}

func messageEdits(e *editor, m *chat.Message) error {
	e.str("role", string(m.Role))
	content, err := encodeContent(m.Parts, e.obj, textType(m.Role))
	if err != nil {
		return err
	}
	e.value("content", content)
	return nil
}

// encodeContent encodes parts as the content of the message obj, in the
// form its original content had: a lone Text part stays a string if it was
// one (or is new); anything else is an array of parts, text typed
// textType when new. No parts is an empty array, or no member if the
// original had none.
func encodeContent(parts []chat.Part, obj *rawjson.Object, textType string) ([]byte, error) {
	orig, has := obj.Get("content")
	switch {
	case len(parts) == 0 && !has && obj.Src != nil:
		return nil, nil
	case len(parts) == 1 && parts[0].Type == chat.Text && (!has || orig[0] == '"'):
		return wire.TextString(&parts[0]), nil
	}
	if has && orig[0] != '[' {
		orig = nil
	}
	return wire.EncodeParts(parts, orig, nil, func(p *chat.Part) ([]byte, error) { return encodePart(p, textType) })
}

// encodePart encodes a content part; a new text is typed textType.
func encodePart(p *chat.Part, textType string) ([]byte, error) {
	if raw := p.Original(); raw != nil {
		if raw[0] != '"' || p.Type != chat.Text {
			return raw, nil
		}
		// A text that was a string content, now one of several parts.
		typ := p.WireType()
		if typ == "" {
			typ = textType
		}
		return rawjson.NewObject(wire.TypeMember(typ), rawjson.Edit{Key: "text", Value: raw}), nil
	}
	if src, ok := p.Source(); ok && src[0] == '{' {
		if p.Type != chat.Text {
			return src, nil // opaque: nothing modelled to change
		}
		obj, err := rawjson.ParseObject(src)
		if err != nil {
			return nil, fmt.Errorf("original part: %w", err)
		}
		e, ok := rawjson.StringEdit(obj, textKey(p.WireType()), p.Text)
		if !ok {
			return src, nil
		}
		return obj.Splice([]rawjson.Edit{e}), nil
	}
	if p.Type != chat.Text {
		return nil, fmt.Errorf("cannot encode a new %s part: it has no original bytes", p.Type)
	}
	return rawjson.NewObject(wire.TypeMember(textType), rawjson.Edit{Key: "text", Value: rawjson.Quote(p.Text)}), nil
}

// callEdits brings a call item in line with p. A function_call's
// arguments and a custom_tool_call's input are strings holding Input; a
// local_shell_call's or shell_call's action is Input itself.
func callEdits(e *editor, kind string, p *chat.Part) error {
	e.str("call_id", p.ID)
	switch kind {
	case typeFunctionCall:
		e.str("name", p.Name)
		e.str("arguments", string(p.Input))
	case typeCustomCall:
		e.str("name", p.Name)
		e.str("input", string(p.Input))
	default:
		if !json.Valid(p.Input) {
			return fmt.Errorf("the action of %s %q is not valid JSON", kind, p.ID)
		}
		e.value("action", p.Input)
	}
	return nil
}

// outputEdits brings an output item in line with p: one Text part is a
// string output, as are no parts (an empty one); other content is an
// array of parts.
func outputEdits(e *editor, p *chat.Part) error {
	e.str("call_id", p.ID)
	var out []byte
	switch {
	case len(p.Content) == 0:
		out = []byte(`""`)
	case len(p.Content) == 1 && p.Content[0].Type == chat.Text:
		out = wire.TextString(&p.Content[0])
	default:
		orig, _ := e.obj.Get("output")
		if len(orig) == 0 || orig[0] != '[' {
			orig = nil
		}
		var err error
		if out, err = wire.EncodeParts(p.Content, orig, nil, func(q *chat.Part) ([]byte, error) { return encodePart(q, "input_text") }); err != nil {
			return fmt.Errorf("output: %w", err)
		}
	}
	e.value("output", out)
	return nil
}

// reasoningEdits brings a reasoning item in line with p: a summary that no
// longer joins to Text becomes one summary_text of Text, encrypted_content
// holds Data, and goes if p is no longer RedactedThinking.
func reasoningEdits(e *editor, p *chat.Part) {
	if e.fresh() || summaryText(e.obj) != p.Text {
		summary := []byte(`[]`)
		if p.Text != "" {
			summary = rawjson.Array([][]byte{rawjson.NewObject(wire.TypeMember("summary_text"), rawjson.Edit{Key: "text", Value: rawjson.Quote(p.Text)})})
		}
		e.edits = append(e.edits, rawjson.Edit{Key: "summary", Value: summary})
	}
	switch _, has := str(e.obj, "encrypted_content"); {
	case p.Type == chat.RedactedThinking:
		e.str("encrypted_content", p.Data)
	case has:
		e.edits = append(e.edits, rawjson.Edit{Key: "encrypted_content", Delete: true})
	}
}
