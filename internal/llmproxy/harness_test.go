package llmproxy_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/llmproxy"
	"github.com/winnowhq/winnow/internal/llmproxy/fakeapi"
	"github.com/winnowhq/winnow/internal/tokens"
)

// waitLimit bounds every wait for something that must happen; reaching it fails the test.
const waitLimit = 10 * time.Second

// A harness is a fake API behind a proxy served on a loopback port.
type harness struct {
	api    *fakeapi.API
	proxy  *llmproxy.Proxy
	url    string // the proxy's base URL
	logs   *logSink
	client *http.Client
}

// newHarness starts a recording fake API and a proxy in front of it (both upstreams point
// at it unless opts names them). apiOpts and opts may be nil.
func newHarness(t *testing.T, apiOpts *fakeapi.Options, opts *llmproxy.Options) *harness {
	t.Helper()
	ao := fakeapi.Options{}
	if apiOpts != nil {
		ao = *apiOpts
	}
	ao.Record = true
	api, err := fakeapi.Start(&ao)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{api: api, logs: newLogSink()}
	o := llmproxy.Options{}
	if opts != nil {
		o = *opts
	}
	if o.AnthropicUpstream == "" {
		o.AnthropicUpstream = api.URL
	}
	if o.OpenAIUpstream == "" {
		o.OpenAIUpstream = api.URL
	}
	o.Logger = h.logs.logger()
	o.Version = "test"
	if h.proxy, err = llmproxy.New(&o); err != nil {
		api.Close()
		t.Fatal(err)
	}
	srv := httptest.NewServer(h.proxy)
	h.url = srv.URL
	tr := &http.Transport{MaxIdleConnsPerHost: 512, DisableCompression: true}
	h.client = &http.Client{Transport: tr, Timeout: waitLimit} // a whole exchange; tests' exchanges take milliseconds
	t.Cleanup(func() {
		api.Close() // first, so that no proxied request waits on it
		srv.CloseClientConnections()
		srv.Close()
		tr.CloseIdleConnections()
	})
	return h
}

// do sends a request to the proxy with the headers of an Anthropic or OpenAI client.
func (h *harness) do(t *testing.T, ctx context.Context, method, path string, body []byte, header map[string]string) *http.Response {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, h.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range clientHeaders(path) {
		req.Header.Set(k, v)
	}
	for k, v := range header {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	res, err := h.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return res
}

// clientHeaders are the headers an SDK sends to path.
func clientHeaders(path string) map[string]string {
	if strings.HasPrefix(path, "/v1/messages") {
		return map[string]string{"Content-Type": "application/json", "X-Api-Key": "sk-ant-test-key", "Anthropic-Version": "2023-06-01"}
	}
	return map[string]string{"Content-Type": "application/json", "Authorization": "Bearer sk-openai-test-key"}
}

// readAll reads and closes a response body.
func readAll(t *testing.T, res *http.Response) []byte {
	t.Helper()
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("read response: %v", err)
	}
	return data
}

// lastReceived returns the last request the fake API received.
func (h *harness) lastReceived(t *testing.T) fakeapi.Received {
	t.Helper()
	got := h.api.Requests()
	if len(got) == 0 {
		t.Fatal("the upstream received no request")
	}
	return got[len(got)-1]
}

// A logSink collects the proxy's JSON log lines and hands each per-request line
// (msg "proxy") to a channel, so tests wait for it instead of sleeping.
type logSink struct {
	mu    sync.Mutex
	all   bytes.Buffer
	lines chan map[string]any
}

func newLogSink() *logSink { return &logSink{lines: make(chan map[string]any, 1024)} }

func (s *logSink) logger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(s, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// Write receives one JSON record (slog writes each record with one Write).
func (s *logSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	s.all.Write(p)
	s.mu.Unlock()
	var rec map[string]any
	if json.Unmarshal(p, &rec) == nil && rec["msg"] == "proxy" {
		select {
		case s.lines <- rec:
		default:
		}
	}
	return len(p), nil
}

// next waits for the next per-request log line.
func (s *logSink) next(t *testing.T) map[string]any {
	t.Helper()
	select {
	case rec := <-s.lines:
		return rec
	case <-time.After(waitLimit):
		t.Fatalf("no request log line within %s; log so far:\n%s", waitLimit, s.String())
		return nil
	}
}

func (s *logSink) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.all.String()
}

// dropField is a real rewriting Rewriter: it decodes the body as a JSON object, refuses an
// anthropic-version it does not know, removes one top-level field, re-encodes the rest and
// counts the tokens of the bodies before and after with o200k.
type dropField struct {
	field   string
	counter tokens.Counter
	calls   atomic.Int64

	mu         sync.Mutex
	lastHeader http.Header
}

// knownVersions are the anthropic-version values dropField accepts: the Go SDK v1.84.0 sends
// 2023-06-01, the Node SDK 1.11.0 sends 2026-10-21.
var knownVersions = map[string]bool{"2023-06-01": true, "2026-10-21": true}

func newDropField(t *testing.T, field string) *dropField {
	t.Helper()
	c, err := tokens.Exact(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	return &dropField{field: field, counter: c}
}

func (d *dropField) Rewrite(ctx context.Context, req *llmproxy.Request) (*llmproxy.Rewrite, error) {
	d.calls.Add(1)
	d.mu.Lock()
	d.lastHeader = req.Header
	d.mu.Unlock()
	if v := req.Header.Get("Anthropic-Version"); req.Dialect == llmproxy.DialectAnthropic && !knownVersions[v] {
		return nil, fmt.Errorf("unknown anthropic-version %q", v)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(req.Body, &obj); err != nil {
		return nil, fmt.Errorf("decode %s request: %w", req.Dialect, err)
	}
	if _, ok := obj[d.field]; !ok {
		return &llmproxy.Rewrite{}, nil
	}
	delete(obj, d.field)
	out, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	return &llmproxy.Rewrite{
		Body:         out,
		Changed:      true,
		TokensBefore: d.counter.Count(string(req.Body)),
		TokensAfter:  d.counter.Count(string(out)),
		Notes:        []string{"dropped " + d.field},
	}, nil
}

func (d *dropField) header() http.Header {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.lastHeader
}

// An sseReader reads server-sent events one at a time.
type sseReader struct{ r *bufio.Reader }

// next returns the next event's lines (without the blank line that ends it), or io.EOF.
func (s sseReader) next() (string, error) {
	var ev strings.Builder
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			if err == io.EOF && ev.Len() > 0 {
				err = io.ErrUnexpectedEOF
			}
			return "", err
		}
		if line == "\n" {
			if ev.Len() > 0 {
				return ev.String(), nil
			}
			continue
		}
		ev.WriteString(line)
	}
}

// eventType is the name of an Anthropic event ("event: x") or, for an OpenAI chunk, its
// data ("[DONE]" or the JSON).
func eventType(ev string) string {
	first, _, _ := strings.Cut(ev, "\n")
	if name, ok := strings.CutPrefix(first, "event: "); ok {
		return name
	}
	return strings.TrimPrefix(first, "data: ")
}
