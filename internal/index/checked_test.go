package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/winnowhq/winnow/internal/index/sqlitedamage"
)

// TestChecked follows an index through what may have changed its file
// between two processes: only a file winnow left as it is goes without
// a Check, and damage is never recorded as checked.
func TestChecked(t *testing.T) {
	tests := []struct {
		name    string
		damaged bool
		// between runs after a process built the index and closed it;
		// it returns whether the next Open may skip Check.
		between func(t *testing.T, root, file string) bool
	}{
		{"closed by winnow", false, func(t *testing.T, root, file string) bool { return true }},
		{"reopened and closed by winnow", false, func(t *testing.T, root, file string) bool {
			ix := openIndex(t, Options{Root: root})
			writeTree(t, root, map[string]string{"m07.py": "def changed():\n    pass\n"})
			update(t, ix)
			ix.Close()
			return true
		}},
		{"no record", false, func(t *testing.T, root, file string) bool {
			os.Remove(filepath.Join(root, ".winnow", checkedName))
			return false
		}},
		{"written behind winnow's back at once", true, func(t *testing.T, root, file string) bool {
			sqlitedamage.SmashPages(t, file, sqlitedamage.BtreePages(t, file, "refs_scope")...)
			return false
		}},
		{"updated by a winnow still running", false, func(t *testing.T, root, file string) bool {
			ix := openIndex(t, Options{Root: root}) // closed only by the test's cleanup
			writeTree(t, root, map[string]string{"m07.py": "def changed():\n    pass\n"})
			update(t, ix)
			return true
		}},
		{"killed while writing", false, func(t *testing.T, root, file string) bool {
			ix := openIndex(t, Options{Root: root}) // closed only by the test's cleanup
			writeTree(t, root, map[string]string{"m07.py": "def changed():\n    pass\n"})
			update(t, ix)
			// What it wrote next it had no time to record.
			if _, err := ix.db.Exec("INSERT INTO meta(key, value) VALUES ('unrecorded', 'x')"); err != nil {
				t.Fatal(err)
			}
			return false
		}},
		{"damage met by a query", true, func(t *testing.T, root, file string) bool {
			ix := openIndex(t, Options{Root: root})
			if !ix.Checked() {
				t.Fatal("a trusted index opened unchecked")
			}
			sqlitedamage.SmashPages(t, file, sqlitedamage.BtreePages(t, file, "symbols")...)
			if _, err := ix.Lookup(t.Context(), "Shape7", LookupOptions{}); err == nil {
				t.Fatal("the lookup did not meet the damage")
			}
			ix.Close() // must not record the damaged file as checked
			return false
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, file := builtIndex(t, 60)
			// The build recorded its state (TestBuildRecorded): start
			// from an index with no record.
			if err := os.Remove(filepath.Join(root, ".winnow", checkedName)); err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}
			ix := openIndex(t, Options{Root: root})
			if ix.Checked() {
				t.Fatal("an index nobody checked opened as checked")
			}
			if err := ix.Check(t.Context()); err != nil || !ix.Checked() {
				t.Fatalf("Check of a sound index: %v, checked %v", err, ix.Checked())
			}
			ix.Close()
			want := tt.between(t, root, file)
			ix = openIndex(t, Options{Root: root})
			if got := ix.Checked(); got != want {
				t.Fatalf("Checked after the index was %s: %v, want %v", tt.name, got, want)
			}
			if tt.damaged {
				wantCorrupt(t, "Check", ix.Check(t.Context()), file)
			}
		})
	}
}

// TestBuildRecorded opens an index that a process built, and one that a
// process built and another then updated while a third kept it open:
// both as winnow left them, neither needs a Check.
func TestBuildRecorded(t *testing.T) {
	root, _ := builtIndex(t, 20)
	ix := openIndex(t, Options{Root: root})
	if !ix.Checked() {
		t.Fatal("an index built and closed by winnow opened unchecked")
	}
	for i := range 2 {
		writeTree(t, root, map[string]string{"m07.py": fmt.Sprintf("def changed%d():\n    pass\n", i)})
		bumpMtime(t, filepath.Join(root, "m07.py"))
		update(t, ix) // ix stays open, as a watcher's would
		other := openIndex(t, Options{Root: root})
		if !other.Checked() {
			t.Fatalf("update %d: an index updated by a winnow still running opened unchecked", i)
		}
		other.Close()
	}
}
