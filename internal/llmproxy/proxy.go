package llmproxy

import (
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"time"
)

// A Proxy forwards LLM API requests to their upstreams, rewriting the bodies of the ones it
// understands. It is an http.Handler; Serve runs it as a server with graceful shutdown.
type Proxy struct {
	anthropic, openai *upstream
	rewriter          Rewriter
	maxBody           int64
	bodyIdle          time.Duration // see Options.BodyIdleTimeout
	bodyTimeout       time.Duration // see Options.BodyTimeout
	shutdownTimeout   time.Duration
	transport         http.RoundTripper
	log               *slog.Logger
	errorLog          *log.Logger // for net/http and httputil, which log through package log
	version           string
	recorder          Recorder
	serverEdits       string // ServerEditsAuto, On or Off
	buffers           bufferPool
	inFlight          atomic.Int64
}

// An upstream is one API server requests are forwarded to.
type upstream struct {
	dialect string
	url     *url.URL
	shown   string // the URL with any password redacted, for logs and /healthz

	// refusesEdits is set once the upstream refused a server-side edit; it is not asked
	// for one again.
	refusesEdits atomic.Bool
}

// New returns a Proxy configured by opts; nil means the defaults. It fails on an upstream
// URL that is not an absolute http or https URL and on negative limits.
func New(opts *Options) (*Proxy, error) {
	o := opts.withDefaults()
	if o.MaxBodyBytes < 0 || o.UpstreamTimeout < 0 || o.ShutdownTimeout < 0 || o.BodyIdleTimeout < 0 || o.BodyTimeout < 0 {
		return nil, fmt.Errorf("new proxy: MaxBodyBytes, UpstreamTimeout, BodyIdleTimeout, BodyTimeout and ShutdownTimeout must not be negative")
	}
	switch o.ServerEdits {
	case ServerEditsAuto, ServerEditsOn, ServerEditsOff:
	default:
		return nil, fmt.Errorf("new proxy: ServerEdits %q: must be %s, %s or %s", o.ServerEdits, ServerEditsAuto, ServerEditsOn, ServerEditsOff)
	}
	anthropic, err := parseUpstream(DialectAnthropic, o.AnthropicUpstream)
	if err != nil {
		return nil, err
	}
	openai, err := parseUpstream(DialectOpenAI, o.OpenAIUpstream)
	if err != nil {
		return nil, err
	}
	return &Proxy{
		anthropic:       anthropic,
		openai:          openai,
		rewriter:        o.Rewriter,
		maxBody:         o.MaxBodyBytes,
		bodyIdle:        o.BodyIdleTimeout,
		bodyTimeout:     o.BodyTimeout,
		shutdownTimeout: o.ShutdownTimeout,
		transport:       o.Transport,
		log:             o.Logger,
		errorLog:        slog.NewLogLogger(o.Logger.Handler(), slog.LevelWarn),
		version:         o.Version,
		recorder:        o.Telemetry,
		serverEdits:     o.ServerEdits,
	}, nil
}

func parseUpstream(dialect, raw string) (*upstream, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s upstream %q: must be an absolute http or https URL", dialect, raw)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("%s upstream %s: must not have a query or a fragment", dialect, u.Redacted())
	}
	return &upstream{dialect: dialect, url: u, shown: u.Redacted()}, nil
}

// Upstreams returns the upstream base URLs by dialect, passwords redacted.
func (p *Proxy) Upstreams() map[string]string {
	return map[string]string{DialectAnthropic: p.anthropic.shown, DialectOpenAI: p.openai.shown}
}

// ServeHTTP answers /healthz itself and forwards every other request to its upstream (see
// the package documentation for the routing), rewriting the body when the route allows.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == healthPath {
		p.health(w, r)
		return
	}
	p.inFlight.Add(1)
	defer p.inFlight.Add(-1)
	ex := &exchange{route: p.route(r), start: time.Now(), inBytes: r.ContentLength, fwdBytes: r.ContentLength}
	rec := &recorder{ResponseWriter: w, start: ex.start}
	defer p.finish(rec, r, ex)
	if p.log.Enabled(r.Context(), slog.LevelDebug) {
		p.log.LogAttrs(r.Context(), slog.LevelDebug, "request headers",
			slog.String("path", r.URL.Path), headerAttr("header", r.Header))
	}
	ex.body = newClientBody(w, r, ex.start, p.bodyIdle, p.bodyTimeout)
	var body *outBody
	if ex.rewrite {
		var err error
		if body, err = p.prepare(r, ex); err != nil {
			ex.fwdBytes = 0
			answerBodyError(rec, ex, err)
			return
		}
	}
	fullDuplex(w)
	p.reverseProxy(ex, body).ServeHTTP(rec, r)
}

// fullDuplex tells net/http that the request body is still being read while the response
// is written, which is what forwarding does: the transport copies the client's body
// upstream on its own goroutine, while this handler copies the answer back.
//
// Without it, an HTTP/1 server drains and closes the request body when the handler writes
// the response header, and that raced with the transport on every pass-through request
// (the client's body handed upstream as it streams in; a rewritten body is the proxy's own
// buffer, so rewritten routes never showed it). The transport sends a body of known length
// by copying exactly Content-Length bytes, then reads once more to check that nothing is
// left, then closes it. Between the last byte going out and that extra read the upstream
// may already be answering; if the transport's goroutine is descheduled there for as long
// as the upstream takes to send its first event, the server has closed the body by the time
// the extra read comes, the read fails with "invalid Read on closed Body", and the
// transport treats a failed request-body read as fatal to the connection: it closes the
// upstream connection under the response, and a stream that was going well ends with
// "use of closed network connection" (about one pass-through stream in 300 on a loaded
// 2-core machine; TestPassthroughStreamsNeverBreak). It is golang/go#40747's family: the
// transport may use the request body after the response has begun. In full-duplex mode
// the server leaves the body alone until the handler returns, and the handler returns only
// after the response has ended. (The transport hands over the response's end only once the
// body is written, or after 50 ms without it, and then it does not reuse the connection;
// either way a late read of a closed body can no longer cut anything off.) It is also right
// on its own terms: an upstream that answers before it has read the whole body gets the
// rest of it, not a body the server drained from under the transport.
//
// HTTP/2 requests are always full duplex; a ResponseWriter that cannot say so (a test's
// recorder) has no HTTP/1 server behind it to drain anything.
func fullDuplex(w http.ResponseWriter) {
	_ = http.NewResponseController(w).EnableFullDuplex()
}

// reverseProxy returns the reverse proxy for one exchange: it sends the request to the
// exchange's upstream with body (nil: the client's body as it is), streams the response
// back with every write flushed, and adds the x-winnow-* headers.
func (p *Proxy) reverseProxy(ex *exchange, body *outBody) *httputil.ReverseProxy {
	transport := p.transport
	if ex.fallback != nil {
		ex.fallback.next = transport
		transport = ex.fallback
	}
	return &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(ex.upstream.url)
			if body != nil {
				body.install(pr.Out)
			}
			if len(ex.beta) > 0 {
				pr.Out.Header.Set("Anthropic-Beta", addBeta(pr.In.Header.Get("Anthropic-Beta"), ex.beta))
			}
		},
		Transport:     transport,
		FlushInterval: -1,
		ErrorLog:      p.errorLog,
		BufferPool:    &p.buffers,
		ModifyResponse: func(res *http.Response) error {
			ex.upstreamStatus = res.StatusCode
			if ex.rewrite {
				ex.setHeaders(res.Header)
				ex.tapUsage(res) // for the log (server-side edits, an end the client left after) and telemetry
			}
			if ctx := res.Request.Context(); p.log.Enabled(ctx, slog.LevelDebug) {
				p.log.LogAttrs(ctx, slog.LevelDebug, "response headers",
					slog.String("path", res.Request.URL.Path), slog.Int("status", res.StatusCode), headerAttr("header", res.Header))
			}
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			p.upstreamError(w, r, ex, err)
		},
	}
}
