package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"maps"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/config"
)

// legacyProtocol is the newest protocol version in which servers send requests to clients.
const legacyProtocol = "2025-11-25"

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a logger.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// stdioUpstream configures the test binary as a stdio upstream; env is added to what the
// child needs to serve.
func stdioUpstream(t testing.TB, name string, env map[string]string) config.Upstream {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	e := map[string]string{envUpstream: "1"}
	maps.Copy(e, env)
	return config.Upstream{Name: name, Command: exe, Env: e, Timeout: 20 * time.Second}
}

// harness is a gateway on a server that also has a tool of its own, like winnow's.
type harness struct {
	gw   *Gateway
	srv  *mcp.Server
	logs *syncBuffer
}

func startGateway(t testing.TB, ups []config.Upstream, opts *Options) *harness {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "winnow-test", Version: "0"}, nil)
	srv.AddTool(&mcp.Tool{Name: "own_tool", Description: "winnow's own", InputSchema: object()},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return textResult("own tool works"), nil
		})
	logs := &syncBuffer{}
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	if o.TerminateTimeout == 0 {
		o.TerminateTimeout = 2 * time.Second
	}
	gw, err := Start(context.Background(), ups, srv, &o)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { gw.Close() })
	return &harness{gw: gw, srv: srv, logs: logs}
}

// client is an agent's MCP client connected to the harness's server.
type client struct {
	mc          *mcp.Client
	cs          *mcp.ClientSession
	listChanged chan struct{}
	capture     *listCapture
}

// clientOptions configure the agent's client of a test.
type clientOptions struct {
	protocol string // "" for the SDK's default (the newest)
	roots    []*mcp.Root
	sampling func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)
	elicit   func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)
}

// connect connects an agent's client to the server over a pipe without a message size limit.
func (h *harness) connect(t testing.TB, o clientOptions) *client {
	t.Helper()
	ctx := context.Background()
	a, b := net.Pipe()
	ss, err := h.srv.Connect(ctx, &mcp.IOTransport{Reader: a, Writer: a, MaxLineLength: -1}, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	c := &client{listChanged: make(chan struct{}, 16), capture: &listCapture{}}
	copts := &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case c.listChanged <- struct{}{}:
			default:
			}
		},
		CreateMessageHandler: o.sampling,
		ElicitationHandler:   o.elicit,
	}
	if len(o.roots) == 0 {
		copts.Capabilities = &mcp.ClientCapabilities{} // no roots
	}
	mc := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, copts)
	mc.AddRoots(o.roots...)
	var sopts *mcp.ClientSessionOptions
	if o.protocol != "" {
		sopts = &mcp.ClientSessionOptions{ProtocolVersion: o.protocol}
	}
	tr := &captureTransport{Transport: &mcp.IOTransport{Reader: b, Writer: b, MaxLineLength: -1}, capture: c.capture}
	cs, err := mc.Connect(ctx, tr, sopts)
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	c.mc, c.cs = mc, cs
	t.Cleanup(func() {
		cs.Close()
		ss.Close()
	})
	return c
}

// call calls a tool and fails the test on a protocol error.
func (c *client) call(t testing.TB, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

// tools returns the client's tools by name.
func (c *client) tools(t testing.TB) map[string]*mcp.Tool {
	t.Helper()
	res, err := c.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatalf("list tools: %v", err)
	}
	out := make(map[string]*mcp.Tool)
	for _, tool := range res.Tools {
		out[tool.Name] = tool
	}
	return out
}

// waitTools waits until the client's tool list satisfies ok, re-listing at each
// notifications/tools/list_changed.
func (c *client) waitTools(t testing.TB, ok func(map[string]*mcp.Tool) bool) map[string]*mcp.Tool {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		tools := c.tools(t)
		if ok(tools) {
			return tools
		}
		select {
		case <-c.listChanged:
		case <-deadline:
			t.Fatalf("tool list never became as expected; last: %v", keys(tools))
		}
	}
}

func keys[V any](m map[string]V) []string {
	var k []string
	for name := range m {
		k = append(k, name)
	}
	return k
}

// text returns the text of a result's text content, joined.
func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// waitStatus waits until the named upstream's status satisfies ok.
func (h *harness) waitStatus(t testing.TB, name string, ok func(Status) bool) Status {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		ch := h.gw.Changed()
		var last Status
		for _, s := range h.gw.Status() {
			if s.Name == name {
				last = s
			}
		}
		if ok(last) {
			return last
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("status of %s never became as expected; last: %+v", name, last)
		}
	}
}

func statusOf(gw *Gateway, name string) Status {
	for _, s := range gw.Status() {
		if s.Name == name {
			return s
		}
	}
	return Status{}
}

// rawInputSchemas returns the input schemas of the last raw tools/list result c received.
func rawInputSchemas(t testing.TB, c *listCapture) map[string]string {
	t.Helper()
	got := c.take()
	if len(got) == 0 {
		t.Fatal("no tools/list result was captured")
	}
	schemas := make(map[string]rawSchemas)
	parseSchemas(got[len(got)-1], schemas)
	out := make(map[string]string)
	for name, s := range schemas {
		out[name] = string(s.in)
	}
	return out
}

func compactJSON(t testing.TB, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
