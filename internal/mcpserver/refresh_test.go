package mcpserver

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/retrieve"
)

// TestWatchedCallsAskTheWatcher: with Watch running, tool calls no
// longer rescan the tree (even with a refresh interval that would
// rescan before every call), yet a file written just before a call is in
// its answer, and after that batch the corpus file is current, so that
// a winnow context process opens it rather than building it.
func TestWatchedCallsAskTheWatcher(t *testing.T) {
	dir := fixture(t)
	s := newServer(t, dir, &Options{RefreshInterval: time.Nanosecond})
	cs := connect(t, s)
	watch(t, s)
	deadline := time.Now().Add(20 * time.Second)
	for s.fresh.watch.Load() == nil {
		if time.Now().After(deadline) {
			t.Fatal("the watcher never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if text, isErr := call(t, cs, toolFindSymbol, map[string]any{"name": "NewStore"}); isErr {
		t.Fatalf("find_symbol: %s", text)
	}
	rescanned := s.fresh.last.Load()

	writeFile(t, filepath.Join(dir, "store", "ledger.go"), "package store\n\n// CloseLedgerPeriod sums a period.\nfunc CloseLedgerPeriod() int { return 0 }\n")
	found := false
	for !found && time.Now().Before(deadline) {
		// The event may still be on its way from the kernel on the first call.
		text, isErr := call(t, cs, toolFindSymbol, map[string]any{"name": "CloseLedgerPeriod"})
		found = !isErr
		if isErr {
			t.Logf("not yet: %s", text)
		}
	}
	if !found {
		t.Fatal("a new file never reached the answers")
	}
	text, isErr := call(t, cs, toolContext, map[string]any{"task": "close the ledger period"})
	if isErr {
		t.Fatalf("context: %s", text)
	}
	mustContain(t, "context", text, "CloseLedgerPeriod")

	if last := s.fresh.last.Load(); last != rescanned {
		t.Errorf("a call rescanned the tree while the watcher ran (last update %v, then %v)", *rescanned, *last)
	}
	if wrote, err := retrieve.New(s.ix, nil).SaveCorpus(t.Context()); err != nil || wrote {
		t.Errorf("after the watcher's batch the corpus file was not current (wrote %v, %v)", wrote, err)
	}
}

// TestWatchWithoutRefresh: a server that must not update its index does
// not watch either.
func TestWatchWithoutRefresh(t *testing.T) {
	s := newServer(t, fixture(t), &Options{RefreshInterval: -1})
	if err := s.Watch(t.Context()); err != nil || s.fresh.watch.Load() != nil {
		t.Errorf("Watch = %v, watching %v", err, s.fresh.watch.Load() != nil)
	}
}

// TestWatchKeepsReferences: once the watcher runs, the server keeps the
// references in memory (read in the background, not by a call), and a
// context call after a file is written answers from the index as
// updated.
func TestWatchKeepsReferences(t *testing.T) {
	dir := fixture(t)
	s := newServer(t, dir, &Options{RefreshInterval: time.Hour})
	cs := connect(t, s)
	watch(t, s)
	deadline := time.Now().Add(20 * time.Second)
	for !s.engine.ReferencesKept() {
		if time.Now().After(deadline) {
			t.Fatal("the references were never kept in memory")
		}
		time.Sleep(5 * time.Millisecond)
	}
	writeFile(t, filepath.Join(dir, "store", "ledger.go"),
		"package store\n\n// CloseLedgerPeriod sums a period.\nfunc CloseLedgerPeriod() int { return NewStore() }\n")
	for {
		text, isErr := call(t, cs, toolContext, map[string]any{"task": "CloseLedgerPeriod returns the wrong sum"})
		if !isErr && strings.Contains(text, "func CloseLedgerPeriod") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a new file never reached the context: %s", text)
		}
	}
}

// watch runs s.Watch until the test ends, and fails the test if it
// returns an error.
func watch(t *testing.T, s *Server) {
	stopped := make(chan error, 1)
	go func() { stopped <- s.Watch(t.Context()) }()
	t.Cleanup(func() {
		if err := <-stopped; err != nil {
			t.Errorf("Watch: %v", err)
		}
	})
}
