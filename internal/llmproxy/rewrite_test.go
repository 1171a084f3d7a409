package llmproxy_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/llmproxy"
	"github.com/winnowhq/winnow/internal/tokens"
)

// TestRewriteReplacesBody sends a request whose body the Rewriter changes and checks what
// the upstream received (the new body, with a Content-Length that fits it), what the
// Rewriter saw (no credentials) and what the client got back (the x-winnow-* headers).
func TestRewriteReplacesBody(t *testing.T) {
	for _, path := range []string{"/v1/messages", "/v1/chat/completions"} {
		t.Run(path, func(t *testing.T) {
			rw := newDropField(t, "metadata")
			h := newHarness(t, nil, &llmproxy.Options{Rewriter: rw})
			orig := []byte(`{"model":"m","max_tokens":64,"metadata":{"user_id":"u-1234567890","note":"dropped by the test rewriter"},"messages":[{"role":"user","content":"Say hello."}]}`)
			res := h.do(t, t.Context(), http.MethodPost, path, orig, nil)
			body := readAll(t, res)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("status %d: %s", res.StatusCode, body)
			}

			got := h.lastReceived(t)
			want := []byte(`{"max_tokens":64,"messages":[{"role":"user","content":"Say hello."}],"model":"m"}`)
			if diff := cmp.Diff(string(want), string(got.Body)); diff != "" {
				t.Errorf("upstream body (-want +got):\n%s", diff)
			}
			if cl := got.Header.Get("Content-Length"); cl != strconv.Itoa(len(want)) {
				t.Errorf("upstream Content-Length = %q, want %d", cl, len(want))
			}
			for _, k := range []string{"X-Api-Key", "Authorization", "Anthropic-Version"} {
				if g, w := got.Header.Get(k), clientHeaders(path)[k]; g != w {
					t.Errorf("upstream %s = %q, want %q as the client sent it", k, g, w)
				}
			}

			before, after := tokens.Count(tokens.O200k, string(orig)), tokens.Count(tokens.O200k, string(want))
			wantHeaders := map[string]string{
				llmproxy.HeaderRewrite:      llmproxy.RewriteChanged,
				llmproxy.HeaderTokensBefore: strconv.Itoa(before),
				llmproxy.HeaderTokensAfter:  strconv.Itoa(after),
				llmproxy.HeaderSaved:        strconv.Itoa(before - after),
				llmproxy.HeaderReason:       "",
			}
			for k, w := range wantHeaders {
				if g := res.Header.Get(k); g != w {
					t.Errorf("response %s = %q, want %q", k, g, w)
				}
			}
			if before <= after {
				t.Errorf("tokens before %d, after %d: dropping a field must save tokens", before, after)
			}

			seen := rw.header()
			for _, k := range []string{"X-Api-Key", "Authorization"} {
				if v := seen.Get(k); v != "" {
					t.Errorf("the Rewriter saw the credential %s: %q", k, v)
				}
			}
			if path == "/v1/messages" && seen.Get("Anthropic-Version") != "2023-06-01" {
				t.Errorf("the Rewriter did not see anthropic-version: %v", seen)
			}

			rec := h.logs.next(t)
			for k, w := range map[string]any{"rewrite": "changed", "dialect": dialectOf(path), "status": 200.0,
				"tokens_before": float64(before), "tokens_after": float64(after), "saved": float64(before - after),
				"req_bytes": float64(len(orig)), "fwd_bytes": float64(len(want)), "notes": "dropped metadata"} {
				if rec[k] != w {
					t.Errorf("log %s = %v, want %v", k, rec[k], w)
				}
			}
		})
	}
}

func dialectOf(path string) string {
	if path == "/v1/messages" {
		return llmproxy.DialectAnthropic
	}
	return llmproxy.DialectOpenAI
}

// TestRewriteUnchanged: a Rewriter that keeps the body forwards the client's bytes exactly.
func TestRewriteUnchanged(t *testing.T) {
	rw := newDropField(t, "metadata")
	h := newHarness(t, nil, &llmproxy.Options{Rewriter: rw})
	orig := []byte("{\n  \"model\": \"m\",\n  \"messages\": [{\"role\": \"user\", \"content\": \"caf\u00e9\"}]\n}")
	res := h.do(t, t.Context(), http.MethodPost, "/v1/messages", orig, nil)
	readAll(t, res)
	if got := h.lastReceived(t).Body; string(got) != string(orig) {
		t.Errorf("upstream body = %q, want the client's bytes %q", got, orig)
	}
	if g := res.Header.Get(llmproxy.HeaderRewrite); g != llmproxy.RewriteUnchanged {
		t.Errorf("%s = %q, want %q", llmproxy.HeaderRewrite, g, llmproxy.RewriteUnchanged)
	}
	if g := res.Header.Get(llmproxy.HeaderSaved); g != "" {
		t.Errorf("%s = %q for a Rewriter that counted nothing", llmproxy.HeaderSaved, g)
	}
}

// TestRewriteNonStreamingResponse checks that a rewritten request still gets the upstream's
// whole answer.
func TestRewriteNonStreamingResponse(t *testing.T) {
	h := newHarness(t, nil, &llmproxy.Options{Rewriter: newDropField(t, "metadata")})
	res := h.do(t, t.Context(), http.MethodPost, "/v1/chat/completions", []byte(`{"model":"gpt","metadata":{},"messages":[]}`), nil)
	var got struct {
		Choices []struct {
			Message struct{ Content string } `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(readAll(t, res), &got); err != nil || len(got.Choices) != 1 || got.Choices[0].Message.Content != "Hello, world" {
		t.Errorf("completion = %+v, %v", got, err)
	}
}
