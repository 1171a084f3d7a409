package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxListPages bounds the pages of one tools/list, against an upstream that never stops
// returning a cursor.
const maxListPages = 1000

// listAll gathers a list the SDK pages through for method, refusing one of more than
// maxListPages pages' worth of items, against an upstream that never stops returning a cursor.
func listAll[T any](items iter.Seq2[T, error], method, what string) ([]T, error) {
	var all []T
	for item, err := range items {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		all = append(all, item)
		if len(all) > maxListPages*100 {
			return nil, fmt.Errorf("%s: more than %d %s", method, maxListPages*100, what)
		}
	}
	return all, nil
}

// refresh lists the upstream's tools and brings the re-exported ones in line: new and
// changed tools are added, vanished ones removed. The server tells its clients with
// notifications/tools/list_changed.
func (u *upstream) refresh(ctx context.Context, c *conn) error {
	tools, err := u.listTools(ctx, c)
	if err != nil {
		return err
	}
	if ctx.Err() != nil || u.gw.ctx.Err() != nil {
		return ctx.Err()
	}
	u.apply(tools)
	return nil
}

// listTools returns every tool of the upstream, with the schemas as the upstream wrote them.
func (u *upstream) listTools(ctx context.Context, c *conn) ([]*mcp.Tool, error) {
	c.capture.take() // nothing captured before this listing belongs to it
	var tools []*mcp.Tool
	params := &mcp.ListToolsParams{}
	seen := make(map[string]bool)
	for range maxListPages {
		res, err := c.sess.ListTools(ctx, params)
		if err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		// A result served from the SDK's cache (stateless protocol) was not captured; the
		// schemas captured when it was fetched are still in c.schemas.
		for _, raw := range c.capture.take() {
			parseSchemas(raw, c.schemas)
		}
		tools = append(tools, res.Tools...)
		if res.NextCursor == "" {
			return withRawSchemas(tools, c.schemas), nil
		}
		if seen[res.NextCursor] {
			return nil, fmt.Errorf("tools/list: the upstream returned cursor %q twice", res.NextCursor)
		}
		seen[res.NextCursor] = true
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
	return nil, fmt.Errorf("tools/list: more than %d pages", maxListPages)
}

// withRawSchemas replaces the decoded schemas of tools by the upstream's own bytes.
func withRawSchemas(tools []*mcp.Tool, schemas map[string]rawSchemas) []*mcp.Tool {
	for _, t := range tools {
		s, ok := schemas[t.Name]
		if !ok {
			continue
		}
		if len(s.in) > 0 && string(s.in) != "null" {
			t.InputSchema = s.in
		}
		if len(s.out) > 0 && string(s.out) != "null" {
			t.OutputSchema = s.out
		}
	}
	return tools
}

// apply makes the re-exported tools those of the list.
func (u *upstream) apply(tools []*mcp.Tool) {
	want := make(exported, len(tools))
	defs := make(map[string]*mcp.Tool, len(tools))
	for _, t := range tools {
		if t == nil {
			continue
		}
		e := *t
		e.Name = u.cfg.ToolName(t.Name)
		if s, ok := u.gw.opts.Shaper.(OutputSchemer); ok {
			e.OutputSchema = s.OutputSchema(e.Name, e.OutputSchema)
		}
		if err := checkTool(&e); err != nil {
			u.log.Warn("upstream tool not re-exported", "tool", t.Name, "error", err)
			continue
		}
		def, err := json.Marshal(&e)
		if err != nil {
			u.log.Warn("upstream tool not re-exported", "tool", t.Name, "error", err)
			continue
		}
		want[e.Name] = exportedItem{def: string(def), name: t.Name}
		defs[e.Name] = &e
	}
	u.gw.enrich.setTools(u, defs) // the planner learns their annotations before a call can come
	u.reexport(&u.exported, want, u.gw.srv.RemoveTools, func(name string) error {
		return addTool(u.gw.srv, defs[name], u.handler(want[name].name, name))
	}, "tool")
	u.gw.notifyChanged()
}

// removeAll removes every re-exported tool of the upstream from the server.
func (u *upstream) removeAll() {
	u.mu.Lock()
	names := slices.Sorted(maps.Keys(u.exported))
	u.exported = make(exported)
	u.mu.Unlock()
	if len(names) > 0 {
		u.gw.srv.RemoveTools(names...)
	}
}

// checkTool reports what would make the SDK refuse t: it needs an input schema that is a
// JSON object of type "object".
func checkTool(t *mcp.Tool) error {
	if t.InputSchema == nil {
		return fmt.Errorf("no input schema")
	}
	data, err := json.Marshal(t.InputSchema)
	if err != nil {
		return fmt.Errorf("input schema: %w", err)
	}
	var s struct {
		Type any `json:"type"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("input schema is not a JSON object")
	}
	if s.Type != "object" {
		return fmt.Errorf(`input schema has type %v; MCP requires "object"`, s.Type)
	}
	return nil
}

// addTool adds t to srv, turning a panic of the SDK's own checks into an error: a bad tool
// from one upstream must not take the server down.
func addTool(srv *mcp.Server, t *mcp.Tool, h mcp.ToolHandler) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("refused by the MCP SDK: %v", r)
		}
	}()
	srv.AddTool(t, h)
	return nil
}
