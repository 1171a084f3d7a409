package toolvalue

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// envNPM names the node_modules directory holding the reference MCP servers; .ci/run
// installs them and sets it.
const envNPM = "WINNOW_TEST_NPM"

// npmServer returns the entry point of an npm MCP server package: the test is skipped when
// envNPM is not set, except on CI (CI=true), which must never skip silently.
func npmServer(t *testing.T, pkg string) string {
	t.Helper()
	dir := os.Getenv(envNPM)
	if dir == "" {
		msg := envNPM + " is not set; to run this test: npm install --prefix /tmp/winnow-npm " +
			"@modelcontextprotocol/server-filesystem@2026.8.31 && " + envNPM + "=/tmp/winnow-npm/node_modules " +
			"go test ./internal/toolvalue (.ci/run does this)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	entry := filepath.Join(dir, "@modelcontextprotocol", pkg, "dist", "index.js")
	if _, err := os.Stat(entry); err != nil {
		t.Fatalf("%s=%s but @modelcontextprotocol/%s is not installed there: %v", envNPM, dir, pkg, err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("%s is set but node is not in PATH: %v", envNPM, err)
	}
	return entry
}

// TestBuiltinServerFilesystem holds the built-in models of server-filesystem to the real
// server: the same tools, side effects its annotations agree with, and follow-ups whose
// projections of real results are calls the server answers with the files listed.
func TestBuiltinServerFilesystem(t *testing.T) {
	entry := npmServer(t, "server-filesystem")
	root := t.TempDir()
	files := map[string]string{
		"README.md":       "# demo\n",
		"src/main.go":     "package main\n\nfunc main() {}\n",
		"src/util.go":     "package main\n\nfunc util() int { return 1 }\n",
		"src/sub/deep.go": "package sub\n",
	}
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := filepath.EvalSymlinks(root) // the server answers with real paths
	if err != nil {
		t.Fatal(err)
	}

	ctx := t.Context()
	client := mcp.NewClient(&mcp.Implementation{Name: "toolvalue-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command("node", entry, root)}, nil)
	if err != nil {
		t.Fatalf("start server-filesystem: %v", err)
	}
	defer cs.Close()

	// The same tools, and their annotations agree with the built-in side effects.
	builtin := map[string]SideEffect{}
	for _, b := range serverFilesystem {
		builtin[strings.TrimPrefix(b.pattern, "*__")] = b.effect
	}
	var served []string
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		served = append(served, tool.Name)
		m, _ := Resolve(tool.Name, FromAnnotations(tool.Name, tool.Annotations))
		if want, ok := builtin[tool.Name]; !ok {
			t.Errorf("the server's %s has no built-in model", tool.Name)
		} else if m.SideEffect != want {
			t.Errorf("%s: annotations say %s, the built-in model %s", tool.Name, m.SideEffect, want)
		}
	}
	for name := range builtin {
		if !slices.Contains(served, name) {
			t.Errorf("the built-in model of %s names a tool the server does not have (it has %v)", name, served)
		}
	}

	// A listing or search, then the reads its follow-up projects: each is a call the
	// server answers with the file's text.
	l := Builtin()
	goFiles := func(names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join(root, n))
		}
		return out
	}
	for _, tt := range []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"search_files", map[string]any{"path": root, "pattern": "**/*.go"}, goFiles("src/main.go", "src/sub/deep.go", "src/util.go")},
		{"list_directory", map[string]any{"path": filepath.Join(root, "src")}, goFiles("src/main.go", "src/util.go")},
		{"list_directory_with_sizes", map[string]any{"path": filepath.Join(root, "src")}, goFiles("src/main.go", "src/util.go")},
		{"list_directory", map[string]any{"path": root}, goFiles("README.md")},
	} {
		t.Run(tt.tool, func(t *testing.T) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
			if err != nil || res.IsError {
				t.Fatalf("%s: %v %+v", tt.tool, err, res)
			}
			src := &Source{Args: tt.args, Text: resultText(res), Structured: res.StructuredContent}
			m, _ := Resolve("fs__"+tt.tool, l)
			if len(m.FollowUps) != 1 || m.FollowUps[0].Tool != "fs__read_text_file" {
				t.Fatalf("follow-ups %+v, want one to fs__read_text_file", m.FollowUps)
			}
			calls, err := m.FollowUps[0].Apply(src, 0)
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, args := range calls {
				p, _ := args["path"].(string)
				paths = append(paths, p)
				read, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_text_file", Arguments: args})
				if err != nil || read.IsError {
					t.Fatalf("read_text_file %v: %v %s", args, err, resultText(read))
				}
				rel, _ := filepath.Rel(root, p)
				if got := resultText(read); got != files[filepath.ToSlash(rel)] {
					t.Errorf("read_text_file %s = %q, want %q", p, got, files[rel])
				}
			}
			slices.Sort(paths)
			if diff := cmp.Diff(tt.want, paths); diff != "" {
				t.Errorf("projected paths (-want +got):\n%s\nresult:\n%s", diff, src.Text)
			}
		})
	}
}

func resultText(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
