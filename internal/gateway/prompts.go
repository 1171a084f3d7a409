package gateway

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Prompts of an upstream are re-exported like its tools, as <prefix>__<name>, with their
// descriptions and arguments untouched; prompts/get and completion/complete of a prompt's
// argument go to the upstream with the upstream's own name.

// refreshPrompts lists the upstream's prompts and brings the re-exported ones in line, when
// the upstream has prompts.
func (u *upstream) refreshPrompts(ctx context.Context, c *conn) error {
	if !c.has(func(s *mcp.ServerCapabilities) bool { return s.Prompts != nil }) {
		return nil
	}
	prompts, err := listAll(c.sess.Prompts(ctx, nil), "prompts/list", "prompts")
	if err != nil {
		return err
	}
	if ctx.Err() != nil || u.gw.ctx.Err() != nil {
		return ctx.Err()
	}
	u.applyPrompts(prompts)
	return nil
}

// applyPrompts makes the re-exported prompts those of the list.
func (u *upstream) applyPrompts(list []*mcp.Prompt) {
	want := make(exported)
	defs := make(map[string]*mcp.Prompt)
	for _, p := range list {
		if p == nil || p.Name == "" {
			continue
		}
		e := *p
		e.Name = u.cfg.ToolName(p.Name)
		def, _ := json.Marshal(&e)
		want[e.Name] = exportedItem{def: string(def), name: p.Name}
		defs[e.Name] = &e
	}
	u.reexport(&u.prompts, want, u.gw.srv.RemovePrompts, func(name string) error {
		return recovered(func() { u.gw.srv.AddPrompt(defs[name], u.promptHandler(want[name].name)) })
	}, "prompt")
}

// promptHandler gets the prompt the upstream calls name.
func (u *upstream) promptHandler(name string) mcp.PromptHandler {
	return func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		p := mcp.GetPromptParams{Name: name}
		if req.Params != nil {
			p = *req.Params
			p.Name = name
		}
		var res *mcp.GetPromptResult
		err := u.request(ctx, req.Session, &p.Meta, func(ctx context.Context, c *conn) (err error) {
			res, err = c.sess.GetPrompt(ctx, &p)
			return err
		})
		return res, err
	}
}

// onPromptListChanged asks the supervisor to re-list the prompts.
func (u *upstream) onPromptListChanged(context.Context, *mcp.PromptListChangedRequest) {
	poke(u.promptsChanged)
}

// removePrompts removes every re-exported prompt of the upstream.
func (u *upstream) removePrompts() {
	u.mu.Lock()
	names := slices.Sorted(maps.Keys(u.prompts))
	u.prompts = make(exported)
	u.mu.Unlock()
	if len(names) > 0 {
		u.gw.srv.RemovePrompts(names...)
	}
}

// promptOwner returns the upstream whose prompt the agent-visible name is, and the
// upstream's own name for it.
func (g *Gateway) promptOwner(name string) (*upstream, string) {
	for _, u := range g.ups {
		u.mu.Lock()
		e, ok := u.prompts[name]
		u.mu.Unlock()
		if ok {
			return u, e.name
		}
	}
	return nil, ""
}

// complete forwards a completion/complete to the upstream whose prompt or resource template
// it is about; handled reports whether there is one.
func (g *Gateway) complete(ctx context.Context, req *mcp.CompleteRequest) (res mcp.Result, handled bool, err error) {
	if req.Params == nil || req.Params.Ref == nil {
		return nil, false, nil
	}
	p := *req.Params
	ref := *p.Ref
	var u *upstream
	switch ref.Type {
	case "ref/prompt":
		u, ref.Name = g.promptOwner(ref.Name)
	case "ref/resource":
		u = g.templateOwner(ref.URI)
	}
	if u == nil {
		return nil, false, nil
	}
	p.Ref = &ref
	if c, _ := u.current(); c != nil && !c.has(func(s *mcp.ServerCapabilities) bool { return s.Completions != nil }) {
		return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}, true, nil
	}
	var out *mcp.CompleteResult
	err = u.request(ctx, req.Session, &p.Meta, func(ctx context.Context, c *conn) (err error) {
		out, err = c.sess.Complete(ctx, &p)
		return err
	})
	if err != nil {
		return nil, true, err
	}
	return out, true, nil
}

// templateOwner returns the upstream that has the resource template, or that owns the URI.
func (g *Gateway) templateOwner(uri string) *upstream {
	for _, u := range g.ups {
		u.mu.Lock()
		_, ok := u.templates[uri]
		u.mu.Unlock()
		if ok {
			return u
		}
	}
	if !strings.Contains(uri, "{") {
		return g.resourceOwner(uri)
	}
	return nil
}
