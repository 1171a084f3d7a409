package gateway

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/gateway/pipeline"
)

// A Call is one tools/call to an upstream tool, as the agent made it: its
// Session (the downstream session's ID, "" over stdio), the Tool name the
// agent called (<prefix>__<upstream's tool name>) and its Args as sent. It is
// the response pipeline's Call, so the pipeline plugs in as the Shaper.
type Call = pipeline.Call

// A Shaper sees every call the gateway dispatches to an upstream. Before runs before the
// call is sent (for example to invalidate cached results the call makes stale). After runs
// on the upstream's result and returns the result to send to the agent; nil keeps res.
// After does not see error results, JSON-RPC errors or the gateway's own errors (timeouts,
// restarting upstreams): those reach the agent unmodified. A Shaper must be safe for
// concurrent use.
type Shaper interface {
	Before(ctx context.Context, c *Call)
	After(ctx context.Context, c *Call, res *mcp.CallToolResult) *mcp.CallToolResult
}

// An OutputSchemer is a Shaper that rewrites structured content, and so decides which output
// schema a re-exported tool declares: OutputSchema gets the tool's re-exported name and the
// upstream's output schema (nil for none) and returns the schema to re-export (nil for none).
// The pipeline keeps a schema its shaped results still validate against and drops the others.
type OutputSchemer interface {
	OutputSchema(tool string, schema any) any
}

// Passthrough is the Shaper that changes nothing; it is used when Options.Shaper is nil.
type Passthrough struct{}

// Before does nothing.
func (Passthrough) Before(context.Context, *Call) {}

// After returns res.
func (Passthrough) After(_ context.Context, _ *Call, res *mcp.CallToolResult) *mcp.CallToolResult {
	return res
}
