package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMCPGatewayReloadsToolRules runs `winnow mcp` with a second `winnow mcp` as its
// upstream and changes the configuration file under it: the [tools] rules written while it
// runs take effect (fail_fast_after_n on an outline repeated unchanged), the reload is
// reported, and a file that no longer loads keeps the rules it had, saying why.
func TestMCPGatewayReloadsToolRules(t *testing.T) {
	own, up := repo(t), t.TempDir()
	if err := os.WriteFile(filepath.Join(up, "store.go"), []byte("package store\n\n// Store holds items.\ntype Store struct{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "config.toml")
	upstream := fmt.Sprintf("[[upstream]]\nname = \"code\"\ncommand = %q\nargs = [\"mcp\", \"--repo\", %q]\nenv = { %s = \"1\" }\n",
		os.Args[0], up, childEnv)
	write := func(doc string) {
		t.Helper()
		if err := os.WriteFile(cfg, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("version = 1\n" + upstream)
	cs, stderr := stdioSession(t, "--repo", own, "--config", cfg)
	outline := func() string {
		t.Helper()
		text, isErr := callText(t, cs, "code__outline", map[string]any{"path": "store.go"})
		if isErr {
			t.Fatalf("code__outline: %s", text)
		}
		return text
	}
	const failFast = "not sent to the upstream"
	for i := range 3 {
		if got := outline(); strings.Contains(got, failFast) {
			t.Fatalf("outline %d answered by fail-fast with no [tools] rule: %s", i, got)
		}
	}
	waitStderr := func(want string) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !strings.Contains(stderr.String(), want); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("stderr never said %q:\n%s", want, stderr)
			}
		}
	}

	write("version = 1\n" + upstream + "\n[tools.\"code__outline\"]\nfail_fast_after_n = 1\n")
	waitStderr("reloaded its [tools] rules (1 tables)")
	outline() // remembered
	outline() // the same result: unproductive once
	if got := outline(); !strings.Contains(got, failFast) {
		t.Errorf("the third outline after the reload = %q, want the fail-fast answer", got)
	}

	write("version = 1\n" + upstream + "\n[tools.\"code__outline\"\nfail_fast_after_n = 1\n")
	waitStderr("does not load, so the [tools] rules stay as they were")
	if got := outline(); strings.Contains(got, failFast) {
		t.Errorf("the repeated call after a fail-fast answer = %q, want it sent", got)
	}
	if got := outline(); !strings.Contains(got, failFast) {
		t.Errorf("after a broken file, the outline = %q; want the rules kept, and the fail-fast answer", got)
	}
}
