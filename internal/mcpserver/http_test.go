package mcpserver

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestCheckAddr(t *testing.T) {
	for _, c := range []struct {
		addr        string
		allowRemote bool
		want        string // "" for accepted
	}{
		{"127.0.0.1:8765", false, ""},
		{"127.0.0.1:0", false, ""},
		{"localhost:8765", false, ""},
		{"[::1]:8765", false, ""},
		{"127.0.0.2:80", false, ""},
		{":8080", false, "listens on every network interface"},
		{"0.0.0.0:8080", false, "listens on every network interface"},
		{"[::]:8080", false, "listens on every network interface"},
		{"192.168.1.20:8080", false, `host "192.168.1.20" is not a loopback address`},
		{"example.com:8080", false, "is not a loopback address"},
		{":8080", true, ""},
		{"0.0.0.0:8080", true, ""},
		{"8080", false, "want host:port"},
		{"127.0.0.1", false, "want host:port"},
		{"127.0.0.1:99999", false, "bad port"},
		{"127.0.0.1:port", false, "bad port"},
	} {
		err := CheckAddr(c.addr, c.allowRemote)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("CheckAddr(%q, %v): %v", c.addr, c.allowRemote, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("CheckAddr(%q, %v) = %v, want an error saying %q", c.addr, c.allowRemote, err, c.want)
		case c.want != "" && strings.Contains(c.want, "interface") && !strings.Contains(err.Error(), "--allow-remote"):
			t.Errorf("CheckAddr(%q): the error does not say how to allow it: %v", c.addr, err)
		}
	}
}

// TestHandler serves the tools from an httptest server to a real
// streamable HTTP client.
func TestHandler(t *testing.T) {
	s := newServer(t, fixture(t), nil)
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close) // after the client's cleanup has closed its session
	cs := connectHTTP(t, ts.URL)
	text, isErr := call(t, cs, toolFindSymbol, map[string]any{"name": "parse_retry_after"})
	if isErr || !strings.Contains(text, "function parse_retry_after  pkg/headers.py:18") {
		t.Errorf("find_symbol over HTTP: error %v, %q", isErr, text)
	}
	if _, err := callTool(t, cs, "no_such_tool", `{}`); err == nil {
		t.Error("an unknown tool over HTTP is not an error")
	}
}

// TestListenAndServe runs the real listener, calls a tool, and shuts the
// server down while the client still holds its event stream open.
func TestListenAndServe(t *testing.T) {
	var logs bytes.Buffer
	s := newServer(t, fixture(t), &Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- s.ListenAndServe(ctx, "127.0.0.1:0", false, func(u string) { urls <- u }) }()
	var url string
	select {
	case url = <-urls:
	case err := <-done:
		t.Fatalf("ListenAndServe: %v", err)
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, HTTPPath) {
		t.Errorf("url %q", url)
	}
	cs := connectHTTP(t, url)
	text, isErr := call(t, cs, toolOutline, map[string]any{"path": "store/store.go"})
	if isErr || !strings.Contains(text, "   12  func NewStore() *Store") {
		t.Errorf("outline over HTTP: error %v, %q", isErr, text)
	}
	res, err := http.Get(strings.TrimSuffix(url, HTTPPath) + "/other")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /other: %s", res.Status)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("shutdown: %v", err)
		}
	case <-time.After(2 * shutdownGrace):
		t.Fatal("the server did not stop")
	}
	// The client's open event stream must not hold the shutdown until
	// the grace period ends and cuts it off.
	if strings.Contains(logs.String(), "cut off") {
		t.Errorf("shutdown waited for the client's event stream:\n%s", logs.String())
	}
}

func TestListenAndServeRefusesRemote(t *testing.T) {
	s := newServer(t, fixture(t), nil)
	err := s.ListenAndServe(t.Context(), "0.0.0.0:0", false, func(string) { t.Error("the server started") })
	if err == nil || !strings.Contains(err.Error(), "--allow-remote") {
		t.Errorf("listening on every interface: %v", err)
	}
}

// connectHTTP connects a streamable HTTP client to url, closed with the test.
func connectHTTP(t *testing.T, url string) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
