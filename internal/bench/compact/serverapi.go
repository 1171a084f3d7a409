package compact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/winnowhq/winnow/internal/compact"
	"github.com/winnowhq/winnow/internal/compact/traj"
)

// The benchmark's model of the Anthropic API: what of a request body the
// API reads and bills, by the model's thinking family and the request's
// context-management edits. It is a model of the provider, written from
// its documentation, and deliberately not winnow code: compaction is
// judged by it.

// ClearedPlaceholder is the text this model puts in place of a tool
// result that a clear_tool_uses edit clears. The API's own wording is not
// documented ("replaces them with placeholder text"); any short fixed
// text prices the same within a few tokens.
const ClearedPlaceholder = "[cleared]"

// Defaults of clear_tool_uses_20250919, from
// https://platform.claude.com/docs/en/build-with-claude/context-editing.
const (
	defaultClearTrigger = 100_000 // input tokens
	defaultClearKeep    = 3       // tool uses
)

const editClearToolUses = "clear_tool_uses_20250919"

// A toolClear is a parsed clear_tool_uses_20250919 edit.
type toolClear struct {
	trigger int // input tokens above which it applies
	keep    int // most recent tool uses kept
	exclude []string
}

// An APIEdit is what the API model did to one request.
type APIEdit struct {
	Requested bool // the body asked for a clear_tool_uses edit
	Applied   bool // and the request was past its trigger
	Cleared   int  // tool results it replaced by ClearedPlaceholder
	Stripped  int  // thinking blocks of earlier turns the API dropped (LastTurn)
}

// apiModel applies the API model to request bodies. It remembers the
// priced form of every message it has seen: a conversation's messages
// recur in every later request.
type apiModel struct {
	unsigned map[string]json.RawMessage
}

func newAPIModel() *apiModel { return &apiModel{unsigned: make(map[string]json.RawMessage)} }

// prompt returns the parts of body that the API reads and bills for a
// model of family f, in order:
//
//   - LastTurn: thinking blocks of assistant messages before the last
//     user message that is not only tool results are stripped: the API
//     neither bills them nor caches them ("previous thinking blocks are
//     automatically stripped from the context window calculation").
//     KeepAll and Preserved models keep every block.
//   - A thinking block is billed for its text; the signature is not
//     text the model reads, and is dropped before pricing.
//   - Each clear_tool_uses edit of context_management.edits applies when
//     the request's input tokens (count, after the two steps above)
//     exceed its trigger: the content of the tool_result of every tool
//     use but the most recent keep, whose tool is not in exclude_tools,
//     becomes ClearedPlaceholder. Tool inputs stay. clear_tool_inputs and
//     clear_at_least, which compaction never asks for, are not modelled,
//     nor is any other edit: a body that asks for one is an error.
func (a *apiModel) prompt(f compact.Family, body []byte, count func(traj.Parts) (int, error)) (traj.Parts, APIEdit, error) {
	var e APIEdit
	p, err := traj.ParseRequest(body)
	if err != nil {
		return p, e, err
	}
	clears, err := parseToolClears(body)
	if err != nil {
		return p, e, err
	}
	msgs := slices.Clone(p.Messages)
	if f == compact.LastTurn {
		if e.Stripped, err = stripEarlierThinking(msgs); err != nil {
			return p, e, err
		}
	}
	for i := range msgs {
		if msgs[i], err = a.unsign(msgs[i]); err != nil {
			return p, e, fmt.Errorf("message %d: %w", i, err)
		}
	}
	p.Messages = msgs
	for _, c := range clears {
		e.Requested = true
		n, err := count(p)
		if err != nil {
			return p, e, err
		}
		if n <= c.trigger {
			continue
		}
		cleared, err := clearToolUses(p.Messages, c)
		if err != nil {
			return p, e, err
		}
		e.Applied = true
		e.Cleared += cleared
	}
	return p, e, nil
}

// parseToolClears returns the clear_tool_uses edits of a body's
// context_management, with the API's defaults filled in.
func parseToolClears(body []byte) ([]toolClear, error) {
	var req struct {
		CM *struct {
			Edits []json.RawMessage `json:"edits"`
		} `json:"context_management"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("request body: %w", err)
	}
	if req.CM == nil {
		return nil, nil
	}
	var out []toolClear
	for i, raw := range req.CM.Edits {
		var e struct {
			Type    string `json:"type"`
			Trigger *struct {
				Type  string `json:"type"`
				Value int    `json:"value"`
			} `json:"trigger"`
			Keep *struct {
				Type  string `json:"type"`
				Value int    `json:"value"`
			} `json:"keep"`
			ExcludeTools    []string        `json:"exclude_tools"`
			ClearAtLeast    json.RawMessage `json:"clear_at_least"`
			ClearToolInputs json.RawMessage `json:"clear_tool_inputs"`
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("context_management.edits[%d]: %w", i, err)
		}
		if e.Type != editClearToolUses {
			return nil, fmt.Errorf("context_management.edits[%d]: the API model knows only %s, not %q", i, editClearToolUses, e.Type)
		}
		if len(e.ClearAtLeast) > 0 || (len(e.ClearToolInputs) > 0 && string(e.ClearToolInputs) != "false") {
			return nil, fmt.Errorf("context_management.edits[%d]: the API model knows neither clear_at_least nor clear_tool_inputs", i)
		}
		c := toolClear{trigger: defaultClearTrigger, keep: defaultClearKeep, exclude: e.ExcludeTools}
		if e.Trigger != nil {
			if e.Trigger.Type != "input_tokens" {
				return nil, fmt.Errorf("context_management.edits[%d]: trigger type %q: the API model knows only input_tokens", i, e.Trigger.Type)
			}
			c.trigger = e.Trigger.Value
		}
		if e.Keep != nil {
			if e.Keep.Type != "tool_uses" || e.Keep.Value < 0 {
				return nil, fmt.Errorf("context_management.edits[%d]: keep %+v: want tool_uses ≥ 0", i, *e.Keep)
			}
			c.keep = e.Keep.Value
		}
		out = append(out, c)
	}
	return out, nil
}

// apiBlock is the part of a content block the API model reads.
type apiBlock struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Name      string `json:"name"`
	ToolUseID string `json:"tool_use_id"`
}

// apiMessage decodes a message into its role and its content blocks;
// blocks is nil when the content is a string.
func apiMessage(raw json.RawMessage) (role string, blocks []json.RawMessage, err error) {
	var m struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return "", nil, err
	}
	if len(m.Content) > 0 && m.Content[0] == '[' {
		err = json.Unmarshal(m.Content, &blocks)
	}
	return m.Role, blocks, err
}

func blockOf(raw json.RawMessage) apiBlock {
	var b apiBlock
	json.Unmarshal(raw, &b) // a block that does not decode reads as untyped
	return b
}

// withBlocks writes a message with new content blocks.
func withBlocks(role string, blocks []json.RawMessage) (json.RawMessage, error) {
	return encode(struct {
		Role    string            `json:"role"`
		Content []json.RawMessage `json:"content"`
	}{role, blocks})
}

// stripEarlierThinking drops, in place, the thinking blocks of every
// assistant message before the last user message that is not only tool
// results, and returns how many it dropped.
func stripEarlierThinking(msgs []json.RawMessage) (int, error) {
	last := -1
	for i, raw := range msgs {
		role, blocks, err := apiMessage(raw)
		if err != nil {
			return 0, fmt.Errorf("message %d: %w", i, err)
		}
		if role == "user" && (blocks == nil || slices.ContainsFunc(blocks, notToolResult)) {
			last = i
		}
	}
	n := 0
	for i := range max(last, 0) {
		if !bytes.Contains(msgs[i], []byte(`"thinking"`)) {
			continue
		}
		role, blocks, _ := apiMessage(msgs[i])
		if role != "assistant" {
			continue
		}
		kept := slices.DeleteFunc(slices.Clone(blocks), isThinkingBlock)
		if len(kept) == len(blocks) {
			continue
		}
		n += len(blocks) - len(kept)
		m, err := withBlocks(role, kept)
		if err != nil {
			return 0, err
		}
		msgs[i] = m
	}
	return n, nil
}

func notToolResult(b json.RawMessage) bool { return blockOf(b).Type != "tool_result" }

// unsign returns a message with the signature of its thinking blocks
// left out: the part of a block that is priced is its text.
func (a *apiModel) unsign(raw json.RawMessage) (json.RawMessage, error) {
	if !bytes.Contains(raw, []byte(`"signature"`)) {
		return raw, nil
	}
	if m, ok := a.unsigned[string(raw)]; ok {
		return m, nil
	}
	m, err := unsign(raw)
	if err == nil {
		a.unsigned[string(raw)] = m
	}
	return m, err
}

func unsign(raw json.RawMessage) (json.RawMessage, error) {
	role, blocks, err := apiMessage(raw)
	if err != nil || blocks == nil {
		return raw, err
	}
	changed := false
	for k, b := range blocks {
		if blockOf(b).Type != "thinking" {
			continue
		}
		var t thinkingBlock
		if err := json.Unmarshal(b, &t); err != nil {
			return nil, err
		}
		t.Signature = ""
		if blocks[k], err = encode(t); err != nil {
			return nil, err
		}
		changed = true
	}
	if !changed {
		return raw, nil
	}
	return withBlocks(role, blocks)
}

// clearToolUses applies one clear_tool_uses edit to msgs in place: every
// tool use but the most recent c.keep, whose tool is not excluded, has
// its result's content replaced by ClearedPlaceholder. It returns the
// number of results cleared.
func clearToolUses(msgs []json.RawMessage, c toolClear) (int, error) {
	type use struct {
		id, name string
	}
	var uses []use
	for i, raw := range msgs {
		if !bytes.Contains(raw, []byte(`"tool_use"`)) {
			continue
		}
		role, blocks, err := apiMessage(raw)
		if err != nil {
			return 0, fmt.Errorf("message %d: %w", i, err)
		}
		for _, b := range blocks {
			if bl := blockOf(b); role == "assistant" && bl.Type == "tool_use" {
				uses = append(uses, use{bl.ID, bl.Name})
			}
		}
	}
	if len(uses) <= c.keep {
		return 0, nil
	}
	clear := make(map[string]bool)
	for _, u := range uses[:len(uses)-c.keep] {
		if !slices.Contains(c.exclude, u.name) {
			clear[u.id] = true
		}
	}
	placeholder, err := encode(ClearedPlaceholder)
	if err != nil {
		return 0, err
	}
	n := 0
	for i, raw := range msgs {
		if !bytes.Contains(raw, []byte(`"tool_result"`)) {
			continue
		}
		role, blocks, err := apiMessage(raw)
		if err != nil {
			return 0, fmt.Errorf("message %d: %w", i, err)
		}
		changed := false
		for k, b := range blocks {
			bl := blockOf(b)
			if bl.Type != "tool_result" || !clear[bl.ToolUseID] {
				continue
			}
			var r map[string]json.RawMessage
			if err := json.Unmarshal(b, &r); err != nil {
				return 0, fmt.Errorf("message %d: %w", i, err)
			}
			if bytes.Equal(r["content"], placeholder) {
				continue
			}
			r["content"] = placeholder
			if blocks[k], err = encode(r); err != nil {
				return 0, err
			}
			changed = true
			n++
		}
		if changed {
			if msgs[i], err = withBlocks(role, blocks); err != nil {
				return 0, err
			}
		}
	}
	return n, nil
}
