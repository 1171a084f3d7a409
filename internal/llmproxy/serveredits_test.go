package llmproxy_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/winnowhq/winnow/internal/compact"
	"github.com/winnowhq/winnow/internal/llmproxy"
)

// thinkingLoop is a request of a coding agent to a model that binds thinking to its prefix:
// one prompt, then steps tool calls with thinking on every step, each answered by a large
// file, the last still to be answered by the model (an active tool loop).
func thinkingLoop(steps int) []byte {
	msgs := []string{`{"role":"user","content":"Fix the bug in the parser."}`}
	for i := range steps {
		file := strings.Repeat(fmt.Sprintf("line %d of file %d: some code here\n", i, i), 400)
		content, _ := json.Marshal(file)
		msgs = append(msgs,
			fmt.Sprintf(`{"role":"assistant","content":[{"type":"thinking","thinking":"","signature":"sig%d"},{"type":"tool_use","id":"t%d","name":"Read","input":{"file_path":"/repo/f%d.py"}}]}`, i, i, i),
			fmt.Sprintf(`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":%s}]}`, i, content))
	}
	return []byte(`{"model":"claude-opus-5-5","max_tokens":32000,"thinking":{"type":"adaptive"},` +
		`"context_management":{"edits":[{"type":"clear_thinking_20251015","keep":"all"}]},` +
		`"tools":[{"name":"Read","input_schema":{"type":"object"}}],"stream":false,"messages":[` + strings.Join(msgs, ",") + `]}`)
}

func messagesJSON(t *testing.T, body []byte) string {
	t.Helper()
	var req struct{ Messages json.RawMessage }
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	return string(req.Messages)
}

// With server edits on, a request whose tool loop holds thinking bound to its prefix goes
// with its messages as the client sent them, a clear_tool_uses edit after the client's own,
// and the context-management beta added to the client's.
func TestServerEdits(t *testing.T) {
	h := newHarness(t, nil, &llmproxy.Options{
		Rewriter:    llmproxy.Compaction(compact.New(compact.Options{})),
		ServerEdits: llmproxy.ServerEditsOn,
	})
	body := thinkingLoop(12)
	res := h.do(t, t.Context(), http.MethodPost, "/v1/messages", body, map[string]string{"Anthropic-Beta": "interleaved-thinking-2025-05-14"})
	readAll(t, res)
	if res.StatusCode != http.StatusOK || res.Header.Get(llmproxy.HeaderRewrite) != llmproxy.RewriteChanged {
		t.Fatalf("status %d, rewrite %q (%s)", res.StatusCode, res.Header.Get(llmproxy.HeaderRewrite), res.Header.Get(llmproxy.HeaderReason))
	}
	got := h.lastReceived(t)
	if messagesJSON(t, got.Body) != messagesJSON(t, body) {
		t.Error("the messages changed; with thinking bound to its prefix they must go as sent")
	}
	var req struct {
		ContextManagement struct {
			Edits []map[string]any `json:"edits"`
		} `json:"context_management"`
	}
	if err := json.Unmarshal(got.Body, &req); err != nil {
		t.Fatal(err)
	}
	edits := req.ContextManagement.Edits
	if len(edits) != 2 || edits[0]["type"] != "clear_thinking_20251015" || edits[1]["type"] != "clear_tool_uses_20250919" {
		t.Fatalf("edits %v: want the client's clear_thinking first, then clear_tool_uses", edits)
	}
	keep := edits[1]["keep"].(map[string]any)
	if v := keep["value"].(float64); v < 2 || v >= 12 {
		t.Errorf("keep %v of 12 tool uses", keep)
	}
	if beta := got.Header.Get("Anthropic-Beta"); beta != "interleaved-thinking-2025-05-14,"+compact.BetaContextManagement {
		t.Errorf("anthropic-beta %q", beta)
	}

	// Off: the same request goes as sent.
	h = newHarness(t, nil, &llmproxy.Options{
		Rewriter:    llmproxy.Compaction(compact.New(compact.Options{})),
		ServerEdits: llmproxy.ServerEditsOff,
	})
	readAll(t, h.do(t, t.Context(), http.MethodPost, "/v1/messages", body, nil))
	if got := h.lastReceived(t); string(got.Body) != string(body) || got.Header.Get("Anthropic-Beta") != "" {
		t.Errorf("server edits off: the body or the beta header changed")
	}
}

// An upstream that refuses the edit (a gateway without the beta) gets the client's request
// as it came, once, and is not asked again; the client never sees the refusal.
func TestServerEditsRefused(t *testing.T) {
	var mu sync.Mutex
	var seen []string // for each request the upstream got: "edit" or "plain", and its beta header
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		edited := strings.Contains(string(body), "clear_tool_uses")
		mu.Lock()
		seen = append(seen, fmt.Sprintf("%v %q", edited, r.Header.Get("Anthropic-Beta")))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if edited {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"type":"error","error":{"type":"invalid_request_error","message":"context_management: Extra inputs are not permitted"}}`)
			return
		}
		io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","usage":{"input_tokens":10,"output_tokens":1}}`)
	}))
	defer api.Close()
	h := newHarness(t, nil, &llmproxy.Options{
		AnthropicUpstream: api.URL,
		Rewriter:          llmproxy.Compaction(compact.New(compact.Options{})),
		ServerEdits:       llmproxy.ServerEditsOn,
	})
	for i, steps := range []int{12, 13} {
		res := h.do(t, t.Context(), http.MethodPost, "/v1/messages", thinkingLoop(steps), map[string]string{"Anthropic-Beta": "interleaved-thinking-2025-05-14"})
		data := readAll(t, res)
		if res.StatusCode != http.StatusOK || !strings.Contains(string(data), `"ok"`) {
			t.Fatalf("request %d: status %d: %s", i, res.StatusCode, data)
		}
	}
	want := []string{
		`true "interleaved-thinking-2025-05-14,` + compact.BetaContextManagement + `"`,
		`false "interleaved-thinking-2025-05-14"`, // the retry: the client's request as it came
		`false "interleaved-thinking-2025-05-14"`, // the next request is not asked again
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Errorf("the upstream saw\n%s\nwant\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
}
