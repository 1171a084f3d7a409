package agents

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/winnowhq/winnow/internal/bench/measure"
	"github.com/winnowhq/winnow/internal/compact"
	"github.com/winnowhq/winnow/internal/llmproxy"
	"github.com/winnowhq/winnow/internal/llmproxy/scripted/claude"
)

// Client names.
const (
	ClaudeCode = "claude-code"
	Codex      = "codex"
)

// DefaultTimeout bounds one session of a client.
const DefaultTimeout = 10 * time.Minute

// Options configure a Run.
type Options struct {
	Client string // ClaudeCode when empty
	Steps  int    // tool steps of the script; claude.DefaultSteps when 0
	Files  int    // workspace files; claude.DefaultFiles when 0
	// Agents is the node_modules directory holding the clients' CLIs (.bin/claude …), as
	// .ci/run installs them (WINNOW_TEST_AGENTS).
	Agents string
	// Rewriter is the proxy's; nil means compaction with the default options, as
	// `winnow proxy` runs.
	Rewriter llmproxy.Rewriter
	// ServerEdits is the proxy's llmproxy.Options.ServerEdits; empty means
	// llmproxy.ServerEditsOn, since the scripted API stands for the first-party API,
	// where `winnow proxy` asks for them by default.
	ServerEdits string
	Timeout     time.Duration // per session; DefaultTimeout when 0
	Progress    io.Writer     // one line per session; nil for none
}

// A Client is an agent CLI and the scripted API it speaks to.
type Client interface {
	// Name is the name --client takes.
	Name() string
	// StartAPI starts a scripted API for one session of steps tool steps over files.
	StartAPI(steps int, files []string) (API, error)
	// Run runs one headless session in workspace, with home as HOME, sending the client's
	// requests to baseURL: the API's URL, or the proxy's in front of it.
	Run(ctx context.Context, baseURL, workspace, home string) (Outcome, error)
}

// An API is a running scripted API.
type API interface {
	URL() string // the base URL its client is pointed at
	Tally() Tally
	Close() error
}

// An Outcome is how a session of a client ended.
type Outcome struct {
	Success bool
	Detail  string // the client's final answer, or what went wrong
}

// newClient returns the client named in opts: the one place a client is registered.
func newClient(opts Options) (Client, error) {
	switch opts.Client {
	case "", ClaudeCode:
		return newClaudeCode(opts.Agents)
	case Codex:
		return newCodex(opts.Agents)
	}
	return nil, fmt.Errorf("unknown client %q (known: %s, %s)", opts.Client, ClaudeCode, Codex)
}

// Run runs the client's scripted session straight at its API and through the proxy, one
// after the other, and reports both side by side.
func Run(ctx context.Context, opts Options) (*Report, error) {
	c, err := newClient(opts)
	if err != nil {
		return nil, err
	}
	return run(ctx, c, opts)
}

func run(ctx context.Context, c Client, opts Options) (*Report, error) {
	if opts.Steps <= 0 {
		opts.Steps = claude.DefaultSteps
	}
	if opts.Files <= 0 {
		opts.Files = claude.DefaultFiles
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Rewriter == nil {
		opts.Rewriter = llmproxy.Compaction(compact.New(compact.Options{}))
	}
	if opts.ServerEdits == "" {
		opts.ServerEdits = llmproxy.ServerEditsOn
	}
	dir, err := os.MkdirTemp("", "winnow-bench-agents-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	files, err := claude.WriteWorkspace(filepath.Join(dir, "ws"), opts.Files)
	if err != nil {
		return nil, err
	}
	rep := &Report{Client: c.Name(), Steps: opts.Steps, Files: opts.Files, LoadAvg: measure.LoadAvg()}
	if rep.Passthrough, err = session(ctx, c, opts, dir, files, nil); err != nil {
		return nil, fmt.Errorf("passthrough: %w", err)
	}
	if rep.Winnow, err = session(ctx, c, opts, dir, files, opts.Rewriter); err != nil {
		return nil, fmt.Errorf("winnow: %w", err)
	}
	rep.LoadAvgEnd = measure.LoadAvg()
	rep.ratios()
	return rep, nil
}

// session runs one session of c: straight at a new scripted API when rw is nil, else
// through a proxy with rw in front of it.
func session(ctx context.Context, c Client, opts Options, dir string, files []string, rw llmproxy.Rewriter) (Session, error) {
	s := Session{Path: "passthrough"}
	if rw != nil {
		s.Path = "winnow"
	}
	api, err := c.StartAPI(opts.Steps, files)
	if err != nil {
		return s, err
	}
	defer api.Close()
	base := api.URL()
	var counts *rewriteCounter
	var stopProxy func() error
	if rw != nil {
		counts = newRewriteCounter()
		var stop func() error
		if base, stop, err = startProxy(api.URL(), rw, opts.ServerEdits, counts); err != nil {
			return s, err
		}
		stopProxy = sync.OnceValue(stop) // stopped before counting, or on the way out
		defer stopProxy()
	}
	// One HOME path for both sessions, emptied before each, so that both send the same
	// system prompt.
	home := filepath.Join(dir, "home")
	if err := os.RemoveAll(home); err != nil {
		return s, err
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		return s, err
	}
	if opts.Progress != nil {
		fmt.Fprintf(opts.Progress, "%s: running %s, %d steps…\n", s.Path, c.Name(), opts.Steps)
	}
	sctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	start := time.Now()
	out, err := c.Run(sctx, base, filepath.Join(dir, "ws"), home)
	s.Elapsed = measure.Millis(time.Since(start))
	if err != nil {
		return s, err
	}
	s.Success, s.Detail, s.Tally = out.Success, out.Detail, api.Tally()
	if counts != nil {
		// The proxy writes a request's line once the response has ended, which
		// can be after the client has read all of it: the proxy is stopped
		// first (its shutdown waits for the requests in flight), then counted.
		if err := stopProxy(); err != nil {
			return s, fmt.Errorf("stop the proxy: %w", err)
		}
		s.Rewrites = counts.snapshot()
	}
	return s, nil
}

// startProxy serves a proxy with rw in front of upstream on a loopback port, as
// `winnow proxy` does, and returns its base URL and how to stop it.
func startProxy(upstream string, rw llmproxy.Rewriter, serverEdits string, counts *rewriteCounter) (string, func() error, error) {
	p, err := llmproxy.New(&llmproxy.Options{
		Rewriter:          rw,
		ServerEdits:       serverEdits,
		AnthropicUpstream: upstream,
		OpenAIUpstream:    upstream,
		Logger:            counts.logger(),
		Version:           "bench",
	})
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("proxy: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Serve(ctx, ln) }()
	stop := func() error {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
	return llmproxy.ClientURL(ln.Addr()), stop, nil
}
