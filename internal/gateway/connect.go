package gateway

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A conn is one live session with an upstream and what it was made of.
type conn struct {
	client  *mcp.Client
	sess    *mcp.ClientSession
	capture *listCapture
	cmd     *commandTransport // nil for HTTP
	http    *http.Transport   // nil for stdio
	schemas map[string]rawSchemas
}

// close ends the session: a command is stopped and waited for.
func (c *conn) close() {
	_ = c.sess.Close()
	if c.http != nil {
		c.http.CloseIdleConnections()
	}
}

// ended explains why the session ended, err being what ended it.
func (c *conn) ended(err error) error {
	if err == nil {
		err = errors.New("session closed by the upstream")
	}
	if c.cmd != nil {
		if exit := c.cmd.exit(); exit != "" {
			return fmt.Errorf("%w; %s", err, exit)
		}
	}
	return err
}

// has reports whether the upstream declared a capability that satisfies f.
func (c *conn) has(f func(*mcp.ServerCapabilities) bool) bool {
	r := c.sess.InitializeResult()
	return r != nil && r.Capabilities != nil && f(r.Capabilities)
}

// clientCapabilities are the capabilities the gateway declares to every upstream: it can
// forward roots, sampling and elicitation requests to the agent's client. A client that
// lacks one gets the request refused with a JSON-RPC error when it comes (see forward.go);
// upstream sessions are shared by all clients and made before any connects, so they
// cannot declare exactly what one client offers.
func clientCapabilities() *mcp.ClientCapabilities {
	return &mcp.ClientCapabilities{
		RootsV2:  &mcp.RootCapabilities{ListChanged: true},
		Sampling: &mcp.SamplingCapabilities{},
		Elicitation: &mcp.ElicitationCapabilities{
			Form: &mcp.FormElicitationCapabilities{},
			URL:  &mcp.URLElicitationCapabilities{},
		},
	}
}

// connect makes a session with the upstream, lists its tools and re-exports them, within the
// gateway's connect timeout. On success the upstream is ready.
func (u *upstream) connect(ctx context.Context) (*conn, error) {
	c := &conn{capture: &listCapture{}, schemas: make(map[string]rawSchemas)}
	t, err := u.transport(c)
	if err != nil {
		return nil, err
	}
	c.client = mcp.NewClient(&mcp.Implementation{Name: "winnow", Title: "winnow gateway", Version: u.gw.opts.Version},
		&mcp.ClientOptions{
			Logger:                      u.log,
			Capabilities:                clientCapabilities(),
			ToolListChangedHandler:      u.onToolListChanged,
			ResourceListChangedHandler:  u.onResourceListChanged,
			PromptListChangedHandler:    u.onPromptListChanged,
			ResourceUpdatedHandler:      u.onResourceUpdated,
			LoggingMessageHandler:       u.onLog,
			ProgressNotificationHandler: u.onProgress,
			ElicitationCompleteHandler:  u.onElicitationComplete,
			// Input requests of the stateless protocol go back to the agent's client as the
			// call's result, and its answers come back with the retried call (see call.go).
			MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		})
	c.client.AddReceivingMiddleware(u.forward)
	if roots := u.gw.currentRoots(); len(roots) > 0 {
		c.client.AddRoots(roots...)
	}

	cctx, cancel := context.WithTimeout(ctx, u.gw.opts.ConnectTimeout)
	defer cancel()
	sess, err := c.client.Connect(cctx, t, nil)
	if err != nil {
		return nil, u.connectError(ctx, cctx, c, "connect", err)
	}
	c.sess = sess
	u.mu.Lock()
	u.conn = c // so that tools registered below can be called at once
	u.mu.Unlock()
	if err := u.refresh(cctx, c); err != nil {
		u.drop(c)
		c.close()
		return nil, u.connectError(ctx, cctx, c, "list tools", err)
	}
	// Resources and prompts are extras: an upstream that fails to list them still serves
	// its tools.
	if err := u.refreshResources(cctx, c); err != nil {
		u.log.Warn("upstream resources not re-exported", "error", err)
	}
	if err := u.refreshPrompts(cctx, c); err != nil {
		u.log.Warn("upstream prompts not re-exported", "error", err)
	}
	u.setLogLevel(cctx, c, u.gw.logLevel())
	proto := ""
	if r := sess.InitializeResult(); r != nil {
		proto = r.ProtocolVersion
	}
	u.setStatus(func(s *Status) {
		s.State, s.Attempt, s.NextRetry, s.LastError, s.Protocol = StateReady, 0, time.Time{}, "", proto
	})
	u.log.Info("upstream ready", "tools", u.status().Tools, "protocol", proto)
	return c, nil
}

// connectError describes a failed connection attempt.
func (u *upstream) connectError(ctx, cctx context.Context, c *conn, step string, err error) error {
	if ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("%s: no answer within %s", step, u.gw.opts.ConnectTimeout)
	} else {
		err = fmt.Errorf("%s: %w", step, err)
	}
	if c.http != nil {
		c.http.CloseIdleConnections()
	}
	if c.cmd != nil {
		if c.sess == nil {
			// The session never started, so nothing closed the command: stop it to learn how
			// it ended (it usually has already).
			c.cmd.stopProcess()
		}
		if exit := c.cmd.exit(); exit != "" {
			err = fmt.Errorf("%w; %s", err, exit)
		}
	}
	return err
}

// transport returns the MCP transport to the upstream, recording its parts in c.
func (u *upstream) transport(c *conn) (mcp.Transport, error) {
	o := u.gw.opts
	if u.cfg.Command != "" {
		path, err := exec.LookPath(u.cfg.Command)
		if err != nil {
			return nil, &permanentError{fmt.Errorf("command %q: %w", u.cfg.Command, err)}
		}
		c.cmd = &commandTransport{
			path:       path,
			args:       u.cfg.Args,
			env:        u.resolved.Env,
			maxMessage: o.MaxMessageBytes,
			terminate:  o.TerminateTimeout,
			stderr:     &stderrTail{log: u.log, red: u.red},
		}
		return &captureTransport{Transport: c.cmd, capture: c.capture}, nil
	}
	c.http = http.DefaultTransport.(*http.Transport).Clone()
	return &mcp.StreamableClientTransport{
		Endpoint: u.cfg.URL,
		HTTPClient: &http.Client{Transport: &upstreamRoundTripper{
			base: c.http, headers: u.resolved.Headers, capture: c.capture,
		}},
		MaxEventSize: o.MaxMessageBytes,
	}, nil
}

// isMissingCommand reports whether err says a command does not exist or cannot be run.
func isMissingCommand(err error) bool {
	return errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission)
}

// urlSecrets returns the query values of raw, which may carry API keys.
func urlSecrets(raw string) []string {
	p, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var s []string
	for _, vs := range p.Query() {
		s = append(s, vs...)
	}
	return s
}
