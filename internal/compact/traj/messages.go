package traj

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Content part and block types that only one dialect has. "text" is in
// both.
var (
	openAIOnlyParts    = []string{"image_url", "input_audio", "refusal", "file", "input_text", "output_text"}
	anthropicOnlyParts = []string{
		"tool_use", "tool_result", "thinking", "redacted_thinking", "image", "document",
		"server_tool_use", "web_search_tool_result", "mcp_tool_use", "mcp_tool_result", "search_result",
	}
)

// parseMessageList reads one conversation given as a list of messages in
// either dialect; model and tools come from the record around it, if any.
// Messages that only carry text are written as Anthropic messages when a
// Claude model produced them, and as OpenAI messages otherwise.
func parseMessageList(items []json.RawMessage, model string, tools []json.RawMessage) (Trajectory, error) {
	if len(items) == 0 {
		return Trajectory{}, errors.New("no messages")
	}
	msgs := make([]json.RawMessage, len(items))
	for i, item := range items {
		m, err := dropNulls(item)
		if err != nil {
			return Trajectory{}, fmt.Errorf("message %d: %w", i, err)
		}
		msgs[i] = m
	}
	cleaned := make([]json.RawMessage, len(tools))
	for i, tool := range tools {
		c, err := dropNulls(tool)
		if err != nil {
			return Trajectory{}, fmt.Errorf("tools[%d]: %w", i, err)
		}
		cleaned[i] = c
	}
	dialect, err := detectDialect(msgs)
	if err != nil {
		return Trajectory{}, err
	}
	if dialect == "" {
		dialect = OpenAI
		if strings.HasPrefix(strings.ToLower(model), "claude") {
			dialect = Anthropic
		}
	}
	t := Trajectory{Format: FormatOpenAIMessages, Dialect: dialect, Model: model, Tools: cleaned, Messages: msgs}
	if dialect == Anthropic {
		t.Format = FormatAnthropicMessages
		if t.System, t.Messages, err = splitSystem(msgs); err != nil {
			return Trajectory{}, err
		}
		if t.Tools, err = AnthropicTools(cleaned); err != nil {
			return Trajectory{}, err
		}
	}
	if err := t.Validate(); err != nil {
		return Trajectory{}, err
	}
	return t, nil
}

// detectDialect tells OpenAI from Anthropic messages by the shapes only
// one of them has; it returns "" when the messages only carry text, which
// both read alike.
func detectDialect(msgs []json.RawMessage) (string, error) {
	openai, anthropic := -1, -1
	for i, raw := range msgs {
		var m struct {
			Role         string          `json:"role"`
			Content      json.RawMessage `json:"content"`
			ToolCalls    json.RawMessage `json:"tool_calls"`
			ToolCallID   json.RawMessage `json:"tool_call_id"`
			FunctionCall json.RawMessage `json:"function_call"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return "", fmt.Errorf("message %d: want an object: %w", i, err)
		}
		if m.Role == "" {
			return "", fmt.Errorf("message %d: no role", i)
		}
		isOpenAI := m.Role == "tool" || m.Role == "function" || m.Role == "developer" ||
			m.ToolCalls != nil || m.ToolCallID != nil || m.FunctionCall != nil
		isAnthropic := false
		var parts []struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(m.Content, &parts) == nil {
			for _, p := range parts {
				isOpenAI = isOpenAI || slices.Contains(openAIOnlyParts, p.Type)
				isAnthropic = isAnthropic || slices.Contains(anthropicOnlyParts, p.Type)
			}
		}
		if isOpenAI && openai < 0 {
			openai = i
		}
		if isAnthropic && anthropic < 0 {
			anthropic = i
		}
	}
	switch {
	case openai >= 0 && anthropic >= 0:
		return "", fmt.Errorf("message %d has OpenAI shapes and message %d Anthropic ones: one conversation must be in one dialect", openai, anthropic)
	case openai >= 0:
		return OpenAI, nil
	case anthropic >= 0:
		return Anthropic, nil
	}
	return "", nil
}

// splitSystem takes the leading system messages out of a list bound for
// the Messages API, which takes the system prompt apart.
func splitSystem(msgs []json.RawMessage) (string, []json.RawMessage, error) {
	var system []string
	n := 0
	for ; n < len(msgs); n++ {
		var m struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(msgs[n], &m); err != nil {
			return "", nil, fmt.Errorf("message %d: %w", n, err)
		}
		if m.Role != "system" {
			break
		}
		text, err := blocksText(m.Content)
		if err != nil {
			return "", nil, fmt.Errorf("message %d: system %w", n, err)
		}
		system = append(system, text)
	}
	return joinNonEmpty("\n\n", system...), msgs[n:], nil
}

// AnthropicTools writes tool definitions in the Messages API's shape
// (name, description, input_schema): a Chat Completions definition
// ({type: function, function: {name, description, parameters}}) is
// converted, with an empty object schema when it has no parameters; a
// definition already in the Messages shape is kept.
func AnthropicTools(tools []json.RawMessage) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(tools))
	for i, raw := range tools {
		var t struct {
			Type     string `json:"type"`
			Name     string `json:"name"`
			Function *struct {
				Name        string          `json:"name"`
				Description string          `json:"description,omitempty"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		}
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, fmt.Errorf("tools[%d]: %w", i, err)
		}
		if t.Function == nil {
			if t.Name == "" {
				return nil, fmt.Errorf("tools[%d]: no name", i)
			}
			out[i] = raw
			continue
		}
		schema := t.Function.Parameters
		if isNull(schema) {
			schema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		conv, err := marshal(struct {
			Name        string          `json:"name"`
			Description string          `json:"description,omitempty"`
			InputSchema json.RawMessage `json:"input_schema"`
		}{t.Function.Name, t.Function.Description, schema})
		if err != nil {
			return nil, fmt.Errorf("tools[%d]: %w", i, err)
		}
		out[i] = conv
	}
	return out, nil
}
