package compact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/winnowhq/winnow/internal/compact/traj"
)

// ToAnthropic returns t in the Anthropic Messages dialect, so that the
// thinking benchmark can replay every trajectory against Claude models.
// An Anthropic trajectory comes back as it is. OpenAI Chat messages are
// converted one for one, except where the Messages API has no
// counterpart:
//
//   - leading system and developer messages become System, joined by a
//     blank line; a later one becomes a user message with its text;
//   - an assistant message becomes a list of blocks: its text (when not
//     blank) as a text block, then one tool_use block per tool call,
//     whose input is the call's arguments when they parse as a JSON
//     object and {} otherwise;
//   - a run of tool messages becomes one user message of tool_result
//     blocks, in order, each naming the call it answers (tool_use_id);
//   - user messages keep their text, as a string;
//   - a tool call id that an earlier call already used (some recorded
//     runs repeat one) gets a suffix, "_2", "_3" and so on, in its
//     tool_use and in the result that answers it: the Messages API
//     rejects a repeated tool_use id.
//
// Tool definitions in the Chat Completions shape are written in the
// Messages API's (name, description, input_schema), as traj does for
// Anthropic trajectories. Images and audio are dropped: only text is
// kept. A legacy function_call or function message, which has no call id
// to pair on, is an error. ToAnthropic is a pure function of t; the
// result passes traj's Validate.
func ToAnthropic(t traj.Trajectory) (traj.Trajectory, error) {
	if t.Dialect == traj.Anthropic {
		return t, nil
	}
	if t.Dialect != traj.OpenAI {
		return traj.Trajectory{}, fmt.Errorf("to anthropic %s: unknown dialect %q", t.Name, t.Dialect)
	}
	out := t
	out.Dialect = traj.Anthropic
	out.Tools = nil
	out.Messages = nil
	var system []string
	var results []json.RawMessage // the tool_result blocks of a run of tool messages
	ids := newCallIDs()
	flush := func() error {
		if len(results) == 0 {
			return nil
		}
		m, err := encode(struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		}{"user", results})
		out.Messages = append(out.Messages, m)
		results = nil
		return err
	}
	for i, raw := range t.Messages {
		m, err := traj.ParseMessage(traj.OpenAI, raw)
		if err != nil {
			return traj.Trajectory{}, fmt.Errorf("to anthropic %s: message %d: %w", t.Name, i, err)
		}
		if m.Role == "tool" {
			b, err := encode(toolResultBlock{Type: "tool_result", ToolUseID: ids.result(m.Results[0].ID), Content: m.Results[0].Text})
			if err != nil {
				return traj.Trajectory{}, err
			}
			results = append(results, b)
			continue
		}
		if err := flush(); err != nil {
			return traj.Trajectory{}, err
		}
		var conv json.RawMessage
		switch {
		case m.Role == "function" || (m.Role == "assistant" && hasLegacyCall(raw)):
			return traj.Trajectory{}, fmt.Errorf("to anthropic %s: message %d: a legacy function call has no id to pair its result on", t.Name, i)
		case (m.Role == "system" || m.Role == "developer") && len(out.Messages) == 0:
			system = append(system, m.Text)
			continue
		case m.Role == "assistant":
			ids.calls(m.Calls)
			conv, err = assistantMessage(m)
		default: // user, or a system message amid the conversation
			conv, err = encode(textMessage{Role: "user", Content: m.Text})
		}
		if err != nil {
			return traj.Trajectory{}, fmt.Errorf("to anthropic %s: message %d: %w", t.Name, i, err)
		}
		out.Messages = append(out.Messages, conv)
	}
	if err := flush(); err != nil {
		return traj.Trajectory{}, err
	}
	out.System = joinNonBlank("\n\n", system)
	tools, err := traj.AnthropicTools(t.Tools)
	if err != nil {
		return traj.Trajectory{}, fmt.Errorf("to anthropic %s: %w", t.Name, err)
	}
	out.Tools = tools
	if err := out.Validate(); err != nil {
		return traj.Trajectory{}, fmt.Errorf("to anthropic %s: %w", t.Name, err)
	}
	return out, nil
}

type textMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type toolUseBlock struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

type toolResultBlock struct {
	Type      string `json:"type"`
	ToolUseID string `json:"tool_use_id"`
	Content   string `json:"content"`
}

// callIDs makes tool call ids unique across a conversation.
type callIDs struct {
	used    map[string]bool
	renamed map[string]string // the last assistant message's renamed ids, for its results
}

func newCallIDs() *callIDs { return &callIDs{used: make(map[string]bool)} }

// calls renames, in place, the calls whose id an earlier call used.
func (c *callIDs) calls(calls []traj.Call) {
	c.renamed = make(map[string]string)
	for k := range calls {
		id := calls[k].ID
		if !c.used[id] {
			c.used[id] = true
			continue
		}
		n := 2
		for c.used[fmt.Sprintf("%s_%d", id, n)] {
			n++
		}
		calls[k].ID = fmt.Sprintf("%s_%d", id, n)
		c.used[calls[k].ID] = true
		c.renamed[id] = calls[k].ID
	}
}

// result returns the id a tool result answering id pairs on.
func (c *callIDs) result(id string) string {
	if r, ok := c.renamed[id]; ok {
		return r
	}
	return id
}

// assistantMessage writes an assistant's text and tool calls as blocks.
func assistantMessage(m traj.Message) (json.RawMessage, error) {
	var blocks []any
	if strings.TrimSpace(m.Text) != "" {
		blocks = append(blocks, textBlock{Type: "text", Text: m.Text})
	}
	for _, c := range m.Calls {
		blocks = append(blocks, toolUseBlock{Type: "tool_use", ID: c.ID, Name: c.Name, Input: toolInput(c.Input)})
	}
	if len(blocks) == 0 {
		return encode(textMessage{Role: "assistant", Content: m.Text})
	}
	return encode(struct {
		Role    string `json:"role"`
		Content []any  `json:"content"`
	}{"assistant", blocks})
}

// toolInput returns a call's arguments as a tool_use input: the JSON
// object they hold, compacted, or {} when they hold anything else.
func toolInput(args string) json.RawMessage {
	args = strings.TrimSpace(args)
	var obj map[string]json.RawMessage
	if !strings.HasPrefix(args, "{") || json.Unmarshal([]byte(args), &obj) != nil || obj == nil {
		return json.RawMessage("{}")
	}
	var buf bytes.Buffer
	if json.Compact(&buf, []byte(args)) != nil {
		return json.RawMessage("{}")
	}
	return buf.Bytes()
}

// hasLegacyCall reports whether an OpenAI message carries the legacy
// function_call.
func hasLegacyCall(raw json.RawMessage) bool {
	var m struct {
		FunctionCall json.RawMessage `json:"function_call"`
	}
	return json.Unmarshal(raw, &m) == nil && len(m.FunctionCall) > 0 && string(m.FunctionCall) != "null"
}

func joinNonBlank(sep string, parts []string) string {
	var keep []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}
