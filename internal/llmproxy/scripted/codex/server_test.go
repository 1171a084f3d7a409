package codex

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type jsonObj = map[string]any

// A client plays Codex's part against a Server: it sends the growing input, reads each
// stream, checks its events, and sends the output items back with an output for each
// call, as Codex does.
type client struct {
	t     testing.TB
	url   string
	tools []jsonObj
	input []jsonObj
}

func newClient(t testing.TB, s *Server) *client {
	return &client{t: t, url: s.URL + "/v1/responses",
		tools: []jsonObj{
			{"type": "function", "name": "exec_command", "parameters": jsonObj{"type": "object"}},
			{"type": "custom", "name": "apply_patch"},
		},
		input: []jsonObj{
			{"type": "message", "role": "developer", "content": []jsonObj{{"type": "input_text", "text": "You are a test."}}},
			{"type": "message", "role": "user", "content": []jsonObj{{"type": "input_text", "text": Prompt}}},
		}}
}

// body is a request body with input in, the shape Codex sends.
func (c *client) body(in []jsonObj) []byte {
	b, _ := json.Marshal(jsonObj{"model": DefaultModel, "stream": true, "store": false, "input": in, "tools": c.tools,
		"include": []string{"reasoning.encrypted_content"}, "prompt_cache_key": "test-session", "parallel_tool_calls": true})
	return b
}

func (c *client) post(body []byte) (int, []byte) {
	c.t.Helper()
	req, _ := http.NewRequestWithContext(c.t.Context(), http.MethodPost, c.url, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer test-key")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp.StatusCode, data
}

// turn sends the input and appends what came back (and an output for each call). It
// returns the output items.
func (c *client) turn() []jsonObj {
	c.t.Helper()
	status, data := c.post(c.body(c.input))
	if status != http.StatusOK {
		c.t.Fatalf("status %d: %s", status, data)
	}
	items := checkStream(c.t, data)
	for _, it := range items {
		c.input = append(c.input, it)
		switch it["type"] {
		case typeFunctionCall:
			var args struct{ Cmd string }
			json.Unmarshal([]byte(it["arguments"].(string)), &args)
			file := strings.TrimPrefix(args.Cmd, "cat ")
			var step int
			fmt.Sscanf(file, "pkg/part%02d.go", &step)
			c.input = append(c.input, jsonObj{"type": typeFunctionOutput, "call_id": it["call_id"], "output": "Output:\n" + FileText(step)})
		case typeCustomCall:
			c.input = append(c.input, jsonObj{"type": typeCustomOutput, "call_id": it["call_id"], "output": "Success. Updated the following files:\nA " + strings.Fields(it["input"].(string))[6]})
		}
	}
	return items
}

// checkStream checks a response stream's events (names, sequence numbers, deltas adding
// up to the done items) and returns the output items of response.completed.
func checkStream(t testing.TB, data []byte) []jsonObj {
	t.Helper()
	var names []string
	var evs []jsonObj
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			names = append(names, name)
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			var ev jsonObj
			if err := json.Unmarshal([]byte(d), &ev); err != nil {
				t.Fatalf("event data: %v", err)
			}
			evs = append(evs, ev)
		}
	}
	if len(names) != len(evs) || len(evs) < 3 {
		t.Fatalf("%d event names, %d data lines", len(names), len(evs))
	}
	deltas := map[string]string{} // item id → concatenated deltas of its kind
	var done []jsonObj
	for i, ev := range evs {
		if ev["type"] != names[i] || ev["sequence_number"] != float64(i) {
			t.Fatalf("event %d: type %v (event %s), sequence_number %v", i, ev["type"], names[i], ev["sequence_number"])
		}
		if d, ok := ev["delta"].(string); ok {
			deltas[ev["item_id"].(string)] += d
		}
		if names[i] == "response.output_item.done" {
			done = append(done, ev["item"].(jsonObj))
		}
	}
	if got := []string{names[0], names[1], names[len(names)-1]}; !cmp.Equal(got, []string{"response.created", "response.in_progress", "response.completed"}) {
		t.Fatalf("stream opens and ends with %v", got)
	}
	for _, it := range done {
		var whole string
		switch it["type"] {
		case typeReasoning:
			whole = it["summary"].([]any)[0].(jsonObj)["text"].(string)
		case typeFunctionCall:
			whole = it["arguments"].(string)
		case typeCustomCall:
			whole = it["input"].(string)
		case typeMessage:
			whole = it["content"].([]any)[0].(jsonObj)["text"].(string)
		}
		if got := deltas[it["id"].(string)]; got != whole {
			t.Errorf("item %s: deltas add up to %q, the item has %q", it["id"], got, whole)
		}
	}
	resp := evs[len(evs)-1]["response"].(jsonObj)
	var out []jsonObj
	for _, it := range resp["output"].([]any) {
		out = append(out, it.(jsonObj))
	}
	if diff := cmp.Diff(done, out); diff != "" {
		t.Errorf("response.completed output differs from the output_item.done items (-done +completed):\n%s", diff)
	}
	u := resp["usage"].(jsonObj)
	if u["input_tokens"].(float64) <= 0 || u["total_tokens"] != u["input_tokens"].(float64)+u["output_tokens"].(float64) {
		t.Errorf("usage %v", u)
	}
	return out
}

// TestScript runs a whole session: every step's reasoning and call, then the answer,
// every request valid, billed with a prompt cache that serves each request the whole of
// the one before.
func TestScript(t *testing.T) {
	s, err := StartServer(&ServerOptions{Steps: 5, PatchEvery: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := newClient(t, s)
	var kinds []string
	for range 6 {
		for _, it := range c.turn() {
			kinds = append(kinds, it["type"].(string))
		}
	}
	want := []string{"reasoning", "function_call", "reasoning", "custom_tool_call", "reasoning", "function_call",
		"reasoning", "custom_tool_call", "reasoning", "function_call", "reasoning", "message"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("output items (-want +got):\n%s", diff)
	}
	r := s.Report()
	if r.Requests != 6 || r.Steps != 5 || !r.Finished || r.ToolOutputs != 5 || len(r.Invalid) > 0 || len(r.Errors) > 0 {
		t.Errorf("report: %d requests, %d steps, finished %v, %d tool outputs, invalid %v, errors %v",
			r.Requests, r.Steps, r.Finished, r.ToolOutputs, r.Invalid, r.Errors)
	}
	for i := 1; i < len(r.PerRequest); i++ {
		prev, u := r.PerRequest[i-1].Input, r.PerRequest[i]
		want := 0
		if prev >= 1024 {
			want = 1024 + (prev-1024)/128*128
		}
		if u.CacheRead != want {
			t.Errorf("request %d: %d cached tokens, want %d (the whole of the %d tokens before, in 128-token steps)", i+1, u.CacheRead, want, prev)
		}
	}
}

// TestRules sends a valid request broken in one way at a time, and wants the API's
// answer to each.
func TestRules(t *testing.T) {
	s, err := StartServer(&ServerOptions{Steps: 5, PatchEvery: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := newClient(t, s)
	for range 4 { // steps 1–4: read, read, patch, read
		c.turn()
	}
	valid := c.input // developer, user, then (reasoning, call, output) × 4
	at := func(kind string, nth int) int {
		for i, it := range valid {
			if it["type"] == kind {
				if nth == 0 {
					return i
				}
				nth--
			}
		}
		t.Fatalf("no %s #%d", kind, nth)
		return -1
	}
	fc, ctc := at(typeFunctionCall, 0), at(typeCustomCall, 0)
	id := func(i int, key string) string { return valid[i][key].(string) }
	without := func(in []jsonObj, drop ...int) []jsonObj {
		var out []jsonObj
		for i, it := range in {
			if !containsInt(drop, i) {
				out = append(out, it)
			}
		}
		return out
	}
	with := func(i int, key string, v any) func([]jsonObj) []jsonObj {
		return func(in []jsonObj) []jsonObj {
			it := cloneObj(in[i])
			if v == nil {
				delete(it, key)
			} else {
				it[key] = v
			}
			in[i] = it
			return in
		}
	}
	alter := func(s string) string { // another id of the same form
		last := byte('f')
		if s[len(s)-1] == last {
			last = 'e'
		}
		return s[:len(s)-1] + string(last)
	}
	user := jsonObj{"type": "message", "role": "user", "content": []jsonObj{{"type": "input_text", "text": "go on"}}}
	notFound := "Item with id '%s' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input."
	tests := []struct {
		name   string
		mutate func([]jsonObj) []jsonObj
		status int
		want   string
	}{
		{"valid", func(in []jsonObj) []jsonObj { return in }, 200, ""},
		{"a whole step dropped", func(in []jsonObj) []jsonObj { return without(in, fc-1, fc, fc+1) }, 200, ""},
		{"a tool output shortened", with(fc+1, "output", "[cleared]"), 200, ""},
		{"ids dropped from a step before the last user message, its reasoning too", func(in []jsonObj) []jsonObj {
			in = with(fc, "id", nil)(in)
			return append(without(in, fc-1), user)
		}, 200, ""},
		{"a function call's output dropped", func(in []jsonObj) []jsonObj { return without(in, fc+1) }, 400,
			fmt.Sprintf("No tool output found for function call %s.", id(fc, "call_id"))},
		{"a custom tool call's output dropped", func(in []jsonObj) []jsonObj { return without(in, ctc+1) }, 400,
			fmt.Sprintf("No tool output found for custom tool call %s.", id(ctc, "call_id"))},
		{"an output before its call", func(in []jsonObj) []jsonObj {
			in[fc], in[fc+1] = in[fc+1], in[fc]
			return in
		}, 400, fmt.Sprintf("No tool call found for function call output with call_id %s.", id(fc, "call_id"))},
		{"an output twice", func(in []jsonObj) []jsonObj { return append(in, in[fc+1]) }, 400,
			fmt.Sprintf("Duplicate function call output for call_id %s.", id(fc, "call_id"))},
		{"a call's reasoning dropped", func(in []jsonObj) []jsonObj { return without(in, fc-1) }, 400,
			fmt.Sprintf("Item '%s' of type 'function_call' was provided without its required 'reasoning' item: '%s'.", id(fc, "id"), id(fc-1, "id"))},
		{"a call's reasoning dropped, its id too", func(in []jsonObj) []jsonObj { return without(with(fc, "id", nil)(in), fc-1) }, 400,
			fmt.Sprintf("Item '%s' of type 'function_call' was provided without its required 'reasoning' item: '%s'.", id(fc, "id"), id(fc-1, "id"))},
		{"a reasoning item's call dropped", func(in []jsonObj) []jsonObj { return without(in, fc, fc+1) }, 400,
			fmt.Sprintf("Item '%s' of type 'reasoning' was provided without its required following item.", id(fc-1, "id"))},
		{"encrypted content altered", with(fc-1, "encrypted_content", "gAAAAABforged=="), 400,
			"The encrypted content gAAA...ed== could not be verified."},
		{"encrypted content dropped", with(fc-1, "encrypted_content", nil), 404, fmt.Sprintf(notFound, id(fc-1, "id"))},
		{"a call's id altered", with(fc, "id", alter(id(fc, "id"))), 404, fmt.Sprintf(notFound, alter(id(fc, "id")))},
		{"a call's id on another call", with(fc, "id", id(at(typeFunctionCall, 1), "id")), 400,
			fmt.Sprintf("Duplicate item found with id %s. Remove duplicate items from your input and try again.", id(at(typeFunctionCall, 1), "id"))},
		{"a reasoning id on a call", with(fc, "id", id(fc-1, "id")), 400,
			fmt.Sprintf("Duplicate item found with id %s. Remove duplicate items from your input and try again.", id(fc-1, "id"))},
		{"an id without its type's prefix", with(fc, "id", "call_x"), 400,
			fmt.Sprintf("Invalid 'input[%d].id': 'call_x'. Expected an ID that begins with 'fc'.", fc)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.mutate(cloneInput(valid))
			before := len(s.Report().Invalid)
			status, data := c.post(c.body(in))
			if status != tt.status {
				t.Fatalf("status %d, want %d: %.300s", status, tt.status, data)
			}
			if tt.status == 200 {
				checkStream(t, data)
				return
			}
			var e struct{ Error struct{ Message string } }
			json.Unmarshal(data, &e)
			if e.Error.Message != tt.want {
				t.Errorf("error\n got %s\nwant %s", e.Error.Message, tt.want)
			}
			if got := len(s.Report().Invalid) - before; got == 0 {
				t.Error("the violation is not in the report")
			}
		})
	}
}

// TestPreviousResponseID: with store false there is no earlier response to continue.
func TestPreviousResponseID(t *testing.T) {
	s, err := StartServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := newClient(t, s)
	var body jsonObj
	json.Unmarshal(c.body(c.input), &body)
	body["previous_response_id"] = "resp_123"
	raw, _ := json.Marshal(body)
	if status, data := c.post(raw); status != 400 || !bytes.Contains(data, []byte("Previous response with id 'resp_123' not found.")) {
		t.Errorf("status %d: %s", status, data)
	}
}

func cloneObj(o jsonObj) jsonObj {
	c := make(jsonObj, len(o))
	for k, v := range o {
		c[k] = v
	}
	return c
}

func cloneInput(in []jsonObj) []jsonObj {
	out := make([]jsonObj, len(in))
	for i, o := range in {
		out[i] = cloneObj(o)
	}
	return out
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
