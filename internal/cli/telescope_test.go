package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// telescopeRepo is repo(t) with the cache directory (where a default store would go) inside
// the test, and the URL of a store of the test's own.
func telescopeRepo(t *testing.T) (dir, storeFlag string) {
	t.Helper()
	dir = repo(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	return dir, "--store=sqlite://" + filepath.ToSlash(filepath.Join(t.TempDir(), "tel.db"))
}

type buildJSON struct {
	Namespace string            `json:"namespace"`
	Level     int               `json:"level"`
	RootID    string            `json:"root_id"`
	KeyMap    map[string]string `json:"key_map"`
	Stats     struct {
		InputTokens  int     `json:"input_tokens"`
		OutputTokens int     `json:"output_tokens"`
		SavedPct     float64 `json:"saved_pct"`
		Units        int     `json:"units"`
		Computed     struct{ Units, Groups, Root int }
		Reused       struct{ Units, Groups, Root int }
	} `json:"stats"`
}

func TestTelescopeBuild(t *testing.T) {
	dir, st := telescopeRepo(t)
	code, out, errOut := run(t, "telescope", "build", dir, st, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res buildJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if res.Namespace != "telescope:code_signature@v1:." || res.Level != 3 || res.Stats.Units != 3 {
		t.Errorf("result %+v", res)
	}
	if res.Stats.InputTokens == 0 || res.Stats.OutputTokens == 0 || res.KeyMap["L1:shapes.py"] == "" || res.KeyMap["root"] != res.RootID {
		t.Errorf("result %+v", res)
	}
	if res.Stats.Computed.Units != 3 {
		t.Errorf("first build computed %+v", res.Stats.Computed)
	}

	// Text: the root index on stdout, a summary on stderr; everything reused.
	code, out, errOut = run(t, "telescope", "build", dir, st)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "Telescope of . · strategy code_signature v1 · 3 files in 2 groups") || !strings.Contains(out, res.KeyMap["L2:store/"]+" store/") {
		t.Errorf("root index:\n%s", out)
	}
	if !strings.Contains(errOut, "computed 0 nodes, reused 6 (hit rate 100%)") {
		t.Errorf("summary: %s", errOut)
	}

	code, out, _ = run(t, "telescope", "show", res.KeyMap["L1:shapes.py"], "--repo", dir, st)
	if code != 0 || !strings.Contains(out, "L1 unit shapes.py:1-13") || !strings.Contains(out, "11 def make_square(side)") {
		t.Errorf("show: exit %d:\n%s", code, out)
	}
	code, out, _ = run(t, "telescope", "drilldown", res.KeyMap["L1:shapes.py"], "--repo", dir, st)
	if code != 0 || !strings.Contains(out, "13|     return Shape()") {
		t.Errorf("drilldown: exit %d:\n%s", code, out)
	}
	code, out, _ = run(t, "telescope", "drilldown", res.RootID, "--repo", dir, st, "--json")
	if code != 0 || !strings.Contains(out, `"children"`) {
		t.Errorf("drilldown --json: exit %d:\n%s", code, out)
	}
}

func TestTelescopeBadInput(t *testing.T) {
	dir, st := telescopeRepo(t)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "x.py"), []byte("def x(): pass\n"), 0o644)
	os.Symlink(outside, filepath.Join(dir, "out"))
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown strategy", []string{"telescope", "build", dir, st, "--strategy", "signatures"}, exitError, "known strategies are audit_findings, code_security, code_signature, llm_summary, narrative_summary"},
		{"symlink out", []string{"telescope", "build", filepath.Join(dir, "out"), st, "--repo", dir}, exitUsage, "outside the root"},
		{"dotdot", []string{"telescope", "build", filepath.Join(dir, ".."), st, "--repo", dir}, exitUsage, "outside the root"},
		{"levels", []string{"telescope", "build", dir, st, "--levels", "9"}, exitUsage, "--levels 9"},
		{"inline", []string{"telescope", "build", dir, st, "--inline", "{nope"}, exitUsage, "inline strategy"},
		{"llm without model", []string{"telescope", "build", dir, st, "--strategy", "llm_summary"}, exitError, "no model is configured"},
		{"bad id", []string{"telescope", "show", "../../etc", "--repo", dir, st}, exitError, "not a telescope node id"},
		{"unknown id", []string{"telescope", "drilldown", "0123456789ab", "--repo", dir, st}, exitError, "no such telescope node"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := run(t, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tt.code, tt.want)
			}
		})
	}
}

func TestTelescopeUnreachableStoreDegrades(t *testing.T) {
	dir, _ := telescopeRepo(t)
	code, out, errOut := run(t, "telescope", "build", dir, "--store", "redis://127.0.0.1:1/0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "Telescope of .") || !strings.Contains(errOut, "level=WARN") {
		t.Errorf("stdout %q\nstderr %q", out, errOut)
	}
}

func TestTelescopeLLMConfigFromUserFileOnly(t *testing.T) {
	dir, st := telescopeRepo(t)
	// A repository cannot configure the model: [llm] in .winnow.toml is not read.
	os.WriteFile(filepath.Join(dir, ".winnow.toml"), []byte("[llm]\nprovider = \"openai\"\nbase_url = \"http://127.0.0.1:1/v1\"\nmodel = \"m\"\n"), 0o644)
	code, _, errOut := run(t, "telescope", "build", dir, st, "--strategy", "llm_summary")
	if code == 0 || !strings.Contains(errOut, "no model is configured") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	// The user's file can; a missing key is an error naming the variable.
	user := filepath.Join(t.TempDir(), "user.toml")
	os.WriteFile(user, []byte("[llm]\nprovider = \"anthropic\"\nmodel = \"m\"\napi_key_env = \"WINNOW_TEST_KEY\"\n"), 0o644)
	t.Setenv("WINNOW_TEST_KEY", "")
	code, _, errOut = run(t, "--config", user, "telescope", "build", dir, st, "--strategy", "llm_summary")
	if code == 0 || !strings.Contains(errOut, "WINNOW_TEST_KEY is not set") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	// Deterministic strategies do not need the key.
	if code, _, errOut = run(t, "--config", user, "telescope", "build", dir, st); code != 0 {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
