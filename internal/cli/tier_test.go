package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestQuickTierThroughTheCLI runs winnow as a user would on a repository
// never indexed: context answers from the quick tier and says so (header,
// JSON, stderr); index then scans nothing new and parses everything, and
// says which tier each line is; context then answers from the full index
// and says nothing about tiers on stderr.
func TestQuickTierThroughTheCLI(t *testing.T) {
	dir := repo(t)
	code, out, errOut := run(t, "context", "--repo", dir, "make_square builds the wrong Shape")
	if code != 0 {
		t.Fatalf("context on a fresh repository: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `index="quick"`) || !strings.Contains(out, `name="make_square"`) {
		t.Errorf("context from the quick tier:\n%s", out)
	}
	if !strings.Contains(errOut, "quick tier (") || !strings.Contains(errOut, "answered from the quick index") || !strings.Contains(errOut, "winnow index") {
		t.Errorf("stderr does not say the answer came from the quick tier, and how to get the full one: %q", errOut)
	}
	code, out, _ = run(t, "context", "--repo", dir, "--format", "json", "make_square")
	var pack struct{ Index string }
	if err := json.Unmarshal([]byte(out), &pack); err != nil || code != 0 || pack.Index != "quick" {
		t.Errorf("context --format json: exit %d, %v, index %q", code, err, pack.Index)
	}

	code, out, errOut = run(t, "index", "--json", dir)
	var st struct {
		Tier   string `json:"tier"`
		Parsed int    `json:"parsed"`
		Quick  *struct {
			Tier string `json:"tier"`
		} `json:"quick"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil || code != 0 {
		t.Fatalf("index --json: exit %d, %v: %q %s", code, err, out, errOut)
	}
	if st.Tier != "full" || st.Parsed != 2 || st.Quick == nil || st.Quick.Tier != "quick" {
		t.Errorf("index --json after a quick context: %s", out)
	}

	code, out, errOut = run(t, "context", "--repo", dir, "make_square builds the wrong Shape")
	if code != 0 || !strings.Contains(out, `index="full"`) || strings.Contains(errOut, "quick") {
		t.Errorf("context on the full index: exit %d, header %q, stderr %q", code, strings.SplitN(out, "\n", 2)[0], errOut)
	}
}

// TestIndexQuick stops winnow index after the quick tier, and refuses
// --quick with what would go past it.
func TestIndexQuick(t *testing.T) {
	dir := repo(t)
	code, out, errOut := run(t, "index", "--quick", dir)
	if code != 0 || !strings.HasPrefix(out, "indexed 2 files, quick tier (2 scanned") || strings.Count(out, "\n") != 1 {
		t.Errorf("index --quick: exit %d, %q %s", code, out, errOut)
	}
	code, out, _ = run(t, "context", "--repo", dir, "make_square")
	if code != 0 || !strings.Contains(out, `index="quick"`) {
		t.Errorf("context after index --quick: exit %d, %q", code, strings.SplitN(out, "\n", 2)[0])
	}
	for _, flag := range []string{"--rebuild", "--watch"} {
		if code, _, errOut := run(t, "index", "--quick", flag, dir); code != 2 || !strings.Contains(errOut, "--quick") {
			t.Errorf("index --quick %s: exit %d, %q", flag, code, errOut)
		}
	}
}
