package traj

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// sweEntry is one entry of a SWE-agent .traj history.
type sweEntry struct {
	Role        string          `json:"role"`
	Content     json.RawMessage `json:"content"`
	ToolCalls   json.RawMessage `json:"tool_calls"`
	ToolCallIDs json.RawMessage `json:"tool_call_ids"`
}

// openAIOut is an OpenAI message as the loaders write it.
type openAIOut struct {
	Role       string       `json:"role"`
	Content    string       `json:"content"`
	ToolCalls  []openAICall `json:"tool_calls,omitempty"`
	ToolCallID string       `json:"tool_call_id,omitempty"`
}

// parseSWEAgent reads a SWE-agent .traj record. Its history is what the
// model was sent: in the text form, assistant messages carry the thought
// and the command as text and observations are user messages; in the
// function-calling form, assistant messages carry tool_calls (a list, or
// a list stringified as JSON or as a Python literal by some versions) and
// observations are tool messages naming their calls in tool_call_ids.
// Both become OpenAI messages; an observation answering several calls
// becomes one tool message per call, each with the whole output. The
// file does not hold the tools' JSON schemas, so the trajectory has none.
func parseSWEAgent(rec map[string]json.RawMessage) (Trajectory, error) {
	var hist []sweEntry
	if err := json.Unmarshal(rec["history"], &hist); err != nil {
		return Trajectory{}, fmt.Errorf("history: want an array of messages: %w", err)
	}
	if len(hist) == 0 {
		return Trajectory{}, errors.New("history: no messages")
	}
	var msgs []json.RawMessage
	for i, e := range hist {
		out, err := sweMessages(e)
		if err != nil {
			return Trajectory{}, fmt.Errorf("history[%d]: %w", i, err)
		}
		msgs = append(msgs, out...)
	}
	t := Trajectory{Format: FormatSWEAgent, Dialect: OpenAI, Model: sweModel(rec), Messages: msgs}
	if err := t.Validate(); err != nil {
		return Trajectory{}, err
	}
	return t, nil
}

func sweMessages(e sweEntry) ([]json.RawMessage, error) {
	text, err := openAIText(e.Content)
	if err != nil {
		return nil, err
	}
	var outs []openAIOut
	switch e.Role {
	case "system", "user":
		outs = []openAIOut{{Role: e.Role, Content: text}}
	case "assistant":
		calls, err := sweToolCalls(e.ToolCalls)
		if err != nil {
			return nil, fmt.Errorf("tool_calls: %w", err)
		}
		outs = []openAIOut{{Role: "assistant", Content: text, ToolCalls: calls}}
	case "tool":
		var ids []string
		if err := json.Unmarshal(e.ToolCallIDs, &ids); err != nil || len(ids) == 0 {
			return nil, errors.New("tool message without tool_call_ids")
		}
		for _, id := range ids {
			outs = append(outs, openAIOut{Role: "tool", Content: text, ToolCallID: id})
		}
	default:
		return nil, fmt.Errorf("role %q: want system, user, assistant or tool", e.Role)
	}
	msgs := make([]json.RawMessage, len(outs))
	for i, o := range outs {
		if msgs[i], err = marshal(o); err != nil {
			return nil, err
		}
	}
	return msgs, nil
}

// sweToolCalls reads the tool_calls of a SWE-agent history entry: null, a
// list, or a string holding the list as JSON or as a Python literal.
func sweToolCalls(raw json.RawMessage) ([]openAICall, error) {
	if isNull(raw) {
		return nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		s = string(bytes.TrimSpace([]byte(s)))
		if s == "" || s == "None" || s == "null" {
			return nil, nil
		}
		if !json.Valid([]byte(s)) {
			conv, err := pythonToJSON(s)
			if err != nil {
				return nil, fmt.Errorf("stringified list is neither JSON nor a Python literal: %w", err)
			}
			s = string(conv)
		}
		raw = json.RawMessage(s)
	}
	var calls []struct {
		ID       string          `json:"id"`
		Type     string          `json:"type"`
		Function json.RawMessage `json:"function"`
	}
	if err := json.Unmarshal(raw, &calls); err != nil {
		return nil, fmt.Errorf("want a list of calls: %w", err)
	}
	out := make([]openAICall, len(calls))
	for i, c := range calls {
		var f struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal(c.Function, &f); err != nil {
			return nil, fmt.Errorf("[%d].function: %w", i, err)
		}
		args, err := argumentsText(f.Arguments)
		if err != nil {
			return nil, fmt.Errorf("[%d].function.arguments: %w", i, err)
		}
		if c.ID == "" || f.Name == "" {
			return nil, fmt.Errorf("[%d]: want an id and a function name", i)
		}
		out[i] = openAICall{ID: c.ID, Type: "function", Function: openAIFunction{Name: f.Name, Arguments: args}}
	}
	return out, nil
}

// argumentsText returns a call's arguments as the JSON text the Chat
// Completions API carries: a string is kept, an object is encoded.
func argumentsText(raw json.RawMessage) (string, error) {
	if isNull(raw) {
		return "{}", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	c, err := dropNulls(raw)
	if err != nil {
		return "", err
	}
	return string(c), nil
}

// sweModel returns the model name in a .traj's replay_config, if any.
// SWE-agent's stand-ins for a model (replay, human, instant_empty_submit)
// name none.
func sweModel(rec map[string]json.RawMessage) string {
	cfg := rec["replay_config"]
	var s string
	if json.Unmarshal(cfg, &s) == nil {
		cfg = json.RawMessage(s)
	}
	var c struct {
		Agent struct {
			Model struct {
				Name string `json:"name"`
			} `json:"model"`
		} `json:"agent"`
	}
	if json.Unmarshal(cfg, &c) != nil {
		return ""
	}
	switch name := c.Agent.Model.Name; name {
	case "replay", "human", "human_thought", "instant_empty_submit":
		return ""
	default:
		return name
	}
}
