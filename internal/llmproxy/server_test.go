package llmproxy_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/llmproxy"
	"github.com/winnowhq/winnow/internal/llmproxy/fakeapi"
)

func TestHealthz(t *testing.T) {
	h := newHarness(t, nil, nil)
	res := h.do(t, t.Context(), http.MethodGet, "/healthz", nil, nil)
	body := readAll(t, res)
	var got llmproxy.Health
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("healthz %s: %v", body, err)
	}
	want := llmproxy.Health{OK: true, Version: "test", Upstreams: map[string]string{"anthropic": h.api.URL, "openai": h.api.URL}}
	if diff := cmp.Diff(want, got); diff != "" || res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/json" {
		t.Errorf("healthz %d %s (-want +got):\n%s", res.StatusCode, res.Header.Get("Content-Type"), diff)
	}
	res = h.do(t, t.Context(), http.MethodPost, "/healthz", []byte(`{}`), nil)
	readAll(t, res)
	if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST /healthz: %d, Allow %q", res.StatusCode, res.Header.Get("Allow"))
	}
	if n := len(h.api.Requests()); n != 0 {
		t.Errorf("/healthz reached the upstream %d times", n)
	}
}

// serve runs p.Serve on a loopback listener and returns its base URL and Serve's result.
func serve(t *testing.T, ctx context.Context, p *llmproxy.Proxy) (string, <-chan error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.Serve(ctx, ln) }()
	return "http://" + ln.Addr().String(), done
}

// serveUpstream starts a fake API with apiOpts and a proxy with opts in front of it, run by
// Serve until cancel is called; it returns the proxy's base URL, cancel, Serve's result and
// a client for the proxy.
func serveUpstream(t *testing.T, apiOpts *fakeapi.Options, opts llmproxy.Options) (string, context.CancelFunc, <-chan error, *http.Client) {
	t.Helper()
	api, err := fakeapi.Start(apiOpts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	opts.AnthropicUpstream = api.URL
	p, err := llmproxy.New(&opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(cancel)
	base, done := serve(t, ctx, p)
	return base, cancel, done, &http.Client{Transport: &http.Transport{}, Timeout: waitLimit}
}

// startStream posts a streaming request and returns the response once its first event
// has arrived.
func startStream(t *testing.T, client *http.Client, base string) (*http.Response, sseReader) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, base+"/v1/messages", strings.NewReader(`{"model":"m","stream":true,"messages":[]}`))
	for k, v := range clientHeaders("/v1/messages") {
		req.Header.Set(k, v)
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	sse := sseReader{bufio.NewReader(res.Body)}
	if ev, err := sse.next(); err != nil || kind(ev) != "message_start" {
		t.Fatalf("first event %q, %v", ev, err)
	}
	return res, sse
}

// TestGracefulShutdown: once Serve's context is done, a stream in flight still runs to its
// end, new connections are refused, and Serve returns nil.
func TestGracefulShutdown(t *testing.T) {
	pace := make(chan struct{})
	base, cancel, done, client := serveUpstream(t, &fakeapi.Options{Pace: pace}, llmproxy.Options{Logger: newLogSink().logger()})
	res, sse := startStream(t, client, base)
	defer res.Body.Close()

	cancel()
	select {
	case err := <-done:
		t.Fatalf("Serve returned %v with a stream in flight", err)
	default:
	}
	got := []string{"message_start"}
	for range len(anthropicSequence) - 1 {
		pace <- struct{}{}
		ev, err := sse.next()
		if err != nil {
			t.Fatalf("stream cut off during shutdown after %v: %v", got, err)
		}
		got = append(got, kind(ev))
	}
	if diff := cmp.Diff(anthropicSequence, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("Serve did not return after the last stream finished")
	}
	if c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://")); err == nil {
		c.Close()
		t.Error("the proxy still accepts connections after shutdown")
	}
}

// TestShutdownTimeout: a stream still running at the shutdown timeout is cut off, the
// upstream request is cancelled, and Serve says so.
func TestShutdownTimeout(t *testing.T) {
	ended := make(chan bool, 1)
	base, cancel, done, client := serveUpstream(t,
		&fakeapi.Options{Pace: make(chan struct{}), OnStreamEnd: func(_ string, completed bool) { ended <- completed }},
		llmproxy.Options{ShutdownTimeout: 20 * time.Millisecond})
	res, _ := startStream(t, client, base)
	defer res.Body.Close()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, llmproxy.ErrShutdownTimeout) {
			t.Errorf("Serve = %v, want ErrShutdownTimeout", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("Serve did not return at the shutdown timeout")
	}
	select {
	case completed := <-ended:
		if completed {
			t.Error("the upstream stream completed")
		}
	case <-time.After(waitLimit):
		t.Fatal("the cut-off did not reach the upstream")
	}
	if _, err := io.ReadAll(res.Body); err == nil {
		t.Error("the client read a complete stream from a cut-off one")
	}
}

// TestMalformedHTTP: bytes that are not HTTP get a 400 from the server, not a panic, and
// the proxy goes on serving.
func TestMalformedHTTP(t *testing.T) {
	h := newHarness(t, nil, nil)
	for _, raw := range []string{
		"GARBAGE\r\n\r\n",
		"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n{}",
		"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n{}",
		"POST /v1/messages HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
	} {
		c, err := net.Dial("tcp", strings.TrimPrefix(h.url, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(waitLimit))
		io.WriteString(c, raw)
		line, err := bufio.NewReader(c).ReadString('\n')
		c.Close()
		if err != nil || !strings.HasPrefix(line, "HTTP/1.1 400 ") {
			t.Errorf("%q: got %q, %v; want a 400", raw, line, err)
		}
	}
	res := h.do(t, t.Context(), http.MethodGet, "/healthz", nil, nil)
	readAll(t, res)
	if res.StatusCode != 200 {
		t.Errorf("healthz after bad requests: %d", res.StatusCode)
	}
}
