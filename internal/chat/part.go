package chat

import (
	"encoding/json"
	"fmt"
	"strings"
)

// A PartType says what a Part holds.
type PartType string

// The part types. Every block a codec does not model is Unknown and
// travels through untouched.
const (
	Text             PartType = "text"              // visible text (also an OpenAI refusal)
	Thinking         PartType = "thinking"          // reasoning text, with a Signature on Anthropic
	RedactedThinking PartType = "redacted_thinking" // encrypted reasoning: Data only
	ToolCall         PartType = "tool_call"         // a call the assistant made: ID, Name, Input
	ToolResult       PartType = "tool_result"       // the answer to a call: ID, IsError, Content
	Image            PartType = "image"             // an image; opaque
	Document         PartType = "document"          // a document or file; opaque
	Unknown          PartType = "unknown"           // any other block; opaque
)

// A Part is one block of a message's content.
//
// Which fields mean something depends on Type: Text for Text and Thinking
// (the reasoning text); Signature for Thinking; Data for RedactedThinking;
// ID, Name and Input for ToolCall; ID, Name, IsError and Content for
// ToolResult. Image, Document and Unknown parts are opaque: their bytes
// are kept as decoded and only Type is meaningful.
//
// Assigning to any field marks the part modified (see the package
// documentation); a pass never has to say so.
type Part struct {
	Type PartType

	// Text is the text of a Text part or the reasoning of a Thinking part.
	Text string
	// Signature authenticates an Anthropic thinking block.
	Signature string
	// Data is the encrypted payload of a redacted thinking block.
	Data string

	// ID identifies a tool call; on a ToolResult, the call it answers
	// (Anthropic tool_use_id, OpenAI tool_call_id).
	ID string
	// Name is the tool's name on a ToolCall, and on an OpenAI tool or
	// function message's ToolResult.
	Name string
	// Input holds a tool call's arguments as exact JSON bytes. For OpenAI,
	// whose arguments are a JSON string, Input is that string's content.
	Input json.RawMessage
	// IsError marks a tool result that reports a failure.
	IsError bool
	// Content is a tool result's content. A tool result whose content was a
	// plain string has one Text part.
	Content []Part

	orig *partOrigin
}

// NewText returns a new Text part.
func NewText(s string) Part {
	return Part{Type: Text, Text: s}
}

// PlainText returns the text a model reads from p: the text of Text and
// Thinking parts, a tool call's input, and the text of a tool result's
// content joined by newlines. Redacted thinking, images, documents and
// unknown blocks have none.
func (p *Part) PlainText() string {
	switch p.Type {
	case Text, Thinking:
		return p.Text
	case ToolCall:
		return string(p.Input)
	case ToolResult:
		if len(p.Content) == 1 {
			return p.Content[0].PlainText() // no copy of a long output
		}
		var b strings.Builder
		for i := range p.Content {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(p.Content[i].PlainText())
		}
		return b.String()
	}
	return ""
}

// TextLen returns len(p.PlainText()) without building the string.
func (p *Part) TextLen() int {
	switch p.Type {
	case Text, Thinking:
		return len(p.Text)
	case ToolCall:
		return len(p.Input)
	case ToolResult:
		n := 0
		for i := range p.Content {
			if i > 0 {
				n++
			}
			n += p.Content[i].TextLen()
		}
		return n
	}
	return 0
}

// ReplaceContent replaces what p says with placeholder: a tool result's
// content becomes one Text part (its ID and IsError stay), a Text part's
// text becomes placeholder. Other parts cannot be replaced in place; a pass
// that wants to drop an image puts a NewText part in its place instead.
func (p *Part) ReplaceContent(placeholder string) error {
	switch p.Type {
	case ToolResult:
		p.Content = []Part{NewText(placeholder)}
	case Text:
		p.Text = placeholder
	default:
		return fmt.Errorf("replace content of a %s part: only tool results and text can be replaced", p.Type)
	}
	return nil
}
