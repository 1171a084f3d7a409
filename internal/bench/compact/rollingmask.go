package compact

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/winnowhq/winnow/internal/compact/traj"
)

// RollingMask returns the naive compaction the benchmark exists to expose:
// on every request, replace each tool output older than the last keep
// with a short placeholder. It is recomputed each turn, so each turn one
// more output, the one that just fell out of the window, is rewritten,
// and the provider's cache misses from there on: it sends fewer tokens
// and, with caching, usually costs more. Its placeholder carries no
// retrieval handle, so what it removes is not recoverable.
func RollingMask(keep int) Variant {
	return Variant{
		Name: "rolling-mask",
		Rewrite: func(dialect string, body []byte) ([]byte, error) {
			return rollingMask(dialect, body, keep)
		},
	}
}

func maskPlaceholder(text string) string {
	return fmt.Sprintf("[old tool output removed: %d bytes]", len(text))
}

func rollingMask(dialect string, body []byte, keep int) ([]byte, error) {
	var req map[string]json.RawMessage
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("rolling mask: request body: %w", err)
	}
	var msgs []json.RawMessage
	if err := json.Unmarshal(req["messages"], &msgs); err != nil {
		return nil, fmt.Errorf("rolling mask: messages: %w", err)
	}
	obs, err := traj.Observations(dialect, msgs)
	if err != nil {
		return nil, fmt.Errorf("rolling mask: %w", err)
	}
	if len(obs) <= keep {
		return body, nil
	}
	old := make(map[int]map[string]string) // message → result id → its text
	for _, o := range obs[:len(obs)-keep] {
		if old[o.Message] == nil {
			old[o.Message] = make(map[string]string)
		}
		old[o.Message][o.ID] = o.Text
	}
	for i, results := range old {
		if msgs[i], err = maskMessage(dialect, msgs[i], results); err != nil {
			return nil, fmt.Errorf("rolling mask: message %d: %w", i, err)
		}
	}
	if req["messages"], err = encode(msgs); err != nil {
		return nil, err
	}
	return encode(req)
}

// maskMessage replaces the outputs of one message: its whole content for
// an OpenAI tool message or a text-form observation (id ""), the content
// of the named tool_result blocks for an Anthropic message.
func maskMessage(dialect string, raw json.RawMessage, results map[string]string) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	var blocks []map[string]json.RawMessage
	if dialect != traj.Anthropic || json.Unmarshal(m["content"], &blocks) != nil {
		for _, text := range results { // one output: the message is it
			c, err := encode(maskPlaceholder(text))
			if err != nil {
				return nil, err
			}
			m["content"] = c
		}
		return encode(m)
	}
	for _, b := range blocks {
		var id string
		if json.Unmarshal(b["tool_use_id"], &id) != nil {
			continue
		}
		if text, ok := results[id]; ok {
			c, err := encode(maskPlaceholder(text))
			if err != nil {
				return nil, err
			}
			b["content"] = c
		}
	}
	c, err := encode(blocks)
	if err != nil {
		return nil, err
	}
	m["content"] = c
	return encode(m)
}

// encode writes v as compact JSON without HTML escaping, so that bytes
// the rewrite did not touch stay as they were.
func encode(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
