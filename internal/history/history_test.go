package history

import (
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/terms"
)

// repo is a real git repository in a temporary directory.
type testRepo struct {
	t   *testing.T
	dir string
}

func newRepo(t *testing.T) *testRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary")
	}
	r := &testRepo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=A", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit writes files ("" content deletes) and commits them with msg.
func (r *testRepo) commit(msg string, files map[string]string) string {
	r.t.Helper()
	for p, content := range files {
		full := filepath.Join(r.dir, p)
		if content == "" {
			r.git("rm", "-q", p)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			r.t.Fatal(err)
		}
		r.git("add", p)
	}
	msgFile := filepath.Join(r.t.TempDir(), "msg")
	if err := os.WriteFile(msgFile, []byte(msg), 0o644); err != nil {
		r.t.Fatal(err)
	}
	r.git("commit", "-q", "--allow-empty", "--cleanup=verbatim", "-F", msgFile)
	return r.git("rev-parse", "HEAD")
}

func update(t *testing.T, root, file string, opts *Options) *Stats {
	t.Helper()
	st, err := Update(t.Context(), root, file, opts)
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	return st
}

func open(t *testing.T, file string) *History {
	t.Helper()
	h, err := Open(file)
	if err != nil || h == nil {
		t.Fatalf("Open: %v, %v", h, err)
	}
	return h
}

func query(text string) map[string]float64 {
	q := make(map[string]float64)
	for _, t := range terms.Terms(text) {
		q[t]++
	}
	return q
}

// top returns the hashes of the best hits and the files of the best one.
func top(h *History, text string, k int) (hashes []string, files []string) {
	hits := h.Search(query(text), k)
	for _, hit := range hits {
		hash, _ := h.Commit(hit.Commit)
		hashes = append(hashes, hash)
	}
	if len(hits) > 0 {
		h.Files(hits[0].Commit, func(p string, _ int) { files = append(files, p) })
		slices.Sort(files)
	}
	return hashes, files
}

func TestSearchFindsFilesOfMatchingCommits(t *testing.T) {
	r := newRepo(t)
	r.commit("Initial import", map[string]string{"printer.py": "x", "matrix.py": "y", "README": "z"})
	fix := r.commit("Fix pretty printing of Sum\n\nThe limits were swapped.\n\nSigned-off-by: Printer Person <p@example.com>\n",
		map[string]string{"printer.py": "x2", "tests/test_printer.py": "t"})
	r.commit("Add matrix inverse", map[string]string{"matrix.py": "y2"})
	r.commit("Move the printer into a package", map[string]string{"printer.py": "", "printing/pretty.py": "x2"})
	file := filepath.Join(t.TempDir(), FileName)
	st := update(t, r.dir, file, nil)
	if st.Commits != 4 || !st.Rebuilt || st.Head != r.git("rev-parse", "HEAD") {
		t.Errorf("stats = %+v, want 4 commits rebuilt at HEAD", st)
	}
	h := open(t, file)
	hashes, files := top(h, "pretty printing of Sum is wrong", 3)
	if len(hashes) == 0 || hashes[0] != fix {
		t.Fatalf("best commits = %v, want the fix %s first", hashes, fix)
	}
	// printer.py was renamed later: the fix's file is found under its new name.
	if diff := cmp.Diff([]string{"printing/pretty.py", "tests/test_printer.py"}, files); diff != "" {
		t.Errorf("files of the fix (-want +got):\n%s", diff)
	}
	// Trailers name people, not code.
	if hits := h.Search(query("Printer Person"), 5); len(hits) != 1 || hits[0].Commit != 0 {
		t.Errorf("a trailer's name matched %v; only the commit that says printer should", hits)
	}
}

func TestHistoryBeforeHeadOnly(t *testing.T) {
	r := newRepo(t)
	base := r.commit("Add the summation module", map[string]string{"sum.py": "a"})
	r.git("checkout", "-q", "-b", "fix")
	later := r.commit("Fix Sum of an empty range", map[string]string{"sum.py": "b"})
	r.git("tag", "v1")
	r.git("checkout", "-q", "--detach", base)
	file := filepath.Join(t.TempDir(), FileName)
	update(t, r.dir, file, nil)
	h := open(t, file)
	raw, _ := hex.DecodeString(later)
	if h.Len() != 1 || h.hasCommit(raw) {
		t.Fatalf("history holds %d commits, the later one %v: want only HEAD's ancestry", h.Len(), h.hasCommit(raw))
	}
	if hits := h.Search(query("empty range"), 5); len(hits) != 0 {
		t.Errorf("the later commit's message matched: %v", hits)
	}
}

func TestIncrementalUpdate(t *testing.T) {
	r := newRepo(t)
	first := r.commit("Add the parser", map[string]string{"parse.py": "a"})
	r.commit("Fix the tokenizer of the parser", map[string]string{"parse.py": "b"})
	file := filepath.Join(t.TempDir(), FileName)
	update(t, r.dir, file, nil)

	if st := update(t, r.dir, file, nil); st.Added != 0 || st.Commits != 2 || st.Rebuilt {
		t.Errorf("unchanged HEAD: stats %+v, want nothing read", st)
	}
	r.commit("Rename the parser", map[string]string{"parse.py": "", "lang/parser.py": "b"})
	st := update(t, r.dir, file, nil)
	if st.Added != 1 || st.Commits != 3 || st.Rebuilt {
		t.Errorf("HEAD moved forward: stats %+v, want 1 commit added to 3", st)
	}
	_, files := top(open(t, file), "tokenizer", 1)
	if diff := cmp.Diff([]string{"lang/parser.py"}, files); diff != "" {
		t.Errorf("an old commit's file after a new rename (-want +got):\n%s", diff)
	}
	r.git("checkout", "-q", "--detach", first)
	st = update(t, r.dir, file, nil)
	if st.Commits != 1 || !st.Rebuilt {
		t.Errorf("HEAD moved back: stats %+v, want a rebuild with 1 commit", st)
	}
	if hashes, _ := top(open(t, file), "tokenizer", 1); len(hashes) != 0 {
		t.Errorf("after moving back, a commit after HEAD matched: %v", hashes)
	}

	// MaxCommits keeps the newest.
	r.git("checkout", "-q", "main")
	st = update(t, r.dir, file, &Options{MaxCommits: 2})
	if st.Commits != 2 {
		t.Errorf("MaxCommits 2: %d commits", st.Commits)
	}
}

// TestHeadOf reads HEAD from the repository's files as git rev-parse
// does, with the branch's ref loose, packed, or both, and detached.
func TestHeadOf(t *testing.T) {
	r := newRepo(t)
	check := func(when string) {
		t.Helper()
		got, ok := headOf(r.dir)
		if want := r.git("rev-parse", "HEAD"); !ok || got != want {
			t.Errorf("%s: headOf = %q, %v; git says %s", when, got, ok, want)
		}
	}
	if head, ok := headOf(r.dir); ok {
		t.Errorf("no commit yet: headOf = %q, want none", head)
	}
	first := r.commit("one", map[string]string{"a.py": "a"})
	check("loose ref")
	r.git("pack-refs", "--all")
	check("packed ref")
	r.commit("two", map[string]string{"a.py": "b"})
	check("loose ref over a packed one")
	r.git("checkout", "-q", "--detach", first)
	check("detached")
	r.git("checkout", "-q", "main")
	check("back on the branch")
	linked := filepath.Join(t.TempDir(), "linked")
	r.git("worktree", "add", "-q", linked, first)
	if head, ok := headOf(linked); ok {
		t.Errorf("a linked work tree (.git is a file): headOf = %q, want it left to git", head)
	}
	r.git("symbolic-ref", "refs/heads/alias", "refs/heads/main")
	r.git("symbolic-ref", "HEAD", "refs/heads/alias")
	if head, ok := headOf(r.dir); ok {
		t.Errorf("HEAD a reference to a reference: headOf = %q, want it left to git", head)
	}
}

func TestNoHistory(t *testing.T) {
	file := filepath.Join(t.TempDir(), FileName)
	for name, setup := range map[string]func(t *testing.T) (root string, opts *Options){
		"no .git": func(t *testing.T) (string, *Options) { return t.TempDir(), nil },
		"no commits": func(t *testing.T) (string, *Options) {
			return newRepo(t).dir, nil
		},
		"no git binary": func(t *testing.T) (string, *Options) {
			r := newRepo(t)
			r.commit("one", map[string]string{"a.py": "a"})
			return r.dir, &Options{Git: filepath.Join(t.TempDir(), "git")}
		},
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(file, []byte("stale"), 0o644); err != nil {
				t.Fatal(err)
			}
			root, opts := setup(t)
			st := update(t, root, file, opts)
			if st.Reason == "" || st.Commits != 0 {
				t.Errorf("stats = %+v, want none with a reason", st)
			}
			if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the stale file is still there: %v", err)
			}
			if h, err := Open(file); h != nil || err != nil {
				t.Errorf("Open = %v, %v; want no history and no error", h, err)
			}
		})
	}
}

func TestCorruptRepository(t *testing.T) {
	r := newRepo(t)
	r.commit("one", map[string]string{"a.py": "a"})
	file := filepath.Join(t.TempDir(), FileName)
	update(t, r.dir, file, nil)
	before, _ := os.ReadFile(file)
	head := r.commit("two", map[string]string{"a.py": "b"})
	// The object of HEAD's commit is gone.
	if err := os.Remove(filepath.Join(r.dir, ".git", "objects", head[:2], head[2:])); err != nil {
		t.Fatal(err)
	}
	_, err := Update(t.Context(), r.dir, file, nil)
	if err == nil || !strings.Contains(err.Error(), "read git history of "+r.dir) || !strings.Contains(err.Error(), "repair the repository") {
		t.Fatalf("Update of a repository without its HEAD commit = %v, want an error that says what to do", err)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Errorf("a failed update changed the history file")
	}
}

func TestDamagedFileIsRebuilt(t *testing.T) {
	r := newRepo(t)
	r.commit("Fix the widget", map[string]string{"w.py": "a"})
	file := filepath.Join(t.TempDir(), FileName)
	update(t, r.dir, file, nil)
	b, _ := os.ReadFile(file)
	for name, damaged := range map[string][]byte{
		"truncated":     b[:len(b)/2],
		"flipped byte":  append(append([]byte{}, b[:20]...), append([]byte{b[20] ^ 0xff}, b[21:]...)...),
		"newer version": append(append([]byte(magic), formatVersion+1), b[len(magic)+1:]...),
		"empty":         {},
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(file, damaged, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := Open(file); !errors.Is(err, ErrFormat) {
				t.Errorf("Open = %v, want ErrFormat", err)
			}
			if st := update(t, r.dir, file, nil); !st.Rebuilt || st.Commits != 1 {
				t.Errorf("stats %+v, want a rebuild", st)
			}
			open(t, file)
		})
	}
}

func TestOddCommits(t *testing.T) {
	r := newRepo(t)
	r.commit("Start", map[string]string{"core.py": "a"})
	// Binary garbage, control bytes and our own record marker in a message.
	garbage := "Fix \xff\xfe widget\x1e\x1fwinnow-commit deadbeef 12\n\n\x01\x02 broken bytes"
	odd := r.commit(garbage, map[string]string{"widget.py": "w"})
	// A merge of a branch carries the branch's files.
	r.git("checkout", "-q", "-b", "feature")
	r.commit("WIP", map[string]string{"gadget.py": "g", "gadget_util.py": "u"})
	r.git("checkout", "-q", "main")
	r.commit("Unrelated", map[string]string{"core.py": "b"})
	r.git("merge", "-q", "--no-ff", "-m", "Merge pull request #5: gadget calibration", "feature")
	// A sweep over many files keeps its message, not its files.
	many := make(map[string]string)
	for i := range 10 {
		many[filepath.Join("pkg", string(rune('a'+i))+".py")] = "x"
	}
	r.commit("Reformat everything with the formatter", many)

	file := filepath.Join(t.TempDir(), FileName)
	st := update(t, r.dir, file, &Options{MaxFiles: 5})
	if st.Commits != 6 {
		t.Errorf("%d commits, want 6", st.Commits)
	}
	h := open(t, file)
	hashes, files := top(h, "broken widget", 1)
	if len(hashes) != 1 || hashes[0] != odd || !slices.Equal(files, []string{"widget.py"}) {
		t.Errorf("garbage message: best %v with %v, want %s with widget.py", hashes, files, odd)
	}
	if _, files := top(h, "gadget calibration", 1); !slices.Equal(files, []string{"gadget.py", "gadget_util.py"}) {
		t.Errorf("merge: files %v, want the branch's", files)
	}
	hits := h.Search(query("reformat formatter"), 1)
	if len(hits) != 1 {
		t.Fatalf("the sweep's message is not searchable")
	}
	n := 0
	h.Files(hits[0].Commit, func(string, int) { n++ })
	if n != 0 {
		t.Errorf("a commit of 10 files with MaxFiles 5 kept %d files", n)
	}
}

func TestSubdirectoryHasNoHistory(t *testing.T) {
	r := newRepo(t)
	r.commit("Fix the client retry loop", map[string]string{"client/retry.py": "a"})
	file := filepath.Join(t.TempDir(), FileName)
	st := update(t, filepath.Join(r.dir, "client"), file, nil)
	if st.Commits != 0 || !strings.Contains(st.Reason, "client/ inside its repository") {
		t.Errorf("stats %+v, want no history: the repository's history is not the subdirectory's", st)
	}
}

func TestMissingBlobs(t *testing.T) {
	r := newRepo(t)
	text := strings.Repeat("line of the calibration table\n", 40)
	first := r.commit("Add the calibration table", map[string]string{"table.dat": text, "cal.py": "a"})
	r.commit("Move and extend the table", map[string]string{"table.dat": "", "data/table.dat": text + "one more\n", "cal.py": "b"})
	// A fetch-style mirror leaves out large blobs: git log could not
	// look for renames by content without them, and the history must
	// not need them (it follows exact renames only).
	blob := r.git("rev-parse", first+":table.dat")
	if err := os.Remove(filepath.Join(r.dir, ".git", "objects", blob[:2], blob[2:])); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), FileName)
	st := update(t, r.dir, file, nil)
	if st.Commits != 2 {
		t.Errorf("stats %+v, want both commits", st)
	}
	if _, files := top(open(t, file), "calibration table", 1); !slices.Contains(files, "cal.py") {
		t.Errorf("files of the first commit: %v", files)
	}
}

// TestTopHits: the heap's k best are those of a full sort, in its order,
// ties included (scores drawn from a few values, so that many tie).
func TestTopHits(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	for round := range 500 {
		n := rng.IntN(200)
		scores := make([]float64, n)
		var reached []int32
		for ci := range n {
			if rng.IntN(3) > 0 {
				scores[ci] = float64(rng.IntN(6)) / 4
				reached = append(reached, int32(ci))
			}
		}
		rng.Shuffle(len(reached), func(i, j int) { reached[i], reached[j] = reached[j], reached[i] })
		var all []Hit
		for _, ci := range reached {
			all = append(all, Hit{int(ci), scores[ci]})
		}
		slices.SortFunc(all, func(a, b Hit) int {
			switch {
			case a.Score != b.Score:
				return map[bool]int{true: -1, false: 1}[a.Score > b.Score]
			default:
				return a.Commit - b.Commit
			}
		})
		k := rng.IntN(20)
		want := all[:min(k, len(all))]
		if got := topHits(scores, reached, k); !slices.Equal(got, want) {
			t.Fatalf("round %d, k %d: got %v, want %v", round, k, got, want)
		}
	}
}

// TestSearchAgainAsFresh: a search scores from nothing, whatever the
// searches before it scored, on the same History or at once.
func TestSearchAgainAsFresh(t *testing.T) {
	r := newRepo(t)
	r.commit("Fix pretty printing of Sum", map[string]string{"printer.py": "1"})
	r.commit("Add matrix inverse and printing of matrices", map[string]string{"matrix.py": "1", "printer.py": "2"})
	r.commit("Sum of a matrix is wrong", map[string]string{"matrix.py": "2"})
	r.commit("printing printing printing", map[string]string{"printer.py": "3"})
	r.commit("Speed up the inverse", map[string]string{"inverse.py": "1"})
	file := filepath.Join(t.TempDir(), FileName)
	update(t, r.dir, file, nil)
	queries := []string{"pretty printing of Sum", "matrix inverse", "printing", "Sum of a matrix", "nothing here", "pretty printing of Sum"}
	reused := open(t, file)
	for range 2 {
		for _, q := range queries {
			got := reused.Search(query(q), 3)
			want := open(t, file).Search(query(q), 3)
			if len(want) == 0 && q != "nothing here" {
				t.Fatalf("%q matched nothing", q)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%q after other searches (-fresh +reused):\n%s", q, diff)
			}
		}
	}
}
