//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestCallsDoNotWaitForTheWatchersFirstUpdate: as winnow mcp starts, the
// watcher's first update waits for the writers' lock, which another
// writer holds (winnow mcp's own upgrade to the full tier, a chunk at a
// time, or another process); a tool call meanwhile answers from the
// index the server's first update made, without waiting for it.
func TestCallsDoNotWaitForTheWatchersFirstUpdate(t *testing.T) {
	dir := fixture(t)
	s := newServer(t, dir, &Options{RefreshInterval: time.Hour})
	if _, err := s.Refresh(t.Context()); err != nil { // as winnow mcp does as it starts
		t.Fatal(err)
	}
	cs := connect(t, s)

	lock, err := os.OpenFile(filepath.Join(dir, ".winnow", "lock"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	released := false
	release := func() {
		if !released {
			released = true
			syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
		}
	}
	defer release() // before the watcher is stopped (watch's cleanup)
	watch(t, s)
	time.Sleep(200 * time.Millisecond) // the watcher watches, and its first update waits

	type answer struct {
		text string
		err  error
	}
	answered := make(chan answer, 1)
	go func() {
		res, err := callTool(t, cs, toolContext, map[string]any{"task": "where is NewStore defined"})
		if err == nil && res.IsError {
			err = os.ErrInvalid
		}
		var text string
		if res != nil {
			text = resultText(res)
		}
		answered <- answer{text, err}
	}()
	select {
	case a := <-answered:
		if a.err != nil {
			t.Fatalf("context: %v: %s", a.err, a.text)
		}
		mustContain(t, "context", a.text, "NewStore")
	case <-time.After(10 * time.Second):
		release()
		a := <-answered
		t.Fatalf("the call waited for the watcher's first update, until the writers' lock was released (%v)", a.err)
	}
}
