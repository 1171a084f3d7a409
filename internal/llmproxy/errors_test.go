package llmproxy_test

import (
	"encoding/json"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/llmproxy"
)

// TestUpstreamErrorsPassThrough: the upstream's error answers reach the client as the
// upstream sent them: status, body and headers. Each is compared with the same request
// sent to the upstream directly.
func TestUpstreamErrorsPassThrough(t *testing.T) {
	h := newHarness(t, nil, &llmproxy.Options{Rewriter: newDropField(t, "metadata")})
	tests := []struct {
		name   string
		path   string
		header map[string]string
		status int
	}{
		{"400 bad request", "/v1/messages", map[string]string{"X-Fake-Status": "400"}, 400},
		{"401 no key", "/v1/messages", map[string]string{"X-Api-Key": ""}, 401},
		{"429 rate limit", "/v1/chat/completions", map[string]string{"X-Fake-Status": "429"}, 429},
		{"500", "/v1/chat/completions", map[string]string{"X-Fake-Status": "500"}, 500},
		{"504 from the upstream", "/v1/messages", map[string]string{"X-Fake-Status": "504"}, 504},
		{"529 overloaded", "/v1/messages", map[string]string{"X-Fake-Status": "529"}, 529},
	}
	body := []byte(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			direct := *h
			direct.url = h.api.URL
			want := direct.do(t, t.Context(), http.MethodPost, tt.path, body, tt.header)
			wantBody := readAll(t, want)
			got := h.do(t, t.Context(), http.MethodPost, tt.path, body, tt.header)
			gotBody := readAll(t, got)
			if got.StatusCode != tt.status || want.StatusCode != tt.status {
				t.Errorf("status via proxy %d, direct %d, want %d", got.StatusCode, want.StatusCode, tt.status)
			}
			if diff := cmp.Diff(string(wantBody), string(gotBody)); diff != "" {
				t.Errorf("body (-direct +proxy):\n%s", diff)
			}
			for _, k := range []string{"Content-Type", "Content-Length", "Request-Id", "Retry-After"} {
				if g, w := got.Header.Get(k), want.Header.Get(k); g != w {
					t.Errorf("header %s via proxy %q, direct %q", k, g, w)
				}
			}
			h.logs.next(t)
		})
	}
}

// TestUpstreamTimeout: an upstream that does not answer within UpstreamTimeout gets a 504
// in the dialect's error shape, and the upstream request is cancelled.
func TestUpstreamTimeout(t *testing.T) {
	h := newHarness(t, nil, &llmproxy.Options{UpstreamTimeout: 50 * time.Millisecond})
	res := h.do(t, t.Context(), http.MethodPost, "/v1/messages", []byte(`{"model":"m","messages":[]}`), map[string]string{"X-Fake-Delay": "1h"})
	body := readAll(t, res)
	if res.StatusCode != http.StatusGatewayTimeout {
		t.Fatalf("status %d, want 504: %s", res.StatusCode, body)
	}
	var e struct {
		Type  string `json:"type"`
		Error struct {
			Type, Message string
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil || e.Type != "error" || e.Error.Type != "api_error" || e.Error.Message == "" {
		t.Errorf("body %s is not an Anthropic error: %v", body, err)
	}
	if rec := h.logs.next(t); rec["status"] != 504.0 || rec["level"] != "WARN" || rec["error"] == nil {
		t.Errorf("log line %v", rec)
	}
}

// TestUpstreamUnreachable: an upstream nobody listens on gets a 502 in the dialect's shape.
func TestUpstreamUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	h := newHarness(t, nil, &llmproxy.Options{OpenAIUpstream: dead, Rewriter: newDropField(t, "metadata")})
	res := h.do(t, t.Context(), http.MethodPost, "/v1/chat/completions", []byte(`{"model":"m","metadata":{},"messages":[]}`), nil)
	body := readAll(t, res)
	if res.StatusCode != http.StatusBadGateway {
		t.Fatalf("status %d, want 502: %s", res.StatusCode, body)
	}
	var e struct {
		Error struct{ Message, Type string } `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil || e.Error.Message == "" {
		t.Errorf("body %s is not an OpenAI error: %v", body, err)
	}
	if g := res.Header.Get(llmproxy.HeaderRewrite); g != llmproxy.RewriteChanged {
		t.Errorf("%s = %q on the proxy's own error", llmproxy.HeaderRewrite, g)
	}
}
