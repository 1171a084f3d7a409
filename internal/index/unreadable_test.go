package index

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// updateChildEnv makes the test binary update the index of the root it
// names and print the stats as JSON: an update by another process, which
// may have fewer rights than the test.
const updateChildEnv = "WINNOW_INDEX_UPDATE_CHILD"

func updateChild(root string) {
	ix, err := Open(context.Background(), Options{Root: root})
	if err == nil {
		var st *Stats
		if st, err = ix.Update(context.Background(), nil); err == nil {
			json.NewEncoder(os.Stdout).Encode(st)
			os.Exit(0)
		}
	}
	fmt.Println("error:", err)
	os.Exit(1)
}

// updateWithout updates the index of root in a process that cannot read
// file. As root, which reads any file whatever its mode, that is a child
// whose bounding set lacks CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH
// (setpriv, from util-linux): root then obeys the mode bits like anyone.
func updateWithout(t *testing.T, root, file string) *Stats {
	t.Helper()
	if err := os.Chmod(file, 0); err != nil {
		t.Fatal(err)
	}
	name, args := os.Args[0], []string{"-test.run=^$"}
	if _, err := os.ReadFile(file); err == nil {
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			t.Fatal("this test runs as root, which reads any file: it needs setpriv (Debian util-linux) to drop CAP_DAC_OVERRIDE")
		}
		args = append([]string{"--bounding-set=-dac_override,-dac_read_search", "--", name}, args...)
		name = setpriv
	}
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), updateChildEnv+"="+root)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("update in a child process: %v: %s", err, out)
	}
	var st Stats
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatalf("update in a child process: %v: %s", err, out)
	}
	return &st
}

// TestUnreadableFileRetried skips a file the indexer cannot read, then
// makes it readable again with chmod alone, which leaves its size and
// modification time as they were: the next update indexes it.
func TestUnreadableFileRetried(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": "def a(): pass\n", "locked.py": "def locked(): pass\n"})
	locked := filepath.Join(root, "locked.py")
	before, err := os.Stat(locked)
	if err != nil {
		t.Fatal(err)
	}

	st := updateWithout(t, root, locked)
	if st.Files != 1 || st.Skipped[ReasonUnreadable] != 1 {
		t.Fatalf("an unreadable file: %+v", st)
	}
	ix := openIndex(t, Options{Root: root})
	gen, err := ix.Generation(t.Context())
	if err != nil {
		t.Fatal(err)
	}

	t.Run("still unreadable", func(t *testing.T) {
		// Looking at it again must not write: a file that stays unreadable
		// would otherwise change the index on every run.
		st := updateWithout(t, root, locked)
		if st.Files != 1 || st.Skipped[ReasonUnreadable] != 1 || st.Parsed != 0 {
			t.Errorf("a file still unreadable: %+v", st)
		}
		if g, err := ix.Generation(t.Context()); err != nil || g != gen {
			t.Errorf("an update that found nothing new wrote the index: generation %q → %q (%v)", gen, g, err)
		}
	})

	if err := os.Chmod(locked, 0o644); err != nil {
		t.Fatal(err)
	}
	if after, err := os.Stat(locked); err != nil || !after.ModTime().Equal(before.ModTime()) || after.Size() != before.Size() {
		t.Fatalf("chmod changed the stat the index compares: %v", err)
	}
	st = update(t, ix)
	if st.Files != 2 || st.Parsed != 1 || st.Skipped[ReasonUnreadable] != 0 {
		t.Errorf("the update after chmod 644: %+v", st)
	}
	if got := quals(t, ix, "locked"); len(got) != 1 {
		t.Errorf("locked.py readable again but not indexed: %v", got)
	}
}
