package llmproxy_test

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/llmproxy"
	"github.com/winnowhq/winnow/internal/llmproxy/fakeapi"
)

var (
	anthropicSequence = []string{"message_start", "content_block_start", "ping", "content_block_delta",
		"content_block_delta", "content_block_stop", "message_delta", "message_stop"}
	openaiSequence = []string{"chunk", "chunk", "chunk", "chunk", "[DONE]"}
)

// kind names an event for comparison: OpenAI chunks are all "chunk".
func kind(ev string) string {
	if t := eventType(ev); strings.HasPrefix(t, "{") {
		return "chunk"
	}
	return eventType(ev)
}

// TestStreamingPassthrough: each event reaches the client while the upstream is still
// waiting to send the next one, so nothing is buffered on the way. The upstream sends an
// event only after the test has received the previous one through the proxy.
func TestStreamingPassthrough(t *testing.T) {
	for _, tt := range []struct {
		path string
		want []string
	}{
		{"/v1/messages", anthropicSequence},
		{"/v1/chat/completions", openaiSequence},
	} {
		t.Run(tt.path, func(t *testing.T) {
			pace := make(chan struct{})
			h := newHarness(t, &fakeapi.Options{Pace: pace}, &llmproxy.Options{Rewriter: newDropField(t, "metadata")})
			res := h.do(t, t.Context(), http.MethodPost, tt.path, []byte(`{"model":"m","stream":true,"metadata":{"a":1},"messages":[]}`), nil)
			defer res.Body.Close()
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
				t.Fatalf("Content-Type = %q", ct)
			}
			if g := res.Header.Get(llmproxy.HeaderRewrite); g != llmproxy.RewriteChanged {
				t.Errorf("%s = %q on a stream", llmproxy.HeaderRewrite, g)
			}
			events := make(chan string)
			go func() {
				defer close(events)
				sse := sseReader{bufio.NewReader(res.Body)}
				for {
					ev, err := sse.next()
					if err != nil {
						return
					}
					events <- ev
				}
			}()
			var got []string
			for i := range tt.want {
				select {
				case ev, ok := <-events:
					if !ok {
						t.Fatalf("stream ended after %v", got)
					}
					got = append(got, kind(ev))
				case <-time.After(waitLimit):
					t.Fatalf("event %d did not arrive while the upstream waited; got %v", i, got)
				}
				if i < len(tt.want)-1 {
					pace <- struct{}{} // the upstream sends the next event only now
				}
			}
			if _, ok := <-events; ok {
				t.Error("events after the last one")
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			rec := h.logs.next(t)
			if rec["status"] != 200.0 || rec["aborted"] != nil || rec["ttfb_ms"].(float64) <= 0 {
				t.Errorf("log line %v", rec)
			}
		})
	}
}

// TestClientCancelReachesUpstream: a client that goes away mid-stream cancels the
// upstream request.
func TestClientCancelReachesUpstream(t *testing.T) {
	pace := make(chan struct{})
	ended := make(chan bool, 1)
	h := newHarness(t, &fakeapi.Options{Pace: pace, OnStreamEnd: func(_ string, completed bool) { ended <- completed }}, nil)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	res := h.do(t, ctx, http.MethodPost, "/v1/messages", []byte(`{"model":"m","stream":true,"messages":[]}`), nil)
	defer res.Body.Close()
	if ev, err := (sseReader{bufio.NewReader(res.Body)}).next(); err != nil || kind(ev) != "message_start" {
		t.Fatalf("first event %q, %v", ev, err)
	}
	cancel()
	select {
	case completed := <-ended:
		if completed {
			t.Error("the upstream stream completed although the client cancelled")
		}
	case <-time.After(waitLimit):
		t.Fatal("the client's cancellation did not reach the upstream")
	}
	rec := h.logs.next(t)
	if rec["aborted"] != true || rec["level"] != "WARN" {
		t.Errorf("log line %v, want an aborted request at WARN", rec)
	}
}

// TestConcurrentStreams opens 200 streams through the proxy at once: every one has
// received its first event before any upstream sends its second, and all finish whole.
func TestConcurrentStreams(t *testing.T) {
	const n = 200
	pace := make(chan struct{})
	h := newHarness(t, &fakeapi.Options{Pace: pace}, &llmproxy.Options{Rewriter: newDropField(t, "metadata")})
	var started, done sync.WaitGroup
	errs := make(chan string, n)
	started.Add(n)
	done.Add(n)
	for i := range n {
		path := []string{"/v1/messages", "/v1/chat/completions"}[i%2]
		want := map[string][]string{"/v1/messages": anthropicSequence, "/v1/chat/completions": openaiSequence}[path]
		go func() {
			defer done.Done()
			first := true
			report := func(msg string) {
				errs <- msg
				if first {
					started.Done()
				}
			}
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, h.url+path,
				strings.NewReader(`{"model":"m","stream":true,"metadata":{},"messages":[]}`))
			for k, v := range clientHeaders(path) {
				req.Header.Set(k, v)
			}
			res, err := h.client.Do(req)
			if err != nil {
				report(err.Error())
				return
			}
			defer res.Body.Close()
			sse := sseReader{bufio.NewReader(res.Body)}
			var got []string
			for {
				ev, err := sse.next()
				if err != nil {
					break
				}
				got = append(got, kind(ev))
				if first {
					first = false
					started.Done()
				}
			}
			if !cmp.Equal(want, got) {
				report(path + ": events " + strings.Join(got, ","))
			}
		}()
	}
	started.Wait()
	close(pace) // all 200 are open; let every upstream finish
	done.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	for range n {
		if rec := h.logs.next(t); rec["status"] != 200.0 || rec["rewrite"] != "changed" {
			t.Errorf("log line %v", rec)
		}
	}
}
