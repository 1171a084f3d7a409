package compact

import (
	"encoding/json"
	"fmt"

	"github.com/winnowhq/winnow/internal/chat"
)

// Server-side context management, for the one case no client-side edit
// can serve: a model that binds every thinking block to its prefix
// (Preserved), where clearing an old tool result invalidates every later
// thinking block, the active tool loop's among them, and a tool loop that
// never ends (a coding agent's whole task is one). The API's own
// clear_tool_uses edit clears tool results on the server, after checking
// the blocks against what the client sent, so thinking stays valid: "the
// check compares what you sent, not the server's edited copy"
// (https://platform.claude.com/docs/en/build-with-claude/preserved-thinking,
// "What counts as an edit"; and "On Claude Fable 5.1 and Claude Opus 5.5,
// server-side context management never invalidates thinking blocks",
// https://platform.claude.com/docs/en/build-with-claude/context-editing).
//
// The edit is made sticky the same way as a client-side batch: the
// horizon is replayed as usual, and the edit keeps exactly the tool uses
// from the horizon on ("keep" counts the most recent tool uses; older
// ones are cleared), with a trigger every request past a batch reaches.
// Between batches the API clears the same results on every request, so
// the cached prefix holds; at a batch it clears more, once. clear_at_least
// is left out: the replay already decided the batch is worth its cache
// write (Payback), and the API's token count, not ours, would judge it.

// Names of the API's context-management protocol.
const (
	// BetaContextManagement is the anthropic-beta value the edits need.
	BetaContextManagement = "context-management-2025-06-27"
	editClearToolUses     = "clear_tool_uses_20250919"
)

// A ServerEdit is the clear_tool_uses edit a request asks the API for.
type ServerEdit struct {
	// Keep is the number of most recent tool uses the API keeps; it clears
	// the Cleared ones before them.
	Keep    int `json:"keep"`
	Cleared int `json:"cleared"`
	// Tokens is the estimated size of the tool results it clears.
	Tokens int `json:"tokens"`
	// Trigger is the input-token count above which the API applies it.
	Trigger int `json:"trigger"`
}

// serverMode reports whether st's request is compacted by a server-side
// edit instead of client-side passes: an Anthropic request to a Preserved
// model, with server edits allowed, no tool-use clearing of the client's
// own (which is never overridden, and would clear the same results), in
// the tool form (the edit clears tool results; a text-form agent's
// observations are user messages, which only client-side batches, firing
// between its turns, can clear).
//
// The choice must be the same for every request of a conversation:
// switching from client-side edits to none would invalidate thinking
// produced against the rewritten prefix. Model, options and the client's
// edits do not change within a conversation. The form does, once: a
// conversation has no tool call until the model makes its first. Before
// that, client mode changes nothing (there is no output to clear) unless
// the conversation has text-form outputs, and those keep it in client
// mode for good, since text-form outputs are recognised only in a
// conversation that has them (see analyse).
func serverMode(st *State) bool {
	if st.dialect != chat.Anthropic || st.family != Preserved || !st.opts.ServerEdits {
		return false
	}
	if _, theirs := clientEdits(st.orig); theirs {
		return false
	}
	calls := false
	for i := range st.msgs {
		calls = calls || st.msgs[i].calls
	}
	for i := range st.outputs {
		if st.outputs[i].textForm {
			return false
		}
	}
	return calls
}

// clientEdits returns the edits of c's context_management field and
// whether one of them clears tool uses.
func clientEdits(c *chat.Conversation) ([]json.RawMessage, bool) {
	raw, ok := c.Field("context_management")
	if !ok {
		return nil, false
	}
	var cm struct {
		Edits []json.RawMessage `json:"edits"`
	}
	if json.Unmarshal(raw, &cm) != nil {
		return nil, false
	}
	for _, e := range cm.Edits {
		var t struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(e, &t) == nil && t.Type == editClearToolUses {
			return cm.Edits, true
		}
	}
	return cm.Edits, false
}

// serverEdit computes the edit that realises st's horizon, or nil before
// the first batch.
func (st *State) serverEdit() *ServerEdit {
	if st.horizon == 0 {
		return nil
	}
	e := &ServerEdit{Trigger: max(st.opts.Trigger/2, 1)}
	msgs := st.orig.Messages
	for i := range msgs {
		for k := range msgs[i].Parts {
			if msgs[i].Parts[k].Type != chat.ToolCall {
				continue
			}
			if i >= st.horizon {
				e.Keep++
			} else {
				e.Cleared++
			}
		}
	}
	for i := range st.outputs {
		if o := &st.outputs[i]; o.msg < st.horizon && !st.opts.excluded(o.tool) {
			e.Tokens += o.tokens
		}
	}
	if e.Cleared == 0 {
		return nil
	}
	return e
}

// applyServerEdit adds e to st's request: a clear_tool_uses edit after
// the client's own edits (clear_thinking must come first, and the
// client's stay as they are), keeping every other member of the client's
// context_management.
func (st *State) applyServerEdit(e *ServerEdit) (Report, error) {
	r := Report{Pass: "server", Changed: e.Cleared, TokensBefore: e.Tokens, TokensAfter: e.Cleared * placeholderTokens}
	edit := map[string]any{
		"type":    editClearToolUses,
		"trigger": map[string]any{"type": "input_tokens", "value": e.Trigger},
		"keep":    map[string]any{"type": "tool_uses", "value": e.Keep},
	}
	if len(st.opts.ExcludeTools) > 0 {
		edit["exclude_tools"] = st.opts.ExcludeTools
	}
	ours, err := json.Marshal(edit)
	if err != nil {
		return r, err
	}
	ms := []member{{key: "edits", raw: json.RawMessage("[]")}}
	if raw, ok := st.orig.Field("context_management"); ok {
		if ms, ok = members(raw); !ok {
			return r, fmt.Errorf("context_management is not an object")
		}
	}
	found := false
	for i := range ms {
		if ms[i].key != "edits" {
			continue
		}
		var edits []json.RawMessage
		if err := json.Unmarshal(ms[i].raw, &edits); err != nil {
			return r, fmt.Errorf("context_management.edits is not an array: %w", err)
		}
		edits = append(edits, ours)
		if ms[i].raw, err = json.Marshal(edits); err != nil {
			return r, err
		}
		found = true
	}
	if !found {
		ms = append(ms, member{key: "edits", raw: append(append(json.RawMessage("["), ours...), ']')})
	}
	st.conv.SetField("context_management", encodeMembers(ms))
	r.note("clear_tool_uses: the API clears %d tool uses before messages[%d] and keeps the last %d", e.Cleared, st.horizon, e.Keep)
	return r, nil
}

// runServer compacts st by a server-side edit alone: the messages go as
// the client sent them.
func (st *State) runServer() []Report {
	st.edit = st.serverEdit()
	if st.edit == nil {
		return []Report{{Pass: "server", Notes: []string{"no batch yet: nothing for the API to clear"}}}
	}
	r, err := st.applyServerEdit(st.edit)
	if err != nil {
		st.edit = nil
		st.conv = st.orig.Clone()
		r = Report{Pass: "server", Notes: []string{"no server-side edit: " + err.Error()}}
	}
	return []Report{r}
}
