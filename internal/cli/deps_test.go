package cli

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestDependencyRules enforces the layering of ARCHITECTURE.md: the
// vocabulary packages import only the standard library (and their one
// chosen module), the "never" edges hold, and no package imports cli.
func TestDependencyRules(t *testing.T) {
	const mod = "github.com/winnowhq/winnow/"
	allowed := map[string][]string{
		"internal/symbol":    nil,
		"internal/tokens":    {mod + "internal/tokens/internal/vocabhash"},               // tiktoken-go only in its tests and generator
		"internal/config":    {"github.com/BurntSushi/toml", mod + "internal/toolvalue"}, // [tools] tables are toolvalue rules
		"internal/toolvalue": {"github.com/modelcontextprotocol/go-sdk/mcp"},             // FromAnnotations reads the SDK's hints
		"internal/chat":      nil,
	}
	for pkg, extra := range allowed {
		out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, mod+pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		for _, imp := range strings.Fields(string(out)) {
			std := !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".")
			if !std && !slices.Contains(extra, imp) {
				t.Errorf("%s must not import %s", pkg, imp)
			}
		}
	}
	// never: the package on the left must not depend on the one on the
	// right, directly or through others.
	never := [][2]string{
		{"internal/compact", "internal/llmproxy"},
		{"internal/retrieve", "internal/mcpserver"},
		{"internal/chat", "internal/compact"},
		{"internal/shape", "internal/gateway"},
		{"internal/trimtree", "internal/gateway"},
		{"internal/store", "internal/telescope"},
	}
	for _, e := range never {
		out, err := exec.Command("go", "list", "-deps", mod+e[0]).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", e[0], err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if dep == mod+e[1] || strings.HasPrefix(dep, mod+e[1]+"/") {
				t.Errorf("%s depends on %s; it must not", e[0], dep)
			}
		}
	}
	// The query path makes no network or model call: retrieval and the
	// index depend on no network package and no model client.
	for _, pkg := range []string{"internal/retrieve", "internal/index", "internal/intent"} {
		out, err := exec.Command("go", "list", "-deps", mod+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if slices.Contains(queryPathBanned, dep) || strings.HasPrefix(dep, "net/http") ||
				strings.HasPrefix(dep, mod+"internal/llm") || strings.Contains(dep, "anthropic-sdk-go") || strings.Contains(dep, "openai") {
				t.Errorf("%s depends on %s: the query path must make no network or model call", pkg, dep)
			}
		}
	}
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", mod+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		for _, imp := range fields[1:] {
			if imp == mod+"internal/cli" && fields[0] != mod+"cmd/winnow" {
				t.Errorf("%s imports internal/cli; only cmd/winnow may", fields[0])
			}
		}
	}
}

// queryPathBanned are packages that reach the network. Package net and
// net/url themselves are not: the SQLite driver parses its DSN with
// net/url and uuid reads MAC addresses with net, neither dialling.
var queryPathBanned = []string{
	"net/http", "net/rpc", "net/smtp", "crypto/tls", "net/mail",
	"github.com/winnowhq/winnow/internal/gateway", "github.com/winnowhq/winnow/internal/llmproxy",
	"github.com/redis/go-redis/v9", "github.com/modelcontextprotocol/go-sdk/mcp",
}
