package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// server is an in-test API that answers in either wire format, after the given number of
// failures with the given status.
type server struct {
	provider Provider
	failures atomic.Int64 // failures still to give
	status   int
	header   http.Header // sent with failures
	calls    atomic.Int64
	inflight atomic.Int64
	peak     atomic.Int64
	hold     time.Duration
	mu       sync.Mutex
	bodies   []map[string]any
	auth     []string
}

func newServer(t *testing.T, p Provider) (*server, *httptest.Server) {
	s := &server{provider: p, status: http.StatusServiceUnavailable}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.calls.Add(1)
	n := s.inflight.Add(1)
	defer s.inflight.Add(-1)
	for {
		p := s.peak.Load()
		if n <= p || s.peak.CompareAndSwap(p, n) {
			break
		}
	}
	time.Sleep(s.hold)
	var body map[string]any
	json.NewDecoder(r.Body).Decode(&body)
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	if s.provider == Anthropic {
		s.auth = append(s.auth, r.Header.Get("X-Api-Key"))
	} else {
		s.auth = append(s.auth, r.Header.Get("Authorization"))
	}
	s.mu.Unlock()
	if s.failures.Add(-1) >= 0 {
		for k, v := range s.header {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(s.status)
		w.Write([]byte(`{"type":"error","error":{"type":"overloaded_error","message":"try later"}}`))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if s.provider == Anthropic {
		json.NewEncoder(w).Encode(map[string]any{
			"id": "msg_1", "type": "message", "role": "assistant", "model": body["model"],
			"content":     []map[string]any{{"type": "text", "text": "Hello "}, {"type": "text", "text": "there"}},
			"stop_reason": "end_turn", "usage": map[string]any{"input_tokens": 11, "output_tokens": 3},
		})
		return
	}
	json.NewEncoder(w).Encode(map[string]any{
		"id": "c1", "object": "chat.completion", "model": body["model"],
		"choices": []map[string]any{{"index": 0, "message": map[string]any{"role": "assistant", "content": "Hello there"}, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": 11, "completion_tokens": 3},
	})
}

func newClient(t *testing.T, p Provider, url string, o Options) *Client {
	t.Helper()
	o.Provider = p
	o.BaseURL = url
	if p == OpenAI {
		o.BaseURL = url + "/v1"
	}
	if o.APIKey == "" {
		o.APIKey = "sk-secret-123"
	}
	if o.Model == "" {
		o.Model = "small-1"
	}
	if o.MinBackoff == 0 {
		o.MinBackoff, o.MaxBackoff = time.Millisecond, 5*time.Millisecond
	}
	c, err := New(&o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestComplete(t *testing.T) {
	for _, p := range []Provider{Anthropic, OpenAI} {
		t.Run(string(p), func(t *testing.T) {
			s, ts := newServer(t, p)
			c := newClient(t, p, ts.URL, Options{})
			res, err := c.Complete(t.Context(), Request{System: "Be brief.", Prompt: "Say hello.", MaxTokens: 50})
			if err != nil {
				t.Fatal(err)
			}
			if res.Text != "Hello there" || res.InputTokens != 11 || res.OutputTokens != 3 || res.Attempts != 1 || res.Model != "small-1" {
				t.Errorf("response %+v", res)
			}
			body := s.bodies[0]
			if body["model"] != "small-1" || body["max_tokens"] != float64(50) {
				t.Errorf("request body %v", body)
			}
			wantAuth := "sk-secret-123"
			if p == OpenAI {
				wantAuth = "Bearer sk-secret-123"
				msgs := body["messages"].([]any)
				if len(msgs) != 2 || msgs[0].(map[string]any)["role"] != "system" || msgs[1].(map[string]any)["content"] != "Say hello." {
					t.Errorf("messages %v", msgs)
				}
			} else if sys, _ := json.Marshal(body["system"]); !strings.Contains(string(sys), "Be brief.") {
				t.Errorf("system %s", sys)
			}
			if s.auth[0] != wantAuth {
				t.Errorf("auth header %q, want %q", s.auth[0], wantAuth)
			}
			if u := c.Usage(); u != (Usage{Calls: 1, Requests: 1, InputTokens: 11, OutputTokens: 3}) {
				t.Errorf("usage %+v", u)
			}
		})
	}
}

func TestRetries(t *testing.T) {
	for _, p := range []Provider{Anthropic, OpenAI} {
		t.Run(string(p), func(t *testing.T) {
			s, ts := newServer(t, p)
			s.failures.Store(2)
			s.status = http.StatusTooManyRequests
			s.header = http.Header{"Retry-After": {"0.001"}}
			c := newClient(t, p, ts.URL, Options{MaxRetries: 3})
			res, err := c.Complete(t.Context(), Request{Prompt: "x"})
			if err != nil {
				t.Fatal(err)
			}
			if res.Attempts != 3 || s.calls.Load() != 3 {
				t.Errorf("attempts %d, calls %d; want 3", res.Attempts, s.calls.Load())
			}
			if u := c.Usage(); u.Retries != 2 || u.Requests != 3 || u.Failures != 0 {
				t.Errorf("usage %+v", u)
			}

			// Too many failures: the error says how many attempts, and never the key.
			s.failures.Store(10)
			s.status = http.StatusInternalServerError
			_, err = c.Complete(t.Context(), Request{Prompt: "x"})
			var ae *APIError
			if !errors.As(err, &ae) || ae.Status != 500 || !strings.Contains(err.Error(), "4 attempts") {
				t.Errorf("error %v", err)
			}
			if strings.Contains(err.Error(), "sk-secret-123") {
				t.Errorf("the key is in the error: %v", err)
			}
		})
	}
}

func TestNoRetryOnClientErrors(t *testing.T) {
	for _, status := range []int{http.StatusUnauthorized, http.StatusBadRequest} {
		s, ts := newServer(t, OpenAI)
		s.failures.Store(5)
		s.status = status
		c := newClient(t, OpenAI, ts.URL, Options{MaxRetries: 3})
		if _, err := c.Complete(t.Context(), Request{Prompt: "x"}); err == nil {
			t.Fatalf("status %d: no error", status)
		}
		if s.calls.Load() != 1 {
			t.Errorf("status %d: %d calls, want 1 (not retried)", status, s.calls.Load())
		}
		if u := c.Usage(); u.Failures != 1 {
			t.Errorf("usage %+v", u)
		}
	}
}

func TestConcurrencyCap(t *testing.T) {
	s, ts := newServer(t, Anthropic)
	s.hold = 20 * time.Millisecond
	c := newClient(t, Anthropic, ts.URL, Options{Concurrency: 2})
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Complete(t.Context(), Request{Prompt: "x"}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if p := s.peak.Load(); p > 2 {
		t.Errorf("%d calls in flight at once, cap 2", p)
	}
	if c.Usage().Calls != 8 {
		t.Errorf("usage %+v", c.Usage())
	}
}

func TestRateLimit(t *testing.T) {
	_, ts := newServer(t, OpenAI)
	c := newClient(t, OpenAI, ts.URL, Options{RequestsPerMinute: 60 * 50}) // one per 20 ms
	start := time.Now()
	for range 4 {
		if _, err := c.Complete(t.Context(), Request{Prompt: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	// Four calls start at 0, 20, 40 and 60 ms at the earliest.
	if d := time.Since(start); d < 60*time.Millisecond {
		t.Errorf("4 calls at 50/s took %v, less than the 60 ms the limit allows", d)
	}
}

func TestBadOptions(t *testing.T) {
	for name, o := range map[string]*Options{
		"nil":      nil,
		"provider": {Provider: "gemini"},
		"base url": {Provider: OpenAI, BaseURL: "ftp://x"},
		"negative": {Provider: OpenAI, RequestsPerMinute: -1},
	} {
		if _, err := New(o); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	c, err := New(&Options{Provider: Anthropic})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Complete(t.Context(), Request{Prompt: "x"}); err == nil || !strings.Contains(err.Error(), "no model") {
		t.Errorf("no model: %v", err)
	}
}

func TestContextCancel(t *testing.T) {
	s, ts := newServer(t, OpenAI)
	s.failures.Store(100)
	c := newClient(t, OpenAI, ts.URL, Options{MaxRetries: 10, MinBackoff: time.Hour, MaxBackoff: time.Hour})
	cctx, stop := context.WithCancel(t.Context())
	defer stop()
	go func() {
		for s.calls.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		stop()
	}()
	if _, err := c.Complete(cctx, Request{Prompt: "x"}); err == nil {
		t.Error("no error after cancel")
	}
}
