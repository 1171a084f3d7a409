package gateway

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/config"
)

// legacyUpstream is the test upstream on a protocol that lets it send requests to its client
// while serving a call, as every MCP server in use today does.
func legacyUpstream(t testing.TB, name string) config.Upstream {
	return stdioUpstream(t, name, map[string]string{envProtocol: "legacy"})
}

func TestRequestsGoToTheAgentsClient(t *testing.T) {
	h := startGateway(t, []config.Upstream{legacyUpstream(t, "up")}, nil)
	var mu sync.Mutex
	var prompts []string
	down := h.connect(t, clientOptions{
		protocol: legacyProtocol,
		roots:    []*mcp.Root{{URI: "file:///work/project", Name: "project"}},
		sampling: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			mu.Lock()
			defer mu.Unlock()
			if tc, ok := req.Params.Messages[0].Content.(*mcp.TextContent); ok {
				prompts = append(prompts, tc.Text)
			}
			return &mcp.CreateMessageResult{Model: "agent-model", Role: "assistant", Content: &mcp.TextContent{Text: "hi, gateway"}}, nil
		},
		elicit: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			if req.Params.Message != "Which branch?" {
				return &mcp.ElicitResult{Action: "decline"}, nil
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"branch": "main"}}, nil
		},
	})
	if p := statusOf(h.gw, "up").Protocol; p != legacyProtocol {
		t.Fatalf("upstream protocol = %q, want %q", p, legacyProtocol)
	}

	tests := []struct{ tool, want string }{
		{"up__roots", "file:///work/project"},
		{"up__sample", "agent-model: hi, gateway"},
		{"up__elicit", `accept {"branch":"main"}`},
	}
	for _, tt := range tests {
		res := down.call(t, tt.tool, map[string]any{})
		if res.IsError || text(res) != tt.want {
			t.Errorf("%s = %v %q, want %q", tt.tool, res.IsError, text(res), tt.want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{"say hi to the gateway"}, prompts); diff != "" {
		t.Errorf("the client's sampling handler saw (-want +got):\n%s", diff)
	}
}

func TestRequestsRefusedWhenTheClientLacksTheCapability(t *testing.T) {
	h := startGateway(t, []config.Upstream{legacyUpstream(t, "up")}, nil)
	down := h.connect(t, clientOptions{protocol: legacyProtocol})
	for tool, want := range map[string]string{
		"up__sample": "winnow gateway: the connected client does not support sampling",
		"up__elicit": "winnow gateway: the connected client does not support elicitation",
	} {
		res := down.call(t, tool, map[string]any{})
		if !res.IsError || !strings.Contains(text(res), want) {
			t.Errorf("%s = %v %q, want the upstream to report %q", tool, res.IsError, text(res), want)
		}
	}
	// No client roots to forward: the upstream gets the roots the gateway knows, none.
	if res := down.call(t, "up__roots", map[string]any{}); res.IsError || text(res) != "" {
		t.Errorf("up__roots = %v %q, want an empty list", res.IsError, text(res))
	}
}

func TestRootsChangesReachUpstreams(t *testing.T) {
	h := startGateway(t, []config.Upstream{legacyUpstream(t, "up")}, nil)
	down := h.connect(t, clientOptions{protocol: legacyProtocol, roots: []*mcp.Root{{URI: "file:///a"}}})

	// The gateway learns the client's roots when it connects, and the upstream, told they
	// changed, asks for them outside any call.
	if got := text(down.call(t, "up__roots_seen", map[string]any{"want": 1})); got != "file:///a" {
		t.Errorf("after the client connected the upstream has roots %q, want file:///a", got)
	}
	clientOf(t, down).AddRoots(&mcp.Root{URI: "file:///b"})
	if got := text(down.call(t, "up__roots_seen", map[string]any{"want": 2})); got != "file:///a file:///b" {
		t.Errorf("after the client added a root the upstream has roots %q", got)
	}
}

// clientOf returns the mcp.Client of a test client, to change its roots.
func clientOf(t testing.TB, c *client) *mcp.Client {
	t.Helper()
	if c.mc == nil {
		t.Fatal("client has no mcp.Client")
	}
	return c.mc
}

func TestInputRequestsOfTheStatelessProtocol(t *testing.T) {
	h := startGateway(t, []config.Upstream{stdioUpstream(t, "up", nil)}, nil)
	if p := statusOf(h.gw, "up").Protocol; p != newProtocol {
		t.Fatalf("upstream protocol = %q, want %q", p, newProtocol)
	}
	roots := []*mcp.Root{{URI: "file:///repo"}}
	for _, protocol := range []string{legacyProtocol, ""} {
		down := h.connect(t, clientOptions{protocol: protocol, roots: roots})
		res := down.call(t, "up__mrtr_roots", map[string]any{})
		if res.IsError || text(res) != "state-7: file:///repo" {
			t.Errorf("client on protocol %q: %v %q, want the upstream to get the client's roots", protocol, res.IsError, text(res))
		}
	}
}
