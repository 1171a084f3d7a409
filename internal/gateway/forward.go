package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Methods of requests from a server to its client.
const (
	methodListRoots     = "roots/list"
	methodCreateMessage = "sampling/createMessage"
	methodElicit        = "elicitation/create"

	notificationInitialized      = "notifications/initialized"
	notificationRootsListChanged = "notifications/roots/list_changed"
)

// codeUnsupported is the JSON-RPC error code of a request the agent's client cannot answer;
// it is the code the Go SDK's own client refuses an unsupported sampling request with.
// (-32601, method not found, would be apt, but the SDK replaces the message of any error
// with that code by its own.)
const codeUnsupported = -31001

// rootsTimeout bounds asking a client for its roots when it connects or says they changed.
const rootsTimeout = 10 * time.Second

// forward is the receiving middleware of every upstream client: the requests an upstream
// makes of its client (roots, sampling, elicitation) go to the agent's client, and its
// answer, or its JSON-RPC error, goes back unmodified: the gateway does not judge it (an
// elicitation reply is not checked against the requested schema; the upstream does that).
// The client asked is the one with a call in progress to this upstream (the most recent
// call's), else the most recently active one. A progress token in the request is mapped
// (see progressRoutes).
func (u *upstream) forward(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case methodListRoots:
			return u.forwardRoots(ctx, req)
		case methodCreateMessage:
			ss, err := u.clientFor("sampling", func(c *mcp.ClientCapabilities) bool { return c.Sampling != nil })
			if err != nil {
				return nil, err
			}
			p, _ := req.GetParams().(*mcp.CreateMessageWithToolsParams)
			if p != nil {
				q := *p
				var release func()
				q.Meta, release = u.gw.progress.toClient(sessionOf(req), p.Meta)
				defer release()
				p = &q
			}
			rctx, stop := u.requestContext(ctx, ss)
			defer stop()
			res, err := ss.CreateMessageWithTools(rctx, p)
			if err != nil {
				return nil, forwardError(method, err)
			}
			return res, nil
		case methodElicit:
			ss, err := u.clientFor("elicitation", func(c *mcp.ClientCapabilities) bool { return c.Elicitation != nil })
			if err != nil {
				return nil, err
			}
			p, _ := req.GetParams().(*mcp.ElicitParams)
			if p != nil {
				q := *p
				var release func()
				q.Meta, release = u.gw.progress.toClient(sessionOf(req), p.Meta)
				defer release()
				p = &q
			}
			rctx, stop := u.requestContext(ctx, ss)
			defer stop()
			return elicit(rctx, ss, p)
		}
		return next(ctx, method, req)
	}
}

// sessionOf returns the upstream session a request came on.
func sessionOf(req mcp.Request) *mcp.ClientSession {
	cs, _ := req.GetSession().(*mcp.ClientSession)
	return cs
}

// elicit sends an elicitation request to ss and returns the client's reply as it came. The
// SDK validates an accepted reply against the requested schema, and fills in defaults,
// after it is received; the gateway takes the reply before that (replyKeeper) so that
// only the upstream judges it.
func elicit(ctx context.Context, ss *mcp.ServerSession, p *mcp.ElicitParams) (mcp.Result, error) {
	box := &replyBox{}
	res, err := ss.Elicit(context.WithValue(ctx, replyBoxKey{}, box), p)
	if raw := box.get(); raw != nil {
		var asSent mcp.ElicitResult
		if json.Unmarshal(raw, &asSent) == nil {
			return &asSent, nil
		}
	}
	if err != nil {
		return nil, forwardError(methodElicit, err)
	}
	return res, nil
}

// A replyBox receives the raw reply to a request the gateway sends to the agent's client.
type replyBox struct {
	mu  sync.Mutex
	raw json.RawMessage
}

func (b *replyBox) get() json.RawMessage {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.raw
}

type replyBoxKey struct{}

// keepReplies is the gateway's sending middleware on the server: it copies the reply to a
// request whose context carries a replyBox into it, before the SDK looks at the reply.
func keepReplies(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if box, ok := ctx.Value(replyBoxKey{}).(*replyBox); ok && err == nil && res != nil {
			if raw, merr := json.Marshal(res); merr == nil {
				box.mu.Lock()
				box.raw = raw
				box.mu.Unlock()
			}
		}
		return res, err
	}
}

// forwardRoots answers roots/list with the roots of the client making the call, or, when no
// connected client can be asked, with the roots last learned from one (none at first). The
// list is never null: an empty list says there are no roots.
// A roots/list sent while a call is in progress rides on that call and ends with it; one the
// upstream sent on its own (told the roots changed) may outlive a call that ends at once, and
// then gets the roots last learned too, rather than an error the upstream would keep: a
// server-filesystem that failed so kept its old directories (TestE2EReferenceServers, 1 in
// 10 under -race).
func (u *upstream) forwardRoots(ctx context.Context, req mcp.Request) (mcp.Result, error) {
	learned := func() (mcp.Result, error) {
		return &mcp.ListRootsResult{Roots: nonNilRoots(u.gw.currentRoots())}, nil
	}
	ss, err := u.clientFor("roots", func(c *mcp.ClientCapabilities) bool { return c.RootsV2 != nil })
	if err != nil {
		return learned()
	}
	p, _ := req.GetParams().(*mcp.ListRootsParams)
	rctx, stop := u.requestContext(ctx, ss)
	defer stop()
	res, err := ss.ListRoots(rctx, p)
	if err != nil {
		if rctx.Err() != nil && ctx.Err() == nil {
			return learned() // the call ended before the client answered
		}
		return nil, forwardError(methodListRoots, err)
	}
	if res == nil {
		res = &mcp.ListRootsResult{}
	}
	res.Roots = nonNilRoots(res.Roots)
	return res, nil
}

func nonNilRoots(r []*mcp.Root) []*mcp.Root {
	if r == nil {
		return []*mcp.Root{}
	}
	return r
}

// clientFor returns the agent's client to forward a request to, if it offers the capability.
func (u *upstream) clientFor(capability string, offers func(*mcp.ClientCapabilities) bool) (*mcp.ServerSession, error) {
	ss := u.caller()
	switch {
	case ss == nil:
		return nil, &jsonrpc.Error{Code: codeUnsupported,
			Message: fmt.Sprintf("winnow gateway: no client is connected to answer a %s request", capability)}
	case !offers(clientCaps(ss)):
		return nil, &jsonrpc.Error{Code: codeUnsupported,
			Message: fmt.Sprintf("winnow gateway: the connected client does not support %s", capability)}
	case !acceptsRequests(ss):
		return nil, &jsonrpc.Error{Code: codeUnsupported,
			Message: fmt.Sprintf("winnow gateway: the connected client uses MCP %s, which does not allow %s requests outside a tool call's input requests", newProtocol, capability)}
	}
	return ss, nil
}

// caller returns the client of the most recent call in progress, else the most recently
// active client.
func (u *upstream) caller() *mcp.ServerSession {
	u.mu.Lock()
	n := len(u.inflight)
	var ss *mcp.ServerSession
	if n > 0 {
		ss = u.inflight[n-1].ss
	}
	u.mu.Unlock()
	if ss != nil {
		return ss
	}
	return u.gw.down.latest()
}

// forwardError returns the client's JSON-RPC error unmodified, and wraps any other failure
// in one.
func forwardError(method string, err error) error {
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		return rpcErr
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
		Message: fmt.Sprintf("winnow gateway: forwarding %s to the client: %v", method, err)}
}

// onElicitationComplete passes an upstream's notification that a URL elicitation finished
// on to the client.
func (u *upstream) onElicitationComplete(ctx context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
	if ss := u.caller(); ss != nil && req.Params != nil {
		if err := ss.NotifyElicitationComplete(ctx, req.Params); err != nil {
			u.log.Debug("forwarding elicitation/complete failed", "error", err)
		}
	}
}

// onToolListChanged asks the supervisor to re-list the tools.
func (u *upstream) onToolListChanged(context.Context, *mcp.ToolListChangedRequest) {
	select {
	case u.listChanged <- struct{}{}:
	default: // a re-listing is already pending
	}
}

// observe is the gateway's receiving middleware on the server: it notes which clients are
// active and, when a client that has roots connects or says its roots changed, learns them
// and passes them on to the upstreams (which are told with notifications/roots/list_changed).
func (g *Gateway) observe(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, ok := req.GetSession().(*mcp.ServerSession)
		if !ok || ss == nil || g.ctx.Err() != nil {
			return next(ctx, method, req)
		}
		g.down.touch(ss)
		res, err := next(ctx, method, req)
		if method == notificationInitialized || method == notificationRootsListChanged {
			g.learnRoots(ss)
		}
		return res, err
	}
}

// learnRoots asks ss for its roots in the background (the notification that prompted it is
// handled synchronously by the SDK, which must not wait for the answer).
func (g *Gateway) learnRoots(ss *mcp.ServerSession) {
	if clientCaps(ss).RootsV2 == nil || !acceptsRequests(ss) {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return
	}
	g.wg.Add(1) // under g.mu, so never after Close started waiting
	go func() {
		defer g.wg.Done()
		ctx, cancel := context.WithTimeout(g.ctx, rootsTimeout)
		defer cancel()
		res, err := ss.ListRoots(ctx, nil)
		if err != nil {
			g.opts.Logger.Debug("asking the client for its roots failed", "error", err)
			return
		}
		g.setRoots(res.Roots)
	}()
}

// currentRoots returns the roots last learned from a client.
func (g *Gateway) currentRoots() []*mcp.Root {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.roots)
}

// setRoots records the client's roots and, if they changed, gives them to every upstream
// client, which notifies its upstream.
func (g *Gateway) setRoots(roots []*mcp.Root) {
	if roots == nil {
		roots = []*mcp.Root{}
	}
	g.mu.Lock()
	if slices.EqualFunc(g.roots, roots, func(a, b *mcp.Root) bool { return a.URI == b.URI && a.Name == b.Name }) {
		g.mu.Unlock()
		return
	}
	old := g.roots
	g.roots = slices.Clone(roots)
	g.mu.Unlock()
	var oldURIs []string
	for _, r := range old {
		oldURIs = append(oldURIs, r.URI)
	}
	for _, u := range g.ups {
		u.mu.Lock()
		c := u.conn
		u.mu.Unlock()
		if c == nil {
			continue // it gets the roots when it connects
		}
		c.client.RemoveRoots(oldURIs...)
		c.client.AddRoots(roots...)
	}
}
