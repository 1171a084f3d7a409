package tune

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/toolvalue"
)

// mergeProposals are what the merge tests add: sizes and a follow-up for Read, a size
// for Grep.
var mergeProposals = []Proposal{
	{Tool: "Read", Changes: []Change{
		{Key: "cost_model.typical_tokens", Value: 800, Reason: "median of 40 results 800 tokens"},
		{Key: "cost_model.max_tokens", Value: 1200, Reason: "99th percentile of 40 results 1200 tokens"},
		{Key: "follow_up", Value: []toolvalue.FollowUp{{Tool: "Edit", Probability: 0.21, Args: map[string]string{"file_path": "arg.file_path"}}}, Reason: "lag-1 probabilities over 40 calls: Edit new 0.21"},
	}},
	{Tool: "Grep", Changes: []Change{{Key: "cost_model.typical_tokens", Value: 60, Reason: "median of 12 results 60 tokens"}}},
}

const (
	readTable = `[tools."Read"]
# winnow tune: median of 40 results 800 tokens
cost_model.typical_tokens = 800
# winnow tune: 99th percentile of 40 results 1200 tokens
cost_model.max_tokens = 1200
# winnow tune: lag-1 probabilities over 40 calls: Edit new 0.21
follow_up = [
  { tool = "Edit", probability = 0.21, args = { file_path = "arg.file_path" } },
]
`
	grepTable = `[tools."Grep"]
# winnow tune: median of 12 results 60 tokens
cost_model.typical_tokens = 60
`
)

func TestPlanMerge(t *testing.T) {
	r, g := `tools."Read".`, `tools."Grep".`
	for _, tc := range []struct {
		name    string
		old     string // "" : no file
		want    string
		added   []string
		kept    []string
		skipped []string // prefixes
	}{
		{
			name:  "no file",
			want:  readTable + "\n" + grepTable,
			added: []string{r + "cost_model.typical_tokens", r + "cost_model.max_tokens", r + "follow_up", g + "cost_model.typical_tokens"},
		},
		{
			name:  "comments and other tables stay",
			old:   "# mine\n[gateway]\nenrich = \"prefetch\" # why\n",
			want:  "# mine\n[gateway]\nenrich = \"prefetch\" # why\n\n" + readTable + "\n" + grepTable,
			added: []string{r + "cost_model.typical_tokens", r + "cost_model.max_tokens", r + "follow_up", g + "cost_model.typical_tokens"},
		},
		{
			name: "the user's own keys stay; missing ones go under the header, in order",
			old:  "[tools.Read] # mine\ncost_model.typical_tokens = 500\n\n[gateway]\nenrich = \"off\"\n",
			want: "[tools.Read] # mine\n# winnow tune: 99th percentile of 40 results 1200 tokens\ncost_model.max_tokens = 1200\n" +
				"# winnow tune: lag-1 probabilities over 40 calls: Edit new 0.21\nfollow_up = [\n  { tool = \"Edit\", probability = 0.21, args = { file_path = \"arg.file_path\" } },\n]\n" +
				"cost_model.typical_tokens = 500\n\n[gateway]\nenrich = \"off\"\n\n" + grepTable,
			added: []string{r + "cost_model.max_tokens", r + "follow_up", g + "cost_model.typical_tokens"},
			kept:  []string{r + "cost_model.typical_tokens"},
		},
		{
			name: "a pattern the user wrote covers the tool",
			old:  "[tools.\"*\"]\nfollow_up = []\ncost_model = { typical_tokens = 100, max_tokens = 2000 }\n",
			want: "[tools.\"*\"]\nfollow_up = []\ncost_model = { typical_tokens = 100, max_tokens = 2000 }\n",
			kept: []string{r + "cost_model.typical_tokens", r + "cost_model.max_tokens", r + "follow_up", g + "cost_model.typical_tokens"},
		},
		{
			name:    "an inline cost model cannot take another key",
			old:     "[tools.Read]\ncost_model = { typical_tokens = 500 }\n",
			want:    "[tools.Read]\n# winnow tune: lag-1 probabilities over 40 calls: Edit new 0.21\nfollow_up = [\n  { tool = \"Edit\", probability = 0.21, args = { file_path = \"arg.file_path\" } },\n]\ncost_model = { typical_tokens = 500 }\n\n" + grepTable,
			added:   []string{r + "follow_up", g + "cost_model.typical_tokens"},
			kept:    []string{r + "cost_model.typical_tokens"},
			skipped: []string{r + "cost_model.max_tokens: adding it under the tool's table would not decode"},
		},
		{
			name:    "a tool written with dotted keys is left to the user",
			old:     "tools.Read.speculate = false\n",
			want:    "tools.Read.speculate = false\n\n" + grepTable,
			added:   []string{g + "cost_model.typical_tokens"},
			skipped: []string{r + "cost_model.typical_tokens: the tool's table is written inline", r + "cost_model.max_tokens: the tool's table", r + "follow_up: the tool's table"},
		},
		{
			name:    "a maximum below the user's typical size is left out",
			old:     "[tools.\"Re*\"]\ncost_model.typical_tokens = 5000\n",
			want:    "[tools.\"Re*\"]\ncost_model.typical_tokens = 5000\n\n[tools.\"Read\"]\n# winnow tune: lag-1 probabilities over 40 calls: Edit new 0.21\nfollow_up = [\n  { tool = \"Edit\", probability = 0.21, args = { file_path = \"arg.file_path\" } },\n]\n\n" + grepTable,
			added:   []string{r + "follow_up", g + "cost_model.typical_tokens"},
			kept:    []string{r + "cost_model.typical_tokens"},
			skipped: []string{r + "cost_model.max_tokens: 1200 would be below the typical_tokens = 5000 you set"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			if tc.old != "" {
				if err := os.WriteFile(path, []byte(tc.old), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			m, err := PlanMerge(path, mergeProposals)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(m.New)); diff != "" {
				t.Errorf("new text (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.added, m.Added); diff != "" {
				t.Errorf("added (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.kept, m.Kept); diff != "" {
				t.Errorf("kept (-want +got):\n%s", diff)
			}
			if len(m.Skipped) != len(tc.skipped) {
				t.Fatalf("skipped %q, want %d", m.Skipped, len(tc.skipped))
			}
			for i, s := range tc.skipped {
				if !strings.HasPrefix(m.Skipped[i], s) {
					t.Errorf("skipped[%d] = %q, want it to start %q", i, m.Skipped[i], s)
				}
			}
			if _, err := decodeTOML(m.New); err != nil {
				t.Errorf("the new text does not decode: %v", err)
			}
		})
	}
}

func TestPlanMergeBadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	for _, bad := range []string{"[tools\n", "tools = 3\n"} {
		if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := PlanMerge(path, mergeProposals)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "fix it before winnow tune writes to it") {
			t.Errorf("%q: err %v", bad, err)
		}
	}
}

// TestMergeWrite checks the write: a backup of the old file, the new text in its
// place, a second plan that adds nothing, and a file changed behind the plan left alone.
func TestMergeWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	old := "# mine\n[gateway]\nenrich = \"off\"\n"
	if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	m, err := PlanMerge(path, mergeProposals)
	if err != nil {
		t.Fatal(err)
	}
	if d := m.Diff("config.toml"); !strings.Contains(d, "+[tools.\"Read\"]\n") || !strings.Contains(d, "--- config.toml") {
		t.Errorf("diff:\n%s", d)
	}
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	backup, err := m.Write(now)
	if err != nil {
		t.Fatal(err)
	}
	if want := path + ".bak-20260302-100000"; backup != want {
		t.Errorf("backup %q, want %q", backup, want)
	}
	if data, _ := os.ReadFile(backup); string(data) != old {
		t.Errorf("backup holds %q", data)
	}
	if data, _ := os.ReadFile(path); string(data) != string(m.New) {
		t.Errorf("file holds %q", data)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the old file's 0600", fi.Mode().Perm())
	}
	again, err := PlanMerge(path, mergeProposals)
	if err != nil {
		t.Fatal(err)
	}
	if again.Changed() || len(again.Added) > 0 || len(again.Kept) != 4 {
		t.Errorf("second plan: changed %v, added %v, kept %v", again.Changed(), again.Added, again.Kept)
	}

	stale, err := PlanMerge(filepath.Join(dir, "other.toml"), mergeProposals)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale.Path, []byte("# written meanwhile\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := stale.Write(now); err == nil || !strings.Contains(err.Error(), "changed while winnow tune ran") {
		t.Errorf("a file written behind the plan: err %v", err)
	}
}
