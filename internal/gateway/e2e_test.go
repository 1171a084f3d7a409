package gateway

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/config"
)

// envNPM names the node_modules directory holding the reference MCP servers the end-to-end
// test runs; .ci/run installs them and sets it.
const envNPM = "WINNOW_TEST_NPM"

// npmServer returns the entry point of an npm MCP server package, failing the test when
// envNPM is set but the package is not there, and skipping it when envNPM is not set.
func npmServer(t *testing.T, pkg string) string {
	t.Helper()
	dir := os.Getenv(envNPM)
	if dir == "" {
		msg := fmt.Sprintf("%s is not set; to run this test: npm install --prefix /tmp/winnow-npm "+
			"@modelcontextprotocol/server-everything@2026.8.31 @modelcontextprotocol/server-filesystem@2026.8.31 "+
			"&& %s=/tmp/winnow-npm/node_modules go test ./internal/gateway -run E2E (.ci/run does this)", envNPM, envNPM)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg) // CI installs them: a missing variable is a broken CI, not a skip
		}
		t.Skip(msg)
	}
	entry := filepath.Join(dir, "@modelcontextprotocol", pkg, "dist", "index.js")
	if _, err := os.Stat(entry); err != nil {
		t.Fatalf("%s=%s but @modelcontextprotocol/%s is not installed there (%v); run the npm install of .ci/run", envNPM, dir, pkg, err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("%s is set but node is not in PATH: %v", envNPM, err)
	}
	return entry
}

func TestE2EReferenceServers(t *testing.T) {
	everything := npmServer(t, "server-everything")
	filesystem := npmServer(t, "server-filesystem")
	allowed, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(allowed, "notes.txt"), []byte("inside the allowed directory\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("must not be readable\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ups := []config.Upstream{
		{Name: "everything", Command: "node", Args: []string{everything, "stdio"}, Timeout: 30 * time.Second},
		{Name: "fs", Command: "node", Args: []string{filesystem, allowed}, Timeout: 30 * time.Second},
	}
	h := startGateway(t, ups, &Options{StartupTimeout: 90 * time.Second})
	for _, s := range h.gw.Status() {
		if s.State != StateReady {
			t.Fatalf("upstream %s is not ready: %+v\nlogs:\n%s", s.Name, s, h.logs.String())
		}
	}
	down := h.connect(t, clientOptions{
		protocol: legacyProtocol,
		sampling: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			prompt := ""
			if tc, ok := req.Params.Messages[0].Content.(*mcp.TextContent); ok {
				prompt = tc.Text
			}
			return &mcp.CreateMessageResult{Model: "agent-model", Role: "assistant", Content: &mcp.TextContent{Text: "sampled: " + prompt}}, nil
		},
	})

	// everything registers its sampling tool once it knows its client can sample, and says
	// its tools changed: the gateway follows.
	tools := down.waitTools(t, func(m map[string]*mcp.Tool) bool {
		return m["everything__echo"] != nil && m["everything__trigger-sampling-request"] != nil && m["fs__read_text_file"] != nil
	})
	t.Logf("%d tools through the gateway", len(tools))
	checkSchemasMatchDirect(t, everything, down)

	if got := text(down.call(t, "everything__echo", map[string]any{"message": "through winnow"})); got != "Echo: through winnow" {
		t.Errorf("everything__echo = %q", got)
	}
	if got := text(down.call(t, "everything__get-sum", map[string]any{"a": 2, "b": 40})); !strings.Contains(got, "42") {
		t.Errorf("everything__get-sum = %q, want 42 in it", got)
	}
	img := down.call(t, "everything__get-tiny-image", map[string]any{})
	var image *mcp.ImageContent
	for _, c := range img.Content {
		if ic, ok := c.(*mcp.ImageContent); ok {
			image = ic
		}
	}
	if image == nil || image.MIMEType != "image/png" || !strings.HasPrefix(string(image.Data), "\x89PNG\r\n\x1a\n") {
		t.Errorf("everything__get-tiny-image did not return a PNG: %+v", img.Content)
	}
	res := down.call(t, "everything__trigger-sampling-request", map[string]any{"prompt": "hello from the test", "maxTokens": 20})
	if res.IsError || !strings.Contains(text(res), "sampled: ") || !strings.Contains(text(res), "hello from the test") {
		t.Errorf("sampling round trip through a real server: %v %q", res.IsError, text(res))
	}

	inside := down.call(t, "fs__read_text_file", map[string]any{"path": filepath.Join(allowed, "notes.txt")})
	if inside.IsError || text(inside) != "inside the allowed directory\n" {
		t.Errorf("fs__read_text_file inside = %v %q", inside.IsError, text(inside))
	}
	listing := down.call(t, "fs__list_directory", map[string]any{"path": allowed})
	if listing.IsError || !strings.Contains(text(listing), "[FILE] notes.txt") {
		t.Errorf("fs__list_directory = %v %q", listing.IsError, text(listing))
	}
	denied := down.call(t, "fs__read_text_file", map[string]any{"path": filepath.Join(outside, "secret.txt")})
	if !denied.IsError || !strings.Contains(text(denied), "Access denied") || strings.Contains(text(denied), "must not be readable") {
		t.Errorf("fs__read_text_file outside = %v %q, want the server's access-denied error", denied.IsError, text(denied))
	}

	// A client with roots: the filesystem server follows them.
	rooted := h.connect(t, clientOptions{protocol: legacyProtocol, roots: []*mcp.Root{{URI: fileURI(outside), Name: "other"}}})
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := text(rooted.call(t, "fs__list_allowed_directories", map[string]any{}))
		if strings.Contains(got, outside) && !strings.Contains(got, allowed) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the filesystem server never took the client's roots; it allows: %q\ngateway log:\n%s", got, h.logs.String())
		}
		time.Sleep(50 * time.Millisecond) // the server fetches roots on its own schedule
	}
	if got := down.call(t, "fs__read_text_file", map[string]any{"path": filepath.Join(outside, "secret.txt")}); got.IsError {
		t.Errorf("after the roots changed, reading inside them failed: %q", text(got))
	}
}

// checkSchemasMatchDirect compares the input schemas the client got through the gateway with
// those a client connected straight to the server gets, byte for byte.
func checkSchemasMatchDirect(t *testing.T, entry string, down *client) {
	t.Helper()
	capture := &listCapture{}
	mc := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "1"}, nil)
	cs, err := mc.Connect(context.Background(), &captureTransport{
		Transport: &mcp.CommandTransport{Command: exec.Command("node", entry, "stdio")}, capture: capture,
	}, nil)
	if err != nil {
		t.Fatalf("direct connection: %v", err)
	}
	defer cs.Close()
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	direct := rawInputSchemas(t, capture)
	if _, err := down.cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	via := rawInputSchemas(t, down.capture)
	compared := 0
	for name, schema := range direct {
		got, ok := via["everything__"+name]
		if !ok {
			continue // a tool the direct client's capabilities did not unlock
		}
		compared++
		if got != schema {
			t.Errorf("schema of %s differs:\n direct: %s\ngateway: %s", name, schema, got)
		}
	}
	if compared < 5 {
		t.Errorf("compared only %d schemas", compared)
	}
}

func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: path}).String()
}
