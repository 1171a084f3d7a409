package mcpserver

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/winnowhq/winnow/internal/index"
)

// A refresher brings the index up to date before tools answer, at most
// once per interval. One update runs at a time; calls that arrive during
// it wait for it rather than starting another.
type refresher struct {
	ix    *index.Index
	every time.Duration // negative: only when asked with now
	log   *slog.Logger

	sem  chan struct{} // capacity 1: held while checking or updating
	last time.Time     // when the last update attempt ended; guarded by sem
}

// ensure updates the index unless an update ended less than the interval
// ago, and waits for an update in progress in any case. It returns "" or
// a note for the agent saying the answer may be stale: a failed update
// does not fail the call. If ctx ends while it waits, it returns at once
// and the call answers from the index as it is.
func (r *refresher) ensure(ctx context.Context) string {
	if !r.acquire(ctx) {
		return ""
	}
	defer r.release()
	if r.every < 0 || !r.last.IsZero() && time.Since(r.last) < r.every {
		return ""
	}
	if _, err := r.update(ctx); err != nil && ctx.Err() == nil {
		return fmt.Sprintf("Note: the index could not be brought up to date (%v); this answer reflects the repository as last indexed.", err)
	}
	return ""
}

// now updates the index at once, whatever the interval.
func (r *refresher) now(ctx context.Context) (*index.Stats, error) {
	if !r.acquire(ctx) {
		return nil, ctx.Err()
	}
	defer r.release()
	return r.update(ctx)
}

func (r *refresher) acquire(ctx context.Context) bool {
	select {
	case r.sem <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (r *refresher) release() { <-r.sem }

// update runs one index update; the caller holds sem.
func (r *refresher) update(ctx context.Context) (*index.Stats, error) {
	st, err := r.ix.Update(ctx, nil)
	r.last = time.Now() // a failing update is retried after the interval, not on every call
	if err != nil {
		if ctx.Err() == nil {
			r.log.WarnContext(ctx, "index update failed; answering from the last good index", "err", err)
		}
		return nil, fmt.Errorf("update index: %w", err)
	}
	r.log.DebugContext(ctx, "index refreshed", "parsed", st.Parsed, "removed", st.Removed, "renamed", st.Renamed, "duration", st.Duration)
	return st, nil
}
