package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/gateway/pipeline"
)

// handler returns the handler of the re-exported tool exported, whose upstream name is tool.
func (u *upstream) handler(tool, exported string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return u.call(ctx, req, tool, exported)
	}
}

// call dispatches one tools/call to the upstream. The upstream's result and its JSON-RPC
// errors reach the agent unmodified (results without an error go through the Shaper); the
// gateway's own failures (a timeout, an upstream that is restarting) are tool errors that
// say what happened.
func (u *upstream) call(ctx context.Context, req *mcp.CallToolRequest, tool, exported string) (*mcp.CallToolResult, error) {
	c, st := u.current()
	if c == nil {
		return toolError(st.unavailable(time.Now())), nil
	}
	var args json.RawMessage
	if req.Params != nil {
		args = req.Params.Arguments
	}
	call := &Call{Tool: exported, Args: args}
	if req.Session != nil {
		call.Session = req.Session.ID()
		if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
			call.Client = pipeline.Client{Name: p.ClientInfo.Name, Version: p.ClientInfo.Version}
		}
	}
	shaper := u.gw.opts.Shaper
	shaper.Before(ctx, call)
	ec := u.gw.enrich.begin(u, req.Session, call) // the planner's part, nil when it is off
	defer ec.end()
	if res := ec.answer(ctx); res != nil {
		return ec.deliver(ctx, shaper, res), nil
	}

	done := u.track(ctx, req.Session)
	defer done()
	cctx, cancel := context.WithTimeout(ctx, u.cfg.CallTimeout())
	defer cancel()
	params := &mcp.CallToolParams{Name: tool}
	if len(args) > 0 {
		params.Arguments = args
	}
	if req.Params != nil {
		params.InputResponses, params.RequestState = req.Params.InputResponses, req.Params.RequestState
		var release func()
		params.Meta, release = u.gw.progress.toUpstream(ctx, req.Session, req.Params.Meta)
		defer release()
	}
	res, err := c.sess.CallTool(cctx, params)

	if err != nil {
		return u.callError(ctx, cctx, c, tool, err)
	}
	if res == nil {
		return toolError(fmt.Sprintf("upstream %s returned no result for %s", u.cfg.Name, tool)), nil
	}
	u.gw.noteLinks(u, res.Content)
	if res.IsError || res.NeedsInput() {
		// Errors pass through untouched; an input request goes to the agent's client, whose
		// answers come back with the retried call (the SDK does this for clients on older
		// protocols).
		return res, nil
	}
	if ec != nil {
		return ec.deliver(ctx, shaper, res), nil
	}
	if out := shaper.After(ctx, call, res); out != nil {
		return out, nil
	}
	return res, nil
}

// callError turns the failure of a call into what the agent gets.
func (u *upstream) callError(ctx, cctx context.Context, c *conn, tool string, err error) (*mcp.CallToolResult, error) {
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err() // the agent cancelled the call
	case errors.Is(cctx.Err(), context.DeadlineExceeded):
		return toolError(fmt.Sprintf("upstream %s: %s did not answer within %s, so the call was cancelled (the timeout is set in its [[upstream]] entry)",
			u.cfg.Name, tool, u.cfg.CallTimeout())), nil
	}
	if rpcErr := upstreamError(err); rpcErr != nil {
		return nil, rpcErr // the upstream's own error, as it sent it
	}
	if hasCode(err, codeRejected) && u.alive(ctx, c) {
		// The request did not get through (a 429 or 503 from an HTTP upstream), but the
		// session is fine.
		return toolError(fmt.Sprintf("upstream %s did not take the call: %s; try again later",
			u.cfg.Name, u.red.String(err.Error()))), nil
	}
	u.markBroken(c, err)
	_, st := u.current()
	return toolError(fmt.Sprintf("upstream %s failed during the call: %s; it is being restarted (%s)",
		u.cfg.Name, u.red.String(err.Error()), st.unavailable(time.Now()))), nil
}

// Codes of the JSON-RPC errors the SDK makes up itself for transport conditions: they come
// from the gateway's side of the connection, not from the upstream.
const (
	codeClientClosing = -32003
	codeServerClosing = -32004
	codeRejected      = -32005
)

// pingTimeout bounds the ping that checks a session after a rejected request.
const pingTimeout = 5 * time.Second

// alive reports whether the session answers a ping.
func (u *upstream) alive(ctx context.Context, c *conn) bool {
	pctx, cancel := context.WithTimeout(ctx, min(pingTimeout, u.cfg.CallTimeout()))
	defer cancel()
	return c.sess.Ping(pctx, nil) == nil
}

// upstreamError returns the JSON-RPC error the upstream answered with, if err carries one.
func upstreamError(err error) *jsonrpc.Error {
	var found *jsonrpc.Error
	walkErrors(err, func(e error) bool {
		if w, ok := e.(*jsonrpc.Error); ok && w.Code != codeClientClosing && w.Code != codeServerClosing && w.Code != codeRejected {
			found = w
			return false
		}
		return true
	})
	return found
}

// hasCode reports whether err carries a JSON-RPC error with the code.
func hasCode(err error, code int64) bool {
	has := false
	walkErrors(err, func(e error) bool {
		if w, ok := e.(*jsonrpc.Error); ok && w.Code == code {
			has = true
		}
		return !has
	})
	return has
}

// walkErrors calls visit on err and every error it wraps, depth first, while visit returns
// true.
func walkErrors(err error, visit func(error) bool) bool {
	if err == nil {
		return true
	}
	if !visit(err) {
		return false
	}
	switch w := err.(type) {
	case interface{ Unwrap() error }:
		return walkErrors(w.Unwrap(), visit)
	case interface{ Unwrap() []error }:
		for _, e := range w.Unwrap() {
			if !walkErrors(e, visit) {
				return false
			}
		}
	}
	return true
}

// An inflight request is a request of the agent's client ss being served by the upstream;
// ctx is the request's, so that notifications sent with it travel with its response.
type inflight struct {
	ss  *mcp.ServerSession
	ctx context.Context
}

// track records that ss has a request in progress to the upstream, until the returned
// function is called: requests the upstream makes meanwhile go to ss.
func (u *upstream) track(ctx context.Context, ss *mcp.ServerSession) func() {
	if ss == nil {
		return func() {}
	}
	f := &inflight{ss: ss, ctx: ctx}
	u.mu.Lock()
	u.inflight = append(u.inflight, f)
	u.mu.Unlock()
	return func() {
		u.mu.Lock()
		defer u.mu.Unlock()
		if i := slices.Index(u.inflight, f); i >= 0 {
			u.inflight = slices.Delete(u.inflight, i, i+1)
		}
	}
}

// requestContext returns the context in which to send a request or notification to ss on
// the upstream's behalf: it carries the values of ss's latest request in progress to the
// upstream, so that over streamable HTTP it travels with that request's response, and it
// ends when ctx does. With no request in progress it is ctx. Call stop when done.
func (u *upstream) requestContext(ctx context.Context, ss *mcp.ServerSession) (_ context.Context, stop func()) {
	u.mu.Lock()
	var base context.Context
	for i := len(u.inflight) - 1; i >= 0; i-- {
		if u.inflight[i].ss == ss {
			base = u.inflight[i].ctx
			break
		}
	}
	u.mu.Unlock()
	if base == nil {
		return ctx, func() {}
	}
	rctx, cancel := context.WithCancel(base)
	unhook := context.AfterFunc(ctx, cancel)
	return rctx, func() { unhook(); cancel() }
}

// toolError is a tool result reporting msg as an error.
func toolError(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: msg}}, IsError: true}
}
