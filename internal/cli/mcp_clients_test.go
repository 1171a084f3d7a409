package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/telemetry"
	"github.com/winnowhq/winnow/internal/tokens"
)

// The real-agent tests (mcp_claude_test.go, mcp_codex_test.go) make a real client call
// server-filesystem's tools through `winnow mcp` and straight, and compare what the
// client sent back to the model. This file holds what they share: the workspace, the
// configurations, and how a result is told apart.

// envAgents names the node_modules holding .bin/claude and .bin/codex (.ci/run installs
// @anthropic-ai/claude-code@2.1.328 and @openai/codex@0.169.0 there).
const envAgents = "WINNOW_TEST_AGENTS"

// Targets of issue 11 for what the model receives through winnow.
const (
	targetRepeatBytes  = 300  // a repeated ~8 KB read
	targetListingShare = 0.25 // a ~78 KB listing, against its direct size
)

var updateClientFixtures = flag.Bool("update-client-fixtures", false,
	"rewrite internal/gateway/testdata/clients/ from the real-client runs")

// agentBin returns the executable name (claude, codex) under $WINNOW_TEST_AGENTS.
func agentBin(t *testing.T, name string) string {
	t.Helper()
	dir := needEnv(t, envAgents, "npm install --prefix /tmp/agents --no-save @anthropic-ai/claude-code@2.1.328 "+
		"@openai/codex@0.169.0 && export "+envAgents+"=/tmp/agents/node_modules")
	bin := filepath.Join(dir, ".bin", name)
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s=%s but %s is not installed there: %v", envAgents, dir, name, err)
	}
	return bin
}

// A fsWorkspace is what the scripted model reads through server-filesystem: an ~8 KB
// text file, read twice, and a tree whose directory_tree listing is ~78 KB.
type fsWorkspace struct {
	Root, File, Tree string
	FileText         string
}

func writeFSWorkspace(t *testing.T) fsWorkspace {
	t.Helper()
	root := t.TempDir()
	w := fsWorkspace{Root: root, File: filepath.Join(root, "notes", "design.md"), Tree: filepath.Join(root, "tree")}
	var b strings.Builder
	b.WriteString("# design notes for the scripted read\n")
	for i := 0; b.Len() < 8000; i++ {
		fmt.Fprintf(&b, "%03d. The handler for request kind %d validates its input, wraps errors with the operation, and returns a total.\n", i, i)
	}
	w.FileText = b.String()
	if err := os.MkdirAll(filepath.Dir(w.File), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(w.File, []byte(w.FileText), 0o644); err != nil {
		t.Fatal(err)
	}
	// 27 packages × 30 files: about 78 KB of directory_tree JSON.
	for p := range 27 {
		dir := filepath.Join(w.Tree, fmt.Sprintf("package_%02d_handlers", p))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range 30 {
			name := filepath.Join(dir, fmt.Sprintf("handler_%02d_%02d_request.go", p, f))
			if err := os.WriteFile(name, []byte("package handlers\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return w
}

// winnowConfig writes the user configuration of a `winnow mcp` fronting server-filesystem
// (as upstream "fs", allowed the workspace), with telemetry on, and returns its path and
// the telemetry file's.
func winnowConfig(t *testing.T, filesystem string, w fsWorkspace) (cfg, telemetry string) {
	t.Helper()
	dir := t.TempDir()
	cfg, telemetry = filepath.Join(dir, "config.toml"), filepath.Join(dir, "telemetry.jsonl")
	toml := fmt.Sprintf(`version = 1

[telemetry]
enabled = true
path = %q

[[upstream]]
name = "fs"
command = "node"
args = [%q, %q]
timeout = "60s"
`, telemetry, filesystem, w.Root)
	if err := os.WriteFile(cfg, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg, telemetry
}

// winnowCommand is the command line that starts `winnow mcp` over stdio: this test
// binary, which runs winnow's main when childEnv is set.
func winnowCommand(t *testing.T, cfg string) (bin string, args []string, env map[string]string) {
	t.Helper()
	return os.Args[0], []string{"mcp", "--repo", repo(t), "--config", cfg}, map[string]string{childEnv: "1"}
}

// resultForm says which part of an MCP result a client forwarded to the model, for a
// server-filesystem result whose text content is want and whose structuredContent is
// {"content": want}: "content" (the text as it came), "structuredContent" (that object as
// JSON) or "other".
func resultForm(forwarded, want string) string {
	switch {
	case forwarded == want:
		return "content"
	case strings.Contains(forwarded, `"content"`) && jsonHolds(forwarded, want):
		return "structuredContent"
	}
	return "other"
}

// jsonHolds reports whether s is a JSON object with a "content" string field equal to want.
func jsonHolds(s, want string) bool {
	var v struct {
		Content string `json:"content"`
	}
	d := json.NewDecoder(strings.NewReader(strings.TrimSpace(s)))
	return d.Decode(&v) == nil && v.Content == want
}

// writeClientFixture saves an example request a client sent its model, with -update-client-fixtures.
func writeClientFixture(t *testing.T, name string, body []byte) {
	t.Helper()
	if !*updateClientFixtures {
		return
	}
	var out bytes.Buffer
	if err := json.Indent(&out, body, "", "  "); err != nil {
		out.Reset()
		out.Write(body)
	}
	out.WriteByte('\n')
	path := filepath.Join("..", "gateway", "testdata", "clients", name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes)", path, out.Len())
}

// checkTargets asserts issue 11's targets on what the model received through winnow: the
// repeated read in at most targetRepeatBytes, the listing in at most targetListingShare of
// its direct size.
func checkTargets(t *testing.T, client string, direct, via [3]int) {
	t.Helper()
	if via[1] > targetRepeatBytes {
		t.Errorf("%s: the repeated read reached the model in %d bytes through winnow (direct %d), want ≤ %d", client, via[1], direct[1], targetRepeatBytes)
	}
	if float64(via[2]) > targetListingShare*float64(direct[2]) {
		t.Errorf("%s: the listing reached the model in %d bytes through winnow, %.1f%% of its direct %d, want ≤ %.0f%%",
			client, via[2], 100*float64(via[2])/float64(direct[2]), direct[2], 100*targetListingShare)
	}
}

// listingBytes returns the size of server-filesystem's directory_tree result for w.Tree as
// a client forwards it whole: its structuredContent as JSON.
func listingBytes(t *testing.T, filesystem string, w fsWorkspace) int {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "1"}, nil).
		Connect(t.Context(), &mcp.CommandTransport{Command: exec.Command("node", filesystem, w.Root)}, nil)
	if err != nil {
		t.Fatalf("server-filesystem: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "directory_tree", Arguments: map[string]any{"path": w.Tree}})
	if err != nil || res.IsError {
		t.Fatalf("server-filesystem directory_tree: %v %+v", err, res)
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return len(data)
}

// statsTolerance is issue 11's target for `winnow stats` against what the model received.
const statsTolerance = 0.05

// checkStats holds `winnow stats` (the summary `winnow stats --json` prints, read from
// the session's telemetry file) to what the model received: the tokens it says the agent
// received for the upstream's calls against the o200k tokens of forwarded, what the
// client sent its model for those calls with the client's own wrapper taken off (Codex's
// "Wall time: …\nOutput:\n" is Codex's, not winnow's). Within statsTolerance, summed
// over the calls.
func checkStats(t *testing.T, client, telemetryPath string, forwarded []string) {
	t.Helper()
	var s *telemetry.Summary
	// winnow writes its telemetry off the request path: wait for every call's event.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var err error
		s, err = telemetry.SummarizeFile(telemetryPath, time.Time{})
		if err == nil && s.Calls >= len(forwarded) || time.Now().After(deadline) {
			if err != nil {
				t.Fatalf("%s: winnow stats: %v", client, err)
			}
			break
		}
	}
	stats := 0
	for _, tl := range s.Tools {
		if strings.HasPrefix(tl.Tool, "fs__") {
			stats += tl.After
		}
	}
	counter, err := tokens.Exact(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	model := 0
	for _, f := range forwarded {
		model += counter.Count(f)
	}
	off := float64(stats-model) / float64(max(model, 1))
	t.Logf("%s: winnow stats says the agent received %d tokens (%d calls); the model received %d (o200k, client wrapper excluded): %+.1f%%",
		client, stats, s.Calls, model, 100*off)
	if off > statsTolerance || off < -statsTolerance {
		t.Errorf("%s: winnow stats says %d tokens reached the agent, the model received %d: off by %+.1f%%, want within %.0f%%",
			client, stats, model, 100*off, 100*statsTolerance)
	}
}
