package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/internal/rawjson"
)

// Decode parses a Messages API request body. The result remembers body
// (a private copy), so Encode of an untouched result returns it exactly.
//
// Decode fails on a body that is not valid JSON (chat.ErrMalformed) and on
// valid JSON that is not a Messages request: not an object, no messages
// array, a message that is not an object or has no string role, content or
// system that is neither a string nor an array (chat.ErrShape). Blocks it
// does not model, and blocks too malformed to model, decode as Unknown
// parts and pass through unchanged.
func Decode(body []byte) (*chat.Conversation, error) {
	if !json.Valid(body) {
		return nil, fmt.Errorf("decode anthropic request: %w", chat.ErrMalformed)
	}
	raw := bytes.Clone(body)
	obj, err := rawjson.ParseObject(raw)
	if err != nil {
		return nil, fmt.Errorf("decode anthropic request: body is not a JSON object: %w", chat.ErrShape)
	}
	c := &chat.Conversation{Dialect: chat.Anthropic}
	for _, m := range obj.Members {
		if m.Key != "messages" && m.Key != "system" {
			c.Fields = append(c.Fields, chat.Field{Name: m.Key, Value: bytes.Clone(obj.Value(m))})
		}
	}
	msgs, ok := obj.Get("messages")
	if !ok {
		return nil, fmt.Errorf("decode anthropic request: no messages: %w", chat.ErrShape)
	}
	if c.Messages, err = decodeMessages(msgs); err != nil {
		return nil, fmt.Errorf("decode anthropic request: %w", err)
	}
	if sys, ok := obj.Get("system"); ok {
		if c.System, err = decodeContent(sys, false); err != nil {
			return nil, fmt.Errorf("decode anthropic request: system: %w", err)
		}
	}
	c.MarkDecoded(raw)
	return c, nil
}

func decodeMessages(v []byte) ([]chat.Message, error) {
	elems, err := rawjson.Elements(v)
	if err != nil {
		return nil, fmt.Errorf("messages is not an array: %w", chat.ErrShape)
	}
	msgs := make([]chat.Message, len(elems))
	for i, e := range elems {
		if msgs[i], err = decodeMessage(e); err != nil {
			return nil, fmt.Errorf("messages[%d]: %w", i, err)
		}
	}
	return msgs, nil
}

func decodeMessage(raw []byte) (chat.Message, error) {
	obj, err := rawjson.ParseObject(raw)
	if err != nil {
		return chat.Message{}, fmt.Errorf("not an object: %w", chat.ErrShape)
	}
	rv, _ := obj.Get("role")
	role, ok := rawjson.String(rv)
	if !ok {
		return chat.Message{}, fmt.Errorf("no string role: %w", chat.ErrShape)
	}
	m := chat.Message{Role: chat.Role(role)}
	if cv, ok := obj.Get("content"); ok {
		if m.Parts, err = decodeContent(cv, false); err != nil {
			return chat.Message{}, fmt.Errorf("content: %w", err)
		}
	}
	m.MarkDecoded(raw)
	return m, nil
}

// decodeContent decodes a content value: a string is one Text part, an
// array its blocks, null nothing. In a tool result's content (nested),
// tool_use and tool_result blocks, which the API does not allow there, are
// Unknown; this also keeps decoding linear in the body's size however
// deeply a hostile body nests them.
func decodeContent(v []byte, nested bool) ([]chat.Part, error) {
	switch {
	case rawjson.IsNull(v):
		return nil, nil
	case v[0] == '"':
		s, _ := rawjson.String(v)
		p := chat.NewText(s)
		p.MarkDecoded(v, "text")
		return []chat.Part{p}, nil
	case v[0] == '[':
		elems, err := rawjson.Elements(v)
		if err != nil {
			return nil, err
		}
		parts := make([]chat.Part, len(elems))
		for i, e := range elems {
			parts[i] = decodeBlock(e, nested)
		}
		return parts, nil
	}
	return nil, fmt.Errorf("neither a string nor an array: %w", chat.ErrShape)
}

// decodeBlock decodes one content block. A block whose modelled members
// are missing or of the wrong type is Unknown: it is kept, never rebuilt.
func decodeBlock(raw []byte, nested bool) chat.Part {
	obj, err := rawjson.ParseObject(raw)
	if err != nil {
		return opaque(raw, "")
	}
	tv, _ := obj.Get("type")
	typ, _ := rawjson.String(tv)
	if nested && (typ == "tool_result" || typ == "tool_use") {
		return opaque(raw, typ)
	}
	p, ok := modelBlock(obj, typ)
	if !ok {
		return opaque(raw, typ)
	}
	p.MarkDecoded(raw, typ)
	return p
}

func modelBlock(obj *rawjson.Object, typ string) (chat.Part, bool) {
	switch typ {
	case "text":
		text, ok := str(obj, "text", true)
		return chat.Part{Type: chat.Text, Text: text}, ok
	case "thinking":
		text, ok1 := str(obj, "thinking", true)
		sig, ok2 := str(obj, "signature", false)
		return chat.Part{Type: chat.Thinking, Text: text, Signature: sig}, ok1 && ok2
	case "redacted_thinking":
		data, ok := str(obj, "data", true)
		return chat.Part{Type: chat.RedactedThinking, Data: data}, ok
	case "tool_use":
		id, ok1 := str(obj, "id", true)
		name, ok2 := str(obj, "name", true)
		in, _ := obj.Get("input")
		return chat.Part{Type: chat.ToolCall, ID: id, Name: name, Input: bytes.Clone(in)}, ok1 && ok2
	case "tool_result":
		return toolResult(obj)
	case "image":
		return chat.Part{Type: chat.Image}, true
	case "document":
		return chat.Part{Type: chat.Document}, true
	}
	return chat.Part{}, false
}

func toolResult(obj *rawjson.Object) (chat.Part, bool) {
	id, ok := str(obj, "tool_use_id", true)
	if !ok {
		return chat.Part{}, false
	}
	p := chat.Part{Type: chat.ToolResult, ID: id}
	switch v, _ := obj.Get("is_error"); string(v) {
	case "true":
		p.IsError = true
	case "", "false", "null":
	default:
		return chat.Part{}, false
	}
	if cv, has := obj.Get("content"); has {
		content, err := decodeContent(cv, true)
		if err != nil {
			return chat.Part{}, false
		}
		p.Content = content
	}
	return p, true
}

// str returns member key as a string; ok is false if it is not a string,
// or if it is absent and required.
func str(obj *rawjson.Object, key string, required bool) (s string, ok bool) {
	v, has := obj.Get(key)
	if !has {
		return "", !required
	}
	return rawjson.String(v)
}

func opaque(raw []byte, wire string) chat.Part {
	p := chat.Part{Type: chat.Unknown}
	p.MarkDecoded(raw, wire)
	return p
}
