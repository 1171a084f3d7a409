package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// A request is the part of a Messages API request body the fake reads. Content blocks
// keep their raw JSON, for the prefix hash and for the types the fake does not know.
type request struct {
	Model             string             `json:"model"`
	System            json.RawMessage    `json:"system"`
	Tools             []json.RawMessage  `json:"tools"`
	Messages          []message          `json:"messages"`
	Thinking          *thinkingConfig    `json:"thinking"`
	ContextManagement *contextManagement `json:"context_management"`
	Stream            bool               `json:"stream"`
}

type thinkingConfig struct {
	Type    string `json:"type"` // enabled, adaptive, disabled
	Display string `json:"display"`
}

// enabled reports whether the request asks for thinking.
func (t *thinkingConfig) enabled() bool {
	return t != nil && (t.Type == "enabled" || t.Type == "adaptive")
}

// omitted reports whether thinking text is left out of the response (the signature still
// carries it).
func (t *thinkingConfig) omitted() bool { return t != nil && t.Display == "omitted" }

type contextManagement struct {
	Edits []json.RawMessage `json:"edits"`
}

// A message is one entry of messages. Content is a string or an array of blocks; Blocks
// holds the array, or one text block for a string.
type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	Blocks  []block         `json:"-"`
}

// A block is one content block.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	Thinking  string          `json:"thinking,omitempty"`
	Signature string          `json:"signature,omitempty"`
	Data      string          `json:"data,omitempty"` // redacted_thinking
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"` // tool_result: a string or blocks
	IsError   bool            `json:"is_error,omitempty"`

	raw json.RawMessage
}

// decodeRequest decodes body and the content of every message.
func decodeRequest(body []byte) (*request, error) {
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("the body is not a Messages request: %w", err)
	}
	for i := range req.Messages {
		m := &req.Messages[i]
		blocks, err := decodeContent(m.Content)
		if err != nil {
			return nil, fmt.Errorf("messages.%d.content: %w", i, err)
		}
		m.Blocks = blocks
	}
	return &req, nil
}

// decodeContent decodes a content field: a string becomes one text block.
func decodeContent(raw json.RawMessage) ([]block, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		return []block{{Type: "text", Text: s, raw: raw}}, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(raw, &raws); err != nil {
		return nil, err
	}
	blocks := make([]block, len(raws))
	for i, r := range raws {
		if err := json.Unmarshal(r, &blocks[i]); err != nil {
			return nil, fmt.Errorf("block %d: %w", i, err)
		}
		blocks[i].raw = r
	}
	return blocks, nil
}

// contentText returns the text of a tool_result's content: the string, or its text blocks
// joined, other blocks as their JSON.
func contentText(raw json.RawMessage) string {
	blocks, err := decodeContent(raw)
	if err != nil {
		return string(raw)
	}
	var b bytes.Buffer
	for i, bl := range blocks {
		if i > 0 {
			b.WriteByte('\n')
		}
		if bl.Type == "text" {
			b.WriteString(bl.Text)
		} else {
			b.Write(bl.raw)
		}
	}
	return b.String()
}
