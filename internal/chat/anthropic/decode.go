package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"
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
	req, err := rawjson.ParseRequest(raw)
	switch {
	case errors.Is(err, rawjson.ErrNotArray):
		return nil, fmt.Errorf("decode anthropic request: messages is not an array: %w", chat.ErrShape)
	case err != nil:
		return nil, fmt.Errorf("decode anthropic request: body is not a JSON object: %w", chat.ErrShape)
	case req.Messages < 0:
		return nil, fmt.Errorf("decode anthropic request: no messages: %w", chat.ErrShape)
	}
	msgs := make([]chat.Message, len(req.Elems))
	if err := decodeElements(msgs, req, 0, raw, 0); err != nil {
		return nil, err
	}
	return build(raw, req, msgs)
}

// DecodeExtending decodes body, a request that repeats prev's body byte
// for byte up to the end of prev's last message and goes on with more
// messages (or none) and any top-level members: the next request of the
// conversation prev is. It decodes only what follows prev's messages and
// shares prev's decoded messages, which is what makes it fast; the result
// is the conversation Decode(body) returns, message for message, and
// encodes to the same bytes. prev must come from Decode or
// DecodeExtending; a prev that was changed since is not extended.
//
// It reports false, with no error, when body does not extend prev (its
// bytes differ before the end of prev's messages, or prev has none): the
// caller then decodes body in full. It fails as Decode does on a body
// that extends prev but is malformed, or is not a Messages request.
func DecodeExtending(prev *chat.Conversation, body []byte) (*chat.Conversation, bool, error) {
	pr, ok := prev.Layout().(*rawjson.Request)
	src, _ := prev.Source()
	if !ok || prev.Dialect != chat.Anthropic || len(prev.Messages) != len(pr.Elems) || !prev.Unchanged() {
		return nil, false, nil
	}
	end := pr.MessagesEnd()
	if end < 0 || len(body) <= end || !bytes.Equal(body[:end], src[:end]) {
		return nil, false, nil
	}
	raw := bytes.Clone(body)
	req, from, err := rawjson.ExtendRequest(pr, raw)
	if err != nil {
		return nil, true, fmt.Errorf("decode anthropic request: %w: %w", chat.ErrMalformed, err)
	}
	msgs := make([]chat.Message, len(req.Elems))
	copy(msgs, prev.Messages)
	// The new messages keep their own copy of their bytes, not raw: a
	// later request that extends this one shares them, and must not keep
	// this whole body alive.
	var tail []byte
	base := 0
	if from < len(req.Elems) {
		base = req.Elems[from][0]
		tail = bytes.Clone(raw[base:req.Elems[len(req.Elems)-1][1]])
	}
	if err := decodeElements(msgs, req, from, tail, base); err != nil {
		return nil, true, err
	}
	c, err := build(raw, req, msgs)
	return c, true, err
}

// decodeElements decodes req's messages from index from on into msgs,
// reading each from buf, which holds raw's bytes from offset base on.
func decodeElements(msgs []chat.Message, req *rawjson.Request, from int, buf []byte, base int) error {
	for i := from; i < len(req.Elems); i++ {
		s, e := req.Elems[i][0]-base, req.Elems[i][1]-base
		m, err := decodeMessage(buf[s:e:e])
		if err != nil {
			return fmt.Errorf("decode anthropic request: messages[%d]: %w", i, err)
		}
		msgs[i] = m
	}
	return nil
}

// build assembles the conversation of raw, split as req, with msgs
// decoded.
func build(raw []byte, req *rawjson.Request, msgs []chat.Message) (*chat.Conversation, error) {
	obj := req.Obj
	c := &chat.Conversation{Dialect: chat.Anthropic, Messages: msgs}
	for _, m := range obj.Members {
		if m.Key != "messages" && m.Key != "system" {
			c.Fields = append(c.Fields, chat.Field{Name: m.Key, Value: bytes.Clone(obj.Value(m))})
		}
	}
	if sys, ok := obj.Get("system"); ok {
		var err error
		if c.System, err = decodeContent(sys, false); err != nil {
			return nil, fmt.Errorf("decode anthropic request: system: %w", err)
		}
	}
	c.MarkDecodedLayout(raw, req)
	return c, nil
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
