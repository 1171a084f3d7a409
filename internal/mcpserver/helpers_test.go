package mcpserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/tools/txtar"

	"github.com/winnowhq/winnow/internal/index"
)

// fixture writes testdata/repo.txtar into a fresh directory and returns it.
func fixture(t testing.TB) string {
	t.Helper()
	ar, err := txtar.ParseFile("testdata/repo.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		writeFile(t, filepath.Join(dir, f.Name), string(f.Data))
	}
	return dir
}

func writeFile(t testing.TB, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// openIndex opens and builds the index of dir, closed with the test.
func openIndex(t testing.TB, dir string) *index.Index {
	t.Helper()
	ix, err := index.Open(t.Context(), index.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Update(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	return ix
}

// newServer builds a Server over the index of dir.
func newServer(t testing.TB, dir string, opts *Options) *Server {
	t.Helper()
	s, err := New(openIndex(t, dir), opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// connect serves s over an in-memory transport and returns a client
// session to it; both end with the test.
func connect(t testing.TB, s *Server) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool with args (a Go value or a JSON string) and returns
// the result's text and whether it is an error result. A protocol error
// fails the test.
func call(t testing.TB, cs *mcp.ClientSession, tool string, args any) (text string, isError bool) {
	t.Helper()
	res, err := callTool(t, cs, tool, args)
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	return resultText(res), res.IsError
}

func callTool(t testing.TB, cs *mcp.ClientSession, tool string, args any) (*mcp.CallToolResult, error) {
	t.Helper()
	if s, ok := args.(string); ok {
		args = json.RawMessage(s)
	}
	return cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
}

// resultText joins the text contents of a result.
func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// mustContain reports each of wants missing from text.
func mustContain(t testing.TB, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}
