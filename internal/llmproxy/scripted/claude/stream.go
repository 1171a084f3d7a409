package claude

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

type obj = map[string]any

// A response is one assistant message the fake answers with.
type response struct {
	id, model  string
	blocks     []obj // content blocks as the final message carries them
	stopReason string
	usage      usage
	applied    []obj // context_management.applied_edits; nil when the request had none
	cm         bool  // the request asked for context management: report it, even empty
}

// usage is the usage object of a response. The input counts follow the Messages API:
// input_tokens is the part neither read from nor written to the cache.
type usage struct {
	input, cacheWrite, cacheRead, output int
}

func (u usage) json() obj {
	return obj{
		"input_tokens": u.input, "cache_creation_input_tokens": u.cacheWrite,
		"cache_read_input_tokens": u.cacheRead, "output_tokens": u.output,
	}
}

func (r *response) contextManagement() obj {
	edits := r.applied
	if edits == nil {
		edits = []obj{}
	}
	return obj{"applied_edits": edits}
}

// message is the response as one JSON message (a request without stream).
func (r *response) message() obj {
	m := obj{
		"id": r.id, "type": "message", "role": "assistant", "model": r.model,
		"content": r.blocks, "stop_reason": r.stopReason, "stop_sequence": nil,
		"usage": r.usage.json(),
	}
	if r.cm {
		m["context_management"] = r.contextManagement()
	}
	return m
}

// An event is one server-sent event.
type event struct {
	name string
	data obj
}

// events is the response as the Messages API streams it: message_start (with the input
// usage), a ping, for each block content_block_start, its deltas and content_block_stop,
// then message_delta (stop reason, output usage, applied edits) and message_stop.
func (r *response) events() []event {
	start := obj{
		"id": r.id, "type": "message", "role": "assistant", "model": r.model,
		"content": []obj{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": usage{input: r.usage.input, cacheWrite: r.usage.cacheWrite, cacheRead: r.usage.cacheRead, output: 1}.json(),
	}
	evs := []event{
		{"message_start", obj{"type": "message_start", "message": start}},
		{"ping", obj{"type": "ping"}},
	}
	for i, b := range r.blocks {
		evs = append(evs, blockEvents(i, b)...)
	}
	delta := obj{
		"type":  "message_delta",
		"delta": obj{"stop_reason": r.stopReason, "stop_sequence": nil},
		"usage": r.usage.json(),
	}
	if r.cm {
		delta["context_management"] = r.contextManagement()
	}
	return append(evs, event{"message_delta", delta}, event{"message_stop", obj{"type": "message_stop"}})
}

// blockEvents streams block i: thinking as thinking_delta chunks (none when its text is
// omitted) and one signature_delta, text as text_delta chunks, tool_use as input_json_delta
// chunks of its JSON input.
func blockEvents(i int, b obj) []event {
	delta := func(d obj) event {
		return event{"content_block_delta", obj{"type": "content_block_delta", "index": i, "delta": d}}
	}
	var start obj
	var deltas []event
	switch b["type"] {
	case "thinking":
		start = obj{"type": "thinking", "thinking": "", "signature": ""}
		for _, c := range chunks(b["thinking"].(string), 48) {
			deltas = append(deltas, delta(obj{"type": "thinking_delta", "thinking": c}))
		}
		deltas = append(deltas, delta(obj{"type": "signature_delta", "signature": b["signature"]}))
	case "text":
		start = obj{"type": "text", "text": ""}
		for _, c := range chunks(b["text"].(string), 48) {
			deltas = append(deltas, delta(obj{"type": "text_delta", "text": c}))
		}
	case "tool_use":
		start = obj{"type": "tool_use", "id": b["id"], "name": b["name"], "input": obj{}}
		input, _ := json.Marshal(b["input"])
		for _, c := range chunks(string(input), 32) {
			deltas = append(deltas, delta(obj{"type": "input_json_delta", "partial_json": c}))
		}
	}
	evs := []event{{"content_block_start", obj{"type": "content_block_start", "index": i, "content_block": start}}}
	evs = append(evs, deltas...)
	return append(evs, event{"content_block_stop", obj{"type": "content_block_stop", "index": i}})
}

// chunks cuts s into pieces of about n bytes, on rune boundaries.
func chunks(s string, n int) []string {
	var out []string
	for len(s) > n {
		cut := n
		for cut < len(s) && s[cut]&0xC0 == 0x80 {
			cut++
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

// writeStream writes events as server-sent events, flushing each.
func writeStream(w http.ResponseWriter, evs []event) {
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	for _, ev := range evs {
		data, _ := json.Marshal(ev.data) // maps of plain values always marshal
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.name, data); err != nil {
			return
		}
		if rc.Flush() != nil {
			return
		}
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(status)
	w.Write(data)
}

// writeError answers with an Anthropic error body.
func writeError(w http.ResponseWriter, status int, kind, msg string) {
	writeJSON(w, status, obj{"type": "error", "error": obj{"type": kind, "message": msg}})
}
