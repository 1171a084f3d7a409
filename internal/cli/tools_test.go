package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/toolvalue"
)

// toolsConfig writes a user file and a repository with a .winnow.toml that both set tool
// tables, and returns the user file's path and the repository.
func toolsConfig(t *testing.T, user, repo string) (userFile, dir string) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	dir = t.TempDir()
	userFile = filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(userFile, []byte(user), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".winnow.toml"), []byte(repo), 0o644); err != nil {
		t.Fatal(err)
	}
	return userFile, dir
}

const toolsUser = `[tools."fs__read_text_file"]
cost_model = { typical_tokens = 900 }

[tools."mytracker__*"]
side_effect = "read_only"

[tools."mytracker__get_ticket"]
value_class = "critical"
follow_up = [{ tool = "*__get_comments", probability = 0.3, args = { id = "arg.id" } }]
`

const toolsRepo = `[tools."fs__read_text_file"]
speculate = true
value_class = "supporting"
`

func TestToolsShowList(t *testing.T) {
	user, dir := toolsConfig(t, toolsUser, toolsRepo)
	code, out, errOut := run(t, "tools", "show", "--config", user, "--repo", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		f := strings.Fields(line)
		rows[f[0]] = f[1:]
	}
	for tool, want := range map[string]string{
		"Read":                  "critical read_only yes 618 0",
		"Grep":                  "critical read_only yes 62 1",
		"Bash":                  "critical indeterminate no 56 1",
		"TodoWrite":             "audit_only mutates_local no 40 0",
		"*__read_text_file":     "critical read_only yes 618 0",
		"fs__read_text_file":    "supporting read_only yes 900 0", // the configured tool itself
		"mytracker__*":          "supporting read_only yes 1000 0",
		"mytracker__get_ticket": "critical read_only yes 1000 1",
	} {
		if got := strings.Join(rows[tool], " "); got != want {
			t.Errorf("%s: %q, want %q", tool, got, want)
		}
	}
	if !strings.Contains(errOut, ".winnow.toml:2: tools.fs__read_text_file.speculate is a user-only setting") {
		t.Errorf("no warning about the repository's speculate = true:\n%s", errOut)
	}

	code, out, errOut = run(t, "tools", "show", "--config", user, "--repo", dir, "--json")
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errOut)
	}
	var doc struct {
		Tools    []toolRow         `json:"tools"`
		Sources  []string          `json:"sources"`
		Warnings []json.RawMessage `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("--json is not one JSON object: %v\n%s", err, out)
	}
	if len(doc.Tools) != len(rows) || len(doc.Sources) != 2 || len(doc.Warnings) != 1 {
		t.Errorf("--json: %d tools (text %d), sources %v, %d warnings", len(doc.Tools), len(rows), doc.Sources, len(doc.Warnings))
	}
}

func TestToolsShowOne(t *testing.T) {
	user, dir := toolsConfig(t, toolsUser, toolsRepo)
	repoFile := filepath.Join(dir, ".winnow.toml")
	code, out, errOut := run(t, "tools", "show", "--config", user, "--repo", dir, "fs__read_text_file")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		`(?m)^fs__read_text_file: read_only, may be called ahead of the agent$`,
		`(?m)^value_class +supporting +` + regexp.QuoteMeta(repoFile+":3") + `$`,
		`(?m)^side_effect +read_only +builtin$`,
		`(?m)^speculate +- +default$`, // the repository's speculate = true was left out
		`(?m)^cost_model.typical_tokens +900 +` + regexp.QuoteMeta(user+":2") + `$`,
		`(?m)^cost_model.max_tokens +10718 +builtin$`,
		`(?m)^cost_model.latency_p50 +20ms +builtin$`,
		`(?m)^follow_up +- +default$`,
		`(?m)^invalidates +- +default$`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("output does not match %s:\n%s", want, out)
		}
	}

	code, out, errOut = run(t, "tools", "show", "--config", user, "--repo", dir, "mytracker__get_ticket", "--json")
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errOut)
	}
	var doc struct {
		Tool       string            `json:"tool"`
		Speculable bool              `json:"speculable"`
		Model      toolvalue.Model   `json:"model"`
		Origins    map[string]string `json:"origins"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("--json is not one JSON object: %v\n%s", err, out)
	}
	if doc.Tool != "mytracker__get_ticket" || !doc.Speculable || doc.Model.Class != toolvalue.Critical ||
		len(doc.Model.FollowUps) != 1 || doc.Model.FollowUps[0].Tool != "mytracker__get_comments" ||
		doc.Origins["value_class"] != user+":8" || doc.Origins["side_effect"] != user+":5" ||
		doc.Origins["follow_up"] != user+":9" || doc.Origins["rate_limit_host"] != originDefault ||
		len(doc.Origins) != len(toolvalue.Fields) {
		t.Errorf("--json = %+v", doc)
	}
}

func TestToolsShowErrors(t *testing.T) {
	user, dir := toolsConfig(t, toolsUser, "")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"a name nothing describes", []string{"read_text_file"}, 0, []string{
			`no built-in or configured rule names "read_text_file"`, "did you mean *__read_text_file?"}},
		{"an empty name", []string{""}, exitUsage, []string{"the tool name is empty: give it as the agent sees it, such as Read"}},
		{"two names", []string{"Read", "Grep"}, exitUsage, []string{"accepts at most 1 arg(s), received 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := run(t, append([]string{"tools", "show", "--config", user, "--repo", dir}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d: %s", code, tt.code, errOut)
			}
			for _, want := range tt.stderr {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr does not say %q:\n%s", want, errOut)
				}
			}
		})
	}

	bad, dir := toolsConfig(t, "[tools.Grep]\nvalue_clas = \"critical\"\nfollow_up = [{ tool = \"Read\", probability = 2.0 }]\n", "")
	code, _, errOut := run(t, "tools", "show", "--config", bad, "--repo", dir)
	for _, want := range []string{
		bad + ":2: unknown key tools.Grep.value_clas (ignored); did you mean tools.Grep.value_class?",
		"tools.Grep.follow_up[0].probability = 2: must be more than 0 and at most 1 (" + bad + ":3)",
	} {
		if code != exitError || !strings.Contains(errOut, want) {
			t.Errorf("exit %d, stderr does not say %q:\n%s", code, want, errOut)
		}
	}
}
