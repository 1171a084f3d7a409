package claude

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A convo is an in-process client of the scripted API: it keeps a conversation, sends it,
// assembles the streamed answer and answers tool calls with the files they name, as
// Claude Code does.
type convo struct {
	t        *testing.T
	api      *API
	beta     string
	model    string
	extra    map[string]any // more top-level fields: context_management …
	messages []any
}

func newConvo(t *testing.T, steps int) *convo {
	t.Helper()
	files, err := WriteWorkspace(t.TempDir(), 3)
	if err != nil {
		t.Fatal(err)
	}
	api, err := Start(&Options{Script: Script{Steps: steps, Files: files}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	return &convo{
		t: t, api: api, beta: contextManagementBeta, model: DefaultModel,
		extra:    map[string]any{"context_management": obj{"edits": []obj{{"type": editClearThinking, "keep": "all"}}}},
		messages: []any{obj{"role": "user", "content": "Read the modules."}},
	}
}

var testTools = []obj{
	{"name": "Read", "description": "Reads a file.", "input_schema": obj{"type": "object", "required": []string{"file_path"},
		"properties": obj{"file_path": obj{"type": "string"}}}},
	{"name": "Bash", "description": "Runs a command.", "input_schema": obj{"type": "object", "required": []string{"command"},
		"properties": obj{"command": obj{"type": "string"}, "timeout": obj{"type": "number"}}}},
}

// body returns the request body for the conversation so far.
func (c *convo) body() []byte {
	b := obj{
		"model": c.model, "max_tokens": 32000, "stream": true,
		"system":   []obj{{"type": "text", "text": "You are a scripted test client."}},
		"tools":    testTools,
		"thinking": obj{"type": "adaptive", "display": "omitted"},
		"messages": c.messages,
	}
	for k, v := range c.extra {
		b[k] = v
	}
	data, err := json.Marshal(b)
	if err != nil {
		c.t.Fatal(err)
	}
	return data
}

// A reply is an answer as the client assembles it from the stream.
type reply struct {
	status  int
	events  []string
	message obj // the assistant message: role and content
	stop    string
	applied []any  // context_management.applied_edits
	usage   obj    // from message_start
	errMsg  string // the error message of a 4xx
}

// send posts body and assembles the reply.
func (c *convo) send(body []byte) reply {
	c.t.Helper()
	req, err := http.NewRequestWithContext(c.t.Context(), http.MethodPost, c.api.URL+"/v1/messages", bytes.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("x-api-key", "test-key")
	req.Header.Set("anthropic-version", "2023-06-01")
	req.Header.Set("anthropic-beta", c.beta)
	req.Header.Set("content-type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	r := reply{status: resp.StatusCode}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error struct{ Message string } `json:"error"`
		}
		json.NewDecoder(resp.Body).Decode(&e)
		r.errMsg = e.Error.Message
		return r
	}
	var blocks []obj
	var partial strings.Builder
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			r.events = append(r.events, name)
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			c.t.Fatalf("event data %s: %v", data, err)
		}
		switch ev["type"] {
		case "message_start":
			r.usage = ev["message"].(map[string]any)["usage"].(map[string]any)
		case "content_block_start":
			blocks = append(blocks, ev["content_block"].(map[string]any))
			partial.Reset()
		case "content_block_delta":
			b, d := blocks[len(blocks)-1], ev["delta"].(map[string]any)
			switch d["type"] {
			case "thinking_delta":
				b["thinking"] = b["thinking"].(string) + d["thinking"].(string)
			case "signature_delta":
				b["signature"] = d["signature"]
			case "text_delta":
				b["text"] = b["text"].(string) + d["text"].(string)
			case "input_json_delta":
				partial.WriteString(d["partial_json"].(string))
			}
		case "content_block_stop":
			if b := blocks[len(blocks)-1]; b["type"] == "tool_use" {
				var in any
				if err := json.Unmarshal([]byte(partial.String()), &in); err != nil {
					c.t.Fatalf("tool input %q: %v", partial.String(), err)
				}
				b["input"] = in
			}
		case "message_delta":
			r.stop = ev["delta"].(map[string]any)["stop_reason"].(string)
			if cm, ok := ev["context_management"].(map[string]any); ok {
				r.applied = cm["applied_edits"].([]any)
			}
		}
	}
	r.message = obj{"role": "assistant", "content": blocks}
	return r
}

// step sends the conversation, appends the answer and, for a tool call, its result (the
// file the call names), and returns the reply.
func (c *convo) step() reply {
	c.t.Helper()
	r := c.send(c.body())
	if r.status != http.StatusOK {
		c.t.Fatalf("status %d: %s", r.status, r.errMsg)
	}
	c.messages = append(c.messages, r.message)
	if r.stop != "tool_use" {
		return r
	}
	blocks := r.message["content"].([]obj)
	call := blocks[len(blocks)-1]
	input := call["input"].(map[string]any)
	path, _ := input["file_path"].(string)
	if cmd, ok := input["command"].(string); ok {
		path = cmd[strings.LastIndexByte(cmd, ' ')+1:]
	}
	data, err := os.ReadFile(path)
	if err != nil {
		c.t.Fatalf("tool call %v: %v", input, err)
	}
	c.messages = append(c.messages, obj{"role": "user", "content": []obj{{"type": "tool_result", "tool_use_id": call["id"], "content": string(data)}}})
	return r
}

// run steps through the whole script and returns the last reply.
func (c *convo) run() reply {
	c.t.Helper()
	for range 100 {
		if r := c.step(); r.stop != "tool_use" {
			return r
		}
	}
	c.t.Fatal("the script did not end")
	return reply{}
}

func TestScriptedSession(t *testing.T) {
	c := newConvo(t, 4)
	first := c.step()
	wantEvents := []string{"message_start", "ping",
		"content_block_start", "content_block_delta", "content_block_stop", // thinking: omitted text, a signature_delta
		"content_block_start", "content_block_delta", "content_block_stop", // tool_use: input_json_delta chunks
		"message_delta", "message_stop"}
	if diff := cmp.Diff(wantEvents, collapseDeltas(first.events)); diff != "" {
		t.Errorf("event sequence (-want +got):\n%s\n(got %v)", diff, first.events)
	}
	blocks := first.message["content"].([]obj)
	if blocks[0]["type"] != "thinking" || blocks[0]["thinking"] != "" || blocks[0]["signature"] == "" {
		t.Errorf("first block = %v, want a thinking block with omitted text and a signature", blocks[0])
	}
	if blocks[1]["type"] != "tool_use" || blocks[1]["name"] != "Read" {
		t.Errorf("second block = %v, want a Read call", blocks[1])
	}
	last := c.run()
	if last.stop != "end_turn" {
		t.Errorf("last stop_reason = %q, want end_turn", last.stop)
	}
	rep := c.api.Report()
	if rep.Steps != 4 || !rep.Finished || len(rep.Violations) > 0 || rep.Main.Requests != 5 {
		t.Errorf("report: %d steps, finished %v, %d main requests, violations %v; want 4, true, 5, none", rep.Steps, rep.Finished, rep.Main.Requests, rep.Violations)
	}
	var calls []string
	for _, m := range c.messages {
		if mm, ok := m.(obj); ok && mm["role"] == "assistant" {
			for _, b := range mm["content"].([]obj) {
				if b["type"] == "tool_use" {
					calls = append(calls, b["name"].(string))
				}
			}
		}
	}
	if diff := cmp.Diff([]string{"Read", "Bash", "Read", "Bash"}, calls); diff != "" {
		t.Errorf("tool calls (-want +got):\n%s", diff)
	}
	// The cache: every request after the first reads what the one before wrote.
	if rep.Main.Billed.CacheRead == 0 || rep.Main.Billed.Input != rep.Main.OriginalInputTokens {
		t.Errorf("billed %+v, original %d: want cache reads and no edits", rep.Main.Billed, rep.Main.OriginalInputTokens)
	}
}

// collapseDeltas replaces each run of content_block_delta by one, so that the test does
// not depend on how text is chunked.
func collapseDeltas(events []string) []string {
	var out []string
	for i, e := range events {
		if e == "content_block_delta" && i > 0 && events[i-1] == e {
			continue
		}
		out = append(out, e)
	}
	return out
}

// TestThinkingDisplayed: without display "omitted" the thinking text streams (as
// thinking_delta events, which the client assembles), and the client sends it back as it
// got it.
func TestThinkingDisplayed(t *testing.T) {
	c := newConvo(t, 3)
	c.extra["thinking"] = obj{"type": "adaptive"}
	first := c.step()
	if th := first.message["content"].([]obj)[0]["thinking"].(string); !strings.HasPrefix(th, "Step 1 of 3.") {
		t.Errorf("thinking %q, want the script's text", th)
	}
	c.run()
	if rep := c.api.Report(); !rep.Finished || len(rep.Violations) > 0 {
		t.Errorf("finished %v, violations %v", rep.Finished, rep.Violations)
	}
}
