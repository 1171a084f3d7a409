package openai

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/internal/rawjson"
	"github.com/winnowhq/winnow/internal/chat/internal/wire"
)

// Encode returns c as a Chat Completions request body. An unchanged
// conversation encodes to the exact body it was decoded from; a changed
// one is the original body with only the changed elements re-encoded (see
// package chat). Encode fails on a conversation of another dialect, on a
// new part it cannot build (an image, document or unknown part has no
// bytes of its own), and on a message whose parts do not fit its role: a
// tool or function message must hold exactly one ToolResult, other
// messages none, and at most one Thinking part and one legacy function
// call.
func Encode(c *chat.Conversation) ([]byte, error) {
	return EncodeMemo(c, nil)
}

// EncodeMemo is Encode that takes the bytes of changed messages memo
// remembers from it instead of encoding them again, and remembers those
// it encodes. The result is Encode's, memo or not.
func EncodeMemo(c *chat.Conversation, memo *chat.EncodeMemo) ([]byte, error) {
	if c.Dialect != chat.OpenAI {
		return nil, fmt.Errorf("encode openai request: conversation is %q", c.Dialect)
	}
	if raw := c.Original(); raw != nil {
		return bytes.Clone(raw), nil
	}
	src, ok := c.Source()
	var obj *rawjson.Object
	var origMsgs []byte
	req := rawjson.ForSource(c.Layout(), src)
	switch {
	case req != nil:
		obj = req.Obj // the split recorded at decoding: no need to scan the body again
	case ok:
		var err error
		if obj, err = rawjson.ParseObject(src); err != nil {
			return nil, fmt.Errorf("encode openai request: original body: %w", err)
		}
		origMsgs, _ = obj.Get("messages")
	}
	elems, err := wire.EncodeMessages(c.Messages, memo, encodeMessage)
	if err != nil {
		return nil, fmt.Errorf("encode openai request: %w", err)
	}
	if req != nil {
		return req.SpliceBody(elems, wire.FieldEdits(obj, c.Fields, "messages")), nil
	}
	msgs := rawjson.SpliceArray(origMsgs, elems)
	if obj == nil {
		var members []rawjson.Edit
		for _, f := range c.Fields {
			members = append(members, rawjson.Edit{Key: f.Name, Value: f.Value})
		}
		return rawjson.NewObject(append(members, rawjson.Edit{Key: "messages", Value: msgs})...), nil
	}
	var edits []rawjson.Edit
	if e, ok := rawjson.ValueEdit(obj, "messages", msgs); ok {
		edits = append(edits, e)
	}
	return obj.Splice(append(edits, wire.FieldEdits(obj, c.Fields, "messages")...)), nil
}

// groups are a message's parts sorted by the member they encode into.
type groups struct {
	thinking []*chat.Part // reasoning_content or reasoning
	content  []chat.Part  // content
	calls    []*chat.Part // tool_calls
	function []*chat.Part // legacy function_call
	results  []*chat.Part // a tool or function message's one result
}

func group(m *chat.Message) groups {
	var g groups
	for i := range m.Parts {
		p := &m.Parts[i]
		switch {
		case p.Type == chat.Thinking:
			g.thinking = append(g.thinking, p)
		case p.Type == chat.ToolResult:
			g.results = append(g.results, p)
		case (p.Type == chat.ToolCall || p.Type == chat.Unknown) && p.WireType() == wireFunctionCall:
			g.function = append(g.function, p)
		case p.Type == chat.ToolCall || p.Type == chat.Unknown && p.WireType() == wireToolCall:
			g.calls = append(g.calls, p)
		default:
			g.content = append(g.content, *p)
		}
	}
	return g
}

func encodeMessage(m *chat.Message) ([]byte, error) {
	if raw := m.Original(); raw != nil {
		return raw, nil
	}
	obj := &rawjson.Object{}
	if src, ok := m.Source(); ok {
		var err error
		if obj, err = rawjson.ParseObject(src); err != nil {
			return nil, fmt.Errorf("original message: %w", err)
		}
	}
	edits, err := messageEdits(obj, m)
	if err != nil {
		return nil, err
	}
	if obj.Src == nil {
		return rawjson.NewObject(edits...), nil
	}
	return obj.Splice(edits), nil
}

// messageEdits returns the edits that bring the original message obj (an
// empty Object for a new message) in line with m.
func messageEdits(obj *rawjson.Object, m *chat.Message) ([]rawjson.Edit, error) {
	var edits []rawjson.Edit
	add := func(e rawjson.Edit, ok bool) {
		if ok {
			edits = append(edits, e)
		}
	}
	add(rawjson.StringEdit(obj, "role", string(m.Role)))
	g := group(m)
	if m.Role == chat.RoleTool || m.Role == chat.RoleFunction {
		if len(g.results) != 1 || len(m.Parts) != 1 {
			return nil, fmt.Errorf("a %s message must hold exactly one tool result, not %d parts", m.Role, len(m.Parts))
		}
		r := g.results[0]
		if m.Role == chat.RoleTool {
			add(rawjson.StringEdit(obj, "tool_call_id", r.ID))
		}
		add(rawjson.StringEdit(obj, "name", r.Name))
		content, err := encodeContent(r.Content, obj)
		if err != nil {
			return nil, err
		}
		add(rawjson.ValueEdit(obj, "content", content))
		return edits, nil
	}
	if len(g.results) > 0 {
		return nil, fmt.Errorf("a %s message cannot hold a tool result", m.Role)
	}
	if len(g.thinking) > 1 || len(g.function) > 1 {
		return nil, fmt.Errorf("a message holds %d reasoning parts and %d function calls; at most one of each fits", len(g.thinking), len(g.function))
	}
	content, err := encodeContent(g.content, obj)
	if err != nil {
		return nil, err
	}
	add(rawjson.ValueEdit(obj, "content", content))
	r, err := reasoningEdit(obj, g.thinking)
	if err != nil {
		return nil, err
	}
	add(r, r.Key != "")
	calls, err := callsValue(obj, g.calls)
	if err != nil {
		return nil, err
	}
	add(rawjson.ValueEdit(obj, "tool_calls", calls))
	fn, err := functionValue(obj, g.function)
	if err != nil {
		return nil, err
	}
	add(rawjson.ValueEdit(obj, "function_call", fn))
	return edits, nil
}

// encodeContent encodes parts as the content of the message obj, in the
// form its original content had: a lone Text part stays a string if it was
// one (or was null, or is new), anything else is an array. No parts is
// null, or no member if the original had none; "" would decode as one
// empty Text part.
func encodeContent(parts []chat.Part, obj *rawjson.Object) ([]byte, error) {
	orig, has := obj.Get("content")
	stringForm := !has || orig[0] == '"' || orig[0] == 'n'
	switch {
	case len(parts) == 0 && has && rawjson.IsNull(orig):
		return orig, nil
	case len(parts) == 0 && has, len(parts) == 0 && obj.Src == nil:
		return []byte(`null`), nil
	case len(parts) == 0:
		return nil, nil // absent stays absent
	case len(parts) == 1 && parts[0].Type == chat.Text && stringForm:
		return wire.TextString(&parts[0]), nil
	}
	return wire.EncodeParts(parts, orig, nil, encodePart)
}

func encodePart(p *chat.Part) ([]byte, error) {
	if raw, ok := wire.OriginalBlock(p); ok {
		return raw, nil
	}
	if src, ok := p.Source(); ok && src[0] == '{' {
		obj, err := rawjson.ParseObject(src)
		if err != nil {
			return nil, fmt.Errorf("original part: %w", err)
		}
		if p.Type != chat.Text {
			return src, nil // opaque: nothing modelled to change
		}
		key := "text"
		if p.WireType() == "refusal" {
			key = "refusal"
		}
		e, ok := rawjson.StringEdit(obj, key, p.Text)
		if !ok {
			return src, nil
		}
		return obj.Splice([]rawjson.Edit{e}), nil
	}
	if p.Type != chat.Text {
		return nil, fmt.Errorf("cannot encode a new %s part: it has no original bytes", p.Type)
	}
	return rawjson.NewObject(wire.TypeMember("text"), rawjson.Edit{Key: "text", Value: rawjson.Quote(p.Text)}), nil
}

// reasoningEdit returns the edit for an assistant's reasoning member: the
// one it was decoded from (reasoning_content for a new one), deleted when
// the Thinking part is gone. A zero Edit means none.
func reasoningEdit(obj *rawjson.Object, thinking []*chat.Part) (rawjson.Edit, error) {
	key := reasoningKey(obj)
	if len(thinking) == 0 {
		if key == "" {
			return rawjson.Edit{}, nil
		}
		return rawjson.Edit{Key: key, Delete: true}, nil
	}
	p := thinking[0]
	if w := p.WireType(); w == "reasoning_content" || w == "reasoning" {
		key = w
	} else if key == "" {
		key = "reasoning_content"
	}
	e, _ := rawjson.StringEdit(obj, key, p.Text)
	return e, nil
}

// callsValue encodes the tool_calls member: nil (absent) when there are
// none, unless the original had a null to keep.
func callsValue(obj *rawjson.Object, calls []*chat.Part) ([]byte, error) {
	orig, has := obj.Get("tool_calls")
	if len(calls) == 0 {
		if has && rawjson.IsNull(orig) {
			return orig, nil
		}
		return nil, nil
	}
	elems := make([][]byte, len(calls))
	for i, p := range calls {
		b, err := encodeCall(p, true)
		if err != nil {
			return nil, fmt.Errorf("tool_calls[%d]: %w", i, err)
		}
		elems[i] = b
	}
	return rawjson.SpliceArray(orig, elems), nil
}

// functionValue encodes the legacy function_call member, like callsValue.
func functionValue(obj *rawjson.Object, fn []*chat.Part) ([]byte, error) {
	orig, has := obj.Get("function_call")
	if len(fn) == 0 {
		if has && rawjson.IsNull(orig) {
			return orig, nil
		}
		return nil, nil
	}
	return encodeCall(fn[0], false)
}

// encodeCall encodes a tool_calls entry (entry true) or a legacy
// function_call object: {id, type, function: {name, arguments}} or {name,
// arguments}, with arguments a JSON string holding Input.
func encodeCall(p *chat.Part, entry bool) ([]byte, error) {
	if raw := p.Original(); raw != nil {
		return raw, nil
	}
	src, ok := p.Source()
	if !ok || p.Type != chat.ToolCall {
		if p.Type != chat.ToolCall {
			return nil, fmt.Errorf("cannot encode a new %s part as a tool call", p.Type)
		}
		fn := rawjson.NewObject(rawjson.Edit{Key: "name", Value: rawjson.Quote(p.Name)},
			rawjson.Edit{Key: "arguments", Value: rawjson.Quote(string(p.Input))})
		if !entry {
			return fn, nil
		}
		return rawjson.NewObject(rawjson.Edit{Key: "id", Value: rawjson.Quote(p.ID)}, wire.TypeMember("function"),
			rawjson.Edit{Key: "function", Value: fn}), nil
	}
	obj, err := rawjson.ParseObject(src)
	if err != nil {
		return nil, fmt.Errorf("original tool call: %w", err)
	}
	if !entry {
		return obj.Splice(functionEdits(obj, p)), nil
	}
	var edits []rawjson.Edit
	if e, ok := rawjson.StringEdit(obj, "id", p.ID); ok {
		edits = append(edits, e)
	}
	fv, _ := obj.Get("function")
	fn, err := rawjson.ParseObject(fv)
	if err != nil {
		return nil, fmt.Errorf("original tool call function: %w", err)
	}
	if fe := functionEdits(fn, p); len(fe) > 0 {
		edits = append(edits, rawjson.Edit{Key: "function", Value: fn.Splice(fe)})
	}
	return obj.Splice(edits), nil
}

// functionEdits returns the edits for a {name, arguments} object. An
// argument string that decodes to Input keeps its exact bytes; a changed
// one is written as a JSON string, or raw if the original was not a
// string (some clients send an object) and Input is valid JSON.
func functionEdits(fn *rawjson.Object, p *chat.Part) []rawjson.Edit {
	var edits []rawjson.Edit
	if e, ok := rawjson.StringEdit(fn, "name", p.Name); ok {
		edits = append(edits, e)
	}
	orig, has := fn.Get("arguments")
	switch {
	case has && len(orig) > 0 && orig[0] == '"':
		if e, ok := rawjson.StringEdit(fn, "arguments", string(p.Input)); ok {
			edits = append(edits, e)
		}
	case has && !rawjson.IsNull(orig) && bytes.Equal(orig, p.Input):
	case (!has || rawjson.IsNull(orig)) && len(p.Input) == 0:
	case has && !rawjson.IsNull(orig) && json.Valid(p.Input):
		edits = append(edits, rawjson.Edit{Key: "arguments", Value: p.Input})
	default:
		edits = append(edits, rawjson.Edit{Key: "arguments", Value: rawjson.Quote(string(p.Input))})
	}
	return edits
}
