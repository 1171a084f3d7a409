package responses

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/chat/internal/rawjson"
	"github.com/winnowhq/winnow/internal/chat/internal/wire"
)

// codec is the shared request skeleton with this dialect's items.
var codec = &wire.Codec{
	Dialect: chat.Responses,
	Name:    "responses",
	Array:   "input",
	Message: decodeItem,
	String:  decodeString,
}

// The item types the codec models; every other item is one Unknown part.
const (
	typeMessage        = "message"
	typeReasoning      = "reasoning"
	typeFunctionCall   = "function_call"
	typeCustomCall     = "custom_tool_call"
	typeLocalShellCall = "local_shell_call"
	typeShellCall      = "shell_call"
	typeFunctionOutput = "function_call_output"
	typeCustomOutput   = "custom_tool_call_output"
	typeLocalShellOut  = "local_shell_call_output"
	typeItemReference  = "item_reference" // also the wire type of an item with no type and no role
)

// summarySep joins the texts of a reasoning item's summary into one
// Thinking text. Each summary part is a paragraph (it starts with a bold
// heading), so a blank line keeps them readable.
const summarySep = "\n\n"

// Decode parses a Responses API request body. The result remembers body
// (a private copy), so Encode of an untouched result returns it exactly.
//
// Decode fails on a body that is not valid JSON (chat.ErrMalformed) and
// on valid JSON that is not a Responses request: not an object, no input,
// an input that is neither an array nor a string, an item that is not an
// object, a message item without a string role or whose content is
// neither a string, an array nor null (chat.ErrShape). Items and content
// parts it cannot model decode as Unknown parts and pass through
// unchanged.
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
// for byte up to the end of prev's last input item and goes on with more
// items (or none) and any top-level members: the next request of the
// conversation prev is, as a client that resends its history (store:
// false, as Codex CLI does) sends it. It decodes only what follows prev's
// items and shares prev's decoded messages; the result is the
// conversation Decode(body) returns, message for message, and encodes to
// the same bytes. prev must come from Decode or DecodeExtending; a prev
// that was changed since, or whose input was a string, is not extended.
//
// It reports false, with no error, when body does not extend prev: the
// caller then decodes body in full. It fails as Decode does on a body
// that extends prev but is malformed, or is not a Responses request.
func DecodeExtending(prev *chat.Conversation, body []byte) (*chat.Conversation, bool, error) {
	return codec.DecodeExtending(prev, body)
}

// DecodeExtendingShared is DecodeExtending that keeps body itself, as
// DecodeShared does.
func DecodeExtendingShared(prev *chat.Conversation, body []byte) (*chat.Conversation, bool, error) {
	return codec.DecodeExtendingShared(prev, body)
}

// decodeString decodes a string input, which the API reads as one user
// message.
func decodeString(raw []byte) (chat.Message, error) {
	s, _ := rawjson.String(raw)
	p := chat.NewText(s)
	p.MarkDecoded(raw, "input_text")
	m := chat.Message{Role: chat.RoleUser, Parts: []chat.Part{p}}
	m.MarkDecoded(raw)
	return m, nil
}

// decodeItem decodes one element of input, raw, split as split if that
// is not nil, as one message.
func decodeItem(raw []byte, split *rawjson.Object) (chat.Message, error) {
	obj, err := rawjson.ObjectOf(split, raw)
	if err != nil {
		return chat.Message{}, fmt.Errorf("not an object: %w", chat.ErrShape)
	}
	switch typ := itemType(obj); typ {
	case typeMessage:
		return decodeMessage(obj, raw)
	case typeReasoning:
		return item(raw, chat.RoleAssistant, reasoning(obj, raw)), nil
	case typeFunctionCall, typeCustomCall, typeLocalShellCall, typeShellCall:
		return item(raw, chat.RoleAssistant, call(obj, raw, typ)), nil
	case typeFunctionOutput, typeCustomOutput, typeLocalShellOut:
		return item(raw, chat.RoleTool, output(obj, raw, typ)), nil
	default:
		return item(raw, opaqueRole(typ), opaque(raw, typ)), nil
	}
}

// itemType returns obj's type: its type member, else message for an
// object with a role (the API's EasyInputMessage), else item_reference
// (whose type may be null).
func itemType(obj *rawjson.Object) string {
	if typ, ok := str(obj, "type"); ok {
		return typ
	}
	if _, ok := obj.Get("role"); ok {
		return typeMessage
	}
	return typeItemReference
}

// item returns the message of the one part p, decoded from raw.
func item(raw []byte, role chat.Role, p chat.Part) chat.Message {
	m := chat.Message{Role: role, Parts: []chat.Part{p}}
	m.MarkDecoded(raw)
	return m
}

// opaque returns an item the codec does not model as one Unknown part.
func opaque(raw []byte, typ string) chat.Part {
	p := chat.Part{Type: chat.Unknown}
	p.MarkDecoded(raw, typ)
	return p
}

// opaqueRole is the role of an item the codec does not model: tool for an
// output (computer_call_output, shell_call_output, ...), so that it reads
// as the answer to a call, and assistant for the rest, which are the
// model's own (hosted tool calls, references to its output items).
func opaqueRole(typ string) chat.Role {
	if strings.HasSuffix(typ, "_output") {
		return chat.RoleTool
	}
	return chat.RoleAssistant
}

func decodeMessage(obj *rawjson.Object, raw []byte) (chat.Message, error) {
	role, ok := str(obj, "role")
	if !ok {
		return chat.Message{}, fmt.Errorf("message without a string role: %w", chat.ErrShape)
	}
	cv, _ := obj.Get("content")
	parts, err := decodeContent(cv, textType(chat.Role(role)))
	if err != nil {
		return chat.Message{}, fmt.Errorf("content: %w", err)
	}
	m := chat.Message{Role: chat.Role(role), Parts: parts}
	m.MarkDecoded(raw)
	return m, nil
}

// textType is the type of a text part in a message of role: the model's
// own text is output_text, everything else input_text.
func textType(role chat.Role) string {
	if role == chat.RoleAssistant {
		return "output_text"
	}
	return "input_text"
}

// decodeContent decodes a content value: a string is one Text part (whose
// wire type is stringType, the type it has in an array), an array its
// parts, null or absent nothing.
func decodeContent(v []byte, stringType string) ([]chat.Part, error) {
	switch {
	case rawjson.IsNull(v):
		return nil, nil
	case v[0] == '"':
		s, _ := rawjson.String(v)
		p := chat.NewText(s)
		p.MarkDecoded(v, stringType)
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

// decodePart decodes one content part: input_text, output_text and
// refusal are Text, input_image an Image and input_file a Document, both
// opaque; anything else (input_audio, ...) is Unknown.
func decodePart(raw []byte) chat.Part {
	p := chat.Part{Type: chat.Unknown}
	obj, err := rawjson.ParseObject(raw)
	if err != nil {
		p.MarkDecoded(raw, "")
		return p
	}
	typ, _ := str(obj, "type")
	switch typ {
	case "input_text", "output_text", "refusal":
		if s, ok := str(obj, textKey(typ)); ok {
			p = chat.NewText(s)
		}
	case "input_image":
		p.Type = chat.Image
	case "input_file":
		p.Type = chat.Document
	}
	p.MarkDecoded(raw, typ)
	return p
}

// textKey is the member holding the text of a part of type typ.
func textKey(typ string) string {
	if typ == "refusal" {
		return "refusal"
	}
	return "text"
}

// reasoning decodes a reasoning item: RedactedThinking with Data =
// encrypted_content if it has that, else Thinking; Text is the summary.
func reasoning(obj *rawjson.Object, raw []byte) chat.Part {
	p := chat.Part{Type: chat.Thinking, Text: summaryText(obj)}
	if s, ok := str(obj, "encrypted_content"); ok {
		p.Type, p.Data = chat.RedactedThinking, s
	}
	p.MarkDecoded(raw, typeReasoning)
	return p
}

// summaryText joins the texts of a reasoning item's summary.
func summaryText(obj *rawjson.Object) string {
	v, _ := obj.Get("summary")
	elems, err := rawjson.Elements(v)
	if err != nil {
		return ""
	}
	var texts []string
	for _, e := range elems {
		if so, err := rawjson.ParseObject(e); err == nil {
			if s, ok := str(so, "text"); ok {
				texts = append(texts, s)
			}
		}
	}
	return strings.Join(texts, summarySep)
}

// call decodes a call item of type typ as a ToolCall, or as an Unknown
// part if it lacks what the model needs.
//
//   - function_call: Name = name, Input = the content of the arguments
//     string, so that it reads like Anthropic's input;
//   - custom_tool_call: Name = name, Input = the input string's text,
//     which is free text (a patch, say), not JSON;
//   - local_shell_call, shell_call: Name = the tool (local_shell, shell),
//     Input = the action object.
func call(obj *rawjson.Object, raw []byte, typ string) chat.Part {
	id, ok := str(obj, "call_id")
	p := chat.Part{Type: chat.ToolCall, ID: id}
	switch typ {
	case typeFunctionCall, typeCustomCall:
		key := "arguments"
		if typ == typeCustomCall {
			key = "input"
		}
		name, okName := str(obj, "name")
		input, okInput := str(obj, key)
		p.Name, p.Input = name, json.RawMessage(input)
		ok = ok && okName && okInput
	default:
		p.Name = strings.TrimSuffix(typ, "_call")
		action, okAction := obj.Get("action")
		p.Input = bytes.Clone(action)
		ok = ok && okAction && action[0] == '{'
	}
	if !ok {
		p = chat.Part{Type: chat.Unknown}
	}
	p.MarkDecoded(raw, typ)
	return p
}

// output decodes a function_call_output, custom_tool_call_output or
// local_shell_call_output as a ToolResult with ID = call_id: a string
// output is one Text part, an array its parts. One without a call_id, or
// whose output is neither, is an Unknown part.
func output(obj *rawjson.Object, raw []byte, typ string) chat.Part {
	id, ok := str(obj, "call_id")
	v, _ := obj.Get("output")
	if !ok || rawjson.IsNull(v) || (v[0] != '"' && v[0] != '[') {
		return opaque(raw, typ)
	}
	content, err := decodeContent(v, "input_text")
	if err != nil {
		return opaque(raw, typ)
	}
	p := chat.Part{Type: chat.ToolResult, ID: id, Content: content}
	p.MarkDecoded(raw, typ)
	return p
}

// str returns obj's member key if it is a string.
func str(obj *rawjson.Object, key string) (string, bool) {
	v, ok := obj.Get(key)
	if !ok {
		return "", false
	}
	return rawjson.String(v)
}
