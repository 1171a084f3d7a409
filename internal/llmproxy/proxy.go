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
	shutdownTimeout   time.Duration
	transport         http.RoundTripper
	log               *slog.Logger
	errorLog          *log.Logger // for net/http and httputil, which log through package log
	version           string
	buffers           bufferPool
	inFlight          atomic.Int64
}

// An upstream is one API server requests are forwarded to.
type upstream struct {
	dialect string
	url     *url.URL
	shown   string // the URL with any password redacted, for logs and /healthz
}

// New returns a Proxy configured by opts; nil means the defaults. It fails on an upstream
// URL that is not an absolute http or https URL and on negative limits.
func New(opts *Options) (*Proxy, error) {
	o := opts.withDefaults()
	if o.MaxBodyBytes < 0 || o.UpstreamTimeout < 0 || o.ShutdownTimeout < 0 {
		return nil, fmt.Errorf("new proxy: MaxBodyBytes, UpstreamTimeout and ShutdownTimeout must not be negative")
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
		shutdownTimeout: o.ShutdownTimeout,
		transport:       o.Transport,
		log:             o.Logger,
		errorLog:        slog.NewLogLogger(o.Logger.Handler(), slog.LevelWarn),
		version:         o.Version,
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
	var body *outBody
	if ex.rewrite {
		var err error
		if body, err = p.prepare(r, ex); err != nil {
			ex.err = err
			if r.Context().Err() == nil {
				writeError(rec, ex.dialect, http.StatusBadRequest, "invalid_request_error", err.Error())
			}
			return
		}
	}
	p.reverseProxy(ex, body).ServeHTTP(rec, r)
}

// reverseProxy returns the reverse proxy for one exchange: it sends the request to the
// exchange's upstream with body (nil: the client's body as it is), streams the response
// back with every write flushed, and adds the x-winnow-* headers.
func (p *Proxy) reverseProxy(ex *exchange, body *outBody) *httputil.ReverseProxy {
	return &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(ex.upstream.url)
			if body != nil {
				body.install(pr.Out)
			}
		},
		Transport:     p.transport,
		FlushInterval: -1,
		ErrorLog:      p.errorLog,
		BufferPool:    &p.buffers,
		ModifyResponse: func(res *http.Response) error {
			ex.upstreamStatus = res.StatusCode
			if ex.rewrite {
				ex.setHeaders(res.Header)
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
