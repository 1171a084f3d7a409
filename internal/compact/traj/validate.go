package traj

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Validate checks that t is a conversation its dialect's API would
// accept as the messages of a request, except that the last message may
// be an assistant message whose tool calls have no results yet:
//
//   - every message parses (see ParseMessage);
//   - every tool result answers a call of the assistant message just
//     before it (OpenAI: the tool messages that follow it; Anthropic: the
//     user message that follows it), and answers it once;
//   - every tool call is answered before the next message that is
//     neither a tool result nor, for OpenAI, a tool message.
func (t *Trajectory) Validate() error {
	if t.Dialect != OpenAI && t.Dialect != Anthropic {
		return fmt.Errorf("unknown dialect %q: want %q or %q", t.Dialect, OpenAI, Anthropic)
	}
	if len(t.Messages) == 0 {
		return errors.New("no messages")
	}
	for i, raw := range t.Tools {
		if !json.Valid(raw) {
			return fmt.Errorf("tools[%d]: invalid JSON", i)
		}
	}
	msgs := make([]Message, len(t.Messages))
	for i, raw := range t.Messages {
		m, err := ParseMessage(t.Dialect, raw)
		if err != nil {
			return fmt.Errorf("message %d: %w", i, err)
		}
		msgs[i] = m
	}
	return checkPairing(t.Dialect, msgs)
}

// checkPairing checks that tool calls and tool results pair up; see
// Validate.
func checkPairing(dialect string, msgs []Message) error {
	var pending []string // calls of the last assistant message still without a result
	caller := -1         // index of that message
	for i, m := range msgs {
		if m.Role == "assistant" {
			if len(pending) > 0 {
				return fmt.Errorf("message %d: tool call %s of message %d has no result", i, pending[0], caller)
			}
			pending, caller = nil, i
			for _, c := range m.Calls {
				if c.ID != "" {
					pending = append(pending, c.ID)
				}
			}
			continue
		}
		if len(m.Results) == 0 && len(pending) > 0 && (dialect == OpenAI || m.Role == "user") {
			return fmt.Errorf("message %d: tool call %s of message %d has no result", i, pending[0], caller)
		}
		for _, r := range m.Results {
			if m.Role == "function" { // legacy: answers by name, which the call has
				continue
			}
			k := slices.Index(pending, r.ID)
			if k < 0 {
				return fmt.Errorf("message %d: tool result for %s, which the assistant message before it did not call (or was already answered)", i, r.ID)
			}
			pending = slices.Delete(pending, k, k+1)
		}
		if dialect == Anthropic && len(pending) > 0 {
			return fmt.Errorf("message %d: tool call %s of message %d has no result in it", i, pending[0], caller)
		}
	}
	return nil
}
