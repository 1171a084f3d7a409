package traj

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// A Message is what the benchmark reads of one wire message: who speaks,
// the text, the tool calls it makes and the tool results it carries. It
// is a read-only view for measuring; the conversation model proper is
// internal/chat.
type Message struct {
	Role    string   // system, developer, user, assistant, tool or function (OpenAI); user or assistant (Anthropic)
	Text    string   // text content (text parts, refusals, thinking), parts joined by "\n"
	Calls   []Call   // tool calls: OpenAI tool_calls and function_call, Anthropic tool_use blocks
	Results []Result // tool results: an OpenAI tool (or function) message is one; Anthropic tool_result blocks
}

// A Call is one tool call.
type Call struct {
	ID    string // empty for a legacy OpenAI function_call
	Name  string
	Input string // the arguments as JSON text
}

// A Result is one tool result.
type Result struct {
	ID    string // the call it answers: tool_call_id, tool_use_id, or a legacy function's name
	Text  string
	Error bool // Anthropic is_error
}

// ParseMessage reads one message of dialect. It fails on messages the
// dialect's API would reject for their shape: an unknown role, content
// that is neither a string nor a list of parts, a tool call without an id
// or name, a tool result without the id of its call.
func ParseMessage(dialect string, raw json.RawMessage) (Message, error) {
	switch dialect {
	case OpenAI:
		return parseOpenAI(raw)
	case Anthropic:
		return parseAnthropic(raw)
	}
	return Message{}, fmt.Errorf("unknown dialect %q: want %q or %q", dialect, OpenAI, Anthropic)
}

type openAIMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCalls  []openAICall    `json:"tool_calls"`
	ToolCallID string          `json:"tool_call_id"`
	Name       string          `json:"name"`
	// FunctionCall is the legacy form of a single tool call.
	FunctionCall *openAIFunction `json:"function_call"`
}

type openAICall struct {
	ID       string         `json:"id"`
	Type     string         `json:"type"`
	Function openAIFunction `json:"function"`
}

type openAIFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

func parseOpenAI(raw json.RawMessage) (Message, error) {
	var m openAIMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return Message{}, fmt.Errorf("openai message: %w", err)
	}
	text, err := openAIText(m.Content)
	if err != nil {
		return Message{}, err
	}
	out := Message{Role: m.Role}
	switch m.Role {
	case "system", "developer", "user":
		out.Text = text
	case "assistant":
		out.Text = text
		for i, c := range m.ToolCalls {
			if c.ID == "" || c.Function.Name == "" {
				return Message{}, fmt.Errorf("tool_calls[%d]: want an id and a function name", i)
			}
			out.Calls = append(out.Calls, Call{ID: c.ID, Name: c.Function.Name, Input: c.Function.Arguments})
		}
		if f := m.FunctionCall; f != nil {
			out.Calls = append(out.Calls, Call{Name: f.Name, Input: f.Arguments})
		}
	case "tool":
		if m.ToolCallID == "" {
			return Message{}, errors.New("tool message without tool_call_id")
		}
		out.Results = []Result{{ID: m.ToolCallID, Text: text}}
	case "function":
		out.Results = []Result{{ID: m.Name, Text: text}}
	default:
		return Message{}, fmt.Errorf("openai message with role %q: want system, developer, user, assistant or tool", m.Role)
	}
	return out, nil
}

// openAIText returns the text of OpenAI content: a string, null, or a
// list of parts (text and refusal parts count; images and audio do not).
func openAIText(content json.RawMessage) (string, error) {
	if isNull(content) {
		return "", nil
	}
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Refusal string `json:"refusal"`
	}
	if err := json.Unmarshal(content, &parts); err != nil {
		return "", fmt.Errorf("content: want a string or a list of parts: %w", err)
	}
	var texts []string
	for i, p := range parts {
		switch p.Type {
		case "text", "input_text", "output_text":
			texts = append(texts, p.Text)
		case "refusal":
			texts = append(texts, p.Refusal)
		case "":
			return "", fmt.Errorf("content[%d]: part without a type", i)
		}
	}
	return strings.Join(texts, "\n"), nil
}

type anthropicMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

func parseAnthropic(raw json.RawMessage) (Message, error) {
	var m anthropicMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return Message{}, fmt.Errorf("anthropic message: %w", err)
	}
	if m.Role != "user" && m.Role != "assistant" {
		return Message{}, fmt.Errorf("anthropic message with role %q: want user or assistant", m.Role)
	}
	if isNull(m.Content) {
		return Message{}, errors.New("anthropic message without content")
	}
	out := Message{Role: m.Role}
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		out.Text = s
		return out, nil
	}
	var blocks []anthropicBlock
	if err := json.Unmarshal(m.Content, &blocks); err != nil {
		return Message{}, fmt.Errorf("content: want a string or a list of blocks: %w", err)
	}
	var texts []string
	for i, b := range blocks {
		switch b.Type {
		case "text":
			texts = append(texts, b.Text)
		case "thinking":
			texts = append(texts, b.Thinking)
		case "tool_use", "server_tool_use", "mcp_tool_use":
			if b.ID == "" || b.Name == "" {
				return Message{}, fmt.Errorf("content[%d]: %s block without id or name", i, b.Type)
			}
			out.Calls = append(out.Calls, Call{ID: b.ID, Name: b.Name, Input: string(bytes.TrimSpace(b.Input))})
		case "tool_result", "mcp_tool_result":
			if b.ToolUseID == "" {
				return Message{}, fmt.Errorf("content[%d]: %s block without tool_use_id", i, b.Type)
			}
			text, err := blocksText(b.Content)
			if err != nil {
				return Message{}, fmt.Errorf("content[%d]: %w", i, err)
			}
			out.Results = append(out.Results, Result{ID: b.ToolUseID, Text: text, Error: b.IsError})
		case "":
			return Message{}, fmt.Errorf("content[%d]: block without a type", i)
		}
	}
	out.Text = strings.Join(texts, "\n")
	return out, nil
}

// blocksText returns the text of Anthropic content that is a string or a
// list of blocks (a tool result's content, a system prompt).
func blocksText(content json.RawMessage) (string, error) {
	if isNull(content) {
		return "", nil
	}
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s, nil
	}
	var blocks []anthropicBlock
	if err := json.Unmarshal(content, &blocks); err != nil {
		return "", fmt.Errorf("content: want a string or a list of blocks: %w", err)
	}
	var texts []string
	for _, b := range blocks {
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n"), nil
}

// systemText returns the text of an Anthropic system prompt.
func systemText(raw json.RawMessage) (string, error) { return blocksText(raw) }
