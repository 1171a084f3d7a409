package openai

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/internal/rawjson"
	"github.com/winnowhq/winnow/internal/chat/internal/wire"
)

// codec is the shared request skeleton with this dialect's messages.
var codec = &wire.Codec{Dialect: chat.OpenAI, Name: "openai", Message: decodeMessage}

// Wire types recorded on parts that do not come from a typed block.
const (
	wireToolCall     = "tool_call"     // an entry of an assistant's tool_calls
	wireFunctionCall = "function_call" // an assistant's legacy function_call
)

// Decode parses a Chat Completions request body. The result remembers
// body (a private copy), so Encode of an untouched result returns it
// exactly.
//
// Decode fails on a body that is not valid JSON (chat.ErrMalformed) and on
// valid JSON that is not a Chat Completions request: not an object, no
// messages array, a message that is not an object or has no string role,
// content that is neither a string, an array nor null, tool_calls that is
// not an array, a tool_call_id that is not a string (chat.ErrShape).
// Content parts and tool calls it cannot model decode as Unknown parts and
// pass through unchanged.
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
// that extends prev but is malformed, or is not a Chat Completions
// request.
func DecodeExtending(prev *chat.Conversation, body []byte) (*chat.Conversation, bool, error) {
	return codec.DecodeExtending(prev, body)
}

// DecodeExtendingShared is DecodeExtending that keeps body itself, as
// DecodeShared does.
func DecodeExtendingShared(prev *chat.Conversation, body []byte) (*chat.Conversation, bool, error) {
	return codec.DecodeExtendingShared(prev, body)
}

func decodeMessage(raw []byte, split *rawjson.Object) (chat.Message, error) {
	obj, role, err := wire.MessageObject(raw, split)
	if err != nil {
		return chat.Message{}, err
	}
	m := chat.Message{Role: role}
	cv, _ := obj.Get("content")
	content, err := decodeContent(cv)
	if err != nil {
		return chat.Message{}, fmt.Errorf("content: %w", err)
	}
	if m.Role == chat.RoleTool || m.Role == chat.RoleFunction {
		p, err := toolResult(obj, content)
		if err != nil {
			return chat.Message{}, err
		}
		p.MarkDecoded(raw, string(role))
		m.Parts = []chat.Part{p}
		m.MarkDecoded(raw)
		return m, nil
	}
	if p, ok := reasoning(obj); ok {
		m.Parts = append(m.Parts, p)
	}
	m.Parts = append(m.Parts, content...)
	calls, err := toolCalls(obj)
	if err != nil {
		return chat.Message{}, err
	}
	m.Parts = append(m.Parts, calls...)
	m.MarkDecoded(raw)
	return m, nil
}

// decodeContent decodes a content value: a string is one Text part, an
// array its parts, null or absent nothing.
func decodeContent(v []byte) ([]chat.Part, error) {
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
			parts[i] = decodePart(e)
		}
		return parts, nil
	}
	return nil, fmt.Errorf("neither a string, an array nor null: %w", chat.ErrShape)
}

// decodePart decodes one content part. text and refusal parts are Text;
// image_url is an Image and file a Document, both opaque; anything else,
// input_audio included, is Unknown.
func decodePart(raw []byte) chat.Part {
	p := chat.Part{Type: chat.Unknown}
	obj, err := rawjson.ParseObject(raw)
	if err != nil {
		p.MarkDecoded(raw, "")
		return p
	}
	tv, _ := obj.Get("type")
	typ, _ := rawjson.String(tv)
	switch typ {
	case "text", "refusal":
		if v, ok := obj.Get(typ); ok {
			if s, ok := rawjson.String(v); ok {
				p = chat.Part{Type: chat.Text, Text: s}
			}
		}
	case "image_url":
		p.Type = chat.Image
	case "file":
		p.Type = chat.Document
	}
	p.MarkDecoded(raw, typ)
	return p
}

// reasoning returns an assistant's reasoning text (reasoning_content, as
// DeepSeek and vLLM send it, or else reasoning, as OpenRouter does) as a
// Thinking part. Reasoning in any other shape stays an unmodelled member.
func reasoning(obj *rawjson.Object) (chat.Part, bool) {
	for _, key := range []string{"reasoning_content", "reasoning"} {
		if v, ok := obj.Get(key); ok {
			if s, ok := rawjson.String(v); ok {
				p := chat.Part{Type: chat.Thinking, Text: s}
				p.MarkDecoded(v, key)
				return p, true
			}
		}
	}
	return chat.Part{}, false
}

// reasoningKey returns the member reasoning() decoded, or "".
func reasoningKey(obj *rawjson.Object) string {
	for _, key := range []string{"reasoning_content", "reasoning"} {
		if v, ok := obj.Get(key); ok {
			if _, ok := rawjson.String(v); ok {
				return key
			}
		}
	}
	return ""
}

func toolResult(obj *rawjson.Object, content []chat.Part) (chat.Part, error) {
	p := chat.Part{Type: chat.ToolResult, Content: content}
	for _, f := range []struct {
		key string
		dst *string
	}{{"tool_call_id", &p.ID}, {"name", &p.Name}} {
		key, dst := f.key, f.dst
		v, ok := obj.Get(key)
		if !ok || rawjson.IsNull(v) {
			continue
		}
		s, ok := rawjson.String(v)
		if !ok {
			return chat.Part{}, fmt.Errorf("%s is not a string: %w", key, chat.ErrShape)
		}
		*dst = s
	}
	return p, nil
}

// toolCalls decodes an assistant's tool_calls and legacy function_call.
func toolCalls(obj *rawjson.Object) ([]chat.Part, error) {
	var parts []chat.Part
	if v, ok := obj.Get("tool_calls"); ok && !rawjson.IsNull(v) {
		elems, err := rawjson.Elements(v)
		if err != nil {
			return nil, fmt.Errorf("tool_calls is not an array: %w", chat.ErrShape)
		}
		for _, e := range elems {
			parts = append(parts, toolCall(e, wireToolCall))
		}
	}
	if v, ok := obj.Get("function_call"); ok && !rawjson.IsNull(v) {
		parts = append(parts, toolCall(v, wireFunctionCall))
	}
	return parts, nil
}

// toolCall decodes one tool_calls entry ({id, type, function: {name,
// arguments}}) or a legacy function_call ({name, arguments}). One it
// cannot model is Unknown, with the same wire type, and is kept as is.
func toolCall(raw []byte, wire string) chat.Part {
	p, ok := modelToolCall(raw, wire)
	if !ok {
		p = chat.Part{Type: chat.Unknown}
	}
	p.MarkDecoded(raw, wire)
	return p
}

func modelToolCall(raw []byte, wire string) (chat.Part, bool) {
	fn, err := rawjson.ParseObject(raw)
	if err != nil {
		return chat.Part{}, false
	}
	var id string
	if wire == wireToolCall {
		v, _ := fn.Get("id")
		var ok bool
		if id, ok = rawjson.String(v); !ok {
			return chat.Part{}, false
		}
		fv, _ := fn.Get("function")
		if fn, err = rawjson.ParseObject(fv); err != nil {
			return chat.Part{}, false
		}
	}
	nv, _ := fn.Get("name")
	name, ok := rawjson.String(nv)
	if !ok {
		return chat.Part{}, false
	}
	input, ok := arguments(fn)
	return chat.Part{Type: chat.ToolCall, ID: id, Name: name, Input: input}, ok
}

// arguments returns a function's arguments: the content of a JSON string,
// or the raw bytes of any other value (some clients send an object).
func arguments(fn *rawjson.Object) (json.RawMessage, bool) {
	v, ok := fn.Get("arguments")
	if !ok || rawjson.IsNull(v) {
		return nil, true
	}
	if v[0] != '"' {
		return bytes.Clone(v), true
	}
	s, ok := rawjson.String(v)
	return json.RawMessage(s), ok
}
