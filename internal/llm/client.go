package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// Provider names a wire format.
type Provider string

// The providers.
const (
	Anthropic Provider = "anthropic" // the Messages API
	OpenAI    Provider = "openai"    // the chat completions API, of OpenAI or a compatible server
)

// Defaults of Options.
const (
	DefaultConcurrency = 4
	DefaultMaxRetries  = 3
	DefaultMinBackoff  = 500 * time.Millisecond
	DefaultMaxBackoff  = 30 * time.Second
	DefaultTimeout     = 2 * time.Minute
	DefaultMaxTokens   = 1024
)

// Options configure a Client. Zero fields mean their defaults.
type Options struct {
	Provider Provider
	// BaseURL is the API's address; "" means the provider's public API. For OpenAI-compatible
	// servers it is the URL that /chat/completions is appended to, usually ending in /v1.
	BaseURL string
	// APIKey authenticates every call; it may be "" for a local server that wants none.
	APIKey string
	// Model is used when a Request names none.
	Model string
	// Concurrency caps the calls in flight; default DefaultConcurrency.
	Concurrency int
	// RequestsPerMinute caps how often calls start (retries included); 0 means no cap.
	RequestsPerMinute float64
	// MaxRetries is how often a call that may succeed later is retried; 0 means
	// DefaultMaxRetries, a negative value no retries.
	MaxRetries int
	// MinBackoff and MaxBackoff bound the wait before a retry; defaults DefaultMinBackoff
	// and DefaultMaxBackoff.
	MinBackoff, MaxBackoff time.Duration
	// Timeout bounds each attempt; default DefaultTimeout.
	Timeout time.Duration
	// HTTPClient sends the requests; nil means a client of its own.
	HTTPClient *http.Client
	// Logger receives a debug line per attempt (never the key or the prompt); nil discards.
	Logger *slog.Logger
}

// A Request is one prompt.
type Request struct {
	System    string // optional system prompt
	Prompt    string // the user message
	Model     string // "" means Options.Model
	MaxTokens int    // the most output tokens; 0 means DefaultMaxTokens
}

// A Response is the model's answer and what it cost.
type Response struct {
	Text         string
	Model        string
	StopReason   string
	InputTokens  int // as the server reported them
	OutputTokens int
	Attempts     int // HTTP requests made for this call, retries included
}

// Usage totals a client's calls.
type Usage struct {
	Calls        int64 `json:"calls"`    // Complete calls
	Requests     int64 `json:"requests"` // HTTP requests, retries included
	Retries      int64 `json:"retries"`
	Failures     int64 `json:"failures"` // Complete calls that returned an error
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
}

// A Client calls one provider. It is safe for concurrent use.
type Client struct {
	opts  Options
	send  func(ctx context.Context, req Request) (*Response, error)
	sem   chan struct{}
	rate  *limiter
	log   *slog.Logger
	usage struct {
		calls, requests, retries, failures, in, out atomic.Int64
	}
}

// New returns a client for opts.Provider.
func New(opts *Options) (*Client, error) {
	if opts == nil {
		return nil, errors.New("new llm client: no options")
	}
	o := *opts
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	switch {
	case o.MaxRetries == 0:
		o.MaxRetries = DefaultMaxRetries
	case o.MaxRetries < 0:
		o.MaxRetries = 0
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = DefaultMinBackoff
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(DefaultMaxBackoff, o.MinBackoff)
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.RequestsPerMinute < 0 {
		return nil, fmt.Errorf("new llm client: requests per minute %g must not be negative", o.RequestsPerMinute)
	}
	c := &Client{opts: o, sem: make(chan struct{}, o.Concurrency), rate: newLimiter(o.RequestsPerMinute), log: o.Logger}
	switch o.Provider {
	case Anthropic:
		c.send = newAnthropic(&o).send
	case OpenAI:
		s, err := newOpenAI(&o)
		if err != nil {
			return nil, err
		}
		c.send = s.send
	default:
		return nil, fmt.Errorf("new llm client: unknown provider %q (want %q or %q)", o.Provider, Anthropic, OpenAI)
	}
	return c, nil
}

// Complete sends req and returns the answer, retrying failures that may pass. The error of
// a call that failed for good says how many attempts were made and why the last one failed.
func (c *Client) Complete(ctx context.Context, req Request) (*Response, error) {
	c.usage.calls.Add(1)
	if req.Model == "" {
		req.Model = c.opts.Model
	}
	if req.Model == "" {
		c.usage.failures.Add(1)
		return nil, errors.New("llm: no model: name one in the request or the client's options")
	}
	if req.MaxTokens <= 0 {
		req.MaxTokens = DefaultMaxTokens
	}
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		c.usage.failures.Add(1)
		return nil, ctx.Err()
	}
	defer func() { <-c.sem }()
	for attempt := 1; ; attempt++ {
		if err := c.rate.wait(ctx); err != nil {
			c.usage.failures.Add(1)
			return nil, err
		}
		c.usage.requests.Add(1)
		actx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
		start := time.Now()
		res, err := c.send(actx, req)
		cancel()
		if err == nil {
			res.Attempts = attempt
			c.usage.in.Add(int64(res.InputTokens))
			c.usage.out.Add(int64(res.OutputTokens))
			c.log.Debug("llm call", "provider", c.opts.Provider, "model", req.Model, "attempt", attempt,
				"input_tokens", res.InputTokens, "output_tokens", res.OutputTokens, "duration", time.Since(start))
			return res, nil
		}
		wait, retry := c.retryable(ctx, err, attempt)
		c.log.Debug("llm call failed", "provider", c.opts.Provider, "model", req.Model, "attempt", attempt, "retry", retry, "error", err)
		if !retry {
			c.usage.failures.Add(1)
			return nil, fmt.Errorf("llm %s call (%d %s): %w", c.opts.Provider, attempt, plural(attempt, "attempt", "attempts"), err)
		}
		c.usage.retries.Add(1)
		if err := sleep(ctx, wait); err != nil {
			c.usage.failures.Add(1)
			return nil, err
		}
	}
}

// retryable decides whether err may pass on a later attempt, and how long to wait first.
func (c *Client) retryable(ctx context.Context, err error, attempt int) (time.Duration, bool) {
	if ctx.Err() != nil || attempt > c.opts.MaxRetries {
		return 0, false
	}
	var ae *APIError
	if errors.As(err, &ae) {
		if !ae.Temporary() {
			return 0, false
		}
		if ae.RetryAfter > 0 {
			return min(ae.RetryAfter, c.opts.MaxBackoff), true
		}
	}
	back := c.opts.MinBackoff << (attempt - 1)
	if back <= 0 || back > c.opts.MaxBackoff {
		back = c.opts.MaxBackoff
	}
	jitter := time.Duration(rand.Int64N(int64(back)/5 + 1)) // up to 20% more, so clients spread out
	return back + jitter, true
}

// Usage returns the totals so far.
func (c *Client) Usage() Usage {
	return Usage{
		Calls: c.usage.calls.Load(), Requests: c.usage.requests.Load(), Retries: c.usage.retries.Load(),
		Failures: c.usage.failures.Load(), InputTokens: c.usage.in.Load(), OutputTokens: c.usage.out.Load(),
	}
}

// Model returns the default model.
func (c *Client) Model() string { return c.opts.Model }

// Provider returns the client's provider.
func (c *Client) Provider() Provider { return c.opts.Provider }

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// trimBody shortens an error body for a message.
func trimBody(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
