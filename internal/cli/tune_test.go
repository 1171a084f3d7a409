package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/winnowhq/winnow/internal/telemetry"
)

// TestTuneAnalyze runs winnow tune analyze on telemetry where the planner prefetched
// server-filesystem reads after each search and the agent used 4 of 12: it proposes
// speculation off for the reads, with the reason, as a table that is valid TOML, and
// applies nothing.
func TestTuneAnalyze(t *testing.T) {
	t0 := time.Now().UTC().Add(-time.Hour)
	var evs []telemetry.Event
	for i := range 12 {
		key := fmt.Sprintf("k%d", i)
		at := t0.Add(time.Duration(len(evs)) * time.Second)
		evs = append(evs, telemetry.Event{Time: at, Tool: "fs__search_files", Session: "s", Key: "q" + key, After: 40, Layer: telemetry.LayerNone,
			Plans: []telemetry.Plan{{Tool: "fs__read_text_file", Key: key, Decision: telemetry.DecisionPrefetch, PredictedTokens: 600}}})
		read := telemetry.Event{Time: at.Add(time.Second / 2), Tool: "fs__read_text_file", Session: "s", Key: "other" + key, After: 600, Layer: telemetry.LayerNone}
		if i < 4 {
			read.Key, read.Served = key, telemetry.ServedPrefetch
		}
		evs = append(evs, read)
	}
	path := writeTelemetry(t, evs...)
	cfg := os.Getenv("WINNOW_CONFIG")
	before, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}

	code, out, errOut := run(t, "tune", "analyze")
	if code != 0 {
		t.Fatalf("tune analyze: exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"winnow tune analyze: 24 tool results in 1 sessions",
		"nothing is applied: copy what you want into " + cfg,
		"[tools.\"fs__read_text_file\"]\n# prefetch hit rate 33% (4 of 12 prefetches used within 3 calls): below 50% over at least 10\nspeculate = false\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	snippet := out[strings.Index(out, "[tools."):]
	var decoded map[string]any
	if _, err := toml.Decode(snippet, &decoded); err != nil {
		t.Errorf("the proposals are not TOML: %v\n%s", err, snippet)
	}
	if after, _ := os.ReadFile(cfg); string(after) != string(before) {
		t.Errorf("analyze changed the configuration:\n%s", after)
	}

	code, out, errOut = run(t, "tune", "analyze", "--json", "--telemetry", path)
	if code != 0 {
		t.Fatalf("tune analyze --json: exit %d: %s", code, errOut)
	}
	var rep struct {
		Calls     int
		Proposals []struct {
			Tool    string
			Changes []struct {
				Key    string
				Value  any
				Reason string
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	found := false
	for _, p := range rep.Proposals {
		for _, c := range p.Changes {
			found = found || p.Tool == "fs__read_text_file" && c.Key == "speculate" && c.Value == false
		}
	}
	if rep.Calls != 24 || !found {
		t.Errorf("--json: %+v", rep)
	}
}

func TestTuneErrors(t *testing.T) {
	path := writeTelemetry(t)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"tune", "analyze"}, exitError, "no telemetry at " + path},
		{[]string{"tune", "analyze", "--since", "soon"}, exitUsage, "--since"},
		{[]string{"tune"}, exitUsage, "name a subcommand: analyze or from-logs"},
		{[]string{"tune", "from-logs", "--home", t.TempDir()}, exitError, "no agent logs under"},
		{[]string{"tune", "from-logs", filepath.Join(t.TempDir(), "missing")}, exitError, "read agent logs"},
	} {
		code, _, errOut := run(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, want %d with %q: %s", tc.args, code, tc.code, tc.want, errOut)
		}
	}
}

// tuneHome lays the real Claude Code transcript and Codex rollout out under a home
// directory as the agents keep them, and returns it.
func tuneHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	for src, dst := range map[string]string{
		"../agentcalls/testdata/claude-code-2.1.328.jsonl":    ".claude/projects/-home-dev-app/0dd17875.jsonl",
		"../agentcalls/testdata/codex-0.169.0-commands.jsonl": ".codex/sessions/2026/11/26/rollout-2026-11-26T06-54-13-01a2.jsonl",
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

// TestTuneFromLogs mines the recorded transcripts (from their default places under a
// home) and the shared trajectories: it prints proposals and the diff to the user
// configuration without writing it; --write adds only what the user did not write,
// after a backup; a second --write finds nothing to add.
func TestTuneFromLogs(t *testing.T) {
	home := tuneHome(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	mine := "# my settings\n[tools.Read]\ncost_model.max_tokens = 9000 # I know better\n"
	trajectories, err := filepath.Abs("../compact/traj/testdata/trajectories")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(mine), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WINNOW_CONFIG", cfg)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	t.Chdir(dir)

	code, out, errOut := run(t, "tune", "from-logs", "--home", home)
	if code != 0 {
		t.Fatalf("tune from-logs: exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"winnow tune from-logs: 2 sessions (Claude Code 1, Codex 1), 17 tool calls, from 2 files",
		"[tools.\"Read\"]",
		"would add tools.\"Read\".cost_model.typical_tokens\n",
		"kept as you wrote them: tools.\"Read\".cost_model.max_tokens",
		"run again with --write to add them",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if data, _ := os.ReadFile(cfg); string(data) != mine {
		t.Fatalf("without --write the configuration changed:\n%s", data)
	}

	code, out, errOut = run(t, "tune", "from-logs", "--write", "--json", trajectories,
		filepath.Join(home, ".claude"), filepath.Join(home, ".codex"))
	if code != 0 {
		t.Fatalf("tune from-logs --write: exit %d: %s", code, errOut)
	}
	var rep struct {
		Read struct {
			Sessions int
			Calls    int
		}
		Proposals []struct{ Tool string }
		Edges     []struct {
			Prev, Next string
			Lags       [3]int
		}
		Config struct {
			Added   []string
			Kept    []string
			Written bool
			Backup  string
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if rep.Read.Calls != 17+288 || !rep.Config.Written || len(rep.Config.Added) == 0 || rep.Config.Backup == "" || len(rep.Edges) == 0 {
		t.Fatalf("--write --json: %+v", rep)
	}
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "# my settings\n[tools.Read]\n") || !strings.Contains(string(data), "cost_model.max_tokens = 9000 # I know better\n") {
		t.Errorf("the user's lines did not stay:\n%s", data)
	}
	if old, _ := os.ReadFile(rep.Config.Backup); string(old) != mine {
		t.Errorf("backup %s holds %q", rep.Config.Backup, old)
	}
	code, _, errOut = run(t, "config", "show")
	if code != 0 {
		t.Errorf("winnow config show after --write: exit %d: %s", code, errOut)
	}
	if strings.Contains(errOut, "warning") {
		t.Errorf("the written tables draw warnings: %s", errOut)
	}

	code, out, _ = run(t, "tune", "from-logs", "--write", trajectories, filepath.Join(home, ".claude"), filepath.Join(home, ".codex"))
	if code != 0 || !strings.Contains(out, ": nothing to add\n") {
		t.Errorf("second --write: exit %d:\n%s", code, out)
	}
}
