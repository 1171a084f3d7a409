package cli

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/gateway/pipeline"
	"github.com/winnowhq/winnow/internal/mcpserver"
)

func TestMCPHelpListsEveryTool(t *testing.T) {
	code, out, errOut := run(t, "mcp", "--help")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	names := append(mcpserver.ToolNames(), mcpserver.TelescopeToolNames()...)
	names = append(names, pipeline.MoreToolName, "<prefix>__<tool>")
	for _, name := range names {
		if !strings.Contains(out, "  "+name+" ") {
			t.Errorf("winnow mcp --help does not list %s:\n%s", name, out)
		}
	}
}

func TestMCPOutsideARepositoryIndexesLazily(t *testing.T) {
	dir := repo(t) // files, but no .git, .winnow.toml or index
	cmd := winnow("mcp")
	cmd.Dir = dir
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v; stderr:\n%s", err, stderr)
	}
	t.Cleanup(func() { cs.Close() })
	if _, err := cs.ListTools(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if s := stderr.String(); !strings.Contains(s, "is not in a git repository") || strings.Contains(s, "indexed") && !strings.Contains(s, "nothing is indexed now") {
		t.Errorf("stderr does not say that nothing is indexed at start:\n%s", s)
	}
	// The first tool that needs the index builds it.
	text, isErr := callText(t, cs, "outline", map[string]any{"path": "shapes.py"})
	if isErr || !strings.Contains(text, "def make_square(side)") {
		t.Errorf("outline after a lazy start: %v\n%s", isErr, text)
	}
}
