package index

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestChangesMatchBuild edits, touches, deletes and renames files, few
// of them (their rows completed by path) and more than completeOne
// (completed in one pass over the files): the index each update leaves
// is the index a fresh build makes, and renames and touches are told
// apart from edits by the rows' hashes, which the update completes.
func TestChangesMatchBuild(t *testing.T) {
	for _, n := range []int{2, completeOne + 8} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			root := t.TempDir()
			src := func(i, v int) string {
				return fmt.Sprintf("import os\n\ndef f%d(x):\n    return os.sep + str(x) + %q\n\nclass C%d:\n    def m(self):\n        return f%d(%d)\n", i, fmt.Sprint(v), i, i, v)
			}
			files := map[string]string{}
			total := 5 * n
			for i := range total {
				files[fmt.Sprintf("p/m%03d.py", i)] = src(i, 0)
			}
			writeTree(t, root, files)
			ix := openIndex(t, Options{Root: root})
			update(t, ix)
			edits := map[string]string{}
			for i := range n {
				edits[fmt.Sprintf("p/m%03d.py", i)] = src(i, 1) // edited
			}
			for i := n; i < 2*n; i++ {
				bumpMtime(t, filepath.Join(root, fmt.Sprintf("p/m%03d.py", i))) // touched
			}
			if err := os.Mkdir(filepath.Join(root, "q"), 0o755); err != nil {
				t.Fatal(err)
			}
			for i := 2 * n; i < 3*n; i++ { // renamed
				err := os.Rename(filepath.Join(root, fmt.Sprintf("p/m%03d.py", i)), filepath.Join(root, fmt.Sprintf("q/r%03d.py", i)))
				if err != nil {
					t.Fatal(err)
				}
			}
			for i := 3 * n; i < 4*n; i++ {
				edits[fmt.Sprintf("p/m%03d.py", i)] = "" // deleted
			}
			writeTree(t, root, edits)
			st := update(t, ix)
			if st.Parsed != n || st.Renamed != n || st.Removed != n || st.Unchanged != total-3*n {
				t.Errorf("parsed %d, renamed %d, removed %d, unchanged %d; want %d, %d, %d, %d",
					st.Parsed, st.Renamed, st.Removed, st.Unchanged, n, n, n, total-3*n)
			}
			fresh := openIndex(t, Options{Root: root, Dir: t.TempDir()})
			update(t, fresh)
			if diff := cmp.Diff(dumpIndex(t, fresh), dumpIndex(t, ix)); diff != "" {
				t.Errorf("the updated index differs from a fresh build (-fresh +updated):\n%s", diff)
			}
		})
	}
}
