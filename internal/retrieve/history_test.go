package retrieve

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// historyRepo writes a small project and commits it in steps, so that
// one commit's message says what the task says.
func historyRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(p, content string) {
		t.Helper()
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", p)
	}
	git("init", "-q", "-b", "main")
	write("billing/ledger.py", "def close_totals(entries):\n    \"\"\"Sum the entries of a period.\"\"\"\n    return sum(e.amount for e in entries)\n")
	write("reports/totals.py", "def report_totals(rows):\n    \"\"\"Totals of a report, per month.\"\"\"\n    return [r.total for r in rows]\n")
	git("commit", "-q", "-m", "Initial import")
	write("billing/ledger.py", "def close_totals(entries):\n    \"\"\"Sum the entries of a period.\"\"\"\n    return sum(e.amount for e in entries if e.day <= 29)\n")
	git("commit", "-q", "-m", "Fix monthly totals in leap years\n\nFebruary lost a day.")
	write("reports/totals.py", "def report_totals(rows):\n    \"\"\"Totals of a report, per month, rounded.\"\"\"\n    return [round(r.total) for r in rows]\n")
	git("commit", "-q", "-m", "Round the report")
	return dir
}

func TestHistoryLiftsFilesOfMatchingCommits(t *testing.T) {
	const task = "Monthly totals are wrong in leap years"
	repo := historyRepo(t)
	rank := func(e *Engine) (top string, share float64) {
		r, err := e.Rank(t.Context(), task)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Defs) == 0 {
			t.Fatal("nothing ranked")
		}
		return defID(r.Defs[0]), explain(r, 1)[0].Shares[FeatHistory.String()]
	}
	without, _ := rank(weighted(t, repo, FeatHistory, 0))
	if without != "reports/totals.py:report_totals" {
		t.Fatalf("without history the words favour %s; the test needs reports/totals.py to lead", without)
	}
	with, share := rank(weighted(t, repo, FeatHistory, DefaultParams.Weights[FeatHistory]))
	if with != "billing/ledger.py:close_totals" || share <= 0 {
		t.Errorf("with history: top %s (history share %.2f), want billing/ledger.py:close_totals, lifted by the leap-year fix", with, share)
	}

	// The same files without .git have no history: the feature is silent.
	plain := t.TempDir()
	if err := os.CopyFS(plain, os.DirFS(filepath.Join(repo, "billing"))); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(plain, plain+".tmp"); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(plain, 0o755)
	if err := os.Rename(plain+".tmp", filepath.Join(plain, "billing")); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(plain, "reports"), os.DirFS(filepath.Join(repo, "reports"))); err != nil {
		t.Fatal(err)
	}
	if top, share := rank(weighted(t, plain, FeatHistory, DefaultParams.Weights[FeatHistory])); top != without || share != 0 {
		t.Errorf("a tree without .git: top %s with history share %.2f, want %s and none", top, share, without)
	}
}
