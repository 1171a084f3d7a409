package chat

import (
	"encoding/json"
	"errors"
)

// A Dialect names the wire format a conversation travels in.
type Dialect string

// The dialects winnow speaks.
const (
	Anthropic Dialect = "anthropic" // Anthropic Messages API, POST /v1/messages
	OpenAI    Dialect = "openai"    // OpenAI Chat Completions API, POST /v1/chat/completions
	Responses Dialect = "responses" // OpenAI Responses API, POST /v1/responses
)

// Errors the codecs wrap; a proxy forwards the original bytes on either.
var (
	// ErrMalformed reports a body that is not valid JSON.
	ErrMalformed = errors.New("malformed JSON")
	// ErrShape reports valid JSON that is not a request of the dialect: a
	// body that is not an object, messages that are not an array, a message
	// without a role.
	ErrShape = errors.New("not a request of this API")
)

// A Field is one top-level member of a request other than its messages
// (and, for Anthropic, its system prompt): model, max_tokens, tools,
// stream, metadata, temperature, thinking, or anything else.
type Field struct {
	Name  string
	Value json.RawMessage
}

// A Conversation is one request to an LLM API: the conversation so far and
// the request's other fields.
type Conversation struct {
	Dialect Dialect
	// System is Anthropic's top-level system prompt: one Text part for a
	// string, the blocks otherwise. It is always empty for OpenAI, whose
	// system and developer messages stay in Messages where they were (and
	// whose Responses API instructions are a Field).
	System   []Part
	Messages []Message
	// Fields are the request's other top-level members, in their original
	// order, with their exact bytes.
	Fields []Field

	orig *convOrigin
}

// Field returns the value of the top-level field name.
func (c *Conversation) Field(name string) (json.RawMessage, bool) {
	for i := len(c.Fields) - 1; i >= 0; i-- {
		if c.Fields[i].Name == name {
			return c.Fields[i].Value, true
		}
	}
	return nil, false
}

// SetField sets the top-level field name to value, adding it at the end if
// the request lacks it.
func (c *Conversation) SetField(name string, value json.RawMessage) {
	for i := len(c.Fields) - 1; i >= 0; i-- {
		if c.Fields[i].Name == name {
			c.Fields[i].Value = value
			return
		}
	}
	c.Fields = append(c.Fields, Field{Name: name, Value: value})
}

// TextLen returns the summed TextLen of the system prompt and messages.
func (c *Conversation) TextLen() int {
	n := 0
	for i := range c.System {
		n += c.System[i].TextLen()
	}
	for i := range c.Messages {
		n += c.Messages[i].TextLen()
	}
	return n
}

// Clone returns a deep copy of c that a pass may change freely. The copy
// remembers the same original bytes, so whatever it leaves alone still
// encodes byte for byte as decoded, and Validate can line it up with c.
func (c *Conversation) Clone() *Conversation {
	out := &Conversation{
		Dialect:  c.Dialect,
		System:   cloneParts(c.System),
		Messages: make([]Message, len(c.Messages)),
		Fields:   make([]Field, len(c.Fields)),
		orig:     c.orig,
	}
	for i, m := range c.Messages {
		out.Messages[i] = Message{Role: m.Role, Parts: cloneParts(m.Parts), orig: m.orig}
	}
	for i, f := range c.Fields {
		out.Fields[i] = Field{Name: f.Name, Value: cloneBytes(f.Value)}
	}
	return out
}

func cloneParts(ps []Part) []Part {
	if ps == nil {
		return nil
	}
	out := make([]Part, len(ps))
	for i, p := range ps {
		p.Input = cloneBytes(p.Input)
		p.Content = cloneParts(p.Content)
		out[i] = p
	}
	return out
}

func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}
