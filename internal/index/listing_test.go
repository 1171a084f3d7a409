package index

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// gitTree makes a git work tree of files, committing those of tracked.
func gitTree(t *testing.T, files map[string]string, tracked ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is required for this test; .ci/run installs it")
	}
	root := t.TempDir()
	writeTree(t, root, files)
	runGit(t, root, "init", "-q")
	runGit(t, root, append([]string{"add", "-f"}, tracked...)...)
	runGit(t, root, "commit", "-qm", "init")
	return root
}

func runGit(t *testing.T, root string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// backdate sets the modification time of everything in the tree but the
// index directory an hour back, as a tree looks that nobody touched for
// a while: only then is git's answer remembered (racyMargin).
func backdate(t *testing.T, root string) {
	t.Helper()
	past := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".winnow" {
			return fs.SkipDir
		}
		return os.Chtimes(path, past, past)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// indexedPaths returns the paths of the files the index holds.
func indexedPaths(t *testing.T, ix *Index) []string {
	t.Helper()
	rows, err := ix.db.QueryContext(t.Context(), "SELECT path FROM files WHERE skip = '' ORDER BY path")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var paths []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// listOnce lists the tree as an update of ix would, and says whether
// git's answer was the remembered one.
func listOnce(t *testing.T, ix *Index) ([]string, bool) {
	t.Helper()
	l := newLister(ix.root, &ix.opts)
	cands, err := l.list(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, c := range cands {
		paths = append(paths, c.path)
	}
	return paths, l.reused
}

var listingFiles = map[string]string{
	".gitignore":   "build/\n",
	"tracked.py":   "def tracked(): pass\n",
	"untracked.py": "def untracked(): pass\n",
	"pkg/a.py":     "def a(): pass\n",
	"build/out.py": "def built(): pass\n",
}

// TestListingRemembered: with nothing changed, the update takes git's
// remembered answer, which is git's.
func TestListingRemembered(t *testing.T) {
	root := gitTree(t, listingFiles, ".gitignore", "tracked.py", "pkg/a.py")
	ix := openIndex(t, Options{Root: root})
	backdate(t, root) // after the index directory is made in it
	update(t, ix)
	want, err := gitListFiles(t.Context(), root)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	g, err := readListing(filepath.Join(ix.dir, listingName))
	if err != nil {
		t.Fatalf("no listing remembered: %v", err)
	}
	slices.Sort(g.paths)
	if diff := cmp.Diff(want, g.paths); diff != "" {
		t.Errorf("remembered listing (-git +remembered):\n%s", diff)
	}
	paths, reused := listOnce(t, ix)
	if !reused {
		t.Error("an unchanged tree asked git again")
	}
	if diff := cmp.Diff([]string{"pkg/a.py", "tracked.py", "untracked.py"}, paths); diff != "" {
		t.Errorf("listed (-want +got):\n%s", diff)
	}
}

// TestListingSeesChanges: whatever changes what git lists is seen by the
// next update, which indexes what a new index of the tree holds.
func TestListingSeesChanges(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(t *testing.T, root string)
	}{
		{"untracked file added", func(t *testing.T, root string) {
			writeTree(t, root, map[string]string{"pkg/b.py": "def b(): pass\n"})
		}},
		{"file in a new directory", func(t *testing.T, root string) {
			writeTree(t, root, map[string]string{"pkg/sub/deep/c.py": "def c(): pass\n"})
		}},
		{"untracked file removed", func(t *testing.T, root string) {
			writeTree(t, root, map[string]string{"untracked.py": ""})
		}},
		{"tracked file removed", func(t *testing.T, root string) {
			writeTree(t, root, map[string]string{"pkg/a.py": ""})
		}},
		{"untracked file renamed", func(t *testing.T, root string) {
			if err := os.Rename(filepath.Join(root, "untracked.py"), filepath.Join(root, "pkg", "moved.py")); err != nil {
				t.Fatal(err)
			}
		}},
		{".gitignore edited in place", func(t *testing.T, root string) {
			f, err := os.OpenFile(filepath.Join(root, ".gitignore"), os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("untracked.py\n")
			f.Close()
		}},
		{"info/exclude edited", func(t *testing.T, root string) {
			writeTree(t, root, map[string]string{".git/info/exclude": "untracked.py\n"})
		}},
		{"ignored file added to git", func(t *testing.T, root string) {
			runGit(t, root, "add", "-f", "build/out.py")
		}},
		{"ignore rule in an untouched subdirectory", func(t *testing.T, root string) {
			// pkg's .gitignore is new (pkg's modification time), then
			// edited in place, which leaves pkg's entries as they are.
			writeTree(t, root, map[string]string{"pkg/.gitignore": "# nothing yet\n", "pkg/u.py": "def u(): pass\n"})
			ix := openIndex(t, Options{Root: root})
			backdate(t, root)
			update(t, ix)
			if _, reused := listOnce(t, ix); !reused {
				t.Fatal("the listing was not remembered")
			}
			writeTree(t, root, map[string]string{"pkg/.gitignore": "u.py\n"})
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := gitTree(t, listingFiles, ".gitignore", "tracked.py", "pkg/a.py")
			ix := openIndex(t, Options{Root: root})
			backdate(t, root)
			update(t, ix)
			if _, reused := listOnce(t, ix); !reused {
				t.Fatal("the listing was not remembered: the test would not test it")
			}
			tt.change(t, root)
			update(t, ix)
			fresh := openIndex(t, Options{Root: root, Dir: t.TempDir()})
			update(t, fresh)
			if diff := cmp.Diff(indexedPaths(t, fresh), indexedPaths(t, ix)); diff != "" {
				t.Errorf("indexed files (-new index +updated):\n%s", diff)
			}
		})
	}
}

// TestListingNotRemembered: an answer that a change could hide from the
// stamps is not remembered.
func TestListingNotRemembered(t *testing.T) {
	for _, tt := range []struct {
		name  string
		setup func(t *testing.T, root string)
	}{
		{"stamps too recent", func(t *testing.T, root string) {
			writeTree(t, root, map[string]string{"pkg/new.py": "def n(): pass\n"})
		}},
		{"GIT_INDEX_FILE set", func(t *testing.T, root string) {
			t.Setenv("GIT_INDEX_FILE", filepath.Join(root, ".git", "index"))
		}},
		{"an excludes file configured", func(t *testing.T, root string) {
			runGit(t, root, "config", "core.excludesFile", filepath.Join(root, "excludes"))
			backdate(t, root)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := gitTree(t, listingFiles, ".gitignore", "tracked.py", "pkg/a.py")
			ix := openIndex(t, Options{Root: root})
			backdate(t, root)
			tt.setup(t, root)
			update(t, ix)
			if _, err := os.Stat(filepath.Join(ix.dir, listingName)); err == nil {
				t.Error("the listing was remembered")
			}
			if _, reused := listOnce(t, ix); reused {
				t.Error("the listing was reused")
			}
		})
	}
}

// TestListingFileRoundTrip: the file reads back as written, and a
// damaged one is refused.
func TestListingFileRoundTrip(t *testing.T) {
	g := &listing{root: "/r", env: "GIT_X=1", stamps: []fileStamp{
		{path: "/r/a", exists: true, mode: fs.ModeDir, size: 4096, mtime: -5, ino: 7},
		{path: "/r/b"},
	}, paths: []string{"a/x.py", "b.go"}}
	file := filepath.Join(t.TempDir(), listingName)
	b := g.encode()
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readListing(file)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(g, got, cmp.AllowUnexported(listing{}, fileStamp{})); diff != "" {
		t.Errorf("read back (-written +read):\n%s", diff)
	}
	for i := range b {
		bad := slices.Clone(b)
		bad[i] ^= 0x40
		if err := os.WriteFile(file, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readListing(file); err == nil {
			t.Fatalf("byte %d damaged, read anyway", i)
		}
	}
}

// TestListingStampedFromLast: a listing remembered again after a change
// takes from the last one what its unchanged stamps still tell (the
// subdirectories of a directory, its .gitignore, the configuration
// files) and is the listing stamped from scratch; the changes are seen.
func TestListingStampedFromLast(t *testing.T) {
	root := gitTree(t, listingFiles, ".gitignore", "tracked.py", "pkg/a.py")
	ix := openIndex(t, Options{Root: root})
	backdate(t, root)
	update(t, ix)
	for _, step := range []struct {
		name   string
		change func()
	}{
		{"new subdirectory", func() {
			writeTree(t, root, map[string]string{"pkg/sub/deep/n.py": "def n(): pass\n"})
		}},
		{"file in the new subdirectory", func() {
			writeTree(t, root, map[string]string{"pkg/sub/m.py": "def m(): pass\n"})
		}},
		{".gitignore in a subdirectory", func() {
			writeTree(t, root, map[string]string{"pkg/sub/.gitignore": "m.py\n"})
		}},
		{".gitignore edited", func() {
			writeTree(t, root, map[string]string{"pkg/sub/.gitignore": "deep/\n"})
		}},
		{"subdirectory removed", func() {
			if err := os.RemoveAll(filepath.Join(root, "pkg", "sub")); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		step.change()
		backdate(t, root)
		if _, reused := listOnce(t, ix); reused {
			t.Fatalf("%s: the changed tree's listing was reused", step.name)
		}
		update(t, ix)
		fresh := openIndex(t, Options{Root: root, Dir: t.TempDir()})
		update(t, fresh)
		if diff := cmp.Diff(indexedPaths(t, fresh), indexedPaths(t, ix)); diff != "" {
			t.Fatalf("%s: indexed files (-new index +updated):\n%s", step.name, diff)
		}
		got, err := readListing(filepath.Join(ix.dir, listingName))
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		env, _ := gitEnv()
		want := newLister(ix.root, &ix.opts).stampTree(t.Context(), env, nil, nil)
		if diff := cmp.Diff(want.stamps, got.stamps, cmp.AllowUnexported(fileStamp{})); diff != "" {
			t.Fatalf("%s: stamps (-from scratch +from the last listing):\n%s", step.name, diff)
		}
		if _, reused := listOnce(t, ix); !reused {
			t.Fatalf("%s: the listing was not remembered", step.name)
		}
	}
	// A configuration that names an excludes file, which nothing stamps:
	// git's configuration is read again, and the answer not remembered.
	writeTree(t, root, map[string]string{"excludes": "untracked.py\n"})
	runGit(t, root, "config", "core.excludesFile", filepath.Join(root, "excludes"))
	backdate(t, root)
	update(t, ix)
	if _, reused := listOnce(t, ix); reused {
		t.Error("with an excludes file configured, the listing was reused")
	}
	if paths := indexedPaths(t, ix); slices.Contains(paths, "untracked.py") {
		t.Errorf("the file the excludes file names is indexed: %v", paths)
	}
}
