package llmproxy_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/llmproxy"
	"github.com/winnowhq/winnow/internal/llmproxy/fakeapi"
)

// TestCredentialsNeverLogged runs requests that succeed, fail in the Rewriter, fail
// upstream and stream, with credentials in every header that carries them and in headers
// whose names do not say so, at Debug level (which logs headers), and checks that the
// upstream got every credential as sent (but the hop-by-hop Proxy-Authorization) and that
// no log line holds any of them, while the protocol headers are logged with their values.
func TestCredentialsNeverLogged(t *testing.T) {
	secrets := map[string]string{
		"X-Api-Key":           "sk-ant-api03-SECRET-anthropic-key",
		"Authorization":       "Bearer sk-proj-SECRET-openai-key",
		"Proxy-Authorization": "Basic U0VDUkVULXByb3h5",
		"Openai-Organization": "org-SECRET-organization",
		"Openai-Project":      "proj_SECRET-project",
		"Cookie":              "session=SECRET-cookie",
		"X-Goog-Api-Key":      "SECRET-google-key",
		"X-Custom-Token":      "SECRET-custom-token",
		// Headers whose names say nothing of a secret: only an allowlist keeps them out
		// of the log.
		"X-Custom-Credential": "sk-SECRET-custom-credential",
		"X-Portkey-Config":    "pc-SECRET-gateway-config",
		"X-Client-Note":       "sk-ant-SECRET-in-a-plain-header",
	}
	h := newHarness(t, nil, &llmproxy.Options{Rewriter: llmproxy.RewriterFunc(
		func(_ context.Context, req *llmproxy.Request) (*llmproxy.Rewrite, error) {
			for k := range secrets {
				if v := req.Header.Get(k); v != "" {
					return nil, errors.New("the Rewriter was shown " + k)
				}
			}
			if strings.Contains(string(req.Body), "fail") {
				return nil, errors.New("cannot rewrite this one")
			}
			return &llmproxy.Rewrite{}, nil
		})})
	requests := []struct {
		path string
		body string
		more map[string]string
	}{
		{"/v1/messages", `{"model":"m","messages":[]}`, nil},
		{"/v1/messages", `{"model":"fail","messages":[]}`, nil},
		{"/v1/messages", `{"model":"m","stream":true,"messages":[]}`, nil},
		{"/v1/chat/completions", `{"model":"m","messages":[]}`, map[string]string{"X-Fake-Status": "401"}},
		{"/v1/models", ``, nil},
	}
	for _, r := range requests {
		header := map[string]string{}
		for k, v := range secrets {
			header[k] = v
		}
		for k, v := range r.more {
			header[k] = v
		}
		method := http.MethodPost
		var body []byte
		if r.body != "" {
			body = []byte(r.body)
		} else {
			method = http.MethodGet
		}
		res := h.do(t, t.Context(), method, r.path, body, header)
		readAll(t, res)
		if res.Header.Get(llmproxy.HeaderReason) == llmproxy.ReasonRewriteFailed && !strings.Contains(r.body, "fail") {
			t.Errorf("%s: the Rewriter failed: credentials reached it", r.path)
		}
		got := h.lastReceived(t).Header
		for k, v := range secrets {
			if k == "Proxy-Authorization" {
				v = "" // hop-by-hop: it authenticates the client to this proxy, not upstream
			}
			if g := got.Get(k); g != v {
				t.Errorf("%s: upstream %s = %q, want %q", r.path, k, g, v)
			}
		}
		h.logs.next(t)
	}
	logs := h.logs.String()
	if strings.Contains(logs, "SECRET") || strings.Contains(logs, "U0VDUkVU") {
		t.Errorf("a credential reached the log:\n%s", logs)
	}
	for _, want := range []string{
		// Every header is named; values only for the allowlisted ones.
		`"X-Api-Key":"[REDACTED]"`, `"Authorization":"[REDACTED]"`, `"X-Custom-Credential":"[REDACTED]"`,
		`"X-Client-Note":"[REDACTED]"`, `"Anthropic-Version":"2023-06-01"`, `"Content-Type":"application/json"`,
		`"User-Agent":"Go-http-client/1.1"`, `"Request-Id":"req_fake_`,
	} {
		if !strings.Contains(logs, want) {
			t.Errorf("the debug log has no %s:\n%s", want, logs)
		}
	}
}

// TestCredentialsInUpstreamURL: a password in an upstream URL is not shown in /healthz or
// in the proxy's own error messages.
func TestCredentialsInUpstreamURL(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://user:SECRET-password@" + ln.Addr().String()
	ln.Close()
	h := newHarness(t, &fakeapi.Options{}, &llmproxy.Options{AnthropicUpstream: dead})
	res := h.do(t, t.Context(), http.MethodPost, "/v1/messages", []byte(`{}`), nil)
	body := string(readAll(t, res))
	res = h.do(t, t.Context(), http.MethodGet, "/healthz", nil, nil)
	health := string(readAll(t, res))
	h.logs.next(t)
	for what, s := range map[string]string{"error body": body, "healthz": health, "log": h.logs.String()} {
		if strings.Contains(s, "SECRET") {
			t.Errorf("the upstream password is in the %s: %s", what, s)
		}
	}
}
