package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/llmproxy/scripted/codex"
)

// TestMCPThroughCodex is TestMCPThroughClaudeCode with the real Codex (codex exec) and a
// scripted Responses API: the same three calls, straight and through `winnow mcp`, asserting
// on the function_call_output Codex sends back.
func TestMCPThroughCodex(t *testing.T) {
	bin := agentBin(t, "codex")
	filesystem := npmServer(t, "server-filesystem")
	w := writeFSWorkspace(t)

	direct := runCodexMCP(t, bin, w, "fs", fmt.Sprintf("command = \"node\"\nargs = [%q, %q]\n", filesystem, w.Root), "")
	cfg, tel := winnowConfig(t, filesystem, w)
	via := runCodexMCP(t, bin, w, "winnow", winnowTable(t, cfg), "fs__")

	form := codexForm(direct[0].Text(), w.FileText)
	t.Logf("Codex forwards a read_text_file result (content text plus structuredContent) as: %s", form)
	if form == "other" {
		t.Errorf("Codex forwarded the first direct read as neither its text nor its structuredContent:\n%.400s", direct[0].Text())
	}
	if got := via[0].Text(); !strings.Contains(got, "design notes for the scripted read") {
		t.Errorf("the first read through winnow lacks the file:\n%.400s", got)
	}
	size := func(rs []codex.ToolResult) [3]int {
		return [3]int{len(rs[0].Text()), len(rs[1].Text()), len(rs[2].Text())}
	}
	ds, vs := size(direct), size(via)
	// Codex cuts a long output's middle ("…N tokens truncated…"): the listing's direct size
	// is the whole result's, which the model would need to see it all.
	full := listingBytes(t, filesystem, w)
	if codexCut.MatchString(direct[2].Text()) {
		t.Logf("Codex cut the middle of the listing direct (%d bytes forwarded; the whole result is %d bytes)", len(direct[2].Text()), full)
	}
	var forwarded []string
	for i, r := range via {
		out := r.Text()
		if m := codexCut.FindString(out); m != "" {
			t.Errorf("Codex cut result %d through winnow (%q in its %d bytes): winnow's budget is over Codex's cap", i, m, len(out))
		}
		forwarded = append(forwarded, codexOutput(out))
	}
	ds[2] = max(ds[2], full)
	logSizes(t, "Codex", ds, vs)
	t.Logf("Codex, the repeated read through winnow as the model got it: %.300s", via[1].Text())
	if !strings.Contains(via[2].Text(), "winnow__more") {
		t.Errorf("Codex: no winnow__more hint in the listing the model got:\n%.400s", via[2].Text())
	}
	checkTargets(t, "Codex", ds, vs)
	checkListing(t, forwarded[2])
	checkStats(t, "Codex", tel, forwarded)
}

// codexCut matches the marker Codex 0.169 puts where it cut the middle out of an output
// (codex-rs utils/string: "…N tokens truncated…", or "…N chars truncated…" under a byte
// policy).
var codexCut = regexp.MustCompile(`…\d+ (tokens|chars) truncated…`)

// codexOutput returns what Codex forwarded without the wrapper Codex puts before every
// function output, "Wall time: 0.0034 seconds\nOutput:\n": the result as winnow sent it.
func codexOutput(forwarded string) string {
	if _, rest, ok := strings.Cut(forwarded, "\nOutput:\n"); ok && strings.HasPrefix(forwarded, "Wall time: ") {
		return rest
	}
	return forwarded
}

// checkListing checks the trimmed listing the model got through winnow: the structured
// content whole, ending in the winnow__more hint, naming each file once, and its packages
// plus the items the hint says winnow__more returns making the tree's 27 packages.
func checkListing(t *testing.T, got string) {
	t.Helper()
	var v struct{ Content string }
	if err := json.Unmarshal([]byte(got), &v); err != nil {
		t.Errorf("Codex: the listing through winnow is not the structured content whole: %v\n%.300s", err, got)
		return
	}
	text := strings.TrimRight(v.Content, "\n")
	i := strings.LastIndexByte(text, '\n')
	body, hint := text[:i+1], text[i+1:]
	m := moreHint.FindStringSubmatch(hint)
	if m == nil {
		t.Errorf("Codex: the listing through winnow does not end with the winnow__more hint: %.300q", hint)
		return
	}
	seen := map[string]bool{}
	for _, n := range handlerName.FindAllString(body, -1) {
		if seen[n] {
			t.Errorf("Codex: %s twice in the listing through winnow", n)
		}
		seen[n] = true
	}
	pkgs := map[string]bool{}
	for _, p := range packageName.FindAllString(body, -1) {
		pkgs[p] = true
	}
	more, _ := strconv.Atoi(m[1])
	t.Logf("Codex: the listing through winnow names %d packages (%d files) and %s", len(pkgs), len(seen), hint)
	if len(seen) != 30*len(pkgs) || len(pkgs)+more != 27 {
		t.Errorf("Codex: the listing through winnow names %d files of %d packages and %d more items: not the tree's 27 packages of 30 files",
			len(seen), len(pkgs), more)
	}
}

var (
	moreHint    = regexp.MustCompile(`^\[(\d+) more [a-z ]+: winnow__more \{"ref":"r\d+"\}\]$`)
	handlerName = regexp.MustCompile(`handler_\d\d_\d\d_request\.go`)
	packageName = regexp.MustCompile(`package_\d\d_handlers`)
)

// mcpModel is the model Codex is configured with: one it does not know. For the models it
// knows to support tool search (gpt-5.5-codex among them) Codex 0.169 lists MCP tools
// only behind its tool_search tool, as Claude Code does unless ENABLE_TOOL_SEARCH=false.
const mcpModel = "scripted-mcp-model"

// codexForm is resultForm for Codex, which puts "Wall time: …\nOutput:\n" before what it
// forwards.
func codexForm(forwarded, want string) string {
	if _, rest, ok := strings.Cut(forwarded, "\nOutput:\n"); ok && strings.HasPrefix(forwarded, "Wall time: ") {
		forwarded = rest
	}
	if f := resultForm(forwarded, want); f != "other" {
		return f
	}
	var v any
	if json.Unmarshal([]byte(forwarded), &v) == nil {
		if m, ok := v.(map[string]any); ok {
			for _, k := range []string{"structuredContent", "structured_content"} {
				if s, ok := m[k].(map[string]any); ok && s["content"] == want {
					return "structuredContent"
				}
			}
		}
	}
	return "other"
}

// runCodexMCP runs one `codex exec` session with the MCP server table body registered
// as [mcp_servers.name], the scripted model calling server-filesystem's tools (prefixed
// with toolPrefix on the server, as winnow re-exports them), and fails the test unless the
// session completed with every call answered.
func runCodexMCP(t *testing.T, bin string, w fsWorkspace, name, table, toolPrefix string) []codex.ToolResult {
	t.Helper()
	ns := "mcp__" + name // Codex lists an MCP server's tools in a namespace of its own
	calls := []codex.ToolCall{
		{Namespace: ns, Name: toolPrefix + "read_text_file", Arguments: map[string]any{"path": w.File}},
		{Namespace: ns, Name: toolPrefix + "read_text_file", Arguments: map[string]any{"path": w.File}},
		{Namespace: ns, Name: toolPrefix + "directory_tree", Arguments: map[string]any{"path": w.Tree}},
	}
	results, requests := runCodexScript(t, bin, w, name, table, calls,
		"Read notes/design.md twice with the filesystem tools, then list the tree directory.")
	if name == "fs" {
		saveCodexFixture(t, requests)
	}
	return results
}

// runCodexScript runs one Codex session (codex exec) with the MCP server table registered
// as name and the scripted model making calls, and returns the output Codex sent back to
// the model for each call, with every request it made. It fails the test unless the
// session completed with every call answered.
func runCodexScript(t *testing.T, bin string, w fsWorkspace, name, table string, calls []codex.ToolCall, prompt string) ([]codex.ToolResult, []codex.Received) {
	t.Helper()
	api, err := codex.StartServer(&codex.ServerOptions{Calls: calls, Record: true})
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	config := codex.Config(mcpModel, api.URL+"/v1") +
		fmt.Sprintf("\n[mcp_servers.%s]\n%sstartup_timeout_sec = 60\ntool_timeout_sec = 60\n", name, table)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	sess, err := codex.ExecConfig(ctx, bin, w.Root, filepath.Join(dir, "home"), config, prompt)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	rep := api.Report()
	for _, v := range rep.Invalid {
		t.Errorf("%s: invalid request: %+v", name, v)
	}
	results := api.ToolResults()
	if !sess.Completed() || !rep.Finished || len(results) != len(calls) {
		t.Fatalf("%s: codex exec: exit %d, final %q, errors %v; script finished %v with %d of %d results; API errors %v\nstderr: %s",
			name, sess.ExitCode, sess.Final, sess.Errors, rep.Finished, len(results), len(calls), rep.Errors, sess.Stderr)
	}
	return results, api.Requests()
}

// winnowTable is the [mcp_servers] table body that runs `winnow mcp` with cfg for Codex.
func winnowTable(t *testing.T, cfg string) string {
	t.Helper()
	wbin, wargs, wenv := winnowCommand(t, cfg)
	quoted := make([]string, len(wargs))
	for i, a := range wargs {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	var env []string
	for k, v := range wenv {
		env = append(env, fmt.Sprintf("%s = %q", k, v))
	}
	return fmt.Sprintf("command = %q\nargs = [%s]\nenv = { %s }\n", wbin, strings.Join(quoted, ", "), strings.Join(env, ", "))
}

// saveCodexFixture saves the request that carried the first read's output back to the
// model, without Codex's instructions, messages and built-in tools.
func saveCodexFixture(t *testing.T, rs []codex.Received) {
	t.Helper()
	for _, r := range rs {
		var body map[string]any
		if json.Unmarshal(r.Body, &body) != nil {
			continue
		}
		input, _ := body["input"].([]any)
		outputs := 0
		for _, it := range input {
			if m, _ := it.(map[string]any); m["type"] == "function_call_output" {
				outputs++
			}
		}
		if outputs != 1 {
			continue
		}
		body["instructions"] = "(Codex's instructions, left out)"
		var calls []any // the call and its output; Codex's developer and user messages left out
		for _, it := range input {
			if m, _ := it.(map[string]any); m["type"] == "function_call" || m["type"] == "function_call_output" {
				calls = append(calls, it)
			}
		}
		body["input"] = calls
		var mcpTools []any
		for _, tl := range body["tools"].([]any) {
			if n, _ := tl.(map[string]any)["name"].(string); strings.HasPrefix(n, "mcp__") {
				mcpTools = append(mcpTools, tl)
			}
		}
		body["tools"] = mcpTools
		data, _ := json.Marshal(body)
		writeClientFixture(t, "codex-0.169.0-read_text_file.json", data)
		return
	}
}
