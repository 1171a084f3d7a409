package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestWatch(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": "def a(): pass\n"})
	ix := openIndex(t, Options{Root: root})
	update(t, ix)

	ctx, cancel := context.WithCancel(t.Context())
	ready := make(chan struct{})
	updates := make(chan *Stats, 16)
	done := make(chan error, 1)
	go func() {
		done <- ix.Watch(ctx, WatchOptions{
			Debounce: 20 * time.Millisecond,
			Ready:    ready,
			OnUpdate: func(st *Stats, err error) {
				if err != nil {
					t.Errorf("watch update: %v", err)
					return
				}
				updates <- st
			},
		})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Watch returned %v", err)
		}
	}()
	<-ready

	// waitFor waits for updates until cond holds of the index.
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.After(20 * time.Second)
		for !cond() {
			select {
			case <-updates:
			case <-deadline:
				t.Fatalf("watch never indexed: %s", what)
			}
		}
	}
	count := func(name string) func() int { return func() int { return len(quals(t, ix, name)) } }

	writeTree(t, root, map[string]string{"b.py": "def fresh(): pass\n"})
	waitFor("a new file", func() bool { return count("fresh")() == 1 })

	writeTree(t, root, map[string]string{"a.py": "def renamed_a(): pass\n"})
	waitFor("an edit", func() bool { return count("renamed_a")() == 1 && count("a")() == 0 })

	// A new directory is watched too, and files created in it are seen.
	writeTree(t, root, map[string]string{"pkg/deep/c.go": "package deep\nfunc Deep() {}\n"})
	waitFor("a file in a new directory", func() bool { return count("Deep")() == 1 })
	writeTree(t, root, map[string]string{"pkg/deep/d.go": "package deep\nfunc Deeper() {}\n"})
	waitFor("a later file in the new directory", func() bool { return count("Deeper")() == 1 })

	if err := os.RemoveAll(filepath.Join(root, "pkg")); err != nil {
		t.Fatal(err)
	}
	waitFor("a removed directory", func() bool { return count("Deep")() == 0 && count("Deeper")() == 0 })

	// Writes to the index's own directory do not wake the watcher up.
	if ix.watchedRelOK(filepath.Join(root, ".winnow", "index.db")) {
		t.Error("events in the index directory must be ignored")
	}
}

func (ix *Index) watchedRelOK(name string) bool {
	_, ok := ix.watchedRel(name)
	return ok
}
