package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/index/sqlitedamage"
)

// shapesRepo is repo with sixty more Python files, so that the index
// spans enough pages for damage to land in the middle of it.
func shapesRepo(t *testing.T) string {
	t.Helper()
	dir := repo(t)
	for i := range 60 {
		src := fmt.Sprintf("class Shape%d:\n    \"\"\"Shape number %d, %s.\"\"\"\n\n    def area(self):\n        return %d\n\n\ndef make_square_%d(side):\n    return Shape%d()\n",
			i, i, strings.Repeat("with a docstring long enough to fill pages", 4), i, i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("m%02d.py", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestCorruptIndex damages a built index the ways issue 15 found and
// checks that no command answers from it without saying how to repair
// it, and that `winnow index` notices and rebuilds it.
func TestCorruptIndex(t *testing.T) {
	tests := []struct {
		name   string
		damage func(t *testing.T, db string)
	}{
		{"pages in the middle", func(t *testing.T, db string) {
			pages := sqlitedamage.BtreePages(t, db, "symbols")
			if len(pages) < 4 {
				t.Fatalf("the symbols table spans %d pages; the test needs a bigger index", len(pages))
			}
			var every []int64
			for i := 1; i < len(pages); i += 2 {
				every = append(every, pages[i])
			}
			sqlitedamage.SmashPages(t, db, every...)
		}},
		{"page 2", func(t *testing.T, db string) { sqlitedamage.SmashPages(t, db, 2) }},
		{"a directory", func(t *testing.T, db string) {
			if err := os.Remove(db); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(db, 0o755); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := shapesRepo(t)
			if code, _, errOut := run(t, "index", dir); code != 0 {
				t.Fatalf("index: exit %d: %s", code, errOut)
			}
			db := filepath.Join(dir, ".winnow", "index.db")
			tt.damage(t, db)

			failed := 0
			for _, args := range [][]string{
				{"symbols", "--no-refresh", "--repo", dir, "Shape7"},
				{"symbols", "--repo", dir, "make_square_41"},
				{"context", "--repo", dir, "make_square_7 builds the wrong Shape7"},
				{"refs", "--repo", dir, "Shape7"},
				{"outline", "--no-refresh", filepath.Join(dir, "m07.py")},
			} {
				code, _, errOut := run(t, args...)
				if code == 0 {
					continue
				}
				failed++
				if code != 1 || !strings.Contains(errOut, db) || !strings.Contains(errOut, "winnow index --rebuild") {
					t.Errorf("%s on a damaged index: exit %d without naming the file and the repair: %q", args[0], code, errOut)
				}
			}
			if failed == 0 {
				t.Fatal("every command answered from the damaged index: the damage did not take")
			}

			code, out, errOut := run(t, "index", dir)
			if code != 0 || !strings.Contains(out, "indexed 62 files") {
				t.Fatalf("index of a damaged index: exit %d, %q %q", code, out, errOut)
			}
			if !strings.Contains(errOut, db) || !strings.Contains(errOut, "corrupt") || !strings.Contains(errOut, "rebuilding") {
				t.Errorf("index rebuilt a damaged index without saying so: %q", errOut)
			}
			code, out, errOut = run(t, "context", "--repo", dir, "make_square_7 builds the wrong Shape7")
			if code != 0 || !strings.Contains(out, `name="make_square_7"`) {
				t.Errorf("context after the rebuild: exit %d, %q", code, errOut)
			}
			if code, out, _ := run(t, "index", dir); code != 0 || !strings.Contains(out, "62 unchanged") {
				t.Errorf("the run after the rebuild: exit %d, %q", code, out)
			}
		})
	}
}

// TestCorruptIndexNotEmptyDirectory leaves winnow a directory in
// place of the index that it must not delete: it says what to do.
func TestCorruptIndexNotEmptyDirectory(t *testing.T) {
	dir := repo(t)
	db := filepath.Join(dir, ".winnow", "index.db")
	if err := os.MkdirAll(filepath.Join(db, "keep"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := run(t, "index", dir)
	if code != 1 || !strings.Contains(errOut, db) || !strings.Contains(errOut, "move it away") {
		t.Errorf("index over a directory holding files: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(db, "keep")); err != nil {
		t.Errorf("the directory's content was removed: %v", err)
	}
}

// TestRebuildKeepsAnswering runs `winnow symbols --no-refresh` while a
// rebuild is halfway: it answers from the previous index, and from the
// new one once the rebuild is done.
func TestRebuildKeepsAnswering(t *testing.T) {
	dir := shapesRepo(t)
	if code, _, errOut := run(t, "index", dir); code != 0 {
		t.Fatalf("index: exit %d: %s", code, errOut)
	}
	if err := os.WriteFile(filepath.Join(dir, "fresh.py"), []byte("def fresh_start():\n    pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// The rebuild `winnow index --rebuild` runs, paused halfway through.
	ix, err := index.Open(t.Context(), index.Options{Root: dir, Rebuild: true, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	midway, resume, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		_, err := ix.Update(t.Context(), func(n, total int) {
			if n == total/2 {
				close(midway)
				<-resume
			}
		})
		done <- err
	}()
	select {
	case <-midway:
	case err := <-done:
		t.Fatalf("the rebuild finished before it was paused: %v", err)
	}

	code, out, errOut := run(t, "symbols", "--no-refresh", "--repo", dir, "--exact", "Shape7")
	if code != 0 || !strings.Contains(out, "m07.py:1") {
		t.Errorf("symbols during a rebuild: exit %d, %q %q", code, out, errOut)
	}
	if code, out, _ := run(t, "symbols", "--no-refresh", "--repo", dir, "--exact", "fresh_start"); code != 1 {
		t.Errorf("symbols during a rebuild answered from the unfinished index: %q", out)
	}
	close(resume)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	code, out, errOut = run(t, "symbols", "--no-refresh", "--repo", dir, "--exact", "fresh_start")
	if code != 0 || !strings.Contains(out, "fresh.py:1") {
		t.Errorf("symbols after the rebuild: exit %d, %q %q", code, out, errOut)
	}
}
