package traj

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// maxLine bounds one record of a JSON-lines file.
const maxLine = 256 << 20

// parseArray reads a top-level array: of records (ADP files) or of
// messages (one conversation).
func parseArray(data []byte) ([]Trajectory, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, fmt.Errorf("parse JSON: %w", err)
	}
	if len(items) == 0 {
		return nil, errors.New("empty array: no records or messages")
	}
	first, err := object(items[0])
	if err != nil {
		return nil, fmt.Errorf("item 0: %w", err)
	}
	switch {
	case has(first, "role"):
		t, err := parseMessageList(items, "", nil)
		if err != nil {
			return nil, err
		}
		return []Trajectory{t}, nil
	case isRecord(first):
		ts := make([]Trajectory, 0, len(items))
		for i, item := range items {
			t, err := parseRecord(item)
			if err != nil {
				return nil, fmt.Errorf("record %d: %w", i, err)
			}
			ts = append(ts, t)
		}
		return ts, nil
	}
	return nil, fmt.Errorf("item 0 has keys %s: want a message (role) or a record (messages, trajectory or history)", keyList(first))
}

// parseObject reads a file holding one record.
func parseObject(data []byte) ([]Trajectory, error) {
	t, err := parseRecord(data)
	if err != nil {
		return nil, err
	}
	return []Trajectory{t}, nil
}

// parseLines reads JSON lines, one record per line; blank lines are
// skipped.
func parseLines(data []byte) ([]Trajectory, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxLine)
	var ts []Trajectory
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		t, err := parseRecord(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		ts = append(ts, t)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read lines: %w", err)
	}
	if len(ts) == 0 {
		return nil, errors.New("no records")
	}
	return ts, nil
}

// parseRecord reads one record holding one trajectory.
func parseRecord(data []byte) (Trajectory, error) {
	rec, err := object(data)
	if err != nil {
		return Trajectory{}, err
	}
	var t Trajectory
	switch {
	case has(rec, "history"):
		t, err = parseSWEAgent(rec)
	case has(rec, "trajectory"):
		t, err = parseNebius(rec)
	case has(rec, "messages"):
		t, err = parseMessagesRecord(rec)
	default:
		return Trajectory{}, fmt.Errorf("record has keys %s: want messages, trajectory (ADP nebius) or history (SWE-agent)", keyList(rec))
	}
	if err != nil {
		return Trajectory{}, err
	}
	if t.Name == "" {
		t.Name = firstString(rec, "instance_id", "traj_id", "id", "run_id")
	}
	return t, nil
}

// parseMessagesRecord reads a record whose "messages" is a message list:
// an ADP OpenHands or SWE-smith record, or a request body.
func parseMessagesRecord(rec map[string]json.RawMessage) (Trajectory, error) {
	var msgs []json.RawMessage
	if err := json.Unmarshal(rec["messages"], &msgs); err != nil {
		return Trajectory{}, fmt.Errorf("messages: want an array: %w", err)
	}
	var tools []json.RawMessage
	if has(rec, "tools") {
		if err := json.Unmarshal(rec["tools"], &tools); err != nil {
			return Trajectory{}, fmt.Errorf("tools: want an array: %w", err)
		}
	}
	t, err := parseMessageList(msgs, firstString(rec, "model", "model_name"), tools)
	if err != nil {
		return Trajectory{}, err
	}
	if has(rec, "system") { // an Anthropic request body
		if t.Dialect != Anthropic {
			return Trajectory{}, errors.New("a top-level system prompt belongs to Anthropic messages, but these are OpenAI messages")
		}
		sys, err := systemText(rec["system"])
		if err != nil {
			return Trajectory{}, fmt.Errorf("system: %w", err)
		}
		t.System = joinNonEmpty("\n\n", sys, t.System)
	}
	return t, nil
}

func isRecord(m map[string]json.RawMessage) bool {
	return has(m, "messages") || has(m, "trajectory") || has(m, "history")
}

// object decodes data as a JSON object.
func object(data []byte) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("want a JSON object: %w", err)
	}
	if m == nil {
		return nil, errors.New("want a JSON object, not null")
	}
	return m, nil
}

// has reports whether m holds key with a value other than null.
func has(m map[string]json.RawMessage, key string) bool {
	v, ok := m[key]
	return ok && !isNull(v)
}

func isNull(v json.RawMessage) bool {
	return len(v) == 0 || string(bytes.TrimSpace(v)) == "null"
}

// firstString returns the first of keys whose value in m is a non-empty
// string.
func firstString(m map[string]json.RawMessage, keys ...string) string {
	for _, k := range keys {
		var s string
		if json.Unmarshal(m[k], &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

func keyList(m map[string]json.RawMessage) string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return "[" + strings.Join(ks, " ") + "]"
}

func joinNonEmpty(sep string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}
