package index

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRebuildKeepsReaders pauses a rebuild halfway and reads the index
// the ways other processes would meanwhile: a reader opened before, one
// opened during the rebuild and a snapshot all answer from the previous
// index until the new one is complete, and from the new one after.
func TestRebuildKeepsReaders(t *testing.T) {
	root := t.TempDir()
	shapesTree(t, root, 60)
	before := openIndex(t, Options{Root: root})
	update(t, before)
	gen, err := before.Generation(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	snap, err := before.Snapshot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	writeTree(t, root, map[string]string{"fresh.py": "def fresh_start():\n    pass\n"})

	rebuild := openIndex(t, Options{Root: root, Rebuild: true, Workers: 1})
	midway, resume := make(chan struct{}), make(chan struct{})
	done := make(chan *Stats, 1)
	go func() {
		st, err := rebuild.Update(t.Context(), func(n, total int) {
			if n == total/2 {
				close(midway)
				<-resume
			}
		})
		if err != nil {
			t.Error(err)
		}
		done <- st
	}()
	select {
	case <-midway:
	case <-done:
		t.Fatal("the rebuild finished before it was paused")
	}

	during := openIndex(t, Options{Root: root})
	for name, ix := range map[string]*Index{"a reader opened before": before, "a reader opened during": during} {
		if got := quals(t, ix, "Shape7"); len(got) != 1 {
			t.Errorf("%s lost the previous index during a rebuild: Shape7 → %v", name, got)
		}
		if got := quals(t, ix, "fresh_start"); len(got) != 0 {
			t.Errorf("%s sees the unfinished index: fresh_start → %v", name, got)
		}
	}
	tmp := filepath.Join(root, ".winnow", dbName+".new")
	if _, err := os.Stat(tmp); err != nil {
		t.Errorf("the rebuild is not building beside the index: %v", err)
	}

	close(resume)
	if st := <-done; st == nil || st.Files != 61 || st.Parsed != 61 {
		t.Fatalf("rebuild: %+v", st)
	}
	after := openIndex(t, Options{Root: root})
	for name, ix := range map[string]*Index{"a reader opened before": before, "a reader opened during": during, "a reader opened after": after, "the rebuilt index": rebuild} {
		if got := quals(t, ix, "fresh_start"); len(got) != 1 {
			t.Errorf("%s does not see the rebuilt index: fresh_start → %v", name, got)
		}
		if g, err := ix.Generation(t.Context()); err != nil || g == gen {
			t.Errorf("%s: generation %q after a rebuild, %q before (%v): caches of the previous index would be kept", name, g, gen, err)
		}
	}
	if g, err := snap.Generation(t.Context()); err != nil || g != gen {
		t.Errorf("a snapshot taken before the rebuild moved to generation %q (%v), want %q", g, err, gen)
	}
	for _, f := range []string{tmp, tmp + "-wal", tmp + "-shm"} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s is left behind: %v", f, err)
		}
	}
	var check string
	if err := after.db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check after the rebuild: %q %v", check, err)
	}
	if st := update(t, after); st.Parsed != 0 || st.Unchanged != 61 {
		t.Errorf("the update after a rebuild: %+v", st)
	}
}
