package gateway

import (
	"context"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// logLevels are the MCP logging levels, most verbose first.
var logLevels = []mcp.LoggingLevel{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// onLog passes an upstream's log message on to every client of the gateway; the SDK drops
// it for a client that has not asked for messages of its level (logging/setLevel). A client
// with a request in progress to the upstream gets it with that request's response.
func (u *upstream) onLog(ctx context.Context, req *mcp.LoggingMessageRequest) {
	if req.Params == nil {
		return
	}
	for ss := range u.gw.srv.Sessions() {
		rctx, stop := u.requestContext(u.gw.ctx, ss)
		if err := ss.Log(rctx, req.Params); err != nil {
			u.log.Debug("forwarding a log message to a client failed", "error", err)
		}
		stop()
	}
}

// setLevel records the logging level a client asked for and asks every upstream that logs
// for the most verbose level any connected client wants.
func (g *Gateway) setLevel(ctx context.Context, ss *mcp.ServerSession, level mcp.LoggingLevel) {
	g.mu.Lock()
	g.levels[ss] = level
	g.mu.Unlock()
	want := g.logLevel()
	for _, u := range g.ups {
		if c, _ := u.current(); c != nil {
			u.setLogLevel(ctx, c, want)
		}
	}
}

// logLevel returns the most verbose level the connected clients asked for, or "" if none
// asked.
func (g *Gateway) logLevel() mcp.LoggingLevel {
	live := g.down.live()
	g.mu.Lock()
	defer g.mu.Unlock()
	best := -1
	for ss, l := range g.levels {
		if !live[ss] {
			delete(g.levels, ss)
			continue
		}
		if i := slices.Index(logLevels, l); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return logLevels[best]
}

// setLogLevel asks the upstream of c for log messages of level and above, if it logs.
func (u *upstream) setLogLevel(ctx context.Context, c *conn, level mcp.LoggingLevel) {
	if level == "" || !c.has(func(s *mcp.ServerCapabilities) bool { return s.Logging != nil }) {
		return
	}
	lctx, cancel := context.WithTimeout(ctx, u.cfg.CallTimeout())
	defer cancel()
	if err := c.sess.SetLoggingLevel(lctx, &mcp.SetLoggingLevelParams{Level: level}); err != nil {
		u.log.Debug("logging/setLevel failed", "level", level, "error", err)
	}
}
