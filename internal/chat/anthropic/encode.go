package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/internal/rawjson"
	"github.com/winnowhq/winnow/internal/chat/internal/wire"
)

// Encode returns c as a Messages API request body. An unchanged
// conversation encodes to the exact body it was decoded from; a changed
// one is the original body with only the changed elements re-encoded (see
// package chat). Encode fails on a conversation of another dialect, on a
// new part it cannot build (an image, document or unknown block has no
// bytes of its own), and on tool input that is not valid JSON.
func Encode(c *chat.Conversation) ([]byte, error) {
	return EncodeMemo(c, nil)
}

// EncodeMemo is Encode that takes the bytes of changed messages memo
// remembers from it instead of encoding them again, and remembers those
// it encodes. The result is Encode's, memo or not.
func EncodeMemo(c *chat.Conversation, memo *chat.EncodeMemo) ([]byte, error) {
	if c.Dialect != chat.Anthropic {
		return nil, fmt.Errorf("encode anthropic request: conversation is %q", c.Dialect)
	}
	if raw := c.Original(); raw != nil {
		return bytes.Clone(raw), nil
	}
	src, ok := c.Source()
	if !ok {
		msgs, err := encodeMessages(c.Messages, nil, memo)
		if err != nil {
			return nil, fmt.Errorf("encode anthropic request: %w", err)
		}
		return encodeNew(c, msgs)
	}
	req := rawjson.ForSource(c.Layout(), src)
	var obj *rawjson.Object
	var msgs [][]byte // the messages, with req
	var edits []rawjson.Edit
	if req != nil {
		// The split recorded at decoding: no need to scan the body again.
		var err error
		if msgs, err = wire.EncodeMessages(c.Messages, memo, encodeMessage); err != nil {
			return nil, fmt.Errorf("encode anthropic request: %w", err)
		}
		obj = req.Obj
	} else {
		var err error
		if obj, err = rawjson.ParseObject(src); err != nil {
			return nil, fmt.Errorf("encode anthropic request: original body: %w", err)
		}
		origMsgs, _ := obj.Get("messages")
		arr, err := encodeMessages(c.Messages, origMsgs, memo)
		if err != nil {
			return nil, fmt.Errorf("encode anthropic request: %w", err)
		}
		if e, ok := rawjson.ValueEdit(obj, "messages", arr); ok {
			edits = append(edits, e)
		}
	}
	sysOrig, hasSys := obj.Get("system")
	if hasSys || len(c.System) > 0 {
		sys, err := encodeContent(c.System, sysOrig, nil)
		if err != nil {
			return nil, fmt.Errorf("encode anthropic request: system: %w", err)
		}
		if e, ok := rawjson.ValueEdit(obj, "system", sys); ok {
			edits = append(edits, e)
		}
	}
	edits = append(edits, wire.FieldEdits(obj, c.Fields, "messages", "system")...)
	if req != nil {
		return req.SpliceBody(msgs, edits), nil
	}
	return obj.Splice(edits), nil
}

// encodeNew builds a body for a conversation that was not decoded: its
// fields in order, then system and messages.
func encodeNew(c *chat.Conversation, msgs []byte) ([]byte, error) {
	var members []rawjson.Edit
	for _, f := range c.Fields {
		members = append(members, rawjson.Edit{Key: f.Name, Value: f.Value})
	}
	if len(c.System) > 0 {
		sys, err := encodeContent(c.System, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("encode anthropic request: system: %w", err)
		}
		members = append(members, rawjson.Edit{Key: "system", Value: sys})
	}
	members = append(members, rawjson.Edit{Key: "messages", Value: msgs})
	return rawjson.NewObject(members...), nil
}

// encodeMessages encodes msgs as an array laid out like orig.
func encodeMessages(msgs []chat.Message, orig []byte, memo *chat.EncodeMemo) ([]byte, error) {
	elems, err := wire.EncodeMessages(msgs, memo, encodeMessage)
	if err != nil {
		return nil, err
	}
	return rawjson.SpliceArray(orig, elems), nil
}

func encodeMessage(m *chat.Message) ([]byte, error) {
	if raw := m.Original(); raw != nil {
		return raw, nil
	}
	src, ok := m.Source()
	if !ok {
		content, err := encodeContent(m.Parts, nil, nil)
		if err != nil {
			return nil, err
		}
		return rawjson.NewObject(
			rawjson.Edit{Key: "role", Value: rawjson.Quote(string(m.Role))},
			rawjson.Edit{Key: "content", Value: content},
		), nil
	}
	obj, arr, err := objectOf(m.Layout(), src)
	if err != nil {
		return nil, fmt.Errorf("original message: %w", err)
	}
	var edits []rawjson.Edit
	if e, ok := rawjson.StringEdit(obj, "role", string(m.Role)); ok {
		edits = append(edits, e)
	}
	orig, has := obj.Get("content")
	if !has && len(m.Parts) == 0 {
		return obj.Splice(edits), nil // no content before, none now
	}
	content, err := encodeContent(m.Parts, orig, arr)
	if err != nil {
		return nil, err
	}
	if e, ok := rawjson.ValueEdit(obj, "content", content); ok {
		edits = append(edits, e)
	}
	return obj.Splice(edits), nil
}

// encodeContent encodes parts as a content value in the form of orig, the
// original value (nil for new content), split as arr if the decoder
// recorded that: a lone Text part stays a string if it was one (or was
// null, or is new), anything else is an array of blocks. No parts is []
// (null stays null); "" would decode as one empty Text part.
func encodeContent(parts []chat.Part, orig []byte, arr *rawjson.ArraySpans) ([]byte, error) {
	stringForm := len(orig) == 0 || orig[0] == '"' || orig[0] == 'n'
	switch {
	case len(parts) == 0 && rawjson.IsNull(orig) && len(orig) > 0:
		return orig, nil
	case len(parts) == 0:
		return []byte(`[]`), nil
	case len(parts) == 1 && parts[0].Type == chat.Text && stringForm:
		return wire.TextString(&parts[0]), nil
	}
	return wire.EncodeParts(parts, orig, arr, encodeBlock)
}

func encodeBlock(p *chat.Part) ([]byte, error) {
	if raw, ok := wire.OriginalBlock(p); ok {
		return raw, nil
	}
	if src, ok := p.Source(); ok && src[0] == '{' {
		obj, arr, err := objectOf(p.Layout(), src)
		if err != nil {
			return nil, fmt.Errorf("original block: %w", err)
		}
		edits, err := blockEdits(obj, arr, p)
		if err != nil {
			return nil, err
		}
		return obj.Splice(edits), nil
	}
	return newBlock(p)
}

// blockEdits returns the edits that bring the original block obj, whose
// content array is split as arr if that is known, in line with p's
// modelled fields.
func blockEdits(obj *rawjson.Object, arr *rawjson.ArraySpans, p *chat.Part) ([]rawjson.Edit, error) {
	var edits []rawjson.Edit
	add := func(e rawjson.Edit, ok bool) {
		if ok {
			edits = append(edits, e)
		}
	}
	switch p.Type {
	case chat.Text:
		add(rawjson.StringEdit(obj, "text", p.Text))
	case chat.Thinking:
		add(rawjson.StringEdit(obj, "thinking", p.Text))
		add(rawjson.StringEdit(obj, "signature", p.Signature))
	case chat.RedactedThinking:
		add(rawjson.StringEdit(obj, "data", p.Data))
	case chat.ToolCall:
		add(rawjson.StringEdit(obj, "id", p.ID))
		add(rawjson.StringEdit(obj, "name", p.Name))
		in, err := input(p)
		if err != nil {
			return nil, err
		}
		if _, has := obj.Get("input"); has && in == nil {
			in = []byte(`{}`) // the API requires input; never delete it
		}
		add(rawjson.ValueEdit(obj, "input", in))
	case chat.ToolResult:
		add(rawjson.StringEdit(obj, "tool_use_id", p.ID))
		add(rawjson.BoolEdit(obj, "is_error", p.IsError))
		orig, has := obj.Get("content")
		if has || len(p.Content) > 0 {
			content, err := encodeContent(p.Content, orig, arr)
			if err != nil {
				return nil, fmt.Errorf("tool result %s: %w", p.ID, err)
			}
			add(rawjson.ValueEdit(obj, "content", content))
		}
	}
	return edits, nil
}

// newBlock encodes a part that has no original block.
func newBlock(p *chat.Part) ([]byte, error) {
	q := func(s string) []byte { return rawjson.Quote(s) }
	switch p.Type {
	case chat.Text:
		return rawjson.NewObject(wire.TypeMember("text"), rawjson.Edit{Key: "text", Value: q(p.Text)}), nil
	case chat.Thinking:
		return rawjson.NewObject(wire.TypeMember("thinking"), rawjson.Edit{Key: "thinking", Value: q(p.Text)},
			rawjson.Edit{Key: "signature", Value: q(p.Signature)}), nil
	case chat.RedactedThinking:
		return rawjson.NewObject(wire.TypeMember("redacted_thinking"), rawjson.Edit{Key: "data", Value: q(p.Data)}), nil
	case chat.ToolCall:
		in, err := input(p)
		if err != nil {
			return nil, err
		}
		if in == nil {
			in = []byte(`{}`)
		}
		return rawjson.NewObject(wire.TypeMember("tool_use"), rawjson.Edit{Key: "id", Value: q(p.ID)},
			rawjson.Edit{Key: "name", Value: q(p.Name)}, rawjson.Edit{Key: "input", Value: in}), nil
	case chat.ToolResult:
		content, err := encodeContent(p.Content, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("tool result %s: %w", p.ID, err)
		}
		members := []rawjson.Edit{wire.TypeMember("tool_result"), {Key: "tool_use_id", Value: q(p.ID)}, {Key: "content", Value: content}}
		if p.IsError {
			members = append(members, rawjson.Edit{Key: "is_error", Value: []byte("true")})
		}
		return rawjson.NewObject(members...), nil
	}
	return nil, fmt.Errorf("cannot encode a new %s part: it has no original bytes", p.Type)
}

// input returns a tool call's input, nil if it has none, or an error if
// it is not valid JSON.
func input(p *chat.Part) ([]byte, error) {
	if len(p.Input) == 0 {
		return nil, nil
	}
	if !json.Valid(p.Input) {
		return nil, fmt.Errorf("tool call %s: input is not valid JSON", p.ID)
	}
	return p.Input, nil
}
