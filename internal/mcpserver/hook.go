package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A PostProcessor rewrites the result of a tool call on its way to the
// client: the gateway shapes, deduplicates and trims results with one.
// It sees every tools/call the server answers with a result, winnow's own
// tools and tools added through MCP alike, error results included, with
// the tool's name and its raw arguments. It returns the result to send;
// nil keeps res. It must be safe for concurrent use.
type PostProcessor func(ctx context.Context, tool string, args json.RawMessage, res *mcp.CallToolResult) *mcp.CallToolResult

// methodCallTool is the JSON-RPC method of a tool call.
const methodCallTool = "tools/call"

// middleware wraps the server's handling of tool calls: a panicking
// handler becomes a tool error, arguments that do not fit a tool's schema
// get an example of valid ones, and the result goes through PostProcess.
func (s *Server) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := req.(*mcp.CallToolRequest)
		if method != methodCallTool || !ok || call.Params == nil {
			return next(ctx, method, req)
		}
		valid := new(bool)
		ctx = context.WithValue(ctx, argumentsValidKey{}, valid)
		res, err := s.guard(ctx, call.Params.Name, func() (mcp.Result, error) { return next(ctx, method, req) })
		if err != nil {
			return res, err
		}
		out, ok := res.(*mcp.CallToolResult)
		if !ok || out == nil {
			return res, nil
		}
		if out.IsError && !*valid {
			out = s.explainArguments(call.Params.Name, out)
		}
		if s.post != nil {
			if p := s.post(ctx, call.Params.Name, call.Params.Arguments, out); p != nil {
				out = p
			}
		}
		return out, nil
	}
}

// guard runs a tool call, turning a panic into a tool error so that one
// bad handler never takes the server down.
func (s *Server) guard(ctx context.Context, tool string, call func() (mcp.Result, error)) (res mcp.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.ErrorContext(ctx, "tool handler panicked", "tool", tool, "panic", r, "stack", string(debug.Stack()))
			perr := fmt.Errorf("tool %s failed with an internal error (%v)", tool, r)
			res, err = errorText(perr.Error()+"; this is a bug in the tool, not a problem with the arguments.", perr), nil
		}
	}()
	return call()
}

// argumentsValidKey marks, in a call's context, a *bool that winnow's
// tool handlers set once the SDK has accepted the call's arguments.
type argumentsValidKey struct{}

// markArgumentsValid records that the call's arguments fit the schema.
func markArgumentsValid(ctx context.Context) {
	if p, ok := ctx.Value(argumentsValidKey{}).(*bool); ok {
		*p = true
	}
}

// explainArguments adds an example of valid arguments to the SDK's
// message about arguments that did not fit one of winnow's tools.
func (s *Server) explainArguments(tool string, res *mcp.CallToolResult) *mcp.CallToolResult {
	example, ok := s.examples[tool]
	if !ok {
		return res
	}
	msg := "the arguments do not fit the tool's input schema"
	if len(res.Content) > 0 {
		if t, ok := res.Content[0].(*mcp.TextContent); ok && t.Text != "" {
			msg = t.Text
		}
	}
	text := fmt.Sprintf("Invalid arguments for %s: %s.\nCall it with a JSON object like %s (see the tool's description for every argument).", tool, msg, example)
	out := *res
	out.Content = []mcp.Content{&mcp.TextContent{Text: text}}
	return &out
}
