package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/winnowhq/winnow/internal/index"
)

// A refresher brings the index up to date before tools answer. While a
// watcher runs (Server.Watch), that is asking it to index what changed
// so far, which costs nothing when nothing did; otherwise it is a rescan
// of the tree at most once per interval. One update for calls runs at a
// time; calls that arrive during it wait for it rather than starting
// another. (The watcher's first update, as it starts, runs beside them:
// run.)
// After each update the engine loads the new corpus and writes its file
// (warm), so the next call answers at once.
type refresher struct {
	ix    *index.Index
	every time.Duration // negative: only when asked with now
	log   *slog.Logger
	warm  func(context.Context) error
	// keep keeps the references of the index in memory, the first time in
	// full (retrieve.Engine.KeepReferences): run calls it as it starts,
	// beside the watcher, so that calls of the other tools do not wait for
	// it; warm keeps them current after.
	keep func(context.Context) error
	// keeping is closed when run's keep is done; nil until it starts.
	keeping atomic.Pointer[chan struct{}]

	sem  chan struct{}             // capacity 1: held while checking or updating
	last atomic.Pointer[time.Time] // when the last update attempt ended

	watch atomic.Pointer[watching] // the running watcher, if any
}

// watching is a running watcher as the refresher sees it.
type watching struct {
	flush   chan chan struct{}
	stopped chan struct{} // closed when the watcher stops

	mu  sync.Mutex
	err error // of the last batch
}

func (w *watching) setErr(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.err = err
}

func (w *watching) lastErr() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// ensure brings the index up to date: through the watcher when one
// runs, else by an update unless one ended less than the interval ago;
// and waits for a call's update in progress, or the server's first
// (Refresh), in any case. It returns "" or a
// note for the agent saying the answer may be stale: a failed update
// does not fail the call. If ctx ends while it waits, it returns at once
// and the call answers from the index as it is.
func (r *refresher) ensure(ctx context.Context) string {
	if w := r.watch.Load(); w != nil {
		return r.flush(ctx, w)
	}
	if !r.acquire(ctx) {
		return ""
	}
	defer r.release()
	if r.every < 0 || r.recent() {
		return ""
	}
	if _, err := r.update(ctx); err != nil && ctx.Err() == nil {
		return staleNote(err)
	}
	return ""
}

// flush has the watcher index what changed so far and waits for it.
func (r *refresher) flush(ctx context.Context, w *watching) string {
	done := make(chan struct{})
	select {
	case w.flush <- done:
	case <-w.stopped:
		return ""
	case <-ctx.Done():
		return ""
	}
	select {
	case <-done:
	case <-ctx.Done():
		return ""
	}
	if err := w.lastErr(); err != nil {
		return staleNote(err)
	}
	return ""
}

func staleNote(err error) string {
	return fmt.Sprintf("Note: the index could not be brought up to date (%v); this answer reflects the repository as last indexed.", err)
}

// awaitKeep waits for run's keep, if it has started, until ctx ends: a
// context call right after the start ranks with the references in
// memory rather than competing with their reading.
func (r *refresher) awaitKeep(ctx context.Context) {
	if done := r.keeping.Load(); done != nil {
		select {
		case <-*done:
		case <-ctx.Done():
		}
	}
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

// recent reports whether an update ended less than the interval ago.
func (r *refresher) recent() bool {
	last := r.last.Load()
	return last != nil && time.Since(*last) < r.every
}

// update runs one index update and warms the engine.
func (r *refresher) update(ctx context.Context) (*index.Stats, error) {
	st, err := r.ix.Update(ctx, nil)
	now := time.Now()
	r.last.Store(&now) // a failing update is retried after the interval, not on every call
	if err != nil {
		if ctx.Err() == nil {
			r.log.WarnContext(ctx, "index update failed; answering from the last good index", "err", err)
		}
		return nil, fmt.Errorf("update index: %w", err)
	}
	r.log.DebugContext(ctx, "index refreshed", "parsed", st.Parsed, "removed", st.Removed, "renamed", st.Renamed, "duration", st.Duration)
	r.warmUp(ctx)
	return st, nil
}

// warmUp loads the corpus of the index as updated and writes its file.
func (r *refresher) warmUp(ctx context.Context) {
	if r.warm == nil {
		return
	}
	if err := r.warm(ctx); err != nil && ctx.Err() == nil {
		r.log.WarnContext(ctx, "could not load the updated index; the next call tries again", "err", err)
	}
}

// run keeps the index current from file system events until ctx ends
// (index.Watch), and makes ensure ask the watcher from the moment every
// directory is watched and one full update has caught what changed
// before. When the system cannot watch the tree, it stops, and ensure
// goes back to rescanning every interval.
func (r *refresher) run(ctx context.Context) error {
	if r.keep != nil {
		// Beside the watcher, from the start: a first call waits for the
		// longer of the two, the first update or this.
		done := make(chan struct{})
		r.keeping.Store(&done)
		go func(ctx context.Context) { // run's ctx, which run replaces below
			defer close(done)
			if err := r.keep(ctx); err != nil && ctx.Err() == nil {
				r.log.WarnContext(ctx, "could not keep the references in memory; calls read them from the index", "err", err)
			}
		}(ctx)
		defer func() { <-done }()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := &watching{flush: make(chan chan struct{}), stopped: make(chan struct{})}
	defer close(w.stopped)
	defer r.watch.CompareAndSwap(w, nil)
	ready := make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		errc <- r.ix.Watch(ctx, index.WatchOptions{
			Ready: ready,
			Flush: w.flush,
			OnUpdate: func(st *index.Stats, err error) {
				if errors.Is(err, index.ErrNoWatch) {
					r.log.WarnContext(ctx, "not watching the tree; rescanning it before answering instead", "err", err)
					cancel()
					return
				}
				w.setErr(err)
				if err != nil {
					r.log.WarnContext(ctx, "index update failed; answering from the last good index", "err", err)
					return
				}
				r.log.DebugContext(ctx, "index updated from the watcher", "parsed", st.Parsed, "removed", st.Removed, "renamed", st.Renamed, "duration", st.Duration)
				r.warmUp(ctx)
			},
		})
	}()
	select {
	case <-ready:
	case err := <-errc:
		return err
	}
	if ctx.Err() == nil {
		// What changed before the watcher watched. Calls meanwhile do not
		// wait for it (it does not hold sem) but answer from the index as
		// the server's first update left it a moment before (ensure): a
		// new index is upgraded in the background, a chunk of files at a
		// time under the writers' lock, and this update waits for a chunk
		// (with the upgrade's first, for the git history) before it can
		// look. Waiting for it too, winnow mcp's first answer on sympy
		// came 1.3 s after its index was ready.
		if _, err := r.update(ctx); err != nil && ctx.Err() == nil {
			w.setErr(err)
		}
		r.watch.Store(w)
	}
	err := <-errc
	if err != nil && ctx.Err() == nil {
		r.log.WarnContext(ctx, "stopped watching the tree; rescanning it before answering instead", "err", err)
	}
	return err
}
