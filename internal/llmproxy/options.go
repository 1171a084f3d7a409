package llmproxy

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Defaults of the Options fields left zero.
const (
	DefaultAnthropicUpstream = "https://api.anthropic.com"
	DefaultOpenAIUpstream    = "https://api.openai.com"
	DefaultMaxBodyBytes      = 32 << 20
	DefaultUpstreamTimeout   = 10 * time.Minute // the Anthropic and OpenAI SDKs wait as long
	DefaultShutdownTimeout   = time.Minute
	DefaultBodyIdleTimeout   = 30 * time.Second
	DefaultBodyTimeout       = 2 * time.Minute
)

// Options configure a Proxy. The zero value, or a nil *Options, means the defaults.
type Options struct {
	// AnthropicUpstream and OpenAIUpstream are the base URLs requests are forwarded to; the
	// request's path is appended. Defaults: DefaultAnthropicUpstream, DefaultOpenAIUpstream.
	AnthropicUpstream string
	OpenAIUpstream    string
	// Rewriter rewrites request bodies; nil means Passthrough.
	Rewriter Rewriter
	// MaxBodyBytes is the largest body read into memory for the Rewriter; a larger one is
	// streamed to the upstream untouched. 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// UpstreamTimeout bounds the wait for the upstream's response headers (not the body,
	// which streams as long as it takes). 0 means DefaultUpstreamTimeout. It applies to the
	// default Transport only.
	UpstreamTimeout time.Duration
	// BodyIdleTimeout bounds the wait for each part of a request body: a client that sends
	// nothing for this long is answered 408 and its request is not forwarded. 0 means
	// DefaultBodyIdleTimeout.
	BodyIdleTimeout time.Duration
	// BodyTimeout bounds the time the whole request body may take to arrive, from the end of
	// its headers, however steadily it trickles in; a body still incomplete then is
	// answered 408. It covers bodies streamed upstream as they arrive too (a body above
	// MaxBodyBytes, a path that is not rewritten), at the pace the upstream takes them. 0
	// means DefaultBodyTimeout. Neither timeout bounds the response.
	BodyTimeout time.Duration
	// ShutdownTimeout bounds how long Serve waits, once its context is done, for in-flight
	// requests (streams included) to finish. 0 means DefaultShutdownTimeout.
	ShutdownTimeout time.Duration
	// Transport sends requests upstream; nil means an http.Transport tuned for many
	// concurrent streams, which honours HTTPS_PROXY and passes compression through.
	Transport http.RoundTripper
	// Logger receives one line per request (Info, or Warn when something failed) and, at
	// Debug, the request and response headers, values shown only for the plain ones (see
	// Credentials in the package documentation). nil discards.
	Logger *slog.Logger
	// Version is reported by /healthz.
	Version string
	// Telemetry receives one record per rewritable request, once its response has ended:
	// the rewrite's outcome and counts, and the usage the upstream billed, read from the
	// response as it streams through. nil records nothing and reads no usage.
	Telemetry Recorder
	// ServerEdits says which Anthropic upstreams a Rewriter may ask for server-side context
	// edits (Request.ServerEdits): ServerEditsAuto (the default) only the first-party API,
	// ServerEditsOn any, ServerEditsOff none.
	ServerEdits string
}

// withDefaults returns a copy of o (which may be nil) with the zero fields defaulted.
func (o *Options) withDefaults() Options {
	var d Options
	if o != nil {
		d = *o
	}
	if d.AnthropicUpstream == "" {
		d.AnthropicUpstream = DefaultAnthropicUpstream
	}
	if d.OpenAIUpstream == "" {
		d.OpenAIUpstream = DefaultOpenAIUpstream
	}
	if d.Rewriter == nil {
		d.Rewriter = Passthrough{}
	}
	if d.MaxBodyBytes == 0 {
		d.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if d.UpstreamTimeout == 0 {
		d.UpstreamTimeout = DefaultUpstreamTimeout
	}
	if d.BodyIdleTimeout == 0 {
		d.BodyIdleTimeout = DefaultBodyIdleTimeout
	}
	if d.BodyTimeout == 0 {
		d.BodyTimeout = DefaultBodyTimeout
	}
	if d.ShutdownTimeout == 0 {
		d.ShutdownTimeout = DefaultShutdownTimeout
	}
	if d.Transport == nil {
		d.Transport = newTransport(d.UpstreamTimeout)
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if d.Version == "" {
		d.Version = "devel"
	}
	if d.ServerEdits == "" {
		d.ServerEdits = ServerEditsAuto
	}
	return d
}

// newTransport returns the default upstream transport: HTTP/2 where the upstream offers it,
// enough idle connections per host for hundreds of concurrent streams, and compression left
// to the client and the upstream (the client's Accept-Encoding goes through and the response
// comes back as encoded).
func newTransport(headerTimeout time.Duration) *http.Transport {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConnsPerHost:   256,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		ResponseHeaderTimeout: headerTimeout,
		DisableCompression:    true,
	}
}
