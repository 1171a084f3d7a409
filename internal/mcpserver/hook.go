package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

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
		if _, own := s.examples[call.Params.Name]; own {
			if name, ok := nullArgument(call.Params.Arguments); ok {
				msg := fmt.Sprintf("Invalid arguments for %s: %q is null; give it a value of the type the tool's schema says, or leave it out if it is optional.\nCall it with a JSON object like %s (see the tool's description for every argument).",
					call.Params.Name, clipRuns(name, maxEcho), s.examples[call.Params.Name])
				return errorText(msg, errors.New(msg)), nil
			}
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
		if _, own := s.examples[call.Params.Name]; own && out.IsError {
			out = clipEchoes(out)
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

// maxEcho bounds how much of one argument a tool error repeats: an agent
// that sent a megabyte as a name gets its start back, not the megabyte.
const maxEcho = 200

// nullArgument returns the name of the first argument whose value is
// null, if any: the SDK's schema check would report it as
// "<invalid reflect.Value>".
func nullArgument(raw json.RawMessage) (string, bool) {
	var args map[string]json.RawMessage
	if json.Unmarshal(raw, &args) != nil {
		return "", false
	}
	for name, v := range args {
		if string(v) == "null" {
			return name, true
		}
	}
	return "", false
}

// clipEchoes shortens, in an error result's text, every run of more than
// maxEcho bytes without a space (a quoted argument, mostly) to its start
// and a note of how much was left out.
func clipEchoes(res *mcp.CallToolResult) *mcp.CallToolResult {
	var out *mcp.CallToolResult
	for i, c := range res.Content {
		t, ok := c.(*mcp.TextContent)
		if !ok || len(t.Text) <= maxEcho {
			continue
		}
		clipped := clipRuns(t.Text, maxEcho)
		if clipped == t.Text {
			continue
		}
		if out == nil {
			cp := *res
			cp.Content = append([]mcp.Content(nil), res.Content...)
			out = &cp
		}
		tc := *t
		tc.Text = clipped
		out.Content[i] = &tc
	}
	if out == nil {
		return res
	}
	return out
}

// clipRuns shortens every run of more than max bytes without white space
// in s to its first max/2 bytes (at a rune boundary), "…" and the number
// of bytes left out.
func clipRuns(s string, max int) string {
	var b strings.Builder
	start := 0
	flush := func(end int) {
		run := s[start:end]
		if len(run) > max {
			keep := runeStart(run, max/2)
			fmt.Fprintf(&b, "%s…[%d more bytes]", run[:keep], len(run)-keep)
		} else {
			b.WriteString(run)
		}
	}
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' || s[i] == '\n' || s[i] == '\t' {
			flush(i)
			b.WriteByte(s[i])
			start = i + 1
		}
	}
	flush(len(s))
	return b.String()
}
