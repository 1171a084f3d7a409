package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
)

type obj = map[string]any

// An event is one server-sent event; an empty name writes only the data line.
type event struct {
	name string
	data any // marshalled to JSON, or written as is when a string
}

// stream writes events as server-sent events, flushing each, paced by Pace and EventDelay.
func (a *API) stream(w http.ResponseWriter, r *http.Request, events []event) {
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	completed := false
	defer func() {
		if a.opts.OnStreamEnd != nil {
			a.opts.OnStreamEnd(r.URL.Path, completed)
		}
	}()
	for i, ev := range events {
		if i > 0 && !a.pace(r) {
			return
		}
		if _, err := w.Write(ev.encode()); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
	}
	completed = r.Context().Err() == nil
}

// pace waits before the next event and reports whether the stream goes on.
func (a *API) pace(r *http.Request) bool {
	if a.opts.Pace != nil {
		select {
		case <-a.opts.Pace:
		case <-r.Context().Done():
			return false
		}
	}
	return wait(r.Context(), a.opts.EventDelay)
}

func (ev event) encode() []byte {
	var data []byte
	if s, ok := ev.data.(string); ok {
		data = []byte(s)
	} else {
		data, _ = json.Marshal(ev.data) // maps of plain values always marshal
	}
	if ev.name == "" {
		return fmt.Appendf(nil, "data: %s\n\n", data)
	}
	return fmt.Appendf(nil, "event: %s\ndata: %s\n\n", ev.name, data)
}

// Text is the text of every answer, streamed in two deltas: "Hello" and ", world".
const Text = "Hello, world"

var deltas = []string{"Hello", ", world"}

func anthropicMessage(model string, u usage) obj {
	m := obj{
		"id": "msg_fake", "type": "message", "role": "assistant", "model": model,
		"content":     []obj{{"type": "text", "text": Text}},
		"stop_reason": "end_turn", "stop_sequence": nil,
		"usage": anthropicUsage(u, u.output),
	}
	if cm := contextManagement(u); cm != nil {
		m["context_management"] = cm
	}
	return m
}

func anthropicUsage(u usage, output int) obj {
	return obj{"input_tokens": u.input - u.cacheRead - u.cacheWrite, "cache_creation_input_tokens": u.cacheWrite,
		"cache_read_input_tokens": u.cacheRead, "output_tokens": output}
}

// contextManagement is the context_management member of a response: the edits applied.
func contextManagement(u usage) obj {
	if len(u.edits) == 0 {
		return nil
	}
	applied := make([]obj, len(u.edits))
	for i, t := range u.edits {
		applied[i] = obj{"type": t, "cleared_tool_uses": 1, "cleared_input_tokens": 50}
	}
	return obj{"applied_edits": applied}
}

// anthropicEvents is the Messages API stream: message_start, a text block with its
// deltas (and a ping), message_delta (with the final usage and any context edits) and
// message_stop.
func anthropicEvents(model string, u usage) []event {
	start := anthropicMessage(model, u)
	delete(start, "context_management")
	start["content"], start["stop_reason"], start["usage"] = []obj{}, nil, anthropicUsage(u, 1)
	delta := obj{"type": "message_delta", "delta": obj{"stop_reason": "end_turn", "stop_sequence": nil}, "usage": obj{"output_tokens": u.output}}
	if cm := contextManagement(u); cm != nil {
		delta["context_management"] = cm
	}
	evs := []event{
		{"message_start", obj{"type": "message_start", "message": start}},
		{"content_block_start", obj{"type": "content_block_start", "index": 0, "content_block": obj{"type": "text", "text": ""}}},
		{"ping", obj{"type": "ping"}},
	}
	for _, d := range deltas {
		evs = append(evs, event{"content_block_delta", obj{"type": "content_block_delta", "index": 0, "delta": obj{"type": "text_delta", "text": d}}})
	}
	return append(evs,
		event{"content_block_stop", obj{"type": "content_block_stop", "index": 0}},
		event{"message_delta", delta},
		event{"message_stop", obj{"type": "message_stop"}},
	)
}

func openaiCompletion(model string, u usage) obj {
	return obj{
		"id": "chatcmpl-fake", "object": "chat.completion", "created": 1700000000, "model": model,
		"choices": []obj{{"index": 0, "message": obj{"role": "assistant", "content": Text}, "finish_reason": "stop"}},
		"usage":   chatUsage(u),
	}
}

func chatUsage(u usage) obj {
	return obj{"prompt_tokens": u.input, "completion_tokens": u.output, "total_tokens": u.input + u.output,
		"prompt_tokens_details": obj{"cached_tokens": u.cacheRead}}
}

// openaiChunks is the chat completions stream: a role chunk, content chunks, a finish
// chunk, with stream_options.include_usage a last chunk with the usage and no choices,
// and data: [DONE].
func openaiChunks(model string, u usage, includeUsage bool) []event {
	chunk := func(delta obj, finish any) event {
		return event{"", obj{
			"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1700000000, "model": model,
			"choices": []obj{{"index": 0, "delta": delta, "finish_reason": finish}},
		}}
	}
	evs := []event{chunk(obj{"role": "assistant", "content": ""}, nil)}
	for _, d := range deltas {
		evs = append(evs, chunk(obj{"content": d}, nil))
	}
	evs = append(evs, chunk(obj{}, "stop"))
	if includeUsage {
		evs = append(evs, event{"", obj{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1700000000,
			"model": model, "choices": []obj{}, "usage": chatUsage(u)}})
	}
	return append(evs, event{"", "[DONE]"})
}

func openaiResponse(model string, u usage) obj {
	return obj{
		"id": "resp_fake", "object": "response", "created_at": 1700000000, "model": model, "status": "completed",
		"output": []obj{{"type": "message", "id": "msg_fake", "role": "assistant", "status": "completed",
			"content": []obj{{"type": "output_text", "text": Text, "annotations": []any{}}}}},
		"usage": obj{"input_tokens": u.input, "input_tokens_details": obj{"cached_tokens": u.cacheRead},
			"output_tokens": u.output, "output_tokens_details": obj{"reasoning_tokens": 0}, "total_tokens": u.input + u.output},
	}
}

// responseEvents is a minimal Responses API stream; response.completed carries the usage.
func responseEvents(model string, u usage) []event {
	evs := []event{{"response.created", obj{"type": "response.created", "response": obj{"id": "resp_fake", "model": model, "status": "in_progress"}}}}
	for _, d := range deltas {
		evs = append(evs, event{"response.output_text.delta", obj{"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": d}})
	}
	return append(evs, event{"response.completed", obj{"type": "response.completed", "response": openaiResponse(model, u)}})
}

func models(dialect string) obj {
	if dialect == anthropic {
		return obj{"data": []obj{{"type": "model", "id": "claude-fake", "display_name": "Claude Fake", "created_at": "2025-01-01T00:00:00Z"}},
			"has_more": false, "first_id": "claude-fake", "last_id": "claude-fake"}
	}
	return obj{"object": "list", "data": []obj{{"id": "gpt-fake", "object": "model", "created": 1700000000, "owned_by": "fake"}}}
}
