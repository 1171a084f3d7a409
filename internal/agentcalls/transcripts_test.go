package agentcalls

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/llmproxy/scripted/claude"
	"github.com/winnowhq/winnow/internal/llmproxy/scripted/codex"
)

// The transcripts under testdata were written by the real clients, Claude Code 2.1.328
// and Codex 0.169.0, run headless against winnow's scripted APIs by TestClaudeCodeLive
// and TestCodexLive with -update: trimmed of the lines calls do not need (the system
// prompt, request shapes, attachments), with the temporary workspace renamed fixtureRoot.
const fixtureRoot = "/home/dev/app"

const (
	claudeFixture       = "testdata/claude-code-2.1.328.jsonl"
	codexCommandFixture = "testdata/codex-0.169.0-commands.jsonl"
	codexPatchFixture   = "testdata/codex-0.169.0-patch.jsonl"
)

// A wantCall is what a test checks of a call: the canonical call, whether it failed,
// and a piece of its result.
type wantCall struct {
	Tool   string
	Args   map[string]any
	Error  bool
	Result string // a substring of the result
}

func checkCalls(t *testing.T, s Session, want []wantCall) {
	t.Helper()
	var got []wantCall
	for i, c := range s.Calls {
		w := wantCall{Tool: c.Tool, Args: c.Args, Error: c.Error}
		if i < len(want) && strings.Contains(c.Result, want[i].Result) {
			w.Result = want[i].Result
		} else {
			w.Result = c.Result
		}
		got = append(got, w)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls of %s mismatch (-want +got):\n%s", s.Source, diff)
	}
}

// writeWorkspace writes the three small Go files the scripted models look at.
func writeWorkspace(t *testing.T, root string) {
	t.Helper()
	for i, name := range []string{"handler.go", "store.go", "util/paths.go"} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf("package app\n\n// Handle%d serves request kind %d.\nfunc Handle%d(x int) (int, error) {\n\tif x < 0 {\n\t\treturn 0, fmt.Errorf(\"handle %d: negative\")\n\t}\n\treturn x * %d, nil\n}\n", i, i, i, i, i+2)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// claudeScript is what the scripted model asks Claude Code to do in a workspace.
func claudeScript(root string) []claude.ToolCall {
	return []claude.ToolCall{
		{Name: "Glob", Input: map[string]any{"pattern": "**/*.go"}},
		{Name: "Grep", Input: map[string]any{"pattern": "func Handle", "path": root, "output_mode": "content", "-n": true}},
		{Name: "Read", Input: map[string]any{"file_path": root + "/handler.go"}},
		{Name: "Read", Input: map[string]any{"file_path": root + "/store.go", "offset": 3, "limit": 4}},
		{Name: "Grep", Input: map[string]any{"pattern": "Errorf", "path": root}},
		{Name: "Read", Input: map[string]any{"file_path": root + "/util/paths.go"}},
		{Name: "Edit", Input: map[string]any{"file_path": root + "/handler.go", "old_string": "negative", "new_string": "negative input"}},
		{Name: "Bash", Input: map[string]any{"command": "ls " + root, "description": "List the workspace"}},
		{Name: "Read", Input: map[string]any{"file_path": root + "/nope.go"}},
	}
}

// claudeWant is what reading the transcript of claudeScript must give.
func claudeWant(root string) []wantCall {
	return []wantCall{
		{Tool: Glob, Args: map[string]any{"pattern": "**/*.go"}, Result: "handler.go\nstore.go\nutil/paths.go"},
		{Tool: Grep, Args: map[string]any{"pattern": "func Handle", "path": root}, Result: "store.go:4:func Handle1"},
		{Tool: Read, Args: map[string]any{"file_path": root + "/handler.go"}, Result: "4\tfunc Handle0(x int)"},
		{Tool: Read, Args: map[string]any{"file_path": root + "/store.go", "offset": 3, "limit": 4}, Result: "3\t// Handle1 serves"},
		{Tool: Grep, Args: map[string]any{"pattern": "Errorf", "path": root}, Result: "Found 3 files"},
		{Tool: Read, Args: map[string]any{"file_path": root + "/util/paths.go"}, Result: "Handle2"},
		{Tool: Edit, Args: map[string]any{"file_path": root + "/handler.go"}, Result: "has been updated"},
		{Tool: Bash, Args: map[string]any{"command": "ls " + root}, Result: "handler.go\nstore.go\nutil"},
		{Tool: Read, Args: map[string]any{"file_path": root + "/nope.go"}, Error: true, Result: "does not exist"},
	}
}

func readClaudeFile(t *testing.T, path string) Session {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, skipped, err := ReadClaudeCode(f, path)
	if err != nil || skipped != 0 {
		t.Fatalf("ReadClaudeCode(%s): %d lines skipped, err %v", path, skipped, err)
	}
	return s
}

func TestClaudeCodeTranscript(t *testing.T) {
	data, err := os.ReadFile(claudeFixture)
	if err != nil {
		t.Fatal(err)
	}
	if got := Sniff(data); got != FormatClaudeCode {
		t.Errorf("Sniff = %q, want %q", got, FormatClaudeCode)
	}
	s := readClaudeFile(t, claudeFixture)
	if s.Task != "Find the handlers, read them, and fix the error message." {
		t.Errorf("task %q", s.Task)
	}
	checkCalls(t, s, claudeWant(fixtureRoot))
	for i, c := range s.Calls {
		if c.Turn <= 0 || i > 0 && c.Turn <= s.Calls[i-1].Turn {
			t.Errorf("call %d (%s) in turn %d after turn %d: each scripted call is a turn of its own", i, c.Tool, c.Turn, s.Calls[max(i-1, 0)].Turn)
		}
	}
	if c := s.Calls[1]; c.Agent != "Grep" || !strings.Contains(c.Raw, `"output_mode":"content"`) {
		t.Errorf("the Grep call keeps its own arguments in Raw: agent %q raw %q", c.Agent, c.Raw)
	}
}

// TestClaudeCodeLive runs the real Claude Code against the scripted API and reads the
// transcript it wrote under its HOME; -update saves a trimmed copy as the fixture.
func TestClaudeCodeLive(t *testing.T) {
	bin := filepath.Join(needEnv(t, "WINNOW_TEST_AGENTS"), ".bin", "claude")
	dir := t.TempDir()
	root, home := filepath.Join(dir, "work"), filepath.Join(dir, "home")
	writeWorkspace(t, root)
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	api, err := claude.Start(&claude.Options{Script: claude.Script{Calls: claudeScript(root)}})
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	res, err := claude.Run(ctx, claude.Session{Bin: bin, BaseURL: api.URL, Workspace: root, Home: home,
		Prompt: "Find the handlers, read them, and fix the error message.", AllowedTools: []string{"Glob", "Grep", "Edit"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Success() || len(api.ToolResults()) != len(claudeScript(root)) {
		t.Fatalf("claude -p: subtype %q, result %q, %d tool results; stderr: %s", res.Subtype, res.Result, len(api.ToolResults()), res.Stderr)
	}
	files, _ := filepath.Glob(filepath.Join(home, ".claude", "projects", "*", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("Claude Code wrote %d transcripts under %s/.claude/projects, want 1: %v", len(files), home, files)
	}
	checkCalls(t, readClaudeFile(t, files[0]), claudeWant(root))
	if *update {
		saveFixture(t, files[0], claudeFixture, root, trimClaude)
	}
}

// trimClaude keeps the lines of messages and the small bookkeeping lines.
func trimClaude(line []byte) []byte {
	var l struct{ Type string }
	json.Unmarshal(line, &l)
	if l.Type == "user" || l.Type == "assistant" || len(line) < 1000 && !strings.HasPrefix(l.Type, "api-request") {
		return line
	}
	return nil
}

// codexWant is what reading the transcript of codexCommands must give.
func codexWant(root string) []wantCall {
	return []wantCall{
		{Tool: LS, Args: map[string]any{"path": root}, Result: "handler.go\nstore.go\nutil\n"},
		{Tool: Grep, Args: map[string]any{"pattern": "func Handle", "path": root}, Result: "./store.go:4:func Handle1"},
		{Tool: Read, Args: map[string]any{"file_path": root + "/handler.go"}, Result: "package app\n"},
		{Tool: Read, Args: map[string]any{"file_path": root + "/store.go", "offset": 3, "limit": 4}, Result: "// Handle1 serves"},
		{Tool: Grep, Args: map[string]any{"pattern": "Errorf", "path": root}, Result: "fmt.Errorf"},
		{Tool: Read, Args: map[string]any{"file_path": root + "/util/paths.go"}, Result: "Handle2"},
		{Tool: Glob, Args: map[string]any{"pattern": "*.go", "path": root}, Result: "./util/paths.go"},
		{Tool: Read, Args: map[string]any{"file_path": root + "/nope.go"}, Error: true, Result: "No such file or directory"},
	}
}

var codexCommands = []string{"ls", "rg -n 'func Handle' .", "cat handler.go", "sed -n '3,6p' store.go",
	"rg -n Errorf .", "cat util/paths.go", "find . -name '*.go'", "cat nope.go"}

// codexPatchWant is what reading the transcript of the reading-and-patching script
// must give: two reads, then a patch that adds a note.
func codexPatchWant(root string) []wantCall {
	return []wantCall{
		{Tool: Read, Args: map[string]any{"file_path": root + "/handler.go"}, Result: "package app"},
		{Tool: Read, Args: map[string]any{"file_path": root + "/store.go"}, Result: "package app"},
		{Tool: Write, Args: map[string]any{"file_path": root + "/notes/step03.md"}, Result: "Success. Updated the following files:\nA notes/step03.md\n"},
	}
}

func readCodexFile(t *testing.T, path string) Session {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, skipped, err := ReadCodex(f, path)
	if err != nil || skipped != 0 {
		t.Fatalf("ReadCodex(%s): %d lines skipped, err %v", path, skipped, err)
	}
	return s
}

func TestCodexRollout(t *testing.T) {
	for _, f := range []string{codexCommandFixture, codexPatchFixture} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if got := Sniff(data); got != FormatCodex {
			t.Errorf("%s: Sniff = %q, want %q", f, got, FormatCodex)
		}
	}
	s := readCodexFile(t, codexCommandFixture)
	if s.Task != "Find the handlers and read them." {
		t.Errorf("task %q", s.Task)
	}
	checkCalls(t, s, codexWant(fixtureRoot))
	if c := s.Calls[1]; c.Agent != "exec_command" || c.Raw != `exec_command {"cmd":"rg -n 'func Handle' ."}` {
		t.Errorf("agent %q raw %q", c.Agent, c.Raw)
	}
	checkCalls(t, readCodexFile(t, codexPatchFixture), codexPatchWant(fixtureRoot))
}

// TestCodexLive runs the real Codex against the scripted API twice (shell commands,
// then reads and a patch) and reads the rollouts it wrote under its HOME; -update
// saves trimmed copies as the fixtures.
func TestCodexLive(t *testing.T) {
	bin := filepath.Join(needEnv(t, "WINNOW_TEST_AGENTS"), ".bin", "codex")
	var calls []codex.ToolCall
	for _, c := range codexCommands {
		calls = append(calls, codex.ToolCall{Name: "exec_command", Arguments: map[string]any{"cmd": c}})
	}
	for _, run := range []struct {
		fixture string
		opts    codex.ServerOptions
		prompt  string
		want    func(string) []wantCall
	}{
		{codexCommandFixture, codex.ServerOptions{Calls: calls}, "Find the handlers and read them.", codexWant},
		{codexPatchFixture, codex.ServerOptions{Steps: 3, PatchEvery: 3, Files: []string{"handler.go", "store.go"}}, codex.Prompt, codexPatchWant},
	} {
		dir := t.TempDir()
		root, home := filepath.Join(dir, "work"), filepath.Join(dir, "home")
		writeWorkspace(t, root)
		for i, f := range run.opts.Files {
			run.opts.Files[i] = filepath.Join(root, f) // the fake reads them too
		}
		api, err := codex.StartServer(&run.opts)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
		sess, err := codex.ExecConfig(ctx, bin, root, home, codex.Config(codex.DefaultModel, api.URL+"/v1"), run.prompt)
		cancel()
		rep := api.Report()
		api.Close()
		if err != nil || sess.ExitCode != 0 || !sess.TurnCompleted || !rep.Finished {
			t.Fatalf("codex exec: exit %d, turn completed %v, script finished %v, err %v; stderr: %s", sess.ExitCode, sess.TurnCompleted, rep.Finished, err, sess.Stderr)
		}
		var files []string
		filepath.WalkDir(filepath.Join(home, ".codex", "sessions"), func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.HasPrefix(d.Name(), "rollout-") && strings.HasSuffix(p, ".jsonl") {
				files = append(files, p)
			}
			return nil
		})
		if len(files) != 1 {
			t.Fatalf("Codex wrote %d rollouts under %s/.codex/sessions, want 1: %v", len(files), home, files)
		}
		checkCalls(t, readCodexFile(t, files[0]), run.want(root))
		if *update {
			saveFixture(t, files[0], run.fixture, root, trimCodex)
		}
	}
}

// trimCodex keeps the records calls need: the session's directory (its session_meta
// cut to a few fields), turn contexts, and response items, with the encrypted
// reasoning cut short; Codex's own instructions and events go.
func trimCodex(line []byte) []byte {
	var l struct {
		Type    string         `json:"type"`
		Payload map[string]any `json:"payload"`
	}
	if json.Unmarshal(line, &l) != nil {
		return nil
	}
	switch l.Type {
	case "session_meta":
		p := map[string]any{}
		for _, k := range []string{"id", "timestamp", "cwd", "originator", "cli_version", "source", "model_provider"} {
			p[k] = l.Payload[k]
		}
		l.Payload = p
	case "response_item":
		if l.Payload["role"] == "developer" {
			return nil
		}
		if s, ok := l.Payload["encrypted_content"].(string); ok && len(s) > 40 {
			l.Payload["encrypted_content"] = s[:40] + "…(trimmed)"
		}
	case "turn_context":
	default:
		return nil
	}
	var full map[string]any
	json.Unmarshal(line, &full)
	full["payload"] = l.Payload
	out, _ := json.Marshal(full)
	return out
}

// saveFixture writes the lines of the transcript at path that trim keeps, with root
// renamed fixtureRoot, to fixture; it fails if anything like a key is left.
func saveFixture(t *testing.T, path, fixture, root string, trim func([]byte) []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for line := range bytes.Lines(data) {
		if kept := trim(bytes.TrimSpace(line)); kept != nil {
			b.Write(kept)
			b.WriteByte('\n')
		}
	}
	out := bytes.ReplaceAll(b.Bytes(), []byte(root), []byte(fixtureRoot))
	out = bytes.ReplaceAll(out, []byte(filepath.Dir(root)), []byte(filepath.Dir(fixtureRoot)))
	for _, secret := range []string{"test-key", "API_KEY", "sk-"} {
		if bytes.Contains(out, []byte(secret)) {
			t.Fatalf("the trimmed transcript of %s still holds %q", path, secret)
		}
	}
	if err := os.WriteFile(fixture, out, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d of %d bytes)", fixture, len(out), len(data))
}

// needEnv returns the environment variable name, skipping the test when it is not
// set, or failing it under CI, which sets it up.
func needEnv(t *testing.T, name string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		msg := fmt.Sprintf("%s is not set; to run this test: npm install --prefix /tmp/agents --no-save @anthropic-ai/claude-code@2.1.328 @openai/codex@0.169.0 && export %s=/tmp/agents/node_modules (.ci/run does this)", name, name)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return v
}

// TestClaudeCodeCases checks what the recorded transcript does not show: subagent
// lines left out, one message's calls on several lines sharing its turn, results that
// come out of order, MultiEdit as an Edit, MCP tools kept as they are, a torn last line.
func TestClaudeCodeCases(t *testing.T) {
	in := `{"type":"user","sessionId":"s","message":{"role":"user","content":"<command-name>/clear</command-name>"}}
{"type":"user","sessionId":"s","message":{"role":"user","content":"fix the bug"}}
{"type":"assistant","sessionId":"s","isSidechain":true,"message":{"id":"m0","role":"assistant","content":[{"type":"tool_use","id":"x","name":"Read","input":{"file_path":"/side.go"}}]}}
{"type":"assistant","sessionId":"s","message":{"id":"m1","role":"assistant","content":[{"type":"thinking","thinking":""}]}}
{"type":"assistant","sessionId":"s","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"a","name":"Grep","input":{"pattern":"Foo","path":"/r","-n":true}}]}}
{"type":"assistant","sessionId":"s","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"b","name":"MultiEdit","input":{"file_path":"/r/a.go","edits":[]}}]}}
{"type":"user","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"b","content":[{"type":"text","text":"ok"}]},{"type":"tool_result","tool_use_id":"a","is_error":true,"content":"boom"}]}}
{"type":"assistant","sessionId":"s","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"c","name":"mcp__fs__read_text_file","input":{"path":"/r/a.go"}}]}}
{"type":"assistant","sessionId":"s","message":{"id":"m3","role":"assistant","content":[{"type":"tool_use","id":"d","name":"Read","input":{"file_path":"/r/b.go","offs`
	s, skipped, err := ReadClaudeCode(strings.NewReader(in), "cases.jsonl")
	if err != nil || skipped != 1 {
		t.Fatalf("skipped %d, err %v; want the torn line skipped", skipped, err)
	}
	if s.Task != "fix the bug" {
		t.Errorf("task %q, want the user's own words", s.Task)
	}
	got := calls(s)
	want := []call{
		{Grep, map[string]any{"pattern": "Foo", "path": "/r"}, "boom", true, 2},
		{Edit, map[string]any{"file_path": "/r/a.go"}, "ok", false, 2},
		{"mcp__fs__read_text_file", map[string]any{"path": "/r/a.go"}, "", false, 4},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls mismatch (-want +got):\n%s", diff)
	}
	if _, _, err := ReadClaudeCode(strings.NewReader("not json\n"), "x.jsonl"); err == nil || !strings.Contains(err.Error(), "not a Claude Code transcript") {
		t.Errorf("not a transcript: err %v", err)
	}
}

// TestCodexCases checks the forms the recorded rollouts do not show: an earlier
// version's bare items and JSON output envelope, shell and local_shell argv, an MCP
// tool in its namespace, a patch that updates a file, arguments that are not JSON.
func TestCodexCases(t *testing.T) {
	in := `{"id":"r1","timestamp":"2025-05-01T10:00:00Z","instructions":null}
{"record_type":"state"}
{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>x</environment_context>"}]}
{"type":"message","role":"user","content":[{"type":"input_text","text":"list the repo"}]}
{"type":"reasoning","summary":[]}
{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"ls src\"],\"workdir\":\"/repo\"}","call_id":"c1"}
{"type":"function_call","name":"read","namespace":"mcp__fs","arguments":"{\"path\":\"/repo/a.go\"}","call_id":"c3"}
{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"a.go\\nb.go\\n\",\"metadata\":{\"exit_code\":0}}"}
{"type":"function_call_output","call_id":"c3","output":[{"type":"input_text","text":"package a"}]}
{"type":"local_shell_call","call_id":"c2","action":{"type":"exec","command":["cat","x.go"],"working_directory":"/repo"}}
{"type":"function_call_output","call_id":"c2","output":"{\"output\":\"cat: x.go: No such file\",\"metadata\":{\"exit_code\":1}}"}
{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch\n*** Add File: new.go\n+x\n*** Update File: src/a.go\n@@\n-x\n+y\n*** End Patch\n","call_id":"c5"}
{"type":"function_call","name":"odd","arguments":"not json","call_id":"c4"}
`
	s, skipped, err := ReadCodex(strings.NewReader(in), "rollout.jsonl")
	if err != nil || skipped != 0 {
		t.Fatalf("skipped %d, err %v", skipped, err)
	}
	if s.Task != "list the repo" {
		t.Errorf("task %q", s.Task)
	}
	got := calls(s)
	want := []call{
		{LS, map[string]any{"path": "/repo/src"}, "a.go\nb.go\n", false, 2},
		{"mcp__fs__read", map[string]any{"path": "/repo/a.go"}, "package a", false, 2},
		{Read, map[string]any{"file_path": "/repo/x.go"}, "cat: x.go: No such file", true, 7},
		{Edit, map[string]any{"file_path": "src/a.go"}, "", false, 9}, // a new response: after an output
		{"odd", map[string]any{"arguments": "not json"}, "", false, 9},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls mismatch (-want +got):\n%s", diff)
	}
	if _, _, err := ReadCodex(strings.NewReader(`{"type":"other"}`+"\n"), "x.jsonl"); err == nil || !strings.Contains(err.Error(), "not a Codex rollout") {
		t.Errorf("not a rollout: err %v", err)
	}
}

// A call is what the transcript tests compare of a Call.
type call struct {
	Tool  string
	Args  map[string]any
	Res   string
	Error bool
	Turn  int
}

// calls returns what the transcript tests compare of s's calls.
func calls(s Session) []call {
	var out []call
	for _, c := range s.Calls {
		out = append(out, call{c.Tool, c.Args, c.Result, c.Error, c.Turn})
	}
	return out
}
