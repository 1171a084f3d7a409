package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMCPGateway runs `winnow mcp` with a second `winnow mcp` as its
// upstream, over real stdio pipes: the upstream's tools are re-exported
// under its prefix, a result over the call budget is trimmed with a hint
// whose winnow__more calls recover every line, a repeated result becomes a
// one-line reference, and telemetry feeds winnow stats.
func TestMCPGateway(t *testing.T) {
	own := repo(t)
	up := t.TempDir()
	var big strings.Builder
	for i := range 120 {
		fmt.Fprintf(&big, "def handler_%03d(request):\n    \"\"\"Handle request kind %d.\"\"\"\n    return %d\n\n\n", i, i, i)
	}
	if err := os.WriteFile(filepath.Join(up, "handlers.py"), []byte(big.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(up, "store.go"), []byte("package store\n\n// Store holds items and answers lookups by key, with a doc comment long enough to be worth deduplicating.\ntype Store struct{}\n\n// Get returns an item.\nfunc (s *Store) Get() int { return 42 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Indexed in full before the upstream starts: an upstream that indexes
	// the tree itself answers from the quick tier at first and from the full
	// one once its background upgrade lands, and two calls on either side of
	// that differ (a CI run under load saw it), where this test asks for the
	// same result twice.
	if code, _, stderr := run(t, "index", up); code != 0 {
		t.Fatalf("index %s: %s", up, stderr)
	}
	tel := filepath.Join(t.TempDir(), "telemetry.jsonl")
	cfg := filepath.Join(t.TempDir(), "config.toml")
	toml := fmt.Sprintf(`version = 1
[gateway]
call_budget = 400
[telemetry]
enabled = true
path = %q
[[upstream]]
name = "code"
command = %q
args = ["mcp", "--repo", %q]
env = { %s = "1" }
`, tel, os.Args[0], up, childEnv)
	if err := os.WriteFile(cfg, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, stderr := stdioSession(t, "--repo", own, "--config", cfg)

	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, tl := range tools.Tools {
		have[tl.Name] = true
	}
	for _, name := range []string{"context", "outline", "code__context", "code__outline", "code__find_symbol", "winnow__more"} {
		if !have[name] {
			t.Errorf("tool %s missing from %v; stderr:\n%s", name, have, stderr)
		}
	}

	// Trimmed, then recovered page by page.
	text, isErr := callText(t, cs, "code__outline", map[string]any{"path": "handlers.py"})
	if isErr {
		t.Fatalf("code__outline: %s", text)
	}
	seen := map[string]bool{}
	collect := func(s string) {
		for _, m := range regexp.MustCompile(`handler_\d{3}`).FindAllString(s, -1) {
			seen[m] = true
		}
	}
	collect(text)
	if len(seen) == 120 {
		t.Fatalf("a 120-definition outline was not trimmed at call_budget 400:\n%s", text)
	}
	more := regexp.MustCompile(`winnow__more (\{[^}]*\})`)
	for page := 0; ; page++ {
		m := more.FindStringSubmatch(text)
		if m == nil {
			break
		}
		if page > 50 {
			t.Fatal("winnow__more does not come to an end")
		}
		var args map[string]any
		if err := json.Unmarshal([]byte(m[1]), &args); err != nil {
			t.Fatalf("hint %q: %v", m[0], err)
		}
		if text, isErr = callText(t, cs, "winnow__more", args); isErr {
			t.Fatalf("winnow__more %s: %s", m[1], text)
		}
		collect(text)
	}
	if len(seen) != 120 {
		t.Errorf("the outline and its winnow__more pages hold %d of 120 definitions", len(seen))
	}

	// A repeated result is a reference to the earlier call.
	args := map[string]any{"name": "Store", "body": true}
	first, _ := callText(t, cs, "code__find_symbol", args)
	second, _ := callText(t, cs, "code__find_symbol", args)
	if !strings.Contains(first, "type Store struct{}") {
		t.Fatalf("first find_symbol: %s", first)
	}
	if !strings.Contains(second, "code__find_symbol") || len(second) >= len(first) {
		t.Errorf("repeated result not replaced by a reference:\n%s", second)
	}

	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	var out, errOut strings.Builder
	if code := Main(t.Context(), []string{"stats", "--file", tel, "--json"}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("winnow stats: exit %d: %s", code, errOut.String())
	}
	var st map[string]any
	if err := json.Unmarshal([]byte(out.String()), &st); err != nil {
		t.Fatalf("winnow stats --json: %v\n%s", err, out.String())
	}
	if strings.Contains(out.String(), "type Store struct") {
		t.Error("telemetry holds response text")
	}
	t.Logf("stats: %s", out.String())
}
