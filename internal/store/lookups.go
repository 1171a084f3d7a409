package store

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

const (
	// flushDelay is how long hits and misses wait in memory before they are added to the
	// backend's totals: one write per second at most, instead of one per Get.
	flushDelay = time.Second
	// flushTimeout bounds a flush that no caller's context bounds.
	flushTimeout = 5 * time.Second
)

// lookups counts the hits and misses of one Store and adds them to the backend's totals,
// through add, in batches: flushDelay after the first lookup not yet added, and whenever
// flush is called (by Stats and Close). A failed add keeps the counts for the next try.
type lookups struct {
	add    func(ctx context.Context, hits, misses int64) error
	logger *slog.Logger

	hits, misses atomic.Int64

	mu     sync.Mutex // guards timer and closed
	timer  *time.Timer
	closed bool

	flushMu sync.Mutex // one add at a time, and none after close
}

func newLookups(add func(ctx context.Context, hits, misses int64) error, logger *slog.Logger) *lookups {
	return &lookups{add: add, logger: logger}
}

// record counts one Get.
func (l *lookups) record(hit bool) {
	if hit {
		l.hits.Add(1)
	} else {
		l.misses.Add(1)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.timer == nil && !l.closed {
		l.timer = time.AfterFunc(flushDelay, l.timerFired)
	}
}

// timerFired adds the counts in the background, unless the Store has closed meanwhile (Close
// added them itself).
func (l *lookups) timerFired() {
	l.flushMu.Lock()
	defer l.flushMu.Unlock()
	l.mu.Lock()
	l.timer = nil
	closed := l.closed
	l.mu.Unlock()
	if closed {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	if err := l.flushLocked(ctx); err != nil {
		l.logger.Warn("store: could not record hits and misses; will retry", "err", err)
	}
}

// flush adds the counts not yet added.
func (l *lookups) flush(ctx context.Context) error {
	l.flushMu.Lock()
	defer l.flushMu.Unlock()
	return l.flushLocked(ctx)
}

func (l *lookups) flushLocked(ctx context.Context) error {
	h, m := l.hits.Swap(0), l.misses.Swap(0)
	if h == 0 && m == 0 {
		return nil
	}
	if err := l.add(ctx, h, m); err != nil {
		l.hits.Add(h)
		l.misses.Add(m)
		return err
	}
	return nil
}

// close stops the timer and adds the counts one last time. A background add in progress
// finishes first; none starts after.
func (l *lookups) close(ctx context.Context) error {
	l.mu.Lock()
	l.closed = true
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	l.mu.Unlock()
	return l.flush(ctx)
}
