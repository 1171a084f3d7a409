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

// TestWatchFlush: a flush request indexes what changed at once, however
// long the debounce, and is answered once it is indexed; with nothing
// pending it is answered at once.
func TestWatchFlush(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": "def a(): pass\n"})
	ix := openIndex(t, Options{Root: root})
	update(t, ix)

	ctx, cancel := context.WithCancel(t.Context())
	ready := make(chan struct{})
	flush := make(chan chan struct{})
	batches := 0
	done := make(chan error, 1)
	go func() {
		done <- ix.Watch(ctx, WatchOptions{
			Debounce: time.Hour, MaxDelay: time.Hour, // only a flush indexes
			Ready: ready,
			Flush: flush,
			OnUpdate: func(st *Stats, err error) {
				if err != nil {
					t.Errorf("watch update: %v", err)
				}
				batches++
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
	ask := func() {
		t.Helper()
		req := make(chan struct{})
		flush <- req
		<-req
	}

	ask()
	if batches != 0 {
		t.Errorf("a flush with nothing pending indexed %d batches", batches)
	}
	writeTree(t, root, map[string]string{"b.py": "def flushed_in(): pass\n"})
	// The event may still be on its way from the kernel when the first
	// request lands; without flushes it would wait an hour.
	deadline := time.Now().Add(10 * time.Second)
	for {
		ask()
		syms, err := ix.Lookup(t.Context(), "flushed_in", LookupOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(syms) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("flushes never indexed b.py (%d batches)", batches)
		}
	}
	if batches != 1 {
		t.Errorf("one new file took %d batches", batches)
	}
}
