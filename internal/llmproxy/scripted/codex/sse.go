package codex

import (
	"encoding/json"
	"fmt"
)

type obj = map[string]any

// A stream builds the server-sent events of one streamed response, numbering them.
type stream struct {
	buf []byte
	seq int
}

func (s *stream) event(name string, data obj) {
	data["type"] = name
	data["sequence_number"] = s.seq
	s.seq++
	raw, _ := json.Marshal(data) // maps of plain values always marshal
	s.buf = fmt.Appendf(s.buf, "event: %s\ndata: %s\n\n", name, raw)
}

// chunks cuts s into about n pieces for delta events.
func chunks(s string, n int) []string {
	if len(s) == 0 {
		return nil
	}
	size := max(1, (len(s)+n-1)/n)
	var out []string
	for len(s) > size {
		cut := size
		for cut < len(s) && s[cut]&0xC0 == 0x80 { // never inside a UTF-8 sequence
			cut++
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}

// An outItem is one item of a response's output, as the fake streams it.
type outItem struct {
	is      *issued
	name    string // tool calls: the tool's name
	ns      string // function calls: the namespace the tool is listed under, if any
	args    string // function_call arguments, custom_tool_call input
	summary string // reasoning
	text    string // message
}

// done is the item as output_item.done and response.completed carry it.
func (o *outItem) done() obj {
	switch o.is.typ {
	case typeReasoning:
		return obj{"type": typeReasoning, "id": o.is.id, "encrypted_content": o.is.encrypted,
			"summary": []obj{{"type": "summary_text", "text": o.summary}}}
	case typeFunctionCall:
		return o.namespaced(obj{"type": typeFunctionCall, "id": o.is.id, "status": "completed", "call_id": o.is.callID, "name": o.name, "arguments": o.args})
	case typeCustomCall:
		return obj{"type": typeCustomCall, "id": o.is.id, "status": "completed", "call_id": o.is.callID, "name": o.name, "input": o.args}
	case typeLocalShellCall:
		var action any
		json.Unmarshal([]byte(o.args), &action)
		return obj{"type": typeLocalShellCall, "id": o.is.id, "status": "completed", "call_id": o.is.callID, "action": action}
	}
	return obj{"type": typeMessage, "id": o.is.id, "status": "completed", "role": "assistant",
		"content": []obj{{"type": "output_text", "text": o.text, "annotations": []any{}}}}
}

// added is the item as output_item.added carries it: nothing generated yet.
func (o *outItem) added() obj {
	switch o.is.typ {
	case typeReasoning:
		return obj{"type": typeReasoning, "id": o.is.id, "summary": []any{}}
	case typeFunctionCall:
		return o.namespaced(obj{"type": typeFunctionCall, "id": o.is.id, "status": "in_progress", "call_id": o.is.callID, "name": o.name, "arguments": ""})
	case typeCustomCall:
		return obj{"type": typeCustomCall, "id": o.is.id, "status": "in_progress", "call_id": o.is.callID, "name": o.name, "input": ""}
	case typeLocalShellCall:
		return o.done()
	}
	return obj{"type": typeMessage, "id": o.is.id, "status": "in_progress", "role": "assistant", "content": []any{}}
}

// events streams one output item at index i: added, the deltas of its kind, done.
func (s *stream) item(i int, o *outItem) {
	s.event("response.output_item.added", obj{"output_index": i, "item": o.added()})
	id := o.is.id
	switch o.is.typ {
	case typeReasoning:
		part := func(text string) obj { return obj{"type": "summary_text", "text": text} }
		s.event("response.reasoning_summary_part.added", obj{"item_id": id, "output_index": i, "summary_index": 0, "part": part("")})
		for _, d := range chunks(o.summary, 3) {
			s.event("response.reasoning_summary_text.delta", obj{"item_id": id, "output_index": i, "summary_index": 0, "delta": d})
		}
		s.event("response.reasoning_summary_text.done", obj{"item_id": id, "output_index": i, "summary_index": 0, "text": o.summary})
		s.event("response.reasoning_summary_part.done", obj{"item_id": id, "output_index": i, "summary_index": 0, "part": part(o.summary)})
	case typeFunctionCall:
		for _, d := range chunks(o.args, 3) {
			s.event("response.function_call_arguments.delta", obj{"item_id": id, "output_index": i, "delta": d})
		}
		s.event("response.function_call_arguments.done", obj{"item_id": id, "output_index": i, "arguments": o.args})
	case typeCustomCall:
		for _, d := range chunks(o.args, 3) {
			s.event("response.custom_tool_call_input.delta", obj{"item_id": id, "output_index": i, "delta": d})
		}
		s.event("response.custom_tool_call_input.done", obj{"item_id": id, "output_index": i, "input": o.args})
	case typeMessage:
		part := func(text string) obj { return obj{"type": "output_text", "text": text, "annotations": []any{}} }
		s.event("response.content_part.added", obj{"item_id": id, "output_index": i, "content_index": 0, "part": part("")})
		for _, d := range chunks(o.text, 3) {
			s.event("response.output_text.delta", obj{"item_id": id, "output_index": i, "content_index": 0, "delta": d})
		}
		s.event("response.output_text.done", obj{"item_id": id, "output_index": i, "content_index": 0, "text": o.text})
		s.event("response.content_part.done", obj{"item_id": id, "output_index": i, "content_index": 0, "part": part(o.text)})
	}
	s.event("response.output_item.done", obj{"output_index": i, "item": o.done()})
}

// A billed is what one response bills, as its usage reports it.
type billed struct {
	input, cached, output, reasoning int
}

// response streams a whole response: created, in_progress, the items, completed.
func response(id, model string, created int64, items []*outItem, u billed) []byte {
	var s stream
	head := func(status string, output []obj, usage any) obj {
		return obj{"id": id, "object": "response", "created_at": created, "status": status, "model": model,
			"output": output, "parallel_tool_calls": true, "tool_choice": "auto", "store": false, "usage": usage}
	}
	s.event("response.created", obj{"response": head("in_progress", []obj{}, nil)})
	s.event("response.in_progress", obj{"response": head("in_progress", []obj{}, nil)})
	out := make([]obj, len(items))
	for i, o := range items {
		s.item(i, o)
		out[i] = o.done()
	}
	s.event("response.completed", obj{"response": head("completed", out, obj{
		"input_tokens":          u.input,
		"input_tokens_details":  obj{"cached_tokens": u.cached},
		"output_tokens":         u.output,
		"output_tokens_details": obj{"reasoning_tokens": u.reasoning},
		"total_tokens":          u.input + u.output,
	})})
	return s.buf
}
