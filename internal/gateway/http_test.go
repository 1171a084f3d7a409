package gateway

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/config"
)

// httpUpstream serves the test upstream over streamable HTTP, recording the headers of every
// request and answering 500 while failing is set.
type httpUpstream struct {
	ts      *httptest.Server
	failing atomic.Bool

	mu      sync.Mutex
	auth    map[string]int // Authorization header → requests that carried it
	team    map[string]int // X-Team header → requests
	queries map[string]int // the key query parameter → requests
}

func newHTTPUpstream(t testing.TB) *httpUpstream {
	t.Helper()
	h := &httpUpstream{auth: map[string]int{}, team: map[string]int{}, queries: map[string]int{}}
	srv := newTestUpstream(false)
	mcpHandler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	h.ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.auth[r.Header.Get("Authorization")]++
		h.team[r.Header.Get("X-Team")]++
		h.queries[r.URL.Query().Get("key")]++
		h.mu.Unlock()
		if h.failing.Load() {
			http.Error(w, "backend exploded", http.StatusInternalServerError)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		h.ts.CloseClientConnections()
		h.ts.Close()
	})
	return h
}

func (h *httpUpstream) seen(m map[string]int, v string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return m[v]
}

func TestHTTPUpstream(t *testing.T) {
	const token = "tok-7c1e-very-secret-bearer"
	const queryKey = "qk-2f9a-secret-in-url"
	t.Setenv("WINNOW_TEST_BEARER", token)
	t.Setenv("WINNOW_TEST_TEAM", "platform")
	up := newHTTPUpstream(t)
	cfg := config.Upstream{
		Name:           "web",
		URL:            up.ts.URL + "/mcp?key=" + queryKey,
		BearerTokenEnv: "WINNOW_TEST_BEARER",
		Headers:        map[string]string{"X-Team": "${WINNOW_TEST_TEAM}"},
		Timeout:        10 * time.Second,
	}
	h := startGateway(t, []config.Upstream{cfg}, &Options{Backoff: Backoff{Base: 300 * time.Millisecond, Max: 3 * time.Second}})
	down := h.connect(t, clientOptions{})

	if s := statusOf(h.gw, "web"); s.State != StateReady || s.Transport != "http" {
		t.Fatalf("status = %+v, want ready over http", s)
	}
	// Schemas come through the HTTP capture byte for byte too.
	down.tools(t)
	if got, want := rawInputSchemas(t, down.capture)["web__echo"], compactJSON(t, echoSchema); got != want {
		t.Errorf("echo's schema over HTTP:\n got %s\nwant %s", got, want)
	}
	if got := text(down.call(t, "web__echo", map[string]any{"zeta": "over http"})); got != `{"zeta":"over http"}` {
		t.Errorf("echo over HTTP = %q", got)
	}
	if n := up.seen(up.auth, "Bearer "+token); n == 0 {
		t.Error("the upstream never received the bearer token")
	}
	if n := up.seen(up.auth, ""); n != 0 {
		t.Errorf("%d requests reached the upstream without the bearer token", n)
	}
	if n := up.seen(up.team, "platform"); n == 0 {
		t.Error("the upstream never received the X-Team header")
	}

	// HTTP errors break the session: the upstream is restarted with backoff, its tools
	// answering a tool error meanwhile, and comes back once the server recovers.
	up.failing.Store(true)
	res := down.call(t, "web__echo", map[string]any{"zeta": "x"})
	if !res.IsError || !strings.Contains(text(res), "upstream web failed during the call") {
		t.Errorf("call to a failing upstream = %v %q", res.IsError, text(res))
	}
	st := h.waitStatus(t, "web", func(s Status) bool { return s.State == StateRestarting && s.Attempt >= 2 })
	res = down.call(t, "web__echo", map[string]any{"zeta": "x"})
	if !res.IsError || !strings.Contains(text(res), "upstream web is restarting (attempt ") {
		t.Errorf("call during restart = %v %q", res.IsError, text(res))
	}
	up.failing.Store(false)
	h.waitStatus(t, "web", func(s Status) bool { return s.State == StateReady })
	if got := text(down.call(t, "web__echo", map[string]any{"zeta": "back"})); got != `{"zeta":"back"}` {
		t.Errorf("echo after recovery = %q", got)
	}

	// With the server gone, connection errors name the URL, whose query holds a secret.
	up.ts.CloseClientConnections()
	up.ts.Close()
	if res := down.call(t, "web__echo", map[string]any{"zeta": "x"}); !res.IsError {
		t.Errorf("a call to a server that is gone succeeded: %q", text(res))
	}
	gone := h.waitStatus(t, "web", func(s Status) bool {
		return s.State == StateRestarting && strings.Contains(s.LastError, "connect: ")
	})
	if !strings.Contains(gone.LastError, "key="+redacted) {
		t.Errorf("LastError = %q, want the URL with its key redacted", gone.LastError)
	}

	logs := h.logs.String()
	if !strings.Contains(logs, "upstream unavailable; restarting") {
		t.Errorf("the restarts were not logged:\n%s", logs)
	}
	for _, secret := range []string{token, queryKey} {
		for where, s := range map[string]string{"logs": logs, "status": st.LastError + gone.LastError, "tool error": text(res)} {
			if strings.Contains(s, secret) {
				t.Errorf("the %s contain the secret %q:\n%s", where, secret, s)
			}
		}
	}
}
