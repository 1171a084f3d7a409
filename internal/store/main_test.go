package store

import (
	"bufio"
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// childEnv names the SQLite file a re-executed test binary writes to as the second process
// of TestSQLiteTwoProcesses.
const childEnv = "WINNOW_STORE_TEST_CHILD"

func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		if err := childWriter(path); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	stopShared()
	os.Exit(code)
}

// Parameters of the two-process test.
const (
	procKeys   = 300 // keys each process writes
	procMisses = 7   // Gets of absent keys each process makes
)

// childWriter is the second process: it opens the store, says "ready", waits for "go" on
// stdin, then writes, reads back and looks up absent keys exactly as the parent does.
func childWriter(path string) error {
	ctx := context.Background()
	s, err := Open(ctx, sqliteURL(path), nil)
	if err != nil {
		return err
	}
	fmt.Println("ready")
	if line, _ := bufio.NewReader(os.Stdin).ReadString('\n'); line != "go\n" {
		return fmt.Errorf("want go, got %q", line)
	}
	if err := writeAndCheck(ctx, s, "p1"); err != nil {
		s.Close()
		return err
	}
	return s.Close()
}

// writeAndCheck puts procKeys keys under "proc/<id>/", plus the shared key "proc/shared" on
// every tenth, reads each back, and looks up procMisses absent keys.
func writeAndCheck(ctx context.Context, s Store, id string) error {
	for i := range procKeys {
		k, v := procKey(id, i), procValue(id, i)
		if err := s.Put(ctx, k, v, 0); err != nil {
			return err
		}
		if i%10 == 0 {
			if err := s.Put(ctx, "proc/shared", v, 0); err != nil {
				return err
			}
		}
	}
	for i := range procKeys {
		got, ok, err := s.Get(ctx, procKey(id, i))
		if err != nil || !ok || string(got) != string(procValue(id, i)) {
			return fmt.Errorf("get %s: %q %v %v", procKey(id, i), got, ok, err)
		}
	}
	for i := range procMisses {
		if _, ok, err := s.Get(ctx, fmt.Sprintf("proc/%s/absent/%d", id, i)); ok || err != nil {
			return fmt.Errorf("absent key %d: found %v, err %v", i, ok, err)
		}
	}
	return nil
}

func procKey(id string, i int) string   { return fmt.Sprintf("proc/%s/%04d", id, i) }
func procValue(id string, i int) []byte { return fmt.Appendf(nil, "value %d of process %s", i, id) }

// sqliteURL is the sqlite: URL of the file at path.
func sqliteURL(path string) string {
	return (&url.URL{Scheme: "sqlite", Path: path}).String()
}

// fakeClock is a clock the SQLite tests advance by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// tempDB is the path of a new store file in a test's temporary directory.
func tempDB(t testing.TB) string {
	return filepath.Join(t.TempDir(), "store.db")
}
