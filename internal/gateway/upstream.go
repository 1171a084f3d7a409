package gateway

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/config"
)

// An upstream is one configured MCP server: its supervisor (run) keeps one session to it
// alive, and its tools re-exported on the gateway's server.
type upstream struct {
	gw  *Gateway
	cfg config.Upstream
	log *slog.Logger // redacts the upstream's secrets

	red      *redactor
	resolved *config.ResolvedUpstream // nil if the environment lacks what cfg needs

	listChanged      chan struct{}    // the upstream said its tools changed
	resourcesChanged chan struct{}    // … its resources
	promptsChanged   chan struct{}    // … its prompts
	broken           chan brokenEvent // a call found the session dead

	mu        sync.Mutex
	st        Status
	conn      *conn       // the live connection, nil when not ready
	exported  exported    // re-exported tools by agent-visible name
	resources exported    // re-exported resources by URI
	templates exported    // re-exported resource templates by URI template
	prompts   exported    // re-exported prompts by agent-visible name
	inflight  []*inflight // the clients' requests in progress, in arrival order
}

// brokenEvent reports that a call on sess failed in a way that leaves the session unusable.
type brokenEvent struct {
	sess *mcp.ClientSession
	err  error
}

func newUpstream(g *Gateway, cfg config.Upstream) *upstream {
	u := &upstream{
		gw:               g,
		cfg:              cfg,
		listChanged:      make(chan struct{}, 1),
		resourcesChanged: make(chan struct{}, 1),
		promptsChanged:   make(chan struct{}, 1),
		broken:           make(chan brokenEvent, 1),
		exported:         make(exported),
		resources:        make(exported),
		templates:        make(exported),
		prompts:          make(exported),
	}
	transport := "stdio"
	if cfg.URL != "" {
		transport = "http"
	}
	u.st = Status{Name: cfg.Name, Prefix: cfg.ToolPrefix(), Transport: transport, State: StateConnecting}
	var err error
	var secrets []string
	if cfg.Disabled {
		u.st.State = StateDisabled
	} else if u.resolved, err = cfg.Resolve(); err == nil {
		secrets = u.resolved.Secrets
	}
	secrets = append(secrets, urlSecrets(cfg.URL)...)
	u.red = newRedactor(secrets)
	u.log = slog.New(&redactHandler{next: g.opts.Logger.Handler(), r: u.red}).With("upstream", cfg.Name)
	if err != nil {
		u.st.State, u.st.LastError = StateFailed, err.Error()
	}
	return u
}

// status returns a copy of the upstream's status.
func (u *upstream) status() Status {
	u.mu.Lock()
	defer u.mu.Unlock()
	s := u.st
	s.Tools = len(u.exported)
	return s
}

// setStatus changes the status under the lock and tells the gateway's watchers.
func (u *upstream) setStatus(change func(s *Status)) {
	u.mu.Lock()
	change(&u.st)
	u.mu.Unlock()
	u.gw.notifyChanged()
}

// run is the upstream's supervisor: it connects, serves until the session ends, and
// reconnects with backoff, until ctx ends or a failure is permanent. ready is closed after
// the first attempt.
func (u *upstream) run(ctx context.Context, ready chan<- struct{}) {
	defer u.gw.wg.Done()
	signal := sync.OnceFunc(func() { close(ready) })
	defer signal()
	defer u.stop(ctx)
	if u.resolved == nil {
		u.log.Error("upstream cannot start: "+u.status().LastError, "fix", "set the variable and restart winnow")
		return
	}
	attempt := 0
	for {
		c, err := u.connect(ctx)
		if err == nil {
			signal() // ready, with its tools
			started := time.Now()
			err = u.serve(ctx, c)
			if time.Since(started) >= u.gw.opts.Backoff.Max {
				attempt = 0
			}
		}
		if ctx.Err() != nil {
			return
		}
		msg := u.red.String(err.Error())
		if permanent(err) {
			u.setStatus(func(s *Status) {
				s.State, s.LastError, s.Attempt, s.NextRetry, s.Protocol = StateFailed, msg, 0, time.Time{}, ""
			})
			u.log.Error("upstream failed and will not be restarted; its tools are not available", "error", msg)
			return
		}
		attempt++
		delay := u.gw.opts.Backoff.Delay(attempt, rand.Float64())
		u.setStatus(func(s *Status) {
			s.State, s.LastError, s.Attempt, s.NextRetry, s.Protocol = StateRestarting, msg, attempt, time.Now().Add(delay), ""
		})
		signal() // the first attempt failed; Start reports it through Status
		u.log.Warn("upstream unavailable; restarting", "attempt", attempt, "in", roundDuration(delay), "error", msg)
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		u.setStatus(func(s *Status) { s.NextRetry = time.Time{} })
	}
}

// serve runs while c's session lives: it re-lists the tools when the upstream says they
// changed, and returns why the session ended (nil when ctx ended).
func (u *upstream) serve(ctx context.Context, c *conn) error {
	ended := make(chan error, 1)
	go func() { ended <- c.sess.Wait() }()
	for {
		select {
		case <-ctx.Done():
			u.drop(c)
			c.close()
			<-ended
			return nil
		case err := <-ended:
			u.drop(c)
			c.close()
			return c.ended(err)
		case b := <-u.broken:
			if b.sess != c.sess {
				continue // about an earlier session
			}
			u.drop(c)
			c.close()
			<-ended
			return c.ended(b.err)
		case <-u.listChanged:
			u.relist(ctx, c, "tools", u.refresh)
		case <-u.resourcesChanged:
			u.relist(ctx, c, "resources", u.refreshResources)
		case <-u.promptsChanged:
			u.relist(ctx, c, "prompts", u.refreshPrompts)
		}
	}
}

// relist lists what the upstream said changed again, within the connect timeout.
func (u *upstream) relist(ctx context.Context, c *conn, what string, list func(context.Context, *conn) error) {
	lctx, cancel := context.WithTimeout(ctx, u.gw.opts.ConnectTimeout)
	defer cancel()
	if err := list(lctx, c); err != nil && ctx.Err() == nil {
		u.log.Warn("re-listing "+what+" after list_changed failed; keeping the previous list", "error", err)
	}
}

// drop marks c as no longer usable, so calls stop using it at once.
func (u *upstream) drop(c *conn) {
	u.mu.Lock()
	if u.conn == c {
		u.conn = nil
	}
	u.mu.Unlock()
}

// stop removes the upstream's tools from the server and, when the gateway is closing,
// records that.
func (u *upstream) stop(ctx context.Context) {
	u.removeAll()
	u.removeResources()
	u.removePrompts()
	if ctx.Err() != nil {
		u.setStatus(func(s *Status) { s.State, s.NextRetry = StateClosed, time.Time{} })
	}
}

// current returns the live session, or nil and the status explaining why there is none.
func (u *upstream) current() (*conn, Status) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.conn != nil && u.st.State == StateReady {
		return u.conn, Status{}
	}
	return nil, u.st
}

// markBroken reports that a call found c's session unusable: calls fail fast from now on,
// and the supervisor restarts the upstream.
func (u *upstream) markBroken(c *conn, err error) {
	msg := u.red.String(err.Error())
	u.mu.Lock()
	if u.conn == c {
		u.conn = nil
		u.st.State, u.st.LastError, u.st.Attempt, u.st.NextRetry = StateRestarting, msg, u.st.Attempt+1, time.Time{}
	}
	u.mu.Unlock()
	u.gw.notifyChanged()
	select {
	case u.broken <- brokenEvent{sess: c.sess, err: err}:
	default: // a report is already pending
	}
}

// permanent reports whether retrying cannot help: the command does not exist or cannot be
// run.
func permanent(err error) bool {
	var p *permanentError
	return errors.As(err, &p)
}

// permanentError marks an error that restarting will not fix.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }
