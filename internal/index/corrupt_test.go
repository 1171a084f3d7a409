package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/index/sqlitedamage"
)

// shapesTree writes n Python files under root: with 60, the index spans
// dozens of pages.
func shapesTree(t *testing.T, root string, n int) {
	t.Helper()
	files := make(map[string]string, n)
	for i := range n {
		files[fmt.Sprintf("m%02d.py", i)] = fmt.Sprintf(
			"import os\n\nclass Shape%d:\n    \"\"\"Shape number %d, %s.\"\"\"\n\n    def area(self):\n        return os.sep\n\n\ndef make_square_%d(side):\n    return Shape%d()\n",
			i, i, strings.Repeat("with a docstring long enough to fill pages", 4), i, i)
	}
	writeTree(t, root, files)
}

// builtIndex indexes a tree of n files and closes the index, so that the
// whole database is in index.db (no WAL) for a test to damage.
func builtIndex(t *testing.T, n int) (root, file string) {
	t.Helper()
	root = t.TempDir()
	shapesTree(t, root, n)
	ix := openIndex(t, Options{Root: root})
	update(t, ix)
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	file = filepath.Join(root, ".winnow", dbName)
	if _, err := os.Stat(file + "-wal"); err == nil {
		t.Fatalf("%s-wal outlived the last connection", file)
	}
	return root, file
}

// wantCorrupt fails unless err says the index file is corrupt, names it
// and says how to repair it.
func wantCorrupt(t *testing.T, what string, err error, file string) {
	t.Helper()
	var ce *CorruptError
	switch {
	case err == nil:
		t.Errorf("%s: no error from a damaged index", what)
	case !errors.Is(err, ErrCorrupt) || !errors.As(err, &ce):
		t.Errorf("%s: %v, want a *CorruptError", what, err)
	case ce.File != file || !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), "winnow index --rebuild"):
		t.Errorf("%s: %q does not name %s and `winnow index --rebuild`", what, err, file)
	}
}

// TestCorruptionOnEveryQuery damages every table but meta and checks
// that every way of reading or updating the index reports the damage as
// a *CorruptError naming the file and the repair.
func TestCorruptionOnEveryQuery(t *testing.T) {
	root, file := builtIndex(t, 60)
	sqlitedamage.SmashPages(t, file, sqlitedamage.BtreePages(t, file, "files", "symbols", "refs", "imports", "sqlite_autoindex_files_1",
		"files_hash", "files_keys", "symbols_name", "symbols_file", "refs_name", "refs_file", "refs_scope", "imports_file")...)
	ix := openIndex(t, Options{Root: root})
	ctx := t.Context()
	each := func(*Brief) error { return nil }
	eachDocs := func(*FileDocs) error { return nil }
	calls := map[string]func() error{
		"Lookup":          func() error { _, err := ix.Lookup(ctx, "Shape7", LookupOptions{}); return err },
		"Lookup fuzzy":    func() error { _, err := ix.Lookup(ctx, "Shpae7", LookupOptions{}); return err },
		"Names":           func() error { _, err := ix.Names(ctx); return err },
		"FileSymbols":     func() error { _, err := ix.FileSymbols(ctx, "m07.py"); return err },
		"Files":           func() error { _, err := ix.Files(ctx, ""); return err },
		"Stats":           func() error { _, err := ix.Stats(ctx); return err },
		"References":      func() error { _, err := ix.References(ctx, "Shape7", 10); return err },
		"ForEachBrief":    func() error { return ix.ForEachBrief(ctx, each) },
		"ForEachFileDocs": func() error { return ix.ForEachFileDocs(ctx, eachDocs) },
		"SymbolsByID":     func() error { _, err := ix.SymbolsByID(ctx, []int64{1, 2, 3}); return err },
		"RefsFrom":        func() error { _, err := ix.RefsFrom(ctx, []int64{1, 2, 3}); return err },
		"RefCounts":       func() error { _, err := ix.RefCounts(ctx, []string{"Shape7"}); return err },
		"RefsTo":          func() error { _, err := ix.RefsTo(ctx, []string{"Shape7"}); return err },
		"FileImports":     func() error { _, err := ix.FileImports(ctx, "m07.py"); return err },
		"Update":          func() error { _, err := ix.Update(ctx, nil); return err },
		"UpdatePaths":     func() error { _, err := ix.UpdatePaths(ctx, []string{"m07.py"}); return err },
		"Check":           func() error { return ix.Check(ctx) },
		"Snapshot": func() error {
			s, err := ix.Snapshot(ctx)
			if err != nil {
				return err
			}
			defer s.Close()
			if err := s.ForEachFileDocs(ctx, eachDocs); err != nil {
				return err
			}
			return s.ForEachBrief(ctx, each)
		},
	}
	for name, call := range calls {
		wantCorrupt(t, name, call(), file)
	}
}

func TestOpenCorrupt(t *testing.T) {
	t.Run("page 2", func(t *testing.T) {
		root, file := builtIndex(t, 3)
		sqlitedamage.SmashPages(t, file, 2)
		_, err := Open(t.Context(), Options{Root: root})
		wantCorrupt(t, "Open", err, file)
	})
	t.Run("header", func(t *testing.T) {
		root, file := builtIndex(t, 3)
		sqlitedamage.SmashPages(t, file, 1)
		_, err := Open(t.Context(), Options{Root: root})
		wantCorrupt(t, "Open", err, file)
	})
	t.Run("a directory", func(t *testing.T) {
		root := t.TempDir()
		file := filepath.Join(root, ".winnow", dbName)
		if err := os.MkdirAll(filepath.Join(file, "keep"), 0o755); err != nil {
			t.Fatal(err)
		}
		_, err := Open(t.Context(), Options{Root: root})
		wantCorrupt(t, "Open", err, file)
		if !strings.Contains(err.Error(), "directory") {
			t.Errorf("the error does not say the index is a directory: %v", err)
		}
		// --rebuild does not delete what someone keeps in a directory.
		_, err = Open(t.Context(), Options{Root: root, Rebuild: true})
		if err == nil || !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), "move it away") {
			t.Errorf("Open with Rebuild over a directory holding files: %v", err)
		}
		if _, err := os.Stat(filepath.Join(file, "keep")); err != nil {
			t.Errorf("the directory's content was removed: %v", err)
		}
		// An empty one it replaces.
		os.Remove(filepath.Join(file, "keep"))
		ix := openIndex(t, Options{Root: root, Rebuild: true})
		writeTree(t, root, map[string]string{"a.py": "def a(): pass\n"})
		if st := update(t, ix); st.Files != 1 {
			t.Errorf("rebuild over an empty directory: %+v", st)
		}
	})
}

func TestCheck(t *testing.T) {
	root, file := builtIndex(t, 60)
	ix := openIndex(t, Options{Root: root})
	if err := ix.Check(t.Context()); err != nil {
		t.Fatalf("Check of a sound index: %v", err)
	}
	ix.Close()

	// Damage only what a lookup never reads: Open and Update succeed, the
	// check finds it.
	sqlitedamage.SmashPages(t, file, sqlitedamage.BtreePages(t, file, "refs_scope")...)
	ix = openIndex(t, Options{Root: root})
	if _, err := ix.Update(t.Context(), nil); err != nil {
		t.Fatalf("the damage is meant to be out of an update's way: %v", err)
	}
	wantCorrupt(t, "Check", ix.Check(t.Context()), file)

	// A check cut short by its budget is inconclusive, not a failure; one
	// cancelled by its caller reports the cancellation.
	if err := ix.check(t.Context(), 0); err != nil {
		t.Errorf("a check out of time: %v, want nil", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := ix.Check(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled check: %v, want context.Canceled", err)
	}
}

// TestRebuildRepairs rebuilds an index damaged in the middle: the new
// index is sound and complete.
func TestRebuildRepairs(t *testing.T) {
	root, file := builtIndex(t, 60)
	sqlitedamage.SmashPages(t, file, sqlitedamage.BtreePages(t, file, "symbols")...)
	ix := openIndex(t, Options{Root: root, Rebuild: true})
	st := update(t, ix)
	if st.Files != 60 || st.Parsed != 60 {
		t.Errorf("rebuild: %+v", st)
	}
	if err := ix.Check(t.Context()); err != nil {
		t.Errorf("Check after the rebuild: %v", err)
	}
	var check string
	if err := ix.db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check after the rebuild: %q %v", check, err)
	}
	if got := quals(t, ix, "make_square_41"); len(got) != 1 {
		t.Errorf("make_square_41 after the rebuild: %v", got)
	}
}
