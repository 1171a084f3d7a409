package gateway

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Methods the gateway relays from the agent's client to upstreams.
const (
	methodInitialize    = "initialize"
	methodDiscover      = "server/discover"
	methodReadResource  = "resources/read"
	methodSubscribe     = "resources/subscribe"
	methodUnsubscribe   = "resources/unsubscribe"
	methodComplete      = "completion/complete"
	methodSetLevel      = "logging/setLevel"
	notificationProgess = "notifications/progress"
)

// relay is the gateway's receiving middleware on the server for what is not a tool call:
// resources/read of upstream resources (listed ones, the links their tools returned, and
// URIs of their templates), resource subscriptions, completion of upstream prompts' and
// templates' arguments, logging levels, progress of the requests upstreams made of the
// client, and the capabilities the server declares. Resource lists and prompts are served
// by the SDK from what the gateway added to the server.
func (g *Gateway) relay(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if g.ctx.Err() != nil {
			return next(ctx, method, req)
		}
		switch r := req.(type) {
		case *mcp.ReadResourceRequest:
			if res, ok, err := g.readResource(ctx, r); ok {
				return res, err
			}
		case *mcp.SubscribeRequest:
			if r.Params != nil {
				ok, err := g.subscribe(ctx, method, r.Session, r.Params.URI, &r.Params.Meta)
				if !ok {
					return nil, mcp.ResourceNotFoundError(r.Params.URI)
				}
				if err != nil {
					return nil, err
				}
			}
		case *mcp.UnsubscribeRequest:
			if r.Params != nil {
				if ok, err := g.subscribe(ctx, method, r.Session, r.Params.URI, &r.Params.Meta); ok && err != nil {
					return nil, err
				}
			}
		case *mcp.CompleteRequest:
			if res, ok, err := g.complete(ctx, r); ok {
				return res, err
			}
		case *mcp.ProgressNotificationServerRequest:
			if g.relayProgress(ctx, r) {
				return nil, nil
			}
		}
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		switch method {
		case methodSetLevel:
			if r, ok := req.(*mcp.ServerRequest[*mcp.SetLoggingLevelParams]); ok && r.Params != nil && r.Session != nil {
				g.setLevel(ctx, r.Session, r.Params.Level)
			}
		case methodInitialize:
			if r, ok := res.(*mcp.InitializeResult); ok {
				r.Capabilities = g.capabilities(r.Capabilities)
			}
		case methodDiscover:
			if r, ok := res.(*mcp.DiscoverResult); ok {
				r.Capabilities = g.capabilities(r.Capabilities)
			}
		}
		return res, err
	}
}

// capabilities returns the server's capabilities as the SDK inferred them, amended to be
// exactly what the gateway serves: logging and completions when an upstream has them,
// resources and prompts when an upstream has them (even before it listed any), and
// resource subscriptions only when an upstream takes them. Upstreams that connect after a
// client initialized are not reflected in what that client was told.
func (g *Gateway) capabilities(caps *mcp.ServerCapabilities) *mcp.ServerCapabilities {
	out := &mcp.ServerCapabilities{}
	if caps != nil {
		c := *caps
		out = &c
		if caps.Resources != nil {
			r := *caps.Resources
			out.Resources = &r
		}
	}
	var logging, completions, resources, subscribe, prompts bool
	for _, u := range g.ups {
		c, _ := u.current()
		if c == nil {
			continue
		}
		c.has(func(s *mcp.ServerCapabilities) bool {
			logging = logging || s.Logging != nil
			completions = completions || s.Completions != nil
			resources = resources || s.Resources != nil
			subscribe = subscribe || s.Resources != nil && s.Resources.Subscribe
			prompts = prompts || s.Prompts != nil
			return true
		})
	}
	if logging && out.Logging == nil {
		out.Logging = &mcp.LoggingCapabilities{}
	}
	if completions && out.Completions == nil {
		out.Completions = &mcp.CompletionCapabilities{}
	}
	if resources && out.Resources == nil {
		out.Resources = &mcp.ResourceCapabilities{ListChanged: true}
	}
	if out.Resources != nil {
		out.Resources.Subscribe = subscribe
	}
	if prompts && out.Prompts == nil {
		out.Prompts = &mcp.PromptCapabilities{ListChanged: true}
	}
	return out
}
