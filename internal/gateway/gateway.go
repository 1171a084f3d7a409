package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/config"
)

// Defaults of Options.
const (
	DefaultMaxMessageBytes  = 256 << 20
	DefaultTerminateTimeout = 5 * time.Second
	DefaultStartupTimeout   = 15 * time.Second
	DefaultConnectTimeout   = 2 * time.Minute
)

// Options configure a Gateway. Zero fields mean their defaults.
type Options struct {
	// Shaper sees every upstream call and result; nil passes results through unchanged.
	Shaper Shaper
	// Logger receives startup failures (error), restarts (warn), connections (info) and the
	// upstreams' stderr (debug); nil discards them. Secrets are redacted from everything it
	// receives. In MCP stdio mode it must not write to stdout.
	Logger *slog.Logger
	// Backoff is the restart schedule of upstreams that die.
	Backoff Backoff
	// MaxMessageBytes is the largest message read from a stdio upstream, and the largest
	// server-sent event read from an HTTP one; default DefaultMaxMessageBytes.
	MaxMessageBytes int
	// TerminateTimeout is how long a command gets to exit after its stdin is closed, and
	// again after SIGTERM, before it is killed; default DefaultTerminateTimeout.
	TerminateTimeout time.Duration
	// StartupTimeout is how long Start waits for the upstreams' first connections. Upstreams
	// not connected by then keep connecting in the background; their tools appear when they
	// are ready, and clients are told with notifications/tools/list_changed. Default
	// DefaultStartupTimeout; negative means Start does not wait.
	StartupTimeout time.Duration
	// ConnectTimeout bounds starting an upstream, connecting and listing its tools (and
	// listing them again when they change); default DefaultConnectTimeout. A call's own limit
	// is the upstream's timeout.
	ConnectTimeout time.Duration
	// Version is the client version reported to upstreams; default "devel".
	Version string
	// Enrich configures the planner that runs likely follow-up calls ahead of the agent;
	// nil turns it off.
	Enrich *Enrich
}

func (o *Options) withDefaults() Options {
	var d Options
	if o != nil {
		d = *o
	}
	if d.Shaper == nil {
		d.Shaper = Passthrough{}
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	d.Backoff = d.Backoff.withDefaults()
	if d.MaxMessageBytes <= 0 {
		d.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if d.TerminateTimeout <= 0 {
		d.TerminateTimeout = DefaultTerminateTimeout
	}
	if d.StartupTimeout == 0 {
		d.StartupTimeout = DefaultStartupTimeout
	}
	if d.ConnectTimeout <= 0 {
		d.ConnectTimeout = DefaultConnectTimeout
	}
	if d.Version == "" {
		d.Version = "devel"
	}
	return d
}

// A Gateway connects to the configured upstream MCP servers and re-exports their tools on an
// MCP server, one session per upstream, restarting upstreams that die. See the package
// documentation.
type Gateway struct {
	srv      *mcp.Server
	opts     Options
	down     *downstreams
	progress *progressRoutes
	ups      []*upstream
	stale    map[string][]string // tool → tools its calls make stale, agent-visible names
	enrich   *enricher           // the planner; nil when it is off
	ctx      context.Context     // ends at Close; every goroutine of the gateway watches it
	cancel   context.CancelFunc
	wg       sync.WaitGroup

	mu        sync.Mutex
	roots     []*mcp.Root                             // the roots of the most recent client that has roots
	levels    map[*mcp.ServerSession]mcp.LoggingLevel // the logging level each client asked for
	links     map[string]*upstream                    // URIs of resource links upstream tools returned
	linkOrder []string                                // the keys of links, oldest first
	changed   chan struct{}                           // closed and replaced at every status change
	closed    bool
}

// Start connects to the upstreams that are not disabled and re-exports their tools on srv,
// waiting for the first connections as Options.StartupTimeout says. An upstream that cannot
// start does not make Start fail: it is logged, reported by Status, and, unless the problem
// is permanent (a command that does not exist), retried with backoff; the other upstreams
// and the server's own tools work meanwhile. Start fails only on arguments no configuration
// that passed validation can produce, or when ctx ends before the startup wait does.
//
// Start installs a receiving middleware on srv to learn about the clients (their
// capabilities, their roots); call it before the server serves, or it will not know the
// clients already connected until they make a request.
func Start(ctx context.Context, ups []config.Upstream, srv *mcp.Server, opts *Options) (*Gateway, error) {
	if srv == nil {
		return nil, errors.New("start gateway: no MCP server")
	}
	o := opts.withDefaults()
	gctx, cancel := context.WithCancel(context.Background())
	g := &Gateway{
		srv:      srv,
		opts:     o,
		down:     &downstreams{srv: srv},
		progress: newProgressRoutes(),
		ctx:      gctx,
		cancel:   cancel,
		levels:   make(map[*mcp.ServerSession]mcp.LoggingLevel),
		links:    make(map[string]*upstream),
		changed:  make(chan struct{}),
	}
	prefixes := make(map[string]string)
	for i := range ups {
		cfg := ups[i]
		p := cfg.ToolPrefix()
		if other, dup := prefixes[p]; dup || p == "" {
			cancel()
			return nil, fmt.Errorf("start gateway: upstreams %q and %q have the same tool prefix %q", other, cfg.Name, p)
		}
		prefixes[p] = cfg.Name
		g.ups = append(g.ups, newUpstream(g, cfg))
	}
	g.stale = Invalidations(ups)
	g.enrich = newEnricher(g, o.Enrich)
	srv.AddReceivingMiddleware(g.observe, g.relay)
	srv.AddSendingMiddleware(keepReplies)

	var ready []chan struct{}
	for _, u := range g.ups {
		if u.cfg.Disabled {
			continue
		}
		r := make(chan struct{})
		ready = append(ready, r)
		g.wg.Add(1)
		go u.run(gctx, r)
	}
	if err := g.awaitStartup(ctx, ready); err != nil {
		return nil, err
	}
	return g, nil
}

// awaitStartup waits until every upstream made its first attempt, the startup timeout
// passes, or ctx ends; the last closes the gateway and is an error.
func (g *Gateway) awaitStartup(ctx context.Context, ready []chan struct{}) error {
	if g.opts.StartupTimeout < 0 {
		return nil
	}
	timer := time.NewTimer(g.opts.StartupTimeout)
	defer timer.Stop()
	for _, r := range ready {
		select {
		case <-r:
		case <-timer.C:
			return nil
		case <-ctx.Done():
			g.Close()
			return fmt.Errorf("start gateway: %w", ctx.Err())
		}
	}
	return nil
}

// Close stops every upstream (stdio commands are asked to exit, then terminated, then
// killed, and waited for), removes their tools from the server, and returns when all of the
// gateway's goroutines have ended. It is safe to call more than once.
func (g *Gateway) Close() error {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil
	}
	g.closed = true
	g.mu.Unlock()
	g.cancel()
	g.wg.Wait()
	return nil
}

// Status returns a snapshot of every configured upstream, in configuration order.
func (g *Gateway) Status() []Status {
	out := make([]Status, len(g.ups))
	for i, u := range g.ups {
		out[i] = u.status()
	}
	return out
}

// Changed returns a channel that is closed at the next change of any upstream's Status.
func (g *Gateway) Changed() <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.changed
}

func (g *Gateway) notifyChanged() {
	g.mu.Lock()
	defer g.mu.Unlock()
	close(g.changed)
	g.changed = make(chan struct{})
}

// Invalidates returns the agent-visible names of the tools whose cached results a call to
// tool makes stale, from the upstreams' invalidates tables; nil if none.
func (g *Gateway) Invalidates(tool string) []string {
	return slices.Clone(g.stale[tool])
}

// Invalidations returns the invalidates tables of the upstreams with agent-visible names:
// <prefix>__<tool> → the <prefix>__<tool> names its calls make stale. A name written as a
// path.Match pattern ("get_*") stays one once prefixed. It is what the response pipeline's
// Options.Invalidates takes, and needs no running Gateway.
func Invalidations(ups []config.Upstream) map[string][]string {
	out := make(map[string][]string)
	for _, u := range ups {
		for _, tool := range slices.Sorted(maps.Keys(u.Invalidates)) {
			name := u.ToolName(tool)
			for _, s := range u.Invalidates[tool] {
				out[name] = append(out[name], u.ToolName(s))
			}
		}
	}
	return out
}
