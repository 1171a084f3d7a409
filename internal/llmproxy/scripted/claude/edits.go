package claude

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Context-management edits, applied server-side before the model reads the request (and
// before it is billed). The client keeps its history unedited; the fake applies the edits
// afresh to every request, as the API does.
const (
	editClearThinking = "clear_thinking_20251015"
	editClearToolUses = "clear_tool_uses_20250919"
	ruleEdits         = "context-management"

	// ClearedPlaceholder replaces a cleared tool result (and a cleared tool input's
	// arguments are replaced by {}). The API's own wording is not documented; this is the
	// fake's.
	ClearedPlaceholder = "[Tool result cleared to save context]"
)

// Defaults of clear_tool_uses_20250919.
const (
	defaultTriggerTokens = 100_000
	defaultKeepToolUses  = 3
)

// An edit is one parsed context-management edit.
type edit interface {
	// apply edits v in place and returns the applied_edits entry, or nil when it did
	// nothing.
	apply(v *view, mt *meter) obj
}

// parseEdits parses the request's edits; a malformed or unknown edit is an error the API
// would answer with a 400.
func parseEdits(cm *contextManagement, fam family) ([]edit, error) {
	if cm == nil {
		return nil, nil
	}
	var edits []edit
	for i, raw := range cm.Edits {
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return nil, fmt.Errorf("context_management.edits.%d: %w", i, err)
		}
		switch head.Type {
		case editClearThinking:
			if i > 0 {
				return nil, fmt.Errorf("context_management.edits.%d: %s must be listed first in edits", i, editClearThinking)
			}
			e, err := parseClearThinking(raw, fam)
			if err != nil {
				return nil, fmt.Errorf("context_management.edits.%d: %w", i, err)
			}
			edits = append(edits, e)
		case editClearToolUses:
			e, err := parseClearToolUses(raw)
			if err != nil {
				return nil, fmt.Errorf("context_management.edits.%d: %w", i, err)
			}
			edits = append(edits, e)
		default:
			return nil, fmt.Errorf("context_management.edits.%d: the scripted API does not implement edit type %q", i, head.Type)
		}
	}
	return edits, nil
}

// threshold is {"type": …, "value": N}.
type threshold struct {
	Type  string `json:"type"`
	Value int    `json:"value"`
}

// clearThinking keeps the thinking blocks of the last keep assistant messages that have
// any (all of them when keep < 0) and clears the others. The documentation counts
// "thinking turns"; the fake counts each assistant message with thinking as one.
type clearThinking struct{ keep int }

func parseClearThinking(raw json.RawMessage, fam family) (edit, error) {
	var e struct {
		Keep json.RawMessage `json:"keep"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, err
	}
	if len(e.Keep) == 0 { // the model's default
		if fam.rule == lastTurnOnly {
			return clearThinking{keep: 1}, nil
		}
		return clearThinking{keep: -1}, nil
	}
	if string(e.Keep) == `"all"` {
		return clearThinking{keep: -1}, nil
	}
	var t threshold
	if err := json.Unmarshal(e.Keep, &t); err != nil || t.Type != "thinking_turns" || t.Value < 1 {
		return nil, fmt.Errorf(`keep: want "all" or {"type":"thinking_turns","value":N} with N >= 1, got %s`, e.Keep)
	}
	return clearThinking{keep: t.Value}, nil
}

func (e clearThinking) apply(v *view, mt *meter) obj {
	if e.keep < 0 {
		return nil
	}
	var with []int // assistant messages with thinking
	for i, m := range v.msgs {
		if m.role == "assistant" && slices.ContainsFunc(m.blocks, func(b viewBlock) bool { return isThinking(b.typ) }) {
			with = append(with, i)
		}
	}
	if len(with) <= e.keep {
		return nil
	}
	before := v.tokens(mt)
	cleared := with[:len(with)-e.keep]
	for _, i := range cleared {
		v.msgs[i].blocks = slices.DeleteFunc(v.msgs[i].blocks, func(b viewBlock) bool { return isThinking(b.typ) })
	}
	return obj{"type": editClearThinking, "cleared_thinking_turns": len(cleared), "cleared_input_tokens": before - v.tokens(mt)}
}

// clearToolUses clears, once the trigger is passed, every tool use but the last keep
// (oldest first, skipping exclude_tools): each result becomes ClearedPlaceholder and, with
// clear_tool_inputs, each call's input becomes {}. When that clears fewer than
// clear_at_least tokens, nothing is cleared.
type clearToolUses struct {
	trigger      threshold
	keep         int
	clearAtLeast int
	exclude      []string
	inputsAll    bool
	inputsOf     []string
}

func parseClearToolUses(raw json.RawMessage) (edit, error) {
	var e struct {
		Trigger         *threshold      `json:"trigger"`
		Keep            *threshold      `json:"keep"`
		ClearAtLeast    *threshold      `json:"clear_at_least"`
		ExcludeTools    []string        `json:"exclude_tools"`
		ClearToolInputs json.RawMessage `json:"clear_tool_inputs"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return nil, err
	}
	c := clearToolUses{trigger: threshold{"input_tokens", defaultTriggerTokens}, keep: defaultKeepToolUses, exclude: e.ExcludeTools}
	if e.Trigger != nil {
		if e.Trigger.Type != "input_tokens" && e.Trigger.Type != "tool_uses" {
			return nil, fmt.Errorf("trigger.type: want input_tokens or tool_uses, got %q", e.Trigger.Type)
		}
		c.trigger = *e.Trigger
	}
	if e.Keep != nil {
		if e.Keep.Type != "tool_uses" || e.Keep.Value < 0 {
			return nil, fmt.Errorf("keep: want {\"type\":\"tool_uses\",\"value\":N}, got %+v", *e.Keep)
		}
		c.keep = e.Keep.Value
	}
	if e.ClearAtLeast != nil {
		if e.ClearAtLeast.Type != "input_tokens" {
			return nil, fmt.Errorf("clear_at_least.type: want input_tokens, got %q", e.ClearAtLeast.Type)
		}
		c.clearAtLeast = e.ClearAtLeast.Value
	}
	if len(e.ClearToolInputs) > 0 && string(e.ClearToolInputs) != "null" {
		if err := json.Unmarshal(e.ClearToolInputs, &c.inputsAll); err != nil {
			if err := json.Unmarshal(e.ClearToolInputs, &c.inputsOf); err != nil {
				return nil, fmt.Errorf("clear_tool_inputs: want a boolean or a list of tool names, got %s", e.ClearToolInputs)
			}
		}
	}
	return c, nil
}

func (e clearToolUses) apply(v *view, mt *meter) obj {
	type use struct{ msg, block int }
	var uses []use
	for i, m := range v.msgs {
		for j, b := range m.blocks {
			if m.role == "assistant" && b.typ == "tool_use" {
				uses = append(uses, use{i, j})
			}
		}
	}
	before := v.tokens(mt)
	switch {
	case e.trigger.Type == "input_tokens" && before <= e.trigger.Value,
		e.trigger.Type == "tool_uses" && len(uses) <= e.trigger.Value,
		len(uses) <= e.keep:
		return nil
	}
	edited := v.clone()
	n := 0
	for _, u := range uses[:len(uses)-e.keep] {
		call := &edited.msgs[u.msg].blocks[u.block]
		if slices.Contains(e.exclude, call.name) {
			continue
		}
		n++
		if e.inputsAll || slices.Contains(e.inputsOf, call.name) {
			call.input = "{}"
		}
		edited.clearResult(u.msg, call.id)
	}
	cleared := before - edited.tokens(mt)
	if n == 0 || cleared < e.clearAtLeast {
		return nil
	}
	*v = *edited
	return obj{"type": editClearToolUses, "cleared_tool_uses": n, "cleared_input_tokens": cleared}
}

// clearResult replaces the result of tool call id, made in message i, by the placeholder.
func (v *view) clearResult(i int, id string) {
	for k := i + 1; k < len(v.msgs); k++ {
		for j := range v.msgs[k].blocks {
			if b := &v.msgs[k].blocks[j]; b.typ == "tool_result" && b.id == id {
				b.text = ClearedPlaceholder
				return
			}
		}
	}
}
