package cli

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/llmproxy/scripted/claude"
	"github.com/winnowhq/winnow/internal/llmproxy/scripted/codex"
	"github.com/winnowhq/winnow/internal/telemetry"
)

// TestPlannerThroughClaudeCode drives the real Claude Code (claude -p) through `winnow mcp`
// fronting server-filesystem, with a scripted model that searches for a file and then
// reads the one hit: the read the gateway's planner predicts. In prefetch mode (the
// default) the read must be answered from the prefetch cache with exactly the text a
// direct call gives; in inline mode the file must already be in the search result Claude
// Code hands the model, and the read answered from what was inlined. Issue 12: a saving
// counts only when it reaches the model through the client people use.
func TestPlannerThroughClaudeCode(t *testing.T) {
	bin := agentBin(t, "claude")
	filesystem := npmServer(t, "server-filesystem")
	w := writeFSWorkspace(t)
	calls := []claude.ToolCall{
		{Name: "mcp__winnow__fs__search_files", Input: map[string]any{"path": w.Root, "pattern": "**/design.md"}},
		{Name: "mcp__winnow__fs__read_text_file", Input: map[string]any{"path": w.File}},
	}
	for _, mode := range []string{"prefetch", "inline"} {
		t.Run(mode, func(t *testing.T) {
			cfg, tel := plannerConfig(t, filesystem, w, mode)
			wbin, wargs, wenv := winnowCommand(t, cfg)
			results, _ := runClaudeScript(t, bin, w, "winnow", map[string]any{"command": wbin, "args": wargs, "env": wenv}, calls,
				"Find design.md with the filesystem tools and read it.")
			checkPlanned(t, mode, w, tel, results[0].Text(), results[1].Text())
		})
	}
}

// TestPlannerThroughCodex is TestPlannerThroughClaudeCode with the real Codex (codex exec)
// and a scripted Responses API, asserting on the function_call_output Codex sends back.
func TestPlannerThroughCodex(t *testing.T) {
	bin := agentBin(t, "codex")
	filesystem := npmServer(t, "server-filesystem")
	w := writeFSWorkspace(t)
	calls := []codex.ToolCall{
		{Namespace: "mcp__winnow", Name: "fs__search_files", Arguments: map[string]any{"path": w.Root, "pattern": "**/design.md"}},
		{Namespace: "mcp__winnow", Name: "fs__read_text_file", Arguments: map[string]any{"path": w.File}},
	}
	for _, mode := range []string{"prefetch", "inline"} {
		t.Run(mode, func(t *testing.T) {
			cfg, tel := plannerConfig(t, filesystem, w, mode)
			results, _ := runCodexScript(t, bin, w, "winnow", winnowTable(t, cfg), calls,
				"Find design.md with the filesystem tools and read it.")
			checkPlanned(t, mode, w, tel, codexOutput(results[0].Text()), results[1].Text())
		})
	}
}

// plannerConfig is winnowConfig with the gateway's planner in mode. In inline mode it adds
// what makes inlining the one hit pay: the built-in search→read edge (p 0.32) never pays
// for inlining an 8 KB file under the planner's cost model, which is right for a search in
// general; a user who knows their agent reads what it finds says so, and gives the turn the
// room (the file is predicted at ~2,600 tokens).
func plannerConfig(t *testing.T, filesystem string, w fsWorkspace, mode string) (cfg, telemetry string) {
	t.Helper()
	cfg, telemetry = winnowConfig(t, filesystem, w)
	appendConfig(t, cfg, fmt.Sprintf("\n[gateway]\nenrich = %q\n", mode))
	if mode == "inline" {
		appendConfig(t, cfg, `turn_budget = 4000

[tools."fs__search_files"]
follow_up = [{ tool = "fs__read_text_file", probability = 0.9, args = { path = "result.paths" } }]
`)
	}
	return cfg, telemetry
}

// checkPlanned checks what a client gave the model for a search with one hit and the read
// of that hit, through winnow with the planner in mode: the read is the file as a direct
// call gives it, served from prefetch, or already inlined in the search result.
func checkPlanned(t *testing.T, mode string, w fsWorkspace, tel, search, read string) {
	t.Helper()
	if !strings.Contains(search, w.File) {
		t.Errorf("the search result the model got does not name %s:\n%.400s", w.File, search)
	}
	// The pipeline stamps a result whose arguments are long with an id line (#r1) that
	// later references name; the planner adds nothing else.
	if form := codexForm(idStamp.ReplaceAllString(read, "$1"), w.FileText); form == "other" {
		t.Errorf("the read the model got is not the file as a direct call gives it:\n%.400s", read)
	}
	events := waitEvents(t, tel, 2)
	served := events[1].Served
	t.Logf("%s: search result %d bytes, read %d bytes, read served by %q; plans after the search: %+v", mode, len(search), len(read), served, events[0].Plans)
	switch mode {
	case "prefetch":
		if served != telemetry.ServedPrefetch {
			t.Errorf("the read was served by %q, want %q (events: %+v)", served, telemetry.ServedPrefetch, events)
		}
		if strings.Contains(search, "read ahead") {
			t.Errorf("prefetch mode inlined into the search result:\n%.400s", search)
		}
	case "inline":
		if !strings.Contains(search, "[winnow: read ahead") || !strings.Contains(search, "design notes for the scripted read") {
			t.Errorf("the search result the model got has no inlined read of the hit:\n%.600s", search)
		}
		if served != telemetry.ServedInline {
			t.Errorf("the read was served by %q, want %q", served, telemetry.ServedInline)
		}
	}
}

// idStamp is the id line the pipeline's dedup puts first in a result it may refer to later,
// as it appears in a result's text or in its structured content as JSON.
var idStamp = regexp.MustCompile(`^#r\d+\n|(")#r\d+\\n`)

// appendConfig appends text to the configuration file at path.
func appendConfig(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// waitEvents waits for winnow to have written n telemetry events (it writes them off the
// request path) and returns them in order.
func waitEvents(t *testing.T, path string, n int) []telemetry.Event {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var events []telemetry.Event
		_, _, err := telemetry.ScanFile(path, func(e telemetry.Event) { events = append(events, e) }, nil)
		if err == nil && len(events) >= n {
			return events
		}
		if time.Now().After(deadline) {
			t.Fatalf("telemetry %s: %d events (%v), want %d", path, len(events), err, n)
		}
	}
}
