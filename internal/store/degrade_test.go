package store

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// logBuffer collects a logger's JSON lines; the store logs from several goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// count returns how many lines have the level and contain substr.
func (b *logBuffer) count(level slog.Level, substr string) int {
	n := 0
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.Contains(line, `"level":"`+level.String()+`"`) && strings.Contains(line, substr) {
			n++
		}
	}
	return n
}

// TestDegradeRedisKilled kills the Redis server under a degraded store mid-test: every call
// then answers as an empty cache without an error, one warning is logged, and when a new
// (empty) server comes up on the same port caching resumes, without the old values.
func TestDegradeRedisKilled(t *testing.T) {
	r := privateRedis(t, 0)
	ctx := t.Context()
	inner, err := Open(ctx, fmt.Sprintf("redis://127.0.0.1:%d/0", r.port), nil)
	if err != nil {
		t.Fatal(err)
	}
	var logs logBuffer
	s := Degrade(inner, slog.New(slog.NewJSONHandler(&logs, nil)))
	clock := newFakeClock()
	s.(*degraded).now = clock.Now

	mustPut(t, s, "k", []byte("before"), 0)
	wantGet(t, s, "k", []byte("before"))
	stats(t, s) // sends the lookups now, so none are left for a dead server

	r.stop()
	wantGet(t, s, "k", nil)
	mustPut(t, s, "k2", []byte("lost"), 0)
	wantGet(t, s, "k2", nil)
	wantExists(t, s, "k", false)
	if err := s.Delete(ctx, "k"); err != nil {
		t.Errorf("delete: %v", err)
	}
	if keys := scanKeys(t, s, ""); len(keys) != 0 {
		t.Errorf("scan found %q", keys)
	}
	if n, err := s.Expire(ctx); n != 0 || err != nil {
		t.Errorf("expire = %d, %v", n, err)
	}
	if st := stats(t, s); st != (Stats{}) {
		t.Errorf("stats %+v, want zero", st)
	}
	if _, _, err := s.Get(ctx, ""); !errors.Is(err, ErrInvalid) {
		t.Errorf("bad input while degraded: %v, want ErrInvalid", err)
	}
	clock.Add(degradedRetry + time.Second) // due for a retry; the server is still down
	wantGet(t, s, "k", nil)
	if n := logs.count(slog.LevelWarn, fmt.Sprintf("store: redis at 127.0.0.1:%d unreachable", r.port)); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, logs.String())
	}

	privateRedis(t, r.port) // a new, empty server where the old one was
	clock.Add(degradedRetry + time.Second)
	mustPut(t, s, "k3", []byte("after"), 0)
	wantGet(t, s, "k3", []byte("after"))
	wantGet(t, s, "k", nil) // never the value the dead server held
	if n := logs.count(slog.LevelInfo, fmt.Sprintf("store: redis at 127.0.0.1:%d reachable again", r.port)); n != 1 {
		t.Errorf("%d recovery lines, want 1:\n%s", n, logs.String())
	}
	if err := s.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
}

// TestDegradeUnreachableAtStart points a store at a port nobody listens on: Open succeeds, and
// the degraded store misses with one warning that says, in a sentence, which Redis could not
// be reached, why, and what that costs, without the password.
func TestDegradeUnreachableAtStart(t *testing.T) {
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	inner, err := Open(t.Context(), fmt.Sprintf("redis://:hunter2@127.0.0.1:%d/0", port), nil)
	if err != nil {
		t.Fatalf("open does not connect, so it cannot fail here: %v", err)
	}
	var logs logBuffer
	s := Degrade(inner, slog.New(slog.NewJSONHandler(&logs, nil)))
	defer s.Close()
	for range 3 {
		wantGet(t, s, "k", nil)
		mustPut(t, s, "k", []byte("v"), 0)
	}
	if n := logs.count(slog.LevelWarn, ""); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, logs.String())
	}
	for _, want := range []string{
		fmt.Sprintf(`"msg":"store: redis at 127.0.0.1:%d unreachable (dial tcp 127.0.0.1:%d: connect: connection refused); `, port, port),
		"continuing without the shared cache: telescope nodes and compaction results are computed again instead of read from it, and not shared with other processes; trying again every 5s",
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the warning does not say %q:\n%s", want, logs.String())
		}
	}
	if strings.Contains(logs.String(), "hunter2") {
		t.Errorf("the log shows the password:\n%s", logs.String())
	}
}

// TestDegradeHealthy checks that a working store's answers, and the caller's own errors, pass
// through unchanged.
func TestDegradeHealthy(t *testing.T) {
	eachBackend(t, func(t *testing.T, e *env) {
		var logs logBuffer
		s := Degrade(e.open(t, nil), slog.New(slog.NewJSONHandler(&logs, nil)))
		mustPut(t, s, "k", []byte("v"), 0)
		wantGet(t, s, "k", []byte("v"))
		wantExists(t, s, "k", true)
		stop := errors.New("stop")
		if err := s.Scan(t.Context(), "", func(string) error { return stop }); !errors.Is(err, stop) {
			t.Errorf("scan: %v, want fn's error", err)
		}
		if err := s.Put(t.Context(), "", nil, 0); !errors.Is(err, ErrInvalid) {
			t.Errorf("put with an empty key: %v, want ErrInvalid", err)
		}
		if st := stats(t, s); st.Entries != 1 || st.Hits != 1 {
			t.Errorf("stats %+v", st)
		}
		if logs.String() != "" {
			t.Errorf("logged:\n%s", logs.String())
		}
	})
}
