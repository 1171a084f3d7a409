package fakeapi

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/winnowhq/winnow/internal/llmproxy/loopback"
)

// Options configure an API. The zero value answers at once and records nothing.
type Options struct {
	// Record keeps every request for Requests. Off for benchmarks, which send large bodies.
	Record bool
	// Pace, when set, makes a stream wait for a receive from it before each event after the
	// first, so a test decides when the upstream sends more.
	Pace <-chan struct{}
	// EventDelay is slept between the events of a stream.
	EventDelay time.Duration
	// OnStreamEnd, when set, is called as each stream ends: completed is false when the
	// request was cancelled (the client or the proxy went away) before the last event.
	OnStreamEnd func(path string, completed bool)
	// Skim answers without decoding the body: "stream":true anywhere in it asks for a
	// stream, and a body that is not JSON is not rejected. For benchmarks, where the cost
	// of parsing a large body upstream is noise around what is measured.
	Skim bool
}

// A Received is one request as the API received it.
type Received struct {
	Method string
	Path   string
	Query  string // the raw query, without "?"
	Host   string
	Header http.Header
	Body   []byte
}

// An API is a running fake API server on a loopback port.
type API struct {
	// URL is the base URL, such as http://127.0.0.1:41234.
	URL string

	opts Options
	srv  *loopback.Server

	mu       sync.Mutex
	received []Received
}

// Start starts an API on 127.0.0.1 on a free port; opts may be nil.
func Start(opts *Options) (*API, error) {
	a := &API{}
	if opts != nil {
		a.opts = *opts
	}
	srv, err := loopback.Start(http.HandlerFunc(a.serve))
	if err != nil {
		return nil, fmt.Errorf("fake API: %w", err)
	}
	a.URL, a.srv = srv.URL, srv
	return a, nil
}

// Close stops the API, cutting off requests in flight.
func (a *API) Close() error {
	return a.srv.Close()
}

// Requests returns the requests received so far, when recording.
func (a *API) Requests() []Received {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.received)
}

func (a *API) record(r *http.Request, body []byte) {
	if !a.opts.Record {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.received = append(a.received, Received{
		Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Host: r.Host, Header: r.Header.Clone(), Body: body,
	})
}

// wait sleeps for d or until ctx is done, and reports whether the full time passed.
func wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
