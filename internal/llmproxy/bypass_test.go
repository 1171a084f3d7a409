package llmproxy_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/llmproxy"
)

// TestBypassForwardsOriginal: requests the proxy must not or cannot rewrite reach the
// upstream byte for byte, with the reason in the response header and the log.
func TestBypassForwardsOriginal(t *testing.T) {
	big := []byte(`{"model":"m","metadata":{},"messages":[{"role":"user","content":"` + strings.Repeat("x", 64<<10) + `"}]}`)
	tests := []struct {
		name      string
		path      string
		body      []byte
		header    map[string]string
		rewriter  llmproxy.Rewriter
		reason    string
		wantCalls int64 // calls to the test Rewriter, when it is the one used
		wantError string
	}{
		{name: "malformed JSON", path: "/v1/messages", body: []byte(`{"model":"m","messages":[{"role":"user","content":"hi"`),
			reason: llmproxy.ReasonRewriteFailed, wantCalls: 1, wantError: "decode anthropic request"},
		{name: "unknown API version", path: "/v1/messages", body: []byte(`{"model":"m","metadata":{},"messages":[]}`),
			header: map[string]string{"Anthropic-Version": "2031-01-01"},
			reason: llmproxy.ReasonRewriteFailed, wantCalls: 1, wantError: `unknown anthropic-version "2031-01-01"`},
		{name: "unknown block type", path: "/v1/messages",
			body:     []byte(`{"model":"m","metadata":{},"messages":[{"role":"user","content":[{"type":"hologram","data":1}]}]}`),
			rewriter: failOn("hologram", errors.New("decode anthropic request: unknown content block type \"hologram\"")),
			reason:   llmproxy.ReasonRewriteFailed, wantError: "unknown content block type"},
		{name: "not UTF-8", path: "/v1/chat/completions", body: []byte("{\"model\":\"m\",\"metadata\":{},\"messages\":[{\"role\":\"user\",\"content\":\"\xff\xfe\"}]}"),
			reason: llmproxy.ReasonNotUTF8},
		{name: "above the cap, with Content-Length", path: "/v1/messages", body: big, reason: llmproxy.ReasonTooLarge},
		{name: "above the cap, chunked", path: "/v1/messages", body: big, header: map[string]string{"X-Test-Chunked": "1"}, reason: llmproxy.ReasonTooLarge},
		{name: "gzip", path: "/v1/messages", body: []byte("\x1f\x8b\x08\x00binary"), header: map[string]string{"Content-Encoding": "gzip"},
			reason: llmproxy.ReasonContentEncoding},
		{name: "not JSON content type", path: "/v1/chat/completions", body: []byte(`model=m`),
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, reason: llmproxy.ReasonContentType},
		{name: "rewriter panics", path: "/v1/messages", body: []byte(`{"model":"m","metadata":{},"messages":[]}`),
			rewriter: llmproxy.RewriterFunc(func(context.Context, *llmproxy.Request) (*llmproxy.Rewrite, error) { panic("compaction bug") }),
			reason:   llmproxy.ReasonRewriteFailed, wantError: "rewriter panicked: compaction bug"},
		{name: "rewrite not JSON", path: "/v1/messages", body: []byte(`{"model":"m","metadata":{},"messages":[]}`),
			rewriter: llmproxy.RewriterFunc(func(context.Context, *llmproxy.Request) (*llmproxy.Rewrite, error) {
				return &llmproxy.Rewrite{Changed: true, Body: []byte(`{"model":`)}, nil
			}),
			reason: llmproxy.ReasonInvalidRewrite, wantError: "not valid UTF-8 JSON"},
		{name: "rewrite empty", path: "/v1/messages", body: []byte(`{"model":"m","metadata":{},"messages":[]}`),
			rewriter: llmproxy.RewriterFunc(func(context.Context, *llmproxy.Request) (*llmproxy.Rewrite, error) {
				return &llmproxy.Rewrite{Changed: true}, nil
			}),
			reason: llmproxy.ReasonInvalidRewrite},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			drop := newDropField(t, "metadata")
			var rw llmproxy.Rewriter = drop
			if tt.rewriter != nil {
				rw = tt.rewriter
			}
			h := newHarness(t, nil, &llmproxy.Options{Rewriter: rw, MaxBodyBytes: 32 << 10})
			var res *http.Response
			if tt.header["X-Test-Chunked"] != "" {
				res = h.doChunked(t, tt.path, tt.body)
			} else {
				res = h.do(t, t.Context(), http.MethodPost, tt.path, tt.body, tt.header)
			}
			readAll(t, res)
			if got := h.lastReceived(t).Body; !bytes.Equal(got, tt.body) {
				t.Errorf("upstream received %d bytes %.60q…, want the client's %d bytes %.60q…", len(got), got, len(tt.body), tt.body)
			}
			if g := res.Header.Get(llmproxy.HeaderRewrite); g != llmproxy.RewriteBypassed {
				t.Errorf("%s = %q, want %q", llmproxy.HeaderRewrite, g, llmproxy.RewriteBypassed)
			}
			if g := res.Header.Get(llmproxy.HeaderReason); g != tt.reason {
				t.Errorf("%s = %q, want %q", llmproxy.HeaderReason, g, tt.reason)
			}
			if tt.rewriter == nil && drop.calls.Load() != tt.wantCalls {
				t.Errorf("Rewriter called %d times, want %d", drop.calls.Load(), tt.wantCalls)
			}
			rec := h.logs.next(t)
			if rec["reason"] != tt.reason || rec["rewrite"] != "bypassed" {
				t.Errorf("log line %v, want reason %s", rec, tt.reason)
			}
			if msg, _ := rec["error"].(string); !strings.Contains(msg, tt.wantError) {
				t.Errorf("log error %q, want it to contain %q", msg, tt.wantError)
			}
		})
	}
}

// failOn is a Rewriter that fails when the body contains s and otherwise keeps it.
func failOn(s string, err error) llmproxy.Rewriter {
	return llmproxy.RewriterFunc(func(_ context.Context, req *llmproxy.Request) (*llmproxy.Rewrite, error) {
		if bytes.Contains(req.Body, []byte(s)) {
			return nil, err
		}
		return &llmproxy.Rewrite{}, nil
	})
}

// doChunked posts body without a Content-Length, as a client streaming its upload does.
func (h *harness) doChunked(t *testing.T, path string, body []byte) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, h.url+path, io.MultiReader(bytes.NewReader(body)))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range clientHeaders(path) {
		req.Header.Set(k, v)
	}
	res, err := h.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if req.ContentLength != 0 && req.ContentLength != -1 {
		t.Fatalf("request has ContentLength %d, want it unknown", req.ContentLength)
	}
	return res
}
