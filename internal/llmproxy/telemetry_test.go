package llmproxy_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/winnowhq/winnow/internal/compact"
	"github.com/winnowhq/winnow/internal/llmproxy"
	"github.com/winnowhq/winnow/internal/telemetry"
)

// marker is seeded in every text of the requests of TestTelemetry; it must never reach the
// telemetry file.
const marker = "zq-MARKER-7f3a9c-private-text"

// TestTelemetry sends each rewritable kind of request through a proxy with telemetry on,
// streamed and not, and checks the one event each gets: the client from the User-Agent,
// the model and conversation from the body, the rewrite's counts and the usage and
// context edits the upstream reported. No event holds any text of a request.
func TestTelemetry(t *testing.T) {
	path := filepath.Join(t.TempDir(), "telemetry.jsonl")
	w, err := telemetry.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, nil, &llmproxy.Options{Rewriter: newDropField(t, "metadata"), Telemetry: w})
	anthropicBody := func(stream bool, extra string) []byte {
		return fmt.Appendf(nil, `{"model":"claude-opus-5-5","max_tokens":100,"stream":%v,"metadata":{"user_id":"%s"},"system":"%s system",%s`+
			`"messages":[{"role":"user","content":"%s first question"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"path":"%s"}}]},`+
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"%s file"}]}]}`, stream, marker, marker, extra, marker, marker, marker)
	}
	edits := `"context_management":{"edits":[{"type":"clear_tool_uses_20250919"}]},`
	tests := []struct {
		name, path, userAgent string
		body                  []byte
		header                map[string]string
		want                  telemetry.ProxyEvent
	}{
		{
			name: "claude code, stream", path: "/v1/messages", userAgent: "claude-cli/2.1.328 (external, cli)",
			body: anthropicBody(true, edits), header: map[string]string{"X-Fake-Cache-Read": "100", "X-Fake-Cache-Write": "20"},
			want: telemetry.ProxyEvent{Dialect: "anthropic", Client: "claude-code", Model: "claude-opus-5-5", Rewrite: "changed",
				ServerEdits: []telemetry.ServerEdit{{Type: "clear_tool_uses_20250919", ClearedToolUses: 1, ClearedInputTokens: 50}}},
		},
		{
			name: "anthropic sdk, no stream", path: "/v1/messages", userAgent: "Anthropic/Go 1.84.0",
			body: anthropicBody(false, ""),
			want: telemetry.ProxyEvent{Dialect: "anthropic", Client: "anthropic-sdk", Model: "claude-opus-5-5", Rewrite: "changed"},
		},
		{
			name: "openai sdk, chat stream with usage", path: "/v1/chat/completions", userAgent: "OpenAI/JS 5.0.0",
			body:   fmt.Appendf(nil, `{"model":"gpt-5.4","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"system","content":"%s"},{"role":"user","content":"%s"}]}`, marker, marker),
			header: map[string]string{"X-Fake-Cache-Read": "10"},
			want:   telemetry.ProxyEvent{Dialect: "openai", Client: "openai-sdk", Model: "gpt-5.4", Rewrite: "unchanged"},
		},
		{
			name: "codex, responses stream", path: "/v1/responses", userAgent: "codex_exec/0.169.0 (Debian 12.0.0; x86_64) unknown (codex_exec; 0.169.0)",
			body: fmt.Appendf(nil, `{"model":"gpt-5.5-codex","stream":true,"metadata":{},"input":[{"type":"message","role":"developer","content":"%s"},{"type":"message","role":"user","content":[{"type":"input_text","text":"%s"}]}]}`, marker, marker),
			want: telemetry.ProxyEvent{Dialect: "responses", Client: "codex", Model: "gpt-5.5-codex", Rewrite: "changed"},
		},
		{
			name: "a body that is not JSON", path: "/v1/messages", userAgent: "curl/8.5.0",
			body: []byte(marker + ` {"model":"m"`),
			want: telemetry.ProxyEvent{Dialect: "anthropic", Client: "other", Rewrite: "bypassed", Reason: "rewrite_failed", Status: 400},
		},
	}
	for _, tt := range tests {
		header := map[string]string{"User-Agent": tt.userAgent}
		for k, v := range tt.header {
			header[k] = v
		}
		readAll(t, h.do(t, t.Context(), http.MethodPost, tt.path, tt.body, header))
		h.logs.next(t) // the exchange is done, its event recorded
	}
	// The same conversation again: it must hash alike.
	readAll(t, h.do(t, t.Context(), http.MethodPost, "/v1/messages", anthropicBody(false, ""), map[string]string{"User-Agent": "Anthropic/Go 1.84.0"}))
	h.logs.next(t)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(marker)) || bytes.Contains(data, []byte("first question")) {
		t.Fatalf("the telemetry holds text from a request:\n%s", data)
	}
	var got []telemetry.ProxyEvent
	if _, err := telemetry.ScanAll(bytes.NewReader(data), nil, func(ev telemetry.ProxyEvent) { got = append(got, ev) }); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(tests)+1 {
		t.Fatalf("%d events, want %d:\n%s", len(got), len(tests)+1, data)
	}
	for i, tt := range tests {
		ev := got[i]
		want := tt.want
		want.Kind, want.Path = telemetry.KindProxy, tt.path
		if want.Status == 0 {
			want.Status = http.StatusOK
		}
		ignore := cmpopts.IgnoreFields(telemetry.ProxyEvent{}, "Time", "Conversation", "TokensBefore", "TokensAfter", "Usage")
		if diff := cmp.Diff(want, ev, ignore); diff != "" {
			t.Errorf("%s: event (-want +got):\n%s", tt.name, diff)
		}
		if ev.Time.IsZero() || want.Model != "" && len(ev.Conversation) != 16 {
			t.Errorf("%s: time %v, conversation %q", tt.name, ev.Time, ev.Conversation)
		}
		if ev.Rewrite == "changed" && (ev.TokensAfter <= 0 || ev.TokensAfter >= ev.TokensBefore) || ev.Rewrite != "changed" && ev.TokensBefore != 0 {
			t.Errorf("%s: %s, tokens %d → %d", tt.name, ev.Rewrite, ev.TokensBefore, ev.TokensAfter)
		}
	}
	// fakeapi bills a fourth of the forwarded body's bytes as input tokens.
	fwd := func(i int) int { return len(h.api.Requests()[i].Body) / 4 }
	for i, want := range []*telemetry.Usage{
		{Input: fwd(0) - 120, CacheWrite: 20, CacheRead: 100, Output: 5},
		{Input: fwd(1), Output: 5},
		{Input: fwd(2) - 10, CacheRead: 10, Output: 5},
		{Input: fwd(3), Output: 5},
		nil,
	} {
		if diff := cmp.Diff(want, got[i].Usage); diff != "" {
			t.Errorf("%s: usage (-want +got):\n%s", tests[i].name, diff)
		}
	}
	if got[0].Conversation != got[1].Conversation || got[1].Conversation != got[len(got)-1].Conversation || got[2].Conversation == got[0].Conversation {
		t.Errorf("conversations %q, %q, %q, %q: want the three Anthropic ones alike, the chat one apart",
			got[0].Conversation, got[1].Conversation, got[len(got)-1].Conversation, got[2].Conversation)
	}
}

// TestTelemetryServerEdits: a compacted request that asks the API for a server-side edit
// says so, and the API's report of the edit is recorded; when the upstream refuses the
// edit and gets the client's request instead, the event says the body went as sent.
func TestTelemetryServerEdits(t *testing.T) {
	for _, refused := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "telemetry.jsonl")
		w, err := telemetry.Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		opts := &llmproxy.Options{Rewriter: llmproxy.Compaction(compact.New(compact.Options{})), ServerEdits: llmproxy.ServerEditsOn, Telemetry: w}
		if refused {
			api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				w.Header().Set("Content-Type", "application/json")
				if bytes.Contains(body, []byte("clear_tool_uses")) {
					w.WriteHeader(http.StatusBadRequest)
					io.WriteString(w, `{"type":"error","error":{"type":"invalid_request_error","message":"context_management: Extra inputs are not permitted"}}`)
					return
				}
				io.WriteString(w, `{"type":"message","content":[],"usage":{"input_tokens":10,"output_tokens":1}}`)
			}))
			defer api.Close()
			opts.AnthropicUpstream = api.URL
		}
		h := newHarness(t, nil, opts)
		readAll(t, h.do(t, t.Context(), http.MethodPost, "/v1/messages", thinkingLoop(12), map[string]string{"User-Agent": "claude-cli/2.1.328 (external, cli)"}))
		h.logs.next(t)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		var got []telemetry.ProxyEvent
		telemetry.ScanAll(bytes.NewReader(data), nil, func(ev telemetry.ProxyEvent) { got = append(got, ev) })
		if len(got) != 1 {
			t.Fatalf("refused %v: %d events:\n%s", refused, len(got), data)
		}
		ev := got[0]
		if !ev.EditRequested || ev.Usage == nil || ev.TokensBefore == 0 {
			t.Errorf("refused %v: %+v", refused, ev)
		}
		switch {
		case !refused && (ev.Rewrite != "changed" || len(ev.ServerEdits) != 1 || ev.TokensAfter >= ev.TokensBefore):
			t.Errorf("an applied edit: %+v", ev)
		case refused && (ev.Rewrite != "bypassed" || ev.Reason != llmproxy.ReasonEditsRefused || ev.TokensAfter != ev.TokensBefore || len(ev.ServerEdits) != 0):
			t.Errorf("a refused edit: %+v", ev)
		}
	}
}
