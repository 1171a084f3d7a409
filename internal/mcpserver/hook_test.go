package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recorder is a PostProcessor that records what it saw and marks the
// results it passes on.
type recorder struct {
	mu    sync.Mutex
	calls []string
}

func (r *recorder) post(_ context.Context, tool string, args json.RawMessage, res *mcp.CallToolResult) *mcp.CallToolResult {
	r.mu.Lock()
	r.calls = append(r.calls, fmt.Sprintf("%s %s error=%v", tool, args, res.IsError))
	r.mu.Unlock()
	out := *res
	out.Content = append(append([]mcp.Content{}, res.Content...), &mcp.TextContent{Text: "[post-processed]"})
	return &out
}

// TestPostProcessSeesEveryTool adds tools the way the gateway does and
// checks that the post-processor sees the results of all of them.
func TestPostProcessSeesEveryTool(t *testing.T) {
	rec := &recorder{}
	s := newServer(t, fixture(t), &Options{PostProcess: rec.post})
	type echoArgs struct {
		Say string `json:"say"`
	}
	mcp.AddTool(s.MCP(), &mcp.Tool{Name: "upstream_echo", Description: "echoes"},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
			return textResult("echo: " + in.Say), nil, nil
		})
	s.MCP().AddTool(&mcp.Tool{Name: "upstream_raw", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return textResult("raw"), nil
		})
	cs := connect(t, s)

	for _, c := range []struct {
		tool, args, want string
		isError          bool
	}{
		{toolFindSymbol, `{"name":"NewStore"}`, "store/store.go:12", false},
		{toolOutline, `{"path":"../etc"}`, "outside the repository", true},
		{toolFindSymbol, `{"name":1}`, "Invalid arguments for find_symbol", true},
		{"upstream_echo", `{"say":"hi"}`, "echo: hi", false},
		{"upstream_raw", `{}`, "raw", false},
	} {
		text, isErr := call(t, cs, c.tool, c.args)
		if isErr != c.isError || !strings.Contains(text, c.want) || !strings.HasSuffix(text, "\n[post-processed]") {
			t.Errorf("%s %s: error %v, %q", c.tool, c.args, isErr, text)
		}
	}
	want := []string{
		`find_symbol {"name":"NewStore"} error=false`,
		`outline {"path":"../etc"} error=true`,
		`find_symbol {"name":1} error=true`,
		`upstream_echo {"say":"hi"} error=false`,
		`upstream_raw {} error=false`,
	}
	if diff := cmp.Diff(want, rec.calls); diff != "" {
		t.Errorf("post-processor calls (-want +got):\n%s", diff)
	}
	if _, err := callTool(t, cs, "missing", `{}`); err == nil {
		t.Error("an unknown tool is not an error with a post-processor")
	}
	if len(rec.calls) != len(want) {
		t.Errorf("the post-processor saw a call to an unknown tool: %v", rec.calls)
	}
}

// TestPanickingToolIsAToolError checks that a handler's panic becomes a
// tool error and the server keeps answering.
func TestPanickingToolIsAToolError(t *testing.T) {
	s := newServer(t, fixture(t), nil)
	s.MCP().AddTool(&mcp.Tool{Name: "broken", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var m map[string]int
			m["boom"] = 1 // a nil map write panics
			return nil, nil
		})
	cs := connect(t, s)
	text, isErr := call(t, cs, "broken", `{}`)
	if !isErr || !strings.Contains(text, "tool broken failed with an internal error (assignment to entry in nil map)") {
		t.Errorf("panicking tool: error %v, %q", isErr, text)
	}
	if text, isErr := call(t, cs, toolFindSymbol, `{"name":"Headers"}`); isErr || !strings.Contains(text, "pkg/headers.py:4") {
		t.Errorf("after a panic: error %v, %q", isErr, text)
	}
}
