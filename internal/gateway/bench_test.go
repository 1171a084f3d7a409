package gateway

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/config"
)

// The proxy overhead of the gateway: a full tools/call round trip to the test upstream, a
// child process spoken to over stdio, made by a client connected straight to it
// (BenchmarkDirect) and by a client connected to the gateway, which holds its own stdio
// session to the same upstream (BenchmarkViaGateway). Run them side by side:
//
//	go test ./internal/gateway -run '^$' -bench 'Direct|ViaGateway|ServerHop'

// benchCalls are the calls measured: a small one and one with a 100 KB answer.
var benchCalls = []struct {
	name string
	tool string
	args map[string]any
}{
	{"echo", "echo", map[string]any{"zeta": "benchmark"}},
	{"100KB", "big", map[string]any{"bytes": 100 << 10}},
}

func BenchmarkDirect(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), envUpstream+"=1")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	for _, bc := range benchCalls {
		b.Run(bc.name, func(b *testing.B) { benchCall(b, cs, bc.tool, bc.args) })
	}
}

func BenchmarkViaGateway(b *testing.B) {
	h := startGateway(b, []config.Upstream{stdioUpstream(b, "up", nil)}, nil)
	down := h.connect(b, clientOptions{})
	for _, bc := range benchCalls {
		b.Run(bc.name, func(b *testing.B) { benchCall(b, down.cs, "up__"+bc.tool, bc.args) })
	}
}

// BenchmarkServerHop is the cost of the extra hop alone: the same client calling a tool of
// the gateway's server itself, which answers at once. ViaGateway ≈ Direct + ServerHop + the
// gateway's own work.
func BenchmarkServerHop(b *testing.B) {
	h := startGateway(b, nil, nil)
	down := h.connect(b, clientOptions{})
	benchCall(b, down.cs, "own_tool", map[string]any{})
}

func benchCall(b *testing.B, cs *mcp.ClientSession, tool string, args map[string]any) {
	ctx := context.Background()
	for b.Loop() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError {
			b.Fatalf("call %s: %v %v", tool, err, res)
		}
	}
}
