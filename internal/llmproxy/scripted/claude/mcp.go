package claude

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// A ToolCall is one call the scripted model makes of a tool the client offers, by its
// name in the request's tools: for an MCP tool, Claude Code's mcp__<server>__<tool>.
type ToolCall struct {
	Name  string
	Input map[string]any
}

// A ToolResult is what the client sent back to the model for one scripted call: the
// tool_result block's content, as it came, the first time a request carried it.
type ToolResult struct {
	Step    int
	Tool    string
	Content json.RawMessage // a string or an array of content blocks
	IsError bool
}

// Text returns the result's text: the string, or its text blocks joined by newlines
// (other blocks as their JSON).
func (r ToolResult) Text() string { return contentText(r.Content) }

// callsTurn is the response for step i of a script of Calls: the i-th call, then the
// final answer once every call is answered. A call of a tool the request does not offer
// ends the script with a text answer saying so, which the caller can see in the result.
func (s Script) callsTurn(i int, tools map[string]json.RawMessage) turn {
	if i >= len(s.Calls) {
		return turn{
			thinking: fmt.Sprintf("All %d tool calls are answered; I can summarise what they returned.", len(s.Calls)),
			text:     fmt.Sprintf("Done: %d tool calls.", len(s.Calls)),
		}
	}
	c := s.Calls[i]
	if _, ok := tools[c.Name]; !ok {
		return turn{
			thinking: fmt.Sprintf("Step %d wants the tool %s, which this client does not offer.", i+1, c.Name),
			text:     fmt.Sprintf("Stopped: the client offers no tool %s (it offers %v).", c.Name, slices.Sorted(maps.Keys(tools))),
		}
	}
	input := make(map[string]any, len(c.Input))
	for k, v := range c.Input {
		input[k] = v
	}
	return turn{
		thinking: fmt.Sprintf("Step %d of %d. I call %s to see what it returns.", i+1, len(s.Calls), c.Name),
		tool:     c.Name,
		input:    fillRequired(tools[c.Name], input),
	}
}

// offersCall reports whether the request offers one of the script's Calls: such a
// request is the main loop even without Read or Bash.
func (s Script) offersCall(tools map[string]json.RawMessage) bool {
	for _, c := range s.Calls {
		if _, ok := tools[c.Name]; ok {
			return true
		}
	}
	return false
}

// noteToolResults records, for each scripted call req answers for the first time, the
// tool_result the client sent.
func (a *API) noteToolResults(req *request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, m := range req.Messages {
		for _, b := range m.Blocks {
			if b.Type != "tool_result" {
				continue
			}
			u, ok := a.ledger.lookupToolUse(b.ToolUseID)
			if !ok || slices.ContainsFunc(a.results, func(r ToolResult) bool { return r.Step == u.step }) {
				continue
			}
			name := ""
			if u.step < len(a.opts.Script.Calls) {
				name = a.opts.Script.Calls[u.step].Name
			}
			a.results = append(a.results, ToolResult{Step: u.step, Tool: name, Content: b.Content, IsError: b.IsError})
		}
	}
}

// ToolResults returns the results the client sent back for the script's calls so far, by
// step.
func (a *API) ToolResults() []ToolResult {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := slices.Clone(a.results)
	slices.SortFunc(out, func(x, y ToolResult) int { return x.Step - y.Step })
	return out
}
