package toolvalue

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestBuiltinValid checks every built-in rule: one rule per pattern, a valid model, and
// edges and invalidations that name tools the built-ins describe.
func TestBuiltinValid(t *testing.T) {
	l := Builtin()
	seen := map[string]bool{}
	for _, r := range l {
		if seen[r.Pattern] {
			t.Errorf("%s: two rules", r.Pattern)
		}
		seen[r.Pattern] = true
		if r.Origin != OriginBuiltin {
			t.Errorf("%s: origin %q", r.Pattern, r.Origin)
		}
	}
	for _, r := range l {
		m, _ := Resolve(r.Pattern, l)
		if err := m.Validate(); err != nil {
			t.Errorf("%s: %v", r.Pattern, err)
		}
		if m.Cost.TypicalTokens == Unknown.Cost.TypicalTokens && m.Cost.MaxTokens == Unknown.Cost.MaxTokens {
			t.Errorf("%s: Unknown's cost", r.Pattern)
		}
		for _, f := range m.FollowUps {
			if !seen[f.Tool] {
				t.Errorf("%s: follow-up %s has no built-in model", r.Pattern, f.Tool)
			}
		}
		for _, p := range m.Invalidates {
			if !seen[p] {
				t.Errorf("%s: invalidates %s, which no built-in names", r.Pattern, p)
			}
		}
	}
}

func TestBuiltinModels(t *testing.T) {
	reg := NewRegistry(Builtin())
	edge := func(tool, next string) *FollowUp {
		m := reg.Model(tool)
		for i := range m.FollowUps {
			if m.FollowUps[i].Tool == next {
				return &m.FollowUps[i]
			}
		}
		t.Fatalf("%s has no edge to %s: %+v", tool, next, m.FollowUps)
		return nil
	}
	for _, tt := range []struct {
		tool, next string
		p          float64
		args       map[string]string
	}{
		{"Grep", "Read", 0.35, map[string]string{
			"file_path": "arg.path/result.hits.path", "offset": "result.hits.offset", "limit": "result.hits.limit"}},
		{"Glob", "Read", 0.32, map[string]string{"file_path": "result.paths"}},
		{"Edit", "Read", 0.14, map[string]string{"file_path": "arg.file_path"}},
		{"WebSearch", "WebFetch", 0.19, map[string]string{"url": "result.urls"}},
		{"fs__search_files", "fs__read_text_file", 0.32, map[string]string{"path": "result.paths"}},
		{"mcp__fs__list_directory", "mcp__fs__read_text_file", 0.32, map[string]string{"path": "arg.path/result.paths"}},
		{"github__search_issues", "github__issue_read", listToDetail, map[string]string{
			"method": `const:"get"`, "owner": "arg.owner", "repo": "arg.repo", "issue_number": "result.items[].number"}},
		{"gitlab__list_merge_requests", "gitlab__mr_discussions", 0.32, map[string]string{
			"project_id": "result[].project_id", "merge_request_iid": "result[].iid"}},
	} {
		f := edge(tt.tool, tt.next)
		if f.Probability != tt.p || !cmp.Equal(f.Args, tt.args) {
			t.Errorf("%s → %s = %v %v, want %v %v", tt.tool, tt.next, f.Probability, f.Args, tt.p, tt.args)
		}
	}

	for _, name := range []string{"TodoWrite", "TaskCreate", "TaskUpdate", "TaskList", "update_plan"} {
		if m := reg.Model(name); m.Class != AuditOnly {
			t.Errorf("%s: class %s, want audit_only", name, m.Class)
		}
	}
	for _, name := range []string{"Bash", "shell", "exec_command", "Agent", "Edit", "Write", "apply_patch", "AskUserQuestion",
		"fs__write_file", "fs__edit_file", "fs__move_file", "github__create_issue", "github__issue_write", "gitlab__create_note"} {
		if m := reg.Model(name); m.Speculable() {
			t.Errorf("%s (%s) is speculable", name, m.SideEffect)
		}
	}
	for _, name := range []string{"Read", "Grep", "Glob", "WebFetch", "fs__read_text_file", "fs__search_files",
		"github__get_file_contents", "gitlab__get_pipeline", "find_symbol", "context"} {
		if m := reg.Model(name); !m.Speculable() {
			t.Errorf("%s (%s) is not speculable", name, m.SideEffect)
		}
	}
	if m := reg.Model("Bash"); m.SideEffect != Indeterminate {
		t.Errorf("Bash: %s", m.SideEffect)
	}
	if m := reg.Model("ToolSearch"); m.FailFastAfter != 2 {
		t.Errorf("ToolSearch: fail_fast_after_n %d, want 2", m.FailFastAfter)
	}
	if m := reg.Model("WebFetch"); m.Cost.FreshnessTTL != 15*time.Minute {
		t.Errorf("WebFetch: freshness %v", m.Cost.FreshnessTTL)
	}
	if m := reg.Model("fs__edit_file"); !matchesAny(m.Invalidates, "fs__read_text_file") || !matchesAny(m.Invalidates, "fs__search_files") {
		t.Errorf("fs__edit_file invalidates %v", m.Invalidates)
	}
	if m := reg.Model("Edit"); !matchesAny(m.Invalidates, "Read") {
		t.Errorf("Edit invalidates %v", m.Invalidates)
	}

	groups := map[string]FieldGroup{}
	for _, g := range reg.Model("github__search_issues").FieldGroups {
		groups[g.Name] = g
	}
	if g := groups["links"]; g.Default || g.Value > 0.1 || !slicesContain(g.Fields, "*_url") || !slicesContain(g.Fields, "node_id") {
		t.Errorf("links group = %+v, want *_url and node_id, low value, off by default", g)
	}
	if g := groups["body"]; !g.Default || g.Value < 0.8 {
		t.Errorf("body group = %+v, want high value, on by default", g)
	}
}

func matchesAny(patterns []string, tool string) bool {
	for _, p := range patterns {
		r := Rule{Pattern: p}
		if r.Matches(tool) {
			return true
		}
	}
	return false
}

func slicesContain(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestBuiltinFromCorpus derives the Claude Code models' sizes (characters/4 of the median
// and the 99th percentile) and lag-1 probabilities (count over the calls of the previous
// tool) from the corpus rows in testdata/devboy, so a number copied wrong fails.
func TestBuiltinFromCorpus(t *testing.T) {
	volume := readCSV(t, "paper3_tool_volume.csv")
	calls := map[string]float64{}
	l := Builtin()
	for _, row := range volume[1:] {
		tool := row[0]
		calls[tool] = atof(t, row[1])
		m, _ := Resolve(tool, l)
		want := [2]int{int(math.Round(atof(t, row[3]) / 4)), int(math.Round(atof(t, row[5]) / 4))}
		if got := [2]int{m.Cost.TypicalTokens, m.Cost.MaxTokens}; got != want {
			t.Errorf("%s: typical, max tokens %v, want %v (median %s, p99 %s chars)", tool, got, want, row[3], row[5])
		}
	}
	derived := 0
	for _, row := range readCSV(t, "paper3_followup_edges.csv")[1:] {
		prev, next := row[0], row[1]
		p := math.Round(atof(t, row[3])/calls[prev]*100) / 100
		var got *FollowUp
		m, _ := Resolve(prev, l)
		for i := range m.FollowUps {
			if m.FollowUps[i].Tool == next {
				got = &m.FollowUps[i]
			}
		}
		switch {
		case prev == next && got != nil:
			t.Errorf("%s: a self-loop edge", prev)
		case prev == next:
		case got == nil:
			t.Errorf("%s → %s (%.2f): no edge", prev, next, p)
		case got.Probability != p:
			t.Errorf("%s → %s: probability %v, want %v (%s of %v calls)", prev, next, got.Probability, p, row[3], calls[prev])
		default:
			derived++
		}
	}
	if derived < 6 {
		t.Errorf("only %d edges derived", derived)
	}
}

func readCSV(t *testing.T, name string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "devboy", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
