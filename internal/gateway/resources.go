package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLinks bounds the URIs of resource links remembered from tool results; past it the
// oldest half is forgotten.
const maxLinks = 4096

// Resources of an upstream are re-exported with their URIs as the upstream wrote them (a
// URI is what resource links in tool results and the upstream's own texts refer to) and
// their names prefixed like tools (<prefix>__<name>). A URI two upstreams both list is the
// first one's, in configuration order. A resources/read or resources/subscribe goes to the
// upstream that listed the URI, else to the one whose tool returned it as a resource link,
// else to the one with the resource template whose literal start matches most of it.

// exported is what an upstream has re-exported of one kind: agent-visible key → JSON of the
// definition (to see what changed) and the upstream's own name.
type exported map[string]exportedItem

type exportedItem struct {
	def  string
	name string // the upstream's own name (prompts); the URI (resources); the template (templates)
}

// reexport makes *set, what u re-exports of one kind (tools, prompts, resources,
// templates), hold want: the server loses the items no longer wanted (remove) and gets
// those new or changed (add, called with the key); an item the server refuses (add fails)
// is logged and left out of *set. *set is guarded by u.mu.
func (u *upstream) reexport(set *exported, want exported, remove func(keys ...string), add func(key string) error, kind string) {
	u.mu.Lock()
	old := *set
	*set = want
	u.mu.Unlock()
	var gone []string
	for key := range old {
		if _, ok := want[key]; !ok {
			gone = append(gone, key)
		}
	}
	if len(gone) > 0 {
		slices.Sort(gone)
		remove(gone...)
	}
	for _, key := range slices.Sorted(maps.Keys(want)) {
		if old[key].def == want[key].def {
			continue
		}
		if err := add(key); err != nil {
			u.log.Warn("upstream "+kind+" not re-exported", "key", key, "upstream_name", want[key].name, "error", err)
			u.mu.Lock()
			delete(*set, key)
			u.mu.Unlock()
		}
	}
}

// refreshResources lists the upstream's resources and resource templates and brings the
// re-exported ones in line, when the upstream has resources.
func (u *upstream) refreshResources(ctx context.Context, c *conn) error {
	if !c.has(func(s *mcp.ServerCapabilities) bool { return s.Resources != nil }) {
		return nil
	}
	resources, err := listAll(c.sess.Resources(ctx, nil), "resources/list", "resources")
	if err != nil {
		return err
	}
	templates, err := listAll(c.sess.ResourceTemplates(ctx, nil), "resources/templates/list", "templates")
	if err != nil {
		return err
	}
	if ctx.Err() != nil || u.gw.ctx.Err() != nil {
		return ctx.Err()
	}
	u.applyResources(resources)
	u.applyTemplates(templates)
	return nil
}

// applyResources makes the re-exported resources those of the list.
func (u *upstream) applyResources(list []*mcp.Resource) {
	want := make(exported)
	defs := make(map[string]*mcp.Resource)
	for _, r := range list {
		if r == nil || r.URI == "" {
			continue
		}
		if o := u.gw.listedBy(r.URI); o != nil && o != u {
			u.log.Warn("upstream resource not re-exported: another upstream has the URI", "uri", r.URI, "other", o.cfg.Name)
			continue
		}
		e := *r
		e.Name = u.cfg.ToolName(r.Name)
		def, _ := json.Marshal(&e)
		want[e.URI] = exportedItem{def: string(def), name: r.URI}
		defs[e.URI] = &e
	}
	u.reexport(&u.resources, want, u.gw.srv.RemoveResources, func(uri string) error {
		return recovered(func() { u.gw.srv.AddResource(defs[uri], u.readHandler()) })
	}, "resource")
}

// applyTemplates makes the re-exported resource templates those of the list.
func (u *upstream) applyTemplates(list []*mcp.ResourceTemplate) {
	want := make(exported)
	defs := make(map[string]*mcp.ResourceTemplate)
	for _, t := range list {
		if t == nil || t.URITemplate == "" {
			continue
		}
		e := *t
		e.Name = u.cfg.ToolName(t.Name)
		def, _ := json.Marshal(&e)
		want[e.URITemplate] = exportedItem{def: string(def), name: t.URITemplate}
		defs[e.URITemplate] = &e
	}
	u.reexport(&u.templates, want, u.gw.srv.RemoveResourceTemplates, func(tmpl string) error {
		return recovered(func() { u.gw.srv.AddResourceTemplate(defs[tmpl], u.readHandler()) })
	}, "resource template")
}

// recovered runs f, turning a panic of the SDK's checks into an error: a bad definition
// from one upstream must not take the server down.
func recovered(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("refused by the MCP SDK: %v", r)
		}
	}()
	f()
	return nil
}

// readHandler reads a resource from the upstream.
func (u *upstream) readHandler() mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return u.readResource(ctx, req)
	}
}

// readResource forwards a resources/read to the upstream and returns its answer, or its
// JSON-RPC error, unmodified.
func (u *upstream) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	if req.Params == nil {
		return nil, mcp.ResourceNotFoundError("")
	}
	p := *req.Params
	var res *mcp.ReadResourceResult
	err := u.request(ctx, req.Session, &p.Meta, func(ctx context.Context, c *conn) (err error) {
		res, err = c.sess.ReadResource(ctx, &p)
		return err
	})
	return res, err
}

// request runs one request of the agent's client ss to the upstream with the upstream's
// timeout: ss is recorded as the client to ask for what the upstream needs meanwhile, and
// the progress token in *meta is mapped. A JSON-RPC error of the upstream comes back as it
// was sent; the gateway's own failures are JSON-RPC errors that say what happened.
func (u *upstream) request(ctx context.Context, ss *mcp.ServerSession, meta *mcp.Meta, send func(context.Context, *conn) error) error {
	c, st := u.current()
	if c == nil {
		return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: st.unavailable(time.Now())}
	}
	done := u.track(ctx, ss)
	defer done()
	var release func()
	*meta, release = u.gw.progress.toUpstream(ctx, ss, *meta)
	defer release()
	cctx, cancel := context.WithTimeout(ctx, u.cfg.CallTimeout())
	defer cancel()
	err := send(cctx, c)
	if err == nil {
		return nil
	}
	if rpcErr := upstreamError(err); rpcErr != nil {
		return rpcErr
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("upstream %s: %s", u.cfg.Name, u.red.String(err.Error()))}
}

// listedBy returns the upstream that listed uri as a resource, or nil.
func (g *Gateway) listedBy(uri string) *upstream {
	for _, u := range g.ups {
		u.mu.Lock()
		_, ok := u.resources[uri]
		u.mu.Unlock()
		if ok {
			return u
		}
	}
	return nil
}

// resourceOwner returns the upstream that serves uri, or nil: the one that listed it, else
// the one whose tool returned it in a resource link, else the one whose resource template
// has the longest literal start that uri begins with, else the only upstream that serves
// resources at all (a server may serve URIs it does not list: server-everything accepts a
// subscription to test://watched-resource).
func (g *Gateway) resourceOwner(uri string) *upstream {
	if u := g.listedBy(uri); u != nil {
		return u
	}
	g.mu.Lock()
	u := g.links[uri]
	g.mu.Unlock()
	if u != nil {
		return u
	}
	best, bestLen := (*upstream)(nil), 0
	for _, u := range g.ups {
		u.mu.Lock()
		for tmpl := range u.templates {
			lit, _, _ := strings.Cut(tmpl, "{")
			if len(lit) > bestLen && strings.HasPrefix(uri, lit) {
				best, bestLen = u, len(lit)
			}
		}
		u.mu.Unlock()
	}
	if best != nil {
		return best
	}
	return g.soleResourceServer()
}

// soleResourceServer returns the one upstream whose session declares resources, or nil
// when none or several do.
func (g *Gateway) soleResourceServer() *upstream {
	var sole *upstream
	for _, u := range g.ups {
		c, _ := u.current()
		if c == nil || !c.has(func(s *mcp.ServerCapabilities) bool { return s.Resources != nil }) {
			continue
		}
		if sole != nil {
			return nil
		}
		sole = u
	}
	return sole
}

// noteLinks remembers the URIs of the resource links and embedded resources in a result of
// u's tools, so that the agent can read them through the gateway.
func (g *Gateway) noteLinks(u *upstream, content []mcp.Content) {
	var uris []string
	for _, c := range content {
		switch c := c.(type) {
		case *mcp.ResourceLink:
			uris = append(uris, c.URI)
		case *mcp.EmbeddedResource:
			if c.Resource != nil {
				uris = append(uris, c.Resource.URI)
			}
		}
	}
	if len(uris) == 0 {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, uri := range uris {
		if _, ok := g.links[uri]; !ok {
			g.linkOrder = append(g.linkOrder, uri)
		}
		g.links[uri] = u
	}
	if len(g.linkOrder) > maxLinks {
		drop := g.linkOrder[:maxLinks/2]
		for _, uri := range drop {
			delete(g.links, uri)
		}
		g.linkOrder = slices.Clone(g.linkOrder[maxLinks/2:])
	}
}

// readResource serves a resources/read of the agent's client from the upstream that owns
// the URI; handled reports whether one does.
func (g *Gateway) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (res mcp.Result, handled bool, err error) {
	if req.Params == nil {
		return nil, false, nil
	}
	u := g.resourceOwner(req.Params.URI)
	if u == nil {
		return nil, false, nil
	}
	r, err := u.readResource(ctx, req)
	if err != nil {
		return nil, true, err
	}
	return r, true, nil
}

// subscribe forwards a resources/subscribe or resources/unsubscribe to the upstream that
// owns the URI; handled reports whether one does. The SDK then records the subscription,
// and the upstream's notifications/resources/updated reach the subscribed clients.
func (g *Gateway) subscribe(ctx context.Context, method string, ss *mcp.ServerSession, uri string, meta *mcp.Meta) (handled bool, err error) {
	u := g.resourceOwner(uri)
	if u == nil {
		return false, nil
	}
	if c, _ := u.current(); c != nil && !c.has(func(s *mcp.ServerCapabilities) bool { return s.Resources != nil && s.Resources.Subscribe }) {
		return true, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("upstream %s does not support resource subscriptions", u.cfg.Name)}
	}
	return true, u.request(ctx, ss, meta, func(ctx context.Context, c *conn) error {
		if method == methodSubscribe {
			return c.sess.Subscribe(ctx, &mcp.SubscribeParams{Meta: *meta, URI: uri})
		}
		return c.sess.Unsubscribe(ctx, &mcp.UnsubscribeParams{Meta: *meta, URI: uri})
	})
}

// onResourceUpdated tells the clients subscribed to the resource.
func (u *upstream) onResourceUpdated(ctx context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
	if req.Params == nil {
		return
	}
	if err := u.gw.srv.ResourceUpdated(u.gw.ctx, req.Params); err != nil {
		u.log.Debug("forwarding notifications/resources/updated failed", "error", err)
	}
}

// onResourceListChanged asks the supervisor to re-list the resources.
func (u *upstream) onResourceListChanged(context.Context, *mcp.ResourceListChangedRequest) {
	poke(u.resourcesChanged)
}

// poke sends on a channel of capacity 1 without waiting: one pending signal is enough.
func poke(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// removeResources removes every re-exported resource and template of the upstream.
func (u *upstream) removeResources() {
	u.mu.Lock()
	uris := slices.Sorted(maps.Keys(u.resources))
	tmpls := slices.Sorted(maps.Keys(u.templates))
	u.resources, u.templates = make(exported), make(exported)
	u.mu.Unlock()
	if len(uris) > 0 {
		u.gw.srv.RemoveResources(uris...)
	}
	if len(tmpls) > 0 {
		u.gw.srv.RemoveResourceTemplates(tmpls...)
	}
}
