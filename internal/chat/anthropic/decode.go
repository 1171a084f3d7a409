package anthropic

import (
	"bytes"
	"fmt"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/internal/rawjson"
	"github.com/winnowhq/winnow/internal/chat/internal/wire"
)

// codec is the shared request skeleton with this dialect's messages.
var codec = &wire.Codec{Dialect: chat.Anthropic, Name: "anthropic", Message: decodeMessage, Build: build}

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
	return codec.Decode(body)
}

// DecodeShared is Decode that keeps body itself, where Decode keeps a
// copy: the caller must not modify body for as long as the result is in
// use. A proxy's request body, read once and never written, qualifies.
func DecodeShared(body []byte) (*chat.Conversation, error) {
	return codec.DecodeShared(body)
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
	return codec.DecodeExtending(prev, body)
}

// DecodeExtendingShared is DecodeExtending that keeps body itself, as
// DecodeShared does.
func DecodeExtendingShared(prev *chat.Conversation, body []byte) (*chat.Conversation, bool, error) {
	return codec.DecodeExtendingShared(prev, body)
}

// build assembles the conversation of raw, split as req, with msgs
// decoded.
func build(raw []byte, req *rawjson.Request, msgs []chat.Message) (*chat.Conversation, error) {
	obj := req.Obj
	c := &chat.Conversation{Dialect: chat.Anthropic, Messages: msgs, Fields: wire.Fields(obj, "messages", "system")}
	if sys, ok := obj.Get("system"); ok {
		var err error
		if c.System, _, err = decodeContent(sys, nil, false); err != nil {
			return nil, fmt.Errorf("decode anthropic request: system: %w", err)
		}
	}
	c.MarkDecodedLayout(raw, req)
	return c, nil
}

// decodeMessage decodes raw, one element of the messages array, split as
// split if that is not nil.
func decodeMessage(raw []byte, split *rawjson.Object) (chat.Message, error) {
	obj, role, err := wire.MessageObject(raw, split)
	if err != nil {
		return chat.Message{}, err
	}
	m := chat.Message{Role: role}
	var arr *rawjson.ArraySpans
	if i := obj.Last("content"); i >= 0 {
		if m.Parts, arr, err = decodeContent(obj.Value(obj.Members[i]), obj.Members[i].Array, false); err != nil {
			return chat.Message{}, fmt.Errorf("content: %w", err)
		}
	}
	m.MarkDecodedLayout(raw, &layout{obj: obj, content: arr})
	return m, nil
}

// A layout is what decoding found in a message or block that encoding
// needs once it has changed: its members and, when its content is an
// array, that array's elements. It spares encoding a second scan of the
// original bytes, which for a cleared tool result are most of its
// message's.
type layout struct {
	obj     *rawjson.Object
	content *rawjson.ArraySpans // nil unless content is an array
}

// objectOf returns the members of src, the original bytes of a message or
// block, from l, the layout decoding recorded for it, if l is src's, and
// else by parsing src; and its content array's elements when l has them.
func objectOf(l any, src []byte) (*rawjson.Object, *rawjson.ArraySpans, error) {
	if l, ok := l.(*layout); ok && rawjson.Same(l.obj.Src, src) {
		return l.obj, l.content, nil
	}
	obj, err := rawjson.ParseObject(src)
	return obj, nil, err
}

// decodeContent decodes a content value, v, split as split if that is
// not nil: a string is one Text part, an array its blocks (and the
// array's split), null nothing. In a tool result's content (nested),
// tool_use and tool_result blocks, which the API does not allow there,
// are Unknown; this also keeps decoding linear in the body's size however
// deeply a hostile body nests them.
func decodeContent(v []byte, split *rawjson.ArraySpans, nested bool) ([]chat.Part, *rawjson.ArraySpans, error) {
	switch {
	case rawjson.IsNull(v):
		return nil, nil, nil
	case v[0] == '"':
		s, _ := rawjson.String(v)
		p := chat.NewText(s)
		p.MarkDecoded(v, "text")
		return []chat.Part{p}, nil, nil
	case v[0] == '[':
		arr, err := rawjson.ArrayOf(split, v)
		if err != nil {
			return nil, nil, err
		}
		elems := arr.Elements()
		parts := make([]chat.Part, len(elems))
		for i, e := range elems {
			parts[i] = decodeBlock(e, arr.Object(i), nested)
		}
		return parts, arr, nil
	}
	return nil, nil, fmt.Errorf("neither a string nor an array: %w", chat.ErrShape)
}

// decodeBlock decodes one content block, raw, split as split if that is
// not nil. A block whose modelled members are missing or of the wrong
// type is Unknown: it is kept, never rebuilt.
func decodeBlock(raw []byte, split *rawjson.Object, nested bool) chat.Part {
	obj, err := rawjson.ObjectOf(split, raw)
	if err != nil {
		return opaque(raw, "")
	}
	tv, _ := obj.Get("type")
	typ, _ := rawjson.String(tv)
	if nested && (typ == "tool_result" || typ == "tool_use") {
		return opaque(raw, typ)
	}
	p, arr, ok := modelBlock(obj, typ)
	if !ok {
		return opaque(raw, typ)
	}
	p.MarkDecodedLayout(raw, typ, &layout{obj: obj, content: arr})
	return p
}

// modelBlock models the block obj of type typ, and returns the split of
// its content when that is an array (a tool result's).
func modelBlock(obj *rawjson.Object, typ string) (chat.Part, *rawjson.ArraySpans, bool) {
	switch typ {
	case "text":
		text, ok := str(obj, "text", true)
		return chat.Part{Type: chat.Text, Text: text}, nil, ok
	case "thinking":
		text, ok1 := str(obj, "thinking", true)
		sig, ok2 := str(obj, "signature", false)
		return chat.Part{Type: chat.Thinking, Text: text, Signature: sig}, nil, ok1 && ok2
	case "redacted_thinking":
		data, ok := str(obj, "data", true)
		return chat.Part{Type: chat.RedactedThinking, Data: data}, nil, ok
	case "tool_use":
		id, ok1 := str(obj, "id", true)
		name, ok2 := str(obj, "name", true)
		in, _ := obj.Get("input")
		return chat.Part{Type: chat.ToolCall, ID: id, Name: name, Input: bytes.Clone(in)}, nil, ok1 && ok2
	case "tool_result":
		return toolResult(obj)
	case "image":
		return chat.Part{Type: chat.Image}, nil, true
	case "document":
		return chat.Part{Type: chat.Document}, nil, true
	}
	return chat.Part{}, nil, false
}

func toolResult(obj *rawjson.Object) (chat.Part, *rawjson.ArraySpans, bool) {
	id, ok := str(obj, "tool_use_id", true)
	if !ok {
		return chat.Part{}, nil, false
	}
	p := chat.Part{Type: chat.ToolResult, ID: id}
	switch v, _ := obj.Get("is_error"); string(v) {
	case "true":
		p.IsError = true
	case "", "false", "null":
	default:
		return chat.Part{}, nil, false
	}
	var arr *rawjson.ArraySpans
	if i := obj.Last("content"); i >= 0 {
		content, a, err := decodeContent(obj.Value(obj.Members[i]), obj.Members[i].Array, true)
		if err != nil {
			return chat.Part{}, nil, false
		}
		p.Content, arr = content, a
	}
	return p, arr, true
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
