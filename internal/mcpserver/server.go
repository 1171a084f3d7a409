package mcpserver

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/retrieve"
	"github.com/winnowhq/winnow/internal/telescope"
	"github.com/winnowhq/winnow/internal/tokens"
)

// DefaultRefreshInterval is how often, at most, the index is brought up
// to date before a tool answers, unless Options say otherwise.
const DefaultRefreshInterval = 2 * time.Second

// Options configure a Server. Zero fields mean their defaults.
type Options struct {
	// MaxOutputTokens caps the text of every answer of winnow's own tools;
	// default DefaultMaxOutputTokens. Values below MinMaxOutputTokens are
	// an error.
	MaxOutputTokens int
	// Counter counts output tokens; nil means exact o200k counts.
	Counter tokens.Counter
	// RefreshInterval is how often, at most, the index is updated from the
	// tree before a tool answers; default DefaultRefreshInterval. With a
	// negative interval tool calls never update it; see Refresh.
	RefreshInterval time.Duration
	// PostProcess, if set, rewrites the result of every tool call before
	// it goes to the client. See PostProcessor.
	PostProcess PostProcessor
	// Version is the server version reported to clients; default "devel".
	Version string
	// Logger receives debug events and the warnings of failed refreshes;
	// nil discards them. It must not write to stdout in stdio mode.
	Logger *slog.Logger
	// Telescope, if set, serves the telescope and drilldown tools over the
	// same repository; its root must be the index's.
	Telescope *telescope.Engine
	// AllowedOrigins are the origins (scheme://host[:port], or "*") besides
	// loopback ones whose HTTP requests are served; see Handler.
	AllowedOrigins []string
}

// A Server serves winnow's tools over MCP for one repository index. It is
// safe for concurrent use by any number of sessions.
type Server struct {
	ix     *index.Index
	engine *retrieve.Engine
	mcp    *mcp.Server
	fresh  *refresher
	limit  *limiter
	post   PostProcessor
	log    *slog.Logger
	tel    *telescope.Engine
	// origins are Options.AllowedOrigins.
	origins []string

	// examples holds an example of valid arguments for each of winnow's
	// own tools, shown when a call's arguments do not fit the schema.
	examples map[string]string
}

//go:embed tools/instructions.md
var instructions string

// New returns a Server answering from ix, which must stay open while the
// server runs. It does not update the index; the first tool call does,
// or Refresh.
func New(ix *index.Index, opts *Options) (*Server, error) {
	if ix == nil {
		return nil, errors.New("new MCP server: no index")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Version == "" {
		o.Version = "devel"
	}
	if o.RefreshInterval == 0 {
		o.RefreshInterval = DefaultRefreshInterval
	}
	limit, err := newLimiter(o.MaxOutputTokens, o.Counter)
	if err != nil {
		return nil, fmt.Errorf("new MCP server: %w", err)
	}
	s := &Server{
		ix:       ix,
		engine:   retrieve.New(ix, &retrieve.Options{Counter: o.Counter, Logger: o.Logger}),
		fresh:    &refresher{ix: ix, every: o.RefreshInterval, log: o.Logger, sem: make(chan struct{}, 1)},
		limit:    limit,
		post:     o.PostProcess,
		tel:      o.Telescope,
		origins:  o.AllowedOrigins,
		log:      o.Logger,
		examples: make(map[string]string),
	}
	s.fresh.warm = s.warm
	s.fresh.keep = s.engine.KeepReferences
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "winnow", Title: "winnow", Version: o.Version},
		&mcp.ServerOptions{
			Instructions: instructions,
			Logger:       o.Logger,
			// Only what is served: winnow's own tools send no log messages (the gateway adds
			// logging, completions, resources and prompts when an upstream has them).
			Capabilities: &mcp.ServerCapabilities{},
			// Subscriptions are recorded by the SDK, which then delivers
			// notifications/resources/updated; the server has no resources of its own, so
			// they only concern resources added through MCP, whose owner (the gateway)
			// forwards the subscription in its middleware before it gets here.
			SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
			UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
		})
	s.mcp.AddReceivingMiddleware(s.middleware)
	s.addContext()
	s.addFindSymbol()
	s.addOutline()
	s.addReferences()
	if s.tel != nil {
		s.addTelescope()
		s.addDrilldown()
	}
	return s, nil
}

// warm loads the corpus of the index as it is now, and brings the
// references kept in memory up to it, if they are kept (refresher.run
// has them read in full, beside the first update rather than after it;
// KeepReferences loads the corpus, and reads every reference beside it
// when it must), so that the next call answers at once.
func (s *Server) warm(ctx context.Context) error {
	if s.engine.ReferencesKept() {
		return s.engine.KeepReferences(ctx)
	}
	return s.engine.Warm(ctx)
}

// MCP returns the underlying MCP server, for adding tools to it. Results
// of tools added there pass through Options.PostProcess too.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Run serves one session over t (stdio, in-memory) until the client
// disconnects or ctx is done. It returns nil when the client hung up and
// ctx.Err() when ctx ended the session.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	err := s.mcp.Run(ctx, t)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("serve MCP: %w", err)
	}
	return nil
}

// Refresh brings the index up to date now, whatever the refresh interval:
// a server started on a repository not yet indexed builds the index with
// it while the client connects. Tool calls that arrive meanwhile wait for
// it, so they never answer from a half-built index.
func (s *Server) Refresh(ctx context.Context) (*index.Stats, error) {
	return s.fresh.now(ctx)
}

// Watch keeps the index current from file system events until ctx
// ends, and the corpus in memory and on disk with it. While it runs,
// tool calls do not rescan the tree every RefreshInterval: they have the
// watcher index what changed so far (nothing, usually) and answer at
// once. Where the system cannot watch every directory, Watch returns
// nil and calls rescan as before. With a negative RefreshInterval it
// returns at once: the index is not to be updated.
func (s *Server) Watch(ctx context.Context) error {
	if s.fresh.every < 0 {
		return nil
	}
	return s.fresh.run(ctx)
}

// ToolNames returns the names of winnow's own tools, in the order they
// are registered, without the telescope's (TelescopeToolNames).
func ToolNames() []string {
	return []string{toolContext, toolFindSymbol, toolOutline, toolReferences}
}

// TelescopeToolNames returns the names of the tools served when
// Options.Telescope is set.
func TelescopeToolNames() []string {
	return []string{toolTelescope, toolDrilldown}
}
