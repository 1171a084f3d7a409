package tune

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	claudeFixture = "../agentcalls/testdata/claude-code-2.1.328.jsonl"
	codexFixture  = "../agentcalls/testdata/codex-0.169.0-commands.jsonl"
	trajDir       = "../compact/traj/testdata/trajectories"
)

// fakeHome lays the recorded transcripts out where Claude Code and Codex keep them,
// beside files that are not transcripts.
func fakeHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	for src, dst := range map[string]string{
		claudeFixture:             ".claude/projects/-home-dev-app/0dd17875.jsonl",
		codexFixture:              ".codex/sessions/2026/11/26/rollout-2026-11-26T06-54-13-01a2.jsonl",
		"testdata/analyze.golden": ".codex/sessions/2026/11/26/notes.jsonl", // not a rollout- file
	} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(home, dst)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

func TestDefaultLogs(t *testing.T) {
	home := fakeHome(t)
	files, err := DefaultLogs(home, "", "")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		filepath.Join(home, ".claude/projects/-home-dev-app/0dd17875.jsonl"),
		filepath.Join(home, ".codex/sessions/2026/11/26/rollout-2026-11-26T06-54-13-01a2.jsonl"),
	}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if files, err := DefaultLogs(t.TempDir(), "", ""); err != nil || len(files) != 0 {
		t.Errorf("an empty home: %v, %v", files, err)
	}
	if files, _ := DefaultLogs(t.TempDir(), filepath.Join(home, ".claude"), filepath.Join(home, ".codex")); len(files) != 2 {
		t.Errorf("with CLAUDE_CONFIG_DIR and CODEX_HOME elsewhere: %v", files)
	}
}

// TestMiner reads the recorded transcripts and the shared trajectories and checks
// what it counted, by format, and what the calls say.
func TestMiner(t *testing.T) {
	m, err := NewMiner()
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "notes.json")
	if err := os.WriteFile(bad, []byte(`{"not": "a run"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := m.ReadPaths([]string{claudeFixture, codexFixture, trajDir, bad}); err != nil {
		t.Fatal(err)
	}
	r := m.Report
	if r.ByFormat[FormatClaudeCode] != 1 || r.ByFormat[FormatCodex] != 1 || r.ByFormat[FormatTrajectory] < 6 {
		t.Errorf("sessions by format: %v", r.ByFormat)
	}
	if r.Calls != 9+8+288 {
		t.Errorf("%d calls, want 9 (Claude Code) + 8 (Codex) + 288 (the trajectories)", r.Calls)
	}
	if len(r.Failed) != 1 || !strings.Contains(r.Failed[0], bad) {
		t.Errorf("failed: %q, want the one file that is no run", r.Failed)
	}
	// Claude Code's Grep of "func Handle" was followed by a Read of a file it listed.
	e := m.Obs.Tools["Grep"].Next["Read"]
	if e == nil || e.Support["file_path"]["result.paths"] < 2 {
		t.Errorf("Grep→Read: %+v", e)
	}
	// The failed reads (nope.go) count no size.
	if got, calls := len(m.Obs.Tools["Read"].Tokens), m.Obs.Tools["Read"].Calls; got >= calls {
		t.Errorf("Read: %d sizes of %d calls; the failed ones count none", got, calls)
	}
	if err := m.ReadPaths([]string{filepath.Join(t.TempDir(), "missing")}); err == nil {
		t.Error("a missing path: no error")
	}
}

func TestGatewayName(t *testing.T) {
	for in, want := range map[string]string{
		"mcp__winnow__github__get_issue": "github__get_issue",
		"mcp__github__get_issue":         "github__get_issue",
		"mcp__winnow__context":           "context",
		"mcp__winnow__winnow__more":      "winnow__more",
		"Read":                           "Read",
		"mcp__odd":                       "mcp__odd",
	} {
		if got := GatewayName(in); got != want {
			t.Errorf("GatewayName(%q) = %q, want %q", in, got, want)
		}
	}
}
