package telescope

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/winnowhq/winnow/internal/store"
)

// fixture writes testdata/repo.txtar into a fresh directory and returns it.
func fixture(t testing.TB) string {
	t.Helper()
	ar, err := txtar.ParseFile("testdata/repo.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		writeFile(t, filepath.Join(dir, f.Name), string(f.Data))
	}
	return dir
}

func writeFile(t testing.TB, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sqliteStore opens a real SQLite store in the test's directory.
func sqliteStore(t testing.TB) (store.Store, string) {
	t.Helper()
	url := "sqlite://" + filepath.ToSlash(filepath.Join(t.TempDir(), "store.db"))
	return openStore(t, url), url
}

func openStore(t testing.TB, url string) store.Store {
	t.Helper()
	st, err := store.Open(t.Context(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// backends are the stores every build test runs against: a small in-memory map, and the
// real SQLite backend.
func backends(t *testing.T) map[string]func(t *testing.T) Store {
	return map[string]func(t *testing.T) Store{
		"memory": func(t *testing.T) Store { return newMemStore() },
		"sqlite": func(t *testing.T) Store { s, _ := sqliteStore(t); return s },
	}
}

// memStore is an in-memory Store.
type memStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

func newMemStore() *memStore { return &memStore{m: map[string][]byte{}} }

func (s *memStore) Get(_ context.Context, key string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[key]
	return v, ok, nil
}

func (s *memStore) Put(_ context.Context, key string, value []byte, _ time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[key] = append([]byte(nil), value...)
	return nil
}

// brokenStore fails every call, as an unreachable backend would.
type brokenStore struct{}

var errUnreachable = errors.New("dial tcp 127.0.0.1:1: connection refused")

func (brokenStore) Get(context.Context, string) ([]byte, bool, error) {
	return nil, false, errUnreachable
}
func (brokenStore) Put(context.Context, string, []byte, time.Duration) error {
	return errUnreachable
}

// counting wraps a strategy and counts its Abstract calls by path.
type counting struct {
	Strategy
	mu    sync.Mutex
	calls map[string]int
	total atomic.Int64
}

func newCounting(s Strategy) *counting { return &counting{Strategy: s, calls: map[string]int{}} }

func (c *counting) Abstract(ctx context.Context, u *Unit) (Abstract, error) {
	c.total.Add(1)
	c.mu.Lock()
	c.calls[u.Path]++
	c.mu.Unlock()
	return c.Strategy.Abstract(ctx, u)
}

// newEngine returns an engine over root with st, and the counting code_signature strategy
// registered as "counted".
func newEngine(t testing.TB, root string, st Store) (*Engine, *counting) {
	t.Helper()
	reg, err := NewRegistry(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := newCounting(deterministic(Spec{Name: "counted", Version: 1, Kind: CodeSignature}))
	if err := reg.Add(c); err != nil {
		t.Fatal(err)
	}
	e, err := New(&Options{Root: root, Store: st, Strategies: reg})
	if err != nil {
		t.Fatal(err)
	}
	return e, c
}

func build(t testing.TB, e *Engine, req Request) *Result {
	t.Helper()
	res, err := e.Build(t.Context(), req)
	if err != nil {
		t.Fatalf("Build(%+v): %v", req, err)
	}
	return res
}
