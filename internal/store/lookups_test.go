package store

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// adds records the batches a lookups adds, and fails while told to.
type adds struct {
	mu      sync.Mutex
	batches [][2]int64
	fail    bool
}

func (a *adds) add(_ context.Context, hits, misses int64) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.fail {
		return errors.New("backend down")
	}
	a.batches = append(a.batches, [2]int64{hits, misses})
	return nil
}

func (a *adds) setFail(fail bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.fail = fail
}

func (a *adds) got() [][2]int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([][2]int64(nil), a.batches...)
}

func TestLookupsBatching(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := &adds{}
		l := newLookups(a.add, slog.New(slog.NewTextHandler(io.Discard, nil)))
		l.record(true)
		l.record(true)
		l.record(false)
		if got := a.got(); len(got) != 0 {
			t.Fatalf("added before flushDelay: %v", got)
		}
		time.Sleep(flushDelay)
		synctest.Wait()
		if got := a.got(); len(got) != 1 || got[0] != [2]int64{2, 1} {
			t.Fatalf("after flushDelay: %v, want one batch of 2 hits, 1 miss", got)
		}

		a.setFail(true)
		l.record(false)
		time.Sleep(flushDelay)
		synctest.Wait()
		if err := l.flush(t.Context()); err == nil {
			t.Error("flush to a failing backend: no error")
		}
		a.setFail(false)
		l.record(true)
		if err := l.close(t.Context()); err != nil {
			t.Fatal(err)
		}
		// The failed batch was kept and added with the next.
		if got := a.got(); len(got) != 2 || got[1] != [2]int64{1, 1} {
			t.Errorf("batches %v, want the failed miss kept for the next", got)
		}
		l.record(true) // after close: counted, never added
		time.Sleep(2 * flushDelay)
		synctest.Wait()
		if got := a.got(); len(got) != 2 {
			t.Errorf("added after close: %v", got)
		}
	})
}

func TestHitRate(t *testing.T) {
	for _, c := range []struct {
		st   Stats
		want float64
	}{
		{Stats{}, 0},
		{Stats{Hits: 3, Misses: 1}, 0.75},
		{Stats{Misses: 5}, 0},
		{Stats{Hits: 5}, 1},
	} {
		if got := c.st.HitRate(); got != c.want {
			t.Errorf("%+v.HitRate() = %v, want %v", c.st, got, c.want)
		}
	}
}
