package llmproxy_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/llmproxy"
	"github.com/winnowhq/winnow/internal/llmproxy/fakeapi"
)

// claudeCodeUA is the User-Agent of Claude Code 2.1.328.
const claudeCodeUA = "claude-cli/2.1.328 (external, cli)"

// TestRouting sends requests to a proxy with two distinct upstreams and checks where each
// went, that it arrived as sent (method, path, query, body) and that only the rewritable
// ones were rewritten.
func TestRouting(t *testing.T) {
	openai, err := fakeapi.Start(&fakeapi.Options{Record: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { openai.Close() })
	h := newHarness(t, nil, &llmproxy.Options{OpenAIUpstream: openai.URL + "/compat", Rewriter: newDropField(t, "metadata")})
	anthropic := h.api
	body := []byte(`{"model":"m","metadata":{},"stream":false,"messages":[]}`)
	tests := []struct {
		name      string
		method    string
		path      string // with query
		header    map[string]string
		upstream  *fakeapi.API
		wantPath  string
		rewritten bool
	}{
		{"messages", "POST", "/v1/messages", nil, anthropic, "/v1/messages", true},
		{"count_tokens", "POST", "/v1/messages/count_tokens", nil, anthropic, "/v1/messages/count_tokens", false},
		{"batches", "GET", "/v1/messages/batches?limit=2", nil, anthropic, "/v1/messages/batches", false},
		{"anthropic models", "GET", "/v1/models?limit=5", map[string]string{"X-Api-Key": "k", "Anthropic-Version": "2023-06-01"}, anthropic, "/v1/models", false},
		{"chat completions", "POST", "/v1/chat/completions", nil, openai, "/compat/v1/chat/completions", true},
		{"responses", "POST", "/v1/responses", nil, openai, "/compat/v1/responses", true},
		{"responses retrieve", "GET", "/v1/responses/resp_1", nil, openai, "/compat/v1/responses/resp_1", false},
		{"openai models", "GET", "/v1/models", nil, openai, "/compat/v1/models", false},
		{"embeddings", "POST", "/v1/embeddings", nil, openai, "/compat/v1/embeddings", false},
		{"chat completions GET", "GET", "/v1/chat/completions", nil, openai, "/compat/v1/chat/completions", false},
		// Claude Code 2.1.328 says hello, and sends its own API calls, without anthropic-version.
		{"claude code hello", "HEAD", "/api/hello", map[string]string{"User-Agent": claudeCodeUA}, anthropic, "/api/hello", false},
		{"claude code oauth", "GET", "/api/oauth/profile", map[string]string{"User-Agent": claudeCodeUA}, anthropic, "/api/oauth/profile", false},
		{"claude code event log", "POST", "/api/event_logging/batch", map[string]string{"User-Agent": claudeCodeUA}, anthropic, "/api/event_logging/batch", false},
		{"claude code models", "GET", "/v1/models", map[string]string{"User-Agent": claudeCodeUA}, anthropic, "/v1/models", false},
		{"anthropic sdk files", "GET", "/v1/files", map[string]string{"User-Agent": "Anthropic/JS 0.54.0"}, anthropic, "/v1/files", false},
		{"openai sdk models", "GET", "/v1/models", map[string]string{"User-Agent": "OpenAI/JS 5.0.0"}, openai, "/compat/v1/models", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b []byte
			if tt.method == "POST" {
				b = body
			}
			before := len(tt.upstream.Requests())
			res := h.do(t, t.Context(), tt.method, tt.path, b, tt.header)
			readAll(t, res)
			reqs := tt.upstream.Requests()
			if len(reqs) != before+1 {
				t.Fatalf("the %s upstream received %d requests, want 1", tt.name, len(reqs)-before)
			}
			got := reqs[len(reqs)-1]
			if got.Method != tt.method || got.Path != tt.wantPath {
				t.Errorf("upstream got %s %s, want %s %s", got.Method, got.Path, tt.method, tt.wantPath)
			}
			if q := res.Request.URL.RawQuery; got.Query != q {
				t.Errorf("upstream query %q, want %q", got.Query, q)
			}
			wantBody := string(b)
			if tt.rewritten {
				wantBody = `{"messages":[],"model":"m","stream":false}`
			}
			if string(got.Body) != wantBody {
				t.Errorf("upstream body %s, want %s", got.Body, wantBody)
			}
			if g := res.Header.Get(llmproxy.HeaderRewrite); (g != "") != tt.rewritten {
				t.Errorf("%s = %q; rewritten %v", llmproxy.HeaderRewrite, g, tt.rewritten)
			}
			h.logs.next(t)
		})
	}
}

// TestHopByHopHeaders: hop-by-hop headers stop at the proxy, end-to-end ones go through,
// and the upstream sees its own host.
func TestHopByHopHeaders(t *testing.T) {
	h := newHarness(t, nil, nil)
	res := h.do(t, t.Context(), http.MethodPost, "/v1/messages", []byte(`{"model":"m","messages":[]}`), map[string]string{
		"Connection":       "X-Hop",
		"X-Hop":            "should not pass",
		"Proxy-Connection": "keep-alive",
		"X-Stainless-Lang": "go",
		"Anthropic-Beta":   "prompt-caching-2024-07-31",
	})
	readAll(t, res)
	rec := h.lastReceived(t)
	if want := strings.TrimPrefix(h.api.URL, "http://"); rec.Host != want {
		t.Errorf("upstream Host %q, want its own %q", rec.Host, want)
	}
	got := rec.Header
	for _, k := range []string{"X-Hop", "Proxy-Connection"} {
		if v := got.Get(k); v != "" {
			t.Errorf("hop-by-hop %s reached the upstream: %q", k, v)
		}
	}
	for k, v := range map[string]string{"X-Stainless-Lang": "go", "Anthropic-Beta": "prompt-caching-2024-07-31"} {
		if g := got.Get(k); g != v {
			t.Errorf("upstream %s = %q, want %q", k, g, v)
		}
	}
	if xf := got.Get("X-Forwarded-For"); xf != "" {
		t.Errorf("X-Forwarded-For %q added", xf)
	}
}
