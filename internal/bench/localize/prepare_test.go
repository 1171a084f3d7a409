package localize

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/history"
	"github.com/winnowhq/winnow/internal/terms"
)

// gitIn runs git in dir with a fixed identity and no user config.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// snapshot lists every file under dir with its size and modification
// time, to tell whether anything wrote there.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := make(map[string]string)
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil {
			m[p] = fmt.Sprint(fi.ModTime(), fi.Mode(), fi.Size())
		}
		return nil
	})
	return m
}

// TestPrepareGivesHistoryBeforeBaseOnly runs prepare.sh on a real bare
// clone whose history goes on after the base commit (the fix, on main
// and on a tag and a branch): the prepared tree holds the base commit's
// files, and git in it sees the base commit's ancestry and nothing
// later, from HEAD or any ref.
func TestPrepareGivesHistoryBeforeBaseOnly(t *testing.T) {
	for _, tool := range []string{"git", "bash", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	_, this, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(this), "..", "..", "..", "bench", "localize", "prepare.sh")

	work := t.TempDir()
	src := filepath.Join(work, "src")
	os.MkdirAll(filepath.Join(src, "pkg"), 0o755)
	gitIn(t, work, "init", "-q", "-b", "main", src)
	write := func(p, content string) {
		if err := os.WriteFile(filepath.Join(src, p), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		gitIn(t, src, "add", p)
	}
	write("pkg/sums.py", "def total(xs):\n    return sum(xs)\n")
	gitIn(t, src, "commit", "-q", "-m", "Add totals")
	write("pkg/sums.py", "def total(xs):\n    return sum(xs or [])\n")
	gitIn(t, src, "commit", "-q", "-m", "Handle empty totals")
	base := gitIn(t, src, "rev-parse", "HEAD")
	write("pkg/sums.py", "def total(xs):\n    return sum(x for x in xs if x)\n")
	gitIn(t, src, "commit", "-q", "-m", "Fix totals with None values (the fix)")
	fix := gitIn(t, src, "rev-parse", "HEAD")
	gitIn(t, src, "tag", "v2")
	gitIn(t, src, "branch", "release")

	clones := filepath.Join(work, "clones")
	gitIn(t, work, "clone", "-q", "--bare", src, filepath.Join(clones, "acme__sums"))
	data := filepath.Join(work, "data.jsonl")
	if err := os.WriteFile(data, []byte(`{"repo": "acme/sums", "base_commit": "`+base+`"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, clones)
	out := filepath.Join(work, "trees")
	cmd := exec.Command("bash", script, data, clones, out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("prepare.sh: %v\n%s", err, msg)
	}
	if diff := cmp.Diff(before, snapshot(t, clones)); diff != "" {
		t.Errorf("prepare.sh wrote into the clone (-before +after):\n%s", diff)
	}

	in := Instance{Repo: "acme/sums", BaseCommit: base}
	tree := TreeDir(out, in)
	if err := checkTree(t.Context(), tree, in); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(tree, "pkg", "sums.py"))
	if string(got) != "def total(xs):\n    return sum(xs or [])\n" {
		t.Errorf("pkg/sums.py = %q, want the base commit's", got)
	}
	if all := gitIn(t, tree, "log", "--all", "--format=%s"); all != "Handle empty totals\nAdd totals" {
		t.Errorf("git log --all in the tree:\n%s\nwant the base commit's ancestry only", all)
	}
	if refs := gitIn(t, tree, "for-each-ref"); refs != "" {
		t.Errorf("refs in the tree: %s", refs)
	}
	if files := gitIn(t, tree, "ls-files"); files != "pkg/sums.py" {
		t.Errorf("git ls-files = %q, want the commit's files", files)
	}

	// The history retrieval reads is the base commit's.
	file := filepath.Join(t.TempDir(), history.FileName)
	st, err := history.Update(t.Context(), tree, file, nil)
	if err != nil || st.Commits != 2 || st.Head != base {
		t.Fatalf("history of the tree: %+v, %v; want 2 commits at the base", st, err)
	}
	h, err := history.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	if hits := h.Search(map[string]float64{terms.Terms("values")[0]: 1}, 5); len(hits) != 0 {
		t.Errorf("the fix's message matched in the tree's history: %v", hits)
	}

	// A tree whose HEAD was moved to the fix is refused.
	gitIn(t, tree, "update-ref", "--no-deref", "HEAD", fix)
	if err := checkTree(t.Context(), tree, in); err == nil || !strings.Contains(err.Error(), "prepare it again") {
		t.Errorf("checkTree of a tree at the fix = %v, want a refusal that says to prepare it again", err)
	}
}
