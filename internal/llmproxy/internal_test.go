package llmproxy

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestRoute(t *testing.T) {
	p, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	const claudeCode = "claude-cli/2.1.328 (external, cli)"
	anthropic := func(rewrite bool) route { return route{DialectAnthropic, p.anthropic, rewrite} }
	openai := func(rewrite bool) route { return route{DialectOpenAI, p.openai, rewrite} }
	responses := func(rewrite bool) route { return route{DialectResponses, p.openai, rewrite} }
	tests := []struct {
		method, path string
		anthropicVer string
		userAgent    string
		want         route
	}{
		{"POST", "/v1/messages", "2023-06-01", "", anthropic(true)},
		{"POST", "/v1/messages", "", "", anthropic(true)},
		{"POST", "/v1/messages", "", claudeCode, anthropic(true)},
		{"GET", "/v1/messages", "", "", anthropic(false)},
		{"POST", "/v1/messages/count_tokens", "2023-06-01", "", anthropic(false)},
		{"POST", "/v1/messages/batches", "", "", anthropic(false)},
		{"POST", "/v1/complete", "", "", anthropic(false)},
		{"GET", "/v1/models", "2023-06-01", "", anthropic(false)},
		{"GET", "/v1/models", "", "", openai(false)},
		{"POST", "/v1/chat/completions", "", "", openai(true)},
		{"POST", "/v1/chat/completions/", "", "", openai(false)},
		{"POST", "/v1/responses", "", "", responses(true)},
		{"GET", "/v1/responses", "", "", responses(false)},
		{"GET", "/v1/responses/resp_1", "", "", openai(false)},
		{"POST", "/v1/messagesx", "", "", openai(false)},
		{"GET", "/", "", "", openai(false)},
		// Claude Code's own API, with or without its User-Agent, never with a version.
		{"HEAD", "/api/hello", "", claudeCode, anthropic(false)},
		{"HEAD", "/api/hello", "", "", anthropic(false)},
		{"GET", "/api/oauth/profile", "", "claude-code/2.1.328", anthropic(false)},
		{"GET", "/api/claude_code/settings", "", "", anthropic(false)},
		{"POST", "/api/event_logging/batch", "", claudeCode, anthropic(false)},
		{"GET", "/apix", "", "", openai(false)},
		{"GET", "/v1/api/x", "", "", openai(false)},
		// An Anthropic client's request without anthropic-version, on a path both APIs have.
		{"GET", "/v1/models", "", claudeCode, anthropic(false)},
		{"GET", "/v1/models", "", "Claude-CLI/2.1.328", anthropic(false)},
		{"GET", "/v1/models", "", "Anthropic/JS 0.54.0", anthropic(false)},
		{"GET", "/v1/files", "", "Anthropic/Go 1.84.0", anthropic(false)},
		{"GET", "/v1/models", "", "my-tool/1.0 anthropic-sdk-python/0.40", anthropic(false)},
		{"GET", "/v1/models", "", "OpenAI/JS 5.0.0", openai(false)},
		{"POST", "/v1/responses", "", "codex_exec/0.169.0 (Debian 12.0.0; x86_64)", responses(true)},
		{"GET", "/v1/models", "", "claude/1.0", openai(false)},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(tt.method, tt.path, nil)
		if tt.anthropicVer != "" {
			r.Header.Set("Anthropic-Version", tt.anthropicVer)
		}
		if tt.userAgent != "" {
			r.Header.Set("User-Agent", tt.userAgent)
		}
		if got := p.route(r); got != tt.want {
			t.Errorf("%s %s (version %q, User-Agent %q) → %s rewrite=%v, want %s rewrite=%v",
				tt.method, tt.path, tt.anthropicVer, tt.userAgent, got.dialect, got.rewrite, tt.want.dialect, tt.want.rewrite)
		}
	}
}

func TestIsPlain(t *testing.T) {
	for name, want := range map[string]bool{
		// credentials by any name
		"Authorization": false, "authorization": false, "Proxy-Authorization": false, "X-Api-Key": false,
		"Api-Key": false, "X-Goog-Api-Key": false, "Cookie": false, "Set-Cookie": false,
		"Openai-Organization": false, "Openai-Project": false, "Anthropic-Admin-Key": false,
		"Anthropic-Dangerous-Direct-Browser-Access": false, "X-Session-Id": false, "X-Amz-Security-Token": false,
		"X-Custom-Credential": false, "x-custom-credential": false, "X-Portkey-Config": false,
		"Anthropic-Organization-Id": false, "Chatgpt-Account-Id": false, "X-Claude-Code-Session-Id": false,
		"X-Stainless": false, "X-Winnow": false,
		// protocol and diagnostics
		"Anthropic-Version": true, "anthropic-beta": true, "Content-Type": true, "Accept": true,
		"User-Agent": true, "X-Stainless-Lang": true, "x-stainless-retry-count": true, "Request-Id": true,
		"Keep-Alive": true, "Openai-Beta": true, "X-App": true, "Originator": true,
		"Anthropic-Ratelimit-Requests-Remaining": true, "X-Ratelimit-Reset-Tokens": true, "X-Winnow-Saved": true,
	} {
		if got := isPlain(name); got != want {
			t.Errorf("isPlain(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestPlainOnly(t *testing.T) {
	h := http.Header{"X-Api-Key": {"k"}, "X-Custom-Credential": {"c"}, "Anthropic-Version": {"v"}, "Accept": {"a", "b"}}
	got := plainOnly(h)
	want := http.Header{"Anthropic-Version": {"v"}, "Accept": {"a", "b"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	got["Accept"][0] = "changed"
	if h["Accept"][0] != "a" {
		t.Error("plainOnly shares the value slices")
	}
}

func TestReadAtMost(t *testing.T) {
	tests := []struct {
		name         string
		body         string
		size, limit  int64
		wantData     string
		wantComplete bool
	}{
		{"empty", "", 0, 10, "", true},
		{"under", "abc", 3, 10, "abc", true},
		{"at the limit", "abcdefghij", 10, 10, "abcdefghij", true},
		{"over, length unknown", "abcdefghijk", -1, 10, "abcdefghijk", false},
		{"far over, length unknown", strings.Repeat("x", 100), -1, 10, strings.Repeat("x", 11), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := strings.NewReader(tt.body)
			data, complete, err := readAtMost(r, tt.size, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != tt.wantData || complete != tt.wantComplete {
				t.Errorf("readAtMost = %q, %v; want %q, %v", data, complete, tt.wantData, tt.wantComplete)
			}
			if rest := int64(r.Len()); int64(len(data))+rest != int64(len(tt.body)) {
				t.Errorf("%d bytes read and %d left of %d", len(data), rest, len(tt.body))
			}
		})
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	for _, o := range []Options{
		{AnthropicUpstream: "api.anthropic.com"},
		{OpenAIUpstream: "ftp://x"},
		{OpenAIUpstream: "http://x/?q=1"},
		{MaxBodyBytes: -1},
		{ShutdownTimeout: -1},
		{BodyIdleTimeout: -1},
		{BodyTimeout: -time.Second},
	} {
		if _, err := New(&o); err == nil {
			t.Errorf("New(%+v) accepted it", o)
		}
	}
}

func TestBufferPool(t *testing.T) {
	var b bufferPool
	buf := b.Get()
	if len(buf) != copyBufferSize {
		t.Fatalf("Get: %d bytes", len(buf))
	}
	copy(buf, "x")
	b.Put(buf)
	b.Put(make([]byte, 10)) // a foreign size is dropped, not handed out
	for range 3 {
		if got := b.Get(); len(got) != copyBufferSize {
			t.Fatalf("Get after Put: %d bytes", len(got))
		}
	}
}

func TestCheckLoopback(t *testing.T) {
	for addr, ok := range map[string]bool{
		"127.0.0.1:8787": true, "localhost:0": true, "[::1]:8787": true, "127.0.0.2:1": true,
		":8787": false, "0.0.0.0:8787": false, "[::]:8787": false, "192.168.1.5:8787": false,
		"example.com:80": false, "8787": false,
	} {
		if err := CheckLoopback(addr); (err == nil) != ok {
			t.Errorf("CheckLoopback(%q) = %v, want ok=%v", addr, err, ok)
		}
	}
}

func TestClientURL(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8787": "http://127.0.0.1:8787",
		"0.0.0.0:9000":   "http://127.0.0.1:9000",
		"[::]:9000":      "http://127.0.0.1:9000",
		"[::1]:9000":     "http://[::1]:9000",
	} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := ClientURL(a); got != want {
			t.Errorf("ClientURL(%s) = %s, want %s", addr, got, want)
		}
	}
}
