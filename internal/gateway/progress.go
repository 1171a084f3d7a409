package gateway

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressTokenKey is the _meta key of a request's progress token.
const progressTokenKey = "progressToken"

// Progress tokens are chosen by whoever sends a request, so the tokens of two clients (or of
// two upstreams) may be equal. The gateway therefore never forwards a token as it is: a
// request it forwards gets a token of the gateway's own, unique among everything in flight,
// and the notifications/progress that come back with it are sent on with the original token
// to the original peer. This works both ways: the agent's calls to upstreams, and the
// sampling and elicitation requests upstreams make of the agent's client.

// progressRoutes maps the gateway's own progress tokens back to the requests they stand for.
type progressRoutes struct {
	mu     sync.Mutex
	next   uint64
	toDown map[string]downProgress // a token given to an upstream → the agent's request
	toUp   map[string]upProgress   // a token given to the agent's client → the upstream's request
}

// downProgress is a request of the agent's client that asked for progress.
type downProgress struct {
	ss    *mcp.ServerSession
	ctx   context.Context // the request's own, so that the notifications go with its response
	token any
}

// upProgress is a request of an upstream that asked for progress.
type upProgress struct {
	cs    *mcp.ClientSession
	token any
}

func newProgressRoutes() *progressRoutes {
	return &progressRoutes{toDown: make(map[string]downProgress), toUp: make(map[string]upProgress)}
}

// newToken returns a token no request in flight has.
func (p *progressRoutes) newToken() string {
	p.next++
	return fmt.Sprintf("winnow-%d", p.next)
}

// protocolMetaPrefix starts the _meta keys MCP reserves for the protocol itself (the
// stateless protocol's version, client information and capabilities): they describe one
// connection and are not forwarded to the other; the SDK writes its own.
const protocolMetaPrefix = "io.modelcontextprotocol/"

// forwardedMeta returns a copy of meta without the protocol's own keys, nil if none is left.
func forwardedMeta(meta mcp.Meta) mcp.Meta {
	out := maps.Clone(meta)
	maps.DeleteFunc(out, func(k string, _ any) bool { return strings.HasPrefix(k, protocolMetaPrefix) })
	if len(out) == 0 {
		return nil
	}
	return out
}

// toUpstream returns the _meta to send upstream with a request of the agent's client ss
// whose _meta is meta: a copy, without the protocol's own keys, with a token of the
// gateway's own in place of the client's. release forgets the token; call it when the
// request is answered.
func (p *progressRoutes) toUpstream(ctx context.Context, ss *mcp.ServerSession, meta mcp.Meta) (out mcp.Meta, release func()) {
	out = forwardedMeta(meta)
	token, ok := out[progressTokenKey]
	if !ok || token == nil || ss == nil {
		return out, func() {}
	}
	p.mu.Lock()
	own := p.newToken()
	p.toDown[own] = downProgress{ss: ss, ctx: ctx, token: token}
	p.mu.Unlock()
	out[progressTokenKey] = own
	return out, func() {
		// The SDK may hand the upstream's last notifications to the gateway after the
		// response they came before: keep the route a little longer.
		time.AfterFunc(progressGrace, func() {
			p.mu.Lock()
			delete(p.toDown, own)
			p.mu.Unlock()
		})
	}
}

// progressGrace is how long a route outlives its request.
const progressGrace = 2 * time.Second

// toClient does for a request of an upstream's session cs what toUpstream does for the
// agent's.
func (p *progressRoutes) toClient(cs *mcp.ClientSession, meta mcp.Meta) (out mcp.Meta, release func()) {
	out = forwardedMeta(meta)
	token, ok := out[progressTokenKey]
	if !ok || token == nil || cs == nil {
		return out, func() {}
	}
	p.mu.Lock()
	own := p.newToken()
	p.toUp[own] = upProgress{cs: cs, token: token}
	p.mu.Unlock()
	out[progressTokenKey] = own
	return out, func() {
		p.mu.Lock()
		delete(p.toUp, own)
		p.mu.Unlock()
	}
}

// down returns where progress reported with token goes, if the token is the gateway's.
func (p *progressRoutes) down(token any) (downProgress, bool) {
	s, ok := token.(string)
	if !ok {
		return downProgress{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	d, ok := p.toDown[s]
	return d, ok
}

func (p *progressRoutes) up(token any) (upProgress, bool) {
	s, ok := token.(string)
	if !ok {
		return upProgress{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	u, ok := p.toUp[s]
	return u, ok
}

// onProgress passes an upstream's progress notification on to the agent's client whose
// request it is about, with the client's own token.
func (u *upstream) onProgress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	if req.Params == nil {
		return
	}
	d, ok := u.gw.progress.down(req.Params.ProgressToken)
	if !ok {
		u.log.Debug("progress notification for no request in flight", "token", req.Params.ProgressToken)
		return
	}
	p := *req.Params
	p.ProgressToken = d.token
	// The request's context routes the notification; it may have ended (see progressGrace).
	if err := d.ss.NotifyProgress(context.WithoutCancel(d.ctx), &p); err != nil {
		u.log.Debug("forwarding a progress notification to the client failed", "error", err)
	}
}

// relayProgress passes a progress notification of the agent's client about a request an
// upstream made on to that upstream, with the upstream's own token. It reports whether the
// notification was one.
func (g *Gateway) relayProgress(ctx context.Context, req *mcp.ProgressNotificationServerRequest) bool {
	if req == nil || req.Params == nil {
		return false
	}
	up, ok := g.progress.up(req.Params.ProgressToken)
	if !ok {
		return false
	}
	p := *req.Params
	p.ProgressToken = up.token
	if err := up.cs.NotifyProgress(ctx, &p); err != nil {
		g.opts.Logger.Debug("forwarding a progress notification to an upstream failed", "error", err)
	}
	return true
}
