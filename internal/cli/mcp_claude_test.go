package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/llmproxy/scripted/claude"
)

// TestMCPThroughClaudeCode drives the real Claude Code (claude -p) with a scripted
// Anthropic API whose model calls server-filesystem's read_text_file twice on the same
// ~8 KB file and directory_tree once on a ~78 KB tree, first with server-filesystem
// configured straight (the baseline), then through `winnow mcp` fronting it. It asserts
// on what Claude Code sent back to the model: every call answered, the first read whole,
// logs the bytes of the repeated read and of the listing side by side with the baseline's,
// and holds them to issue 11's targets: the repeated read in at most 300 bytes, the
// listing in at most 25% of its direct size with a winnow__more hint.
func TestMCPThroughClaudeCode(t *testing.T) {
	bin := agentBin(t, "claude")
	filesystem := npmServer(t, "server-filesystem")
	w := writeFSWorkspace(t)

	direct := runClaudeMCP(t, bin, w, "fs", map[string]any{"command": "node", "args": []string{filesystem, w.Root}}, "mcp__fs__")
	cfg, tel := winnowConfig(t, filesystem, w)
	wbin, wargs, wenv := winnowCommand(t, cfg)
	via := runClaudeMCP(t, bin, w, "winnow", map[string]any{"command": wbin, "args": wargs, "env": wenv}, "mcp__winnow__fs__")

	form := resultForm(direct.results[0].Text(), w.FileText)
	t.Logf("Claude Code forwards a read_text_file result (content text plus structuredContent) as: %s", form)
	if form == "other" {
		t.Errorf("Claude Code forwarded the first direct read as neither its text nor its structuredContent:\n%.400s", direct.results[0].Text())
	}
	if got := via.results[0].Text(); !strings.Contains(got, "design notes for the scripted read") {
		t.Errorf("the first read through winnow lacks the file:\n%.400s", got)
	}
	ds, vs := direct.sizes(t), via.sizes(t)
	logSizes(t, "Claude Code", ds, vs)
	t.Logf("Claude Code, the repeated read through winnow as the model got it: %.300s", via.results[1].Text())
	checkTargets(t, "Claude Code", ds, vs)
	listing := via.full(t, 2)
	if via.results[2].IsError || !strings.Contains(listing, "handler_26_29_request.go") && !strings.Contains(listing, "winnow__more") {
		t.Errorf("directory_tree through winnow: error %v, neither whole nor trimmed with a hint:\n%.400s", via.results[2].IsError, listing)
	}
	if !strings.Contains(listing, "winnow__more") {
		t.Errorf("Claude Code: no winnow__more hint in the listing the model got:\n%.400s", listing)
	}
	var forwarded []string
	for i, r := range via.results {
		if persisted.MatchString(r.Text()) {
			t.Errorf("Claude Code spilled result %d through winnow to a file: winnow's budget is over Claude Code's cap", i)
		}
		forwarded = append(forwarded, r.Text())
	}
	checkStats(t, "Claude Code", tel, forwarded)
}

// A clientRun is what a real client sent back to the model for the three scripted calls.
type clientRun struct {
	results []claude.ToolResult
}

// full returns the whole text of result i: the file Claude Code spilled it to, if it did.
func (r clientRun) full(t *testing.T, i int) string {
	text := r.results[i].Text()
	if m := persisted.FindStringSubmatch(text); m != nil {
		data, err := os.ReadFile(m[1])
		if err != nil {
			t.Fatalf("Claude Code spilled result %d to %s: %v", i, m[1], err)
		}
		return string(data)
	}
	return text
}

// sizes returns the bytes the model got for each call. A result Claude Code spilled to a
// file ("<persisted-output> Output too large … Full output saved to: PATH") counts as
// that file's size: the model gets a preview and reads the rest from there.
func (r clientRun) sizes(t *testing.T) [3]int {
	var out [3]int
	for i, res := range r.results {
		text := res.Text()
		out[i] = len(text)
		if m := persisted.FindStringSubmatch(text); m != nil {
			fi, err := os.Stat(m[1])
			if err != nil {
				t.Fatalf("Claude Code spilled result %d to %s: %v", i, m[1], err)
			}
			t.Logf("Claude Code spilled result %d (%s) to a file of %d bytes; the model got a %d-byte preview", i, res.Tool, fi.Size(), len(text))
			out[i] = int(fi.Size())
		}
	}
	return out
}

var persisted = regexp.MustCompile(`Full output saved to: (\S+)`)

// runClaudeMCP runs one Claude Code session with the MCP server spec registered as name,
// the scripted model calling its tools under prefix, and fails the test unless the
// session completed with every call answered.
func runClaudeMCP(t *testing.T, bin string, w fsWorkspace, name string, spec map[string]any, prefix string) clientRun {
	t.Helper()
	calls := []claude.ToolCall{
		{Name: prefix + "read_text_file", Input: map[string]any{"path": w.File}},
		{Name: prefix + "read_text_file", Input: map[string]any{"path": w.File}},
		{Name: prefix + "directory_tree", Input: map[string]any{"path": w.Tree}},
	}
	results, exchanges := runClaudeScript(t, bin, w, name, spec, calls,
		"Read notes/design.md twice with the filesystem tools, then list the tree directory.")
	if name == "fs" {
		saveClaudeFixture(t, exchanges)
	}
	return clientRun{results: results}
}

// runClaudeScript runs one Claude Code session with the MCP server spec registered as
// name and the scripted model making calls (allowed without asking), and returns what
// Claude Code sent back to the model for each call, with every exchange with the API. It
// fails the test unless the session completed with every call answered, in order.
func runClaudeScript(t *testing.T, bin string, w fsWorkspace, name string, spec map[string]any, calls []claude.ToolCall, prompt string) ([]claude.ToolResult, []claude.Exchange) {
	t.Helper()
	api, err := claude.Start(&claude.Options{Script: claude.Script{Calls: calls}, Record: true})
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	dir := t.TempDir()
	mcpConfig := filepath.Join(dir, "mcp.json")
	data, err := json.Marshal(map[string]any{"mcpServers": map[string]any{name: spec}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mcpConfig, data, 0o644); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	var allowed []string
	for _, c := range calls {
		if !slices.Contains(allowed, c.Name) {
			allowed = append(allowed, c.Name)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	res, err := claude.Run(ctx, claude.Session{
		Bin: bin, BaseURL: api.URL, Workspace: w.Root, Home: home,
		Prompt:       prompt,
		MCPConfig:    mcpConfig,
		AllowedTools: allowed,
		Env:          []string{"ENABLE_TOOL_SEARCH=false", "MCP_TIMEOUT=60000"},
	})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	rep := api.Report()
	for _, v := range rep.Violations {
		t.Errorf("%s: invalid request: %s", name, v)
	}
	results := api.ToolResults()
	if !res.Success() || !rep.Finished || len(results) != len(calls) {
		t.Fatalf("%s: claude -p: subtype %q, is_error %v, result %q; script finished %v with %d of %d results\nstderr: %s",
			name, res.Subtype, res.IsError, res.Result, rep.Finished, len(results), len(calls), res.Stderr)
	}
	for i, r := range results {
		if r.Tool != calls[i].Name {
			t.Fatalf("%s: result %d answers %s, want %s", name, i, r.Tool, calls[i].Name)
		}
	}
	return results, api.Exchanges()
}

// saveClaudeFixture saves the request that carried the first read's result back to the
// model, without Claude Code's system prompt and built-in tool definitions.
func saveClaudeFixture(t *testing.T, xs []claude.Exchange) {
	t.Helper()
	for _, x := range xs {
		if x.Kind != claude.KindMain || x.Step != 1 {
			continue
		}
		var body map[string]any
		if json.Unmarshal(x.Body, &body) != nil {
			continue
		}
		body["system"] = "(Claude Code's system prompt, left out)"
		var mcpTools []any
		for _, tl := range body["tools"].([]any) {
			if name, _ := tl.(map[string]any)["name"].(string); strings.HasPrefix(name, "mcp__") {
				mcpTools = append(mcpTools, tl)
			}
		}
		body["tools"] = mcpTools
		data, _ := json.Marshal(body)
		writeClientFixture(t, "claude-code-2.1.328-read_text_file.json", data)
		return
	}
}

// logSizes logs the bytes the model received for the repeated read and the listing,
// directly and through winnow.
func logSizes(t *testing.T, client string, direct, via [3]int) {
	t.Helper()
	t.Logf("%s, bytes the model received (direct → through winnow): first read %d → %d; repeated read %d → %d (target ≤ %d); "+
		"directory_tree %d → %d (%.1f%%, target ≤ %.0f%%)", client, direct[0], via[0], direct[1], via[1], targetRepeatBytes,
		direct[2], via[2], 100*float64(via[2])/float64(max(direct[2], 1)), 100*targetListingShare)
}
