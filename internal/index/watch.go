package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
)

// WatchOptions tune Watch. Zero values mean the defaults.
type WatchOptions struct {
	// Debounce is how long the tree must be quiet before a batch of
	// changes is indexed; default 200ms.
	Debounce time.Duration
	// MaxDelay bounds how long a change waits while events keep coming;
	// default 2s.
	MaxDelay time.Duration
	// Poll is the interval of full rescans when the system cannot watch
	// every directory (inotify limits); default 5s.
	Poll time.Duration
	// OnUpdate is called after each batch with its stats or error.
	OnUpdate func(*Stats, error)
	// Ready, if set, is closed once every directory is watched: changes
	// after that are seen.
	Ready chan<- struct{}
	// Flush, if set, takes requests to index what has changed so far at
	// once, without waiting for the tree to be quiet: Watch closes each
	// request's channel when those changes are indexed (and OnUpdate has
	// returned), or at once when there are none. A server calls it before
	// answering, so an edit made just before a question is in the answer.
	// While polling, requests are closed at once: the next rescan is at
	// most Poll away.
	Flush <-chan chan struct{}
}

// ErrNoWatch is the error OnUpdate is given when the system cannot watch
// every directory of the tree and Watch rescans it every Poll instead.
var ErrNoWatch = errors.New("cannot watch every directory")

// Watch keeps the index current until ctx is done. It watches every
// directory of the tree that is not skipped (fsnotify is not recursive),
// batches events, and re-indexes only the paths that changed; a new
// directory or a changed .gitignore triggers a full update. When the
// system runs out of watches it falls back to rescanning the tree.
func (ix *Index) Watch(ctx context.Context, opts WatchOptions) error {
	opts.defaults()
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return ix.poll(ctx, opts, fmt.Errorf("start watcher: %w", err))
	}
	defer w.Close()
	if err := ix.watchTree(ctx, w, ix.root); err != nil {
		if isWatchLimit(err) {
			return ix.poll(ctx, opts, err)
		}
		return err
	}
	if opts.Ready != nil {
		close(opts.Ready)
	}

	pending := make(map[string]bool)
	full := false
	var first time.Time
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	// note records one event; an error means the watches ran out.
	note := func(ev fsnotify.Event) error {
		rel, ok := ix.watchedRel(ev.Name)
		if !ok {
			return nil
		}
		if ev.Has(fsnotify.Create) {
			if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
				if err := ix.watchTree(ctx, w, ev.Name); err != nil && isWatchLimit(err) {
					return err
				}
				full = true
			}
		}
		if filepath.Base(rel) == ".gitignore" {
			full = true
		}
		pending[rel] = true
		if first.IsZero() {
			first = time.Now()
		}
		timer.Reset(min(opts.Debounce, time.Until(first.Add(opts.MaxDelay))))
		return nil
	}
	apply := func() {
		timer.Stop()
		paths := slices.Sorted(maps.Keys(pending))
		clear(pending)
		first = time.Time{}
		if len(paths) > 0 || full {
			ix.applyBatch(ctx, paths, full, opts.OnUpdate)
		}
		full = false
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-w.Errors:
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				full = true
				timer.Reset(opts.Debounce)
				continue
			}
			opts.OnUpdate(nil, fmt.Errorf("watch: %w", err))
		case ev := <-w.Events:
			if err := note(ev); err != nil {
				return ix.poll(ctx, opts, err)
			}
		case <-timer.C:
			apply()
		case done := <-opts.Flush:
			// Events the kernel has queued already belong to the batch.
			for drained := false; !drained; {
				select {
				case ev := <-w.Events:
					if err := note(ev); err != nil {
						close(done)
						return ix.poll(ctx, opts, err)
					}
				default:
					drained = true
				}
			}
			apply()
			close(done)
		}
	}
}

func (o *WatchOptions) defaults() {
	if o.Debounce <= 0 {
		o.Debounce = 200 * time.Millisecond
	}
	if o.MaxDelay <= 0 {
		o.MaxDelay = 2 * time.Second
	}
	if o.Poll <= 0 {
		o.Poll = 5 * time.Second
	}
	if o.OnUpdate == nil {
		o.OnUpdate = func(*Stats, error) {}
	}
}

// applyBatch indexes one batch of changed paths. A path that is now a
// directory stands for an unknown set of files: that takes a full update.
func (ix *Index) applyBatch(ctx context.Context, paths []string, full bool, report func(*Stats, error)) {
	if !full {
		for _, p := range paths {
			if fi, err := os.Stat(filepath.Join(ix.root, filepath.FromSlash(p))); err == nil && fi.IsDir() {
				full = true
				break
			}
		}
	}
	var st *Stats
	var err error
	if full {
		st, err = ix.Update(ctx, nil)
	} else {
		st, err = ix.UpdatePaths(ctx, paths)
	}
	if ctx.Err() != nil {
		return
	}
	report(st, err)
}

// watchedRel maps an event path to an index path, dropping events in
// directories the index never looks at (.git, .winnow, the index dir).
func (ix *Index) watchedRel(name string) (string, bool) {
	if strings.HasPrefix(name, ix.dir+string(filepath.Separator)) || name == ix.dir {
		return "", false
	}
	rel, err := ix.rel(name)
	if err != nil || rel == "." {
		return "", false
	}
	for _, d := range strings.Split(rel, "/") {
		if slices.Contains(alwaysSkippedDirs, d) {
			return "", false
		}
	}
	return rel, true
}

// watchTree adds a watch on dir and every directory below it that the
// index would descend into.
func (ix *Index) watchTree(ctx context.Context, w *fsnotify.Watcher, dir string) error {
	return filepath.WalkDir(dir, func(full string, d fs.DirEntry, err error) error {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if err != nil || !d.IsDir() {
			return nil // unreadable entries are the listing's business
		}
		name := d.Name()
		if full != dir && (slices.Contains(alwaysSkippedDirs, name) ||
			!ix.opts.IncludeVendored && slices.Contains(vendoredDirs, name)) || full == ix.dir {
			return fs.SkipDir
		}
		return w.Add(full)
	})
}

// isWatchLimit reports the errors of a system out of inotify watches or
// descriptors.
func isWatchLimit(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
}

// poll is Watch's fallback: a full update every opts.Poll.
func (ix *Index) poll(ctx context.Context, opts WatchOptions, why error) error {
	opts.OnUpdate(nil, fmt.Errorf("%w (%v); rescanning every %s instead", ErrNoWatch, why, opts.Poll))
	if opts.Ready != nil {
		close(opts.Ready)
	}
	t := time.NewTicker(opts.Poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case done := <-opts.Flush:
			close(done)
		case <-t.C:
			st, err := ix.Update(ctx, nil)
			if ctx.Err() != nil {
				return nil
			}
			if err != nil || st.Parsed+st.Removed+st.Renamed > 0 {
				opts.OnUpdate(st, err)
			}
		}
	}
}
