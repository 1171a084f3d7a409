package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/lang"
	"github.com/winnowhq/winnow/internal/retrieve"
)

func (a *app) indexCommand() *cobra.Command {
	var f indexFlags
	var watch, rebuild, asJSON, quick bool
	var cpuprofile string
	cmd := &cobra.Command{
		Use:   "index [path]",
		Short: "Build or update the symbol index of a repository",
		Long: `Index parses every source file of a repository with tree-sitter and stores
its definitions, imports and references in <repo>/.winnow/index.db.

It works in two tiers. New and changed files are first read by a fast scanner
(the quick tier: definitions by keywords, references by identifiers, no parse;
about a third of the time), which every query can answer from at once, then
parsed (the full tier); the progress bar and the summaries say which. Killed
during either, the index still answers, and the next run completes it. With
--watch the full tier is built in the background while the watcher runs.

Files come from git (tracked and untracked, not ignored) or, outside git, from
a walk that honours .gitignore. Vendored, generated, minified, binary, non-UTF-8
and oversized files are skipped and counted. A re-run parses only files whose
content changed; --watch keeps the index current as files change.

A run first checks the index for damage (SQLite's quick_check, for at most
half a second) when its file changed since winnow last left it (a copy, a disk,
another program, a winnow killed while writing), and rebuilds a corrupt index
from scratch, saying so; damage met while updating is repaired the same way.
--rebuild
builds a new index beside the old one, which keeps answering other commands
until the new one replaces it.

Languages: ` + strings.Join(lang.Names(), ", ") + `.`,
		Args: maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			start := "."
			if len(args) == 1 {
				start = args[0]
				f.repo = args[0]
			}
			root, err := resolveRoot(&f, start)
			if err != nil {
				return err
			}
			opts, err := a.indexOptions(cmd, &f, root)
			if err != nil {
				return err
			}
			opts.Rebuild = rebuild
			if quick && (rebuild || watch) {
				return usageError{fmt.Errorf("--quick stops at the quick tier: it goes with neither --rebuild nor --watch")}
			}
			stop, err := a.startCPUProfile(cpuprofile)
			if err != nil {
				return err
			}
			defer stop()
			return a.runIndex(cmd.Context(), opts, watch, asJSON, quick)
		},
	}
	f.register(cmd, false)
	fs := cmd.Flags()
	fs.BoolVarP(&watch, "watch", "w", false, "keep the index current as files change, until interrupted")
	fs.BoolVar(&rebuild, "rebuild", false, "build the index from scratch (also over a corrupt one), replacing the existing one when done")
	fs.BoolVar(&asJSON, "json", false, "print the summary as JSON")
	fs.BoolVar(&quick, "quick", false, "stop after the quick tier (new and changed files scanned, not parsed, while the index is not complete)")
	fs.StringVar(&cpuprofile, "cpuprofile", "", "write a CPU profile of the run to this file, for go tool pprof")
	return cmd
}

// runIndex brings the index up to date in two tiers: new and changed
// files are first read by the fast scanner while the index is not
// complete (the quick tier, which any query can answer from at once),
// then parsed (the full tier). Without --watch both run in the
// foreground; with it, the full tier runs in the background while the
// watcher keeps the index current.
func (a *app) runIndex(ctx context.Context, opts index.Options, watch, asJSON, quick bool) error {
	opts.QuickFirst = !opts.Rebuild // a rebuild answers from the old index meanwhile
	ease, eased := keepProgress, func() {}
	if !watch && !opts.Rebuild {
		ease, eased = easeGC()
		defer eased()
	}
	ix, st, err := a.repairingUpdate(ctx, opts, !asJSON, ease)
	if err != nil {
		return err
	}
	defer func() {
		start := time.Now()
		ix.Close()
		a.logger().Debug("index closed", "took", time.Since(start))
	}()
	// The references' indexes a first quick build deferred are made on one
	// core while the corpus file is written on the other.
	var refs error
	var indexing sync.WaitGroup
	if st.Tier == index.TierQuick {
		indexing.Go(func() { refs = ix.IndexRefs(ctx) })
	}
	a.saveCorpus(ctx, ix, st, !watch && (quick || st.Tier == index.TierFull))
	if indexing.Wait(); refs != nil {
		return refs
	}
	if !watch {
		if quick || st.Tier == index.TierFull {
			a.printStats(ix, st, nil, asJSON)
			return nil
		}
		if !asJSON {
			fmt.Fprintln(a.stdout, summary(ix, st))
		}
		eased() // the whole tree is parsed now
		full, err := a.upgrade(ctx, ix, !asJSON, true)
		if err != nil {
			return err
		}
		a.saveCorpus(ctx, ix, full, true)
		a.printStats(ix, full, st, asJSON)
		return nil
	}
	a.printStats(ix, st, nil, asJSON)
	if !asJSON {
		fmt.Fprintf(a.stderr, "watching %s for changes (Ctrl-C to stop)\n", ix.Root())
	}
	upgraded := make(chan struct{})
	go func() {
		defer close(upgraded)
		if st.Tier == index.TierFull {
			return
		}
		full, err := a.upgrade(ctx, ix, false, false)
		if err != nil {
			if ctx.Err() == nil {
				fmt.Fprintf(a.stderr, "winnow: the full index: %v\n", err)
			}
			return
		}
		a.saveCorpus(ctx, ix, full, false)
		a.printStats(ix, full, nil, asJSON)
	}()
	defer func() { <-upgraded }() // the upgrade stops with ctx, before the index closes
	return ix.Watch(ctx, index.WatchOptions{OnUpdate: func(st *index.Stats, err error) {
		if err != nil {
			fmt.Fprintf(a.stderr, "winnow: %v\n", err)
			return
		}
		a.saveCorpus(ctx, ix, st, false)
		a.printStats(ix, st, nil, asJSON)
	}})
}

// updateLabel is the progress bar's label of the update ix is about to
// run: a scan at the quick tier, or a parse.
func updateLabel(ctx context.Context, ix *index.Index, opts index.Options) string {
	if tier, err := ix.Tier(ctx); err == nil && opts.QuickFirst && tier < index.TierFull {
		return "scanning (quick tier)"
	}
	return "indexing"
}

// upgrade brings the index to the full tier, with a progress bar when
// progress is set: in the foreground whole, the cheapest way
// (index.Index.UpgradeWhole); under a watcher in chunks, which let the
// watcher's updates through (index.Index.Upgrade).
func (a *app) upgrade(ctx context.Context, ix *index.Index, progress, foreground bool) (*index.Stats, error) {
	p := a.progressLabel(progress, "parsing (full tier)")
	if foreground {
		return ix.UpgradeWhole(ctx, p)
	}
	return ix.Upgrade(ctx, p)
}

// saveCorpus writes the corpus file of the index as updated, so that
// the next winnow context opens it rather than building it; its time
// counts in the update's. A failure is a warning: queries rebuild it.
// A process that saves once and exits maps the previous file rather
// than reading it (retrieve.Options.MapCorpus); --watch, which saves
// again and again, reads it.
func (a *app) saveCorpus(ctx context.Context, ix *index.Index, st *index.Stats, once bool) {
	start := time.Now()
	wrote, err := retrieve.New(ix, &retrieve.Options{Logger: a.logger(), MapCorpus: once}).SaveCorpus(ctx)
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(a.stderr, "winnow: %v; winnow context builds it when it needs it\n", err)
	}
	st.Duration += time.Since(start)
	a.logger().Debug("corpus saved", "wrote", wrote, "took", time.Since(start))
}

// A one-file update of sympy allocates some 25 MB, which the collector,
// at its default pace for a heap of a few megabytes, went through in
// five collections: 12 ms of the run's 93 ms of CPU. easeGC slows it
// for a one-shot winnow index (GOGC 800, under a soft limit of
// easedHeap), and puts it back at its pace as soon as the update turns
// out to read more than easedFiles files, whose heap grows large (a
// first build, a checkout), or when the returned done is called.
const (
	easedFiles = 32
	easedHeap  = 256 << 20
)

// easeGC slows the collector, unless GOGC or GOMEMLIMIT say otherwise,
// and returns a wrapper of the update's progress that restores it once
// the update reads more than easedFiles files, and done, which restores
// it for good.
func easeGC() (wrap func(index.Progress) index.Progress, done func()) {
	if old := debug.SetGCPercent(800); old != 100 {
		debug.SetGCPercent(old) // GOGC was set: keep it
		return keepProgress, func() {}
	}
	if old := debug.SetMemoryLimit(easedHeap); old != math.MaxInt64 {
		debug.SetMemoryLimit(old) // GOMEMLIMIT was set: keep both
		debug.SetGCPercent(100)
		return keepProgress, func() {}
	}
	var once sync.Once
	done = func() {
		once.Do(func() {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
		})
	}
	return func(p index.Progress) index.Progress {
		return func(n, total int) {
			if total > easedFiles {
				done()
			}
			if p != nil {
				p(n, total)
			}
		}
	}, done
}

// keepProgress is the wrapper of an update's progress that changes
// nothing.
func keepProgress(p index.Progress) index.Progress { return p }

// repairingUpdate opens the index, checks it for damage unless winnow
// left it as it is (index.Index.Checked), and brings it up to date. A corrupt index, found by the check or by the update, is
// rebuilt from scratch, saying so on stderr.
// The progress of the update goes through wrap.
func (a *app) repairingUpdate(ctx context.Context, opts index.Options, progress bool, wrap func(index.Progress) index.Progress) (*index.Index, *index.Stats, error) {
	ix, st, err := a.checkedUpdate(ctx, opts, progress, wrap)
	var corrupt *index.CorruptError
	if opts.Rebuild || !errors.As(err, &corrupt) {
		return ix, st, err
	}
	fmt.Fprintf(a.stderr, "winnow: index %s is corrupt (%v); rebuilding it from scratch\n", corrupt.File, corrupt.Err)
	opts.Rebuild = true
	return a.checkedUpdate(ctx, opts, progress, wrap)
}

// checkedUpdate is one attempt of repairingUpdate.
func (a *app) checkedUpdate(ctx context.Context, opts index.Options, progress bool, wrap func(index.Progress) index.Progress) (*index.Index, *index.Stats, error) {
	ix, err := index.Open(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	if !opts.Rebuild && !ix.Checked() {
		err = ix.Check(ctx)
	}
	var st *index.Stats
	if err == nil {
		st, err = ix.Update(ctx, wrap(a.progressLabel(progress, updateLabel(ctx, ix, opts))))
	}
	if err != nil {
		ix.Close()
		return nil, nil, err
	}
	return ix, st, nil
}

// printStats prints the summary of an update, or its JSON; quick, when
// set, is the quick tier's update that came before it in the same run.
func (a *app) printStats(ix *index.Index, st, quick *index.Stats, asJSON bool) {
	if asJSON {
		v := statsJSON{Root: ix.Root(), Dir: ix.Dir(), Stats: st, Seconds: st.Duration.Seconds(), Quick: quick}
		if quick != nil {
			v.Seconds += quick.Duration.Seconds()
		}
		json.NewEncoder(a.stdout).Encode(v)
		return
	}
	fmt.Fprintln(a.stdout, summary(ix, st))
}

type statsJSON struct {
	Root string `json:"root"`
	Dir  string `json:"index_dir"`
	*index.Stats
	Seconds float64 `json:"seconds"` // of the whole run, quick tier included
	// Quick is the quick tier's update when the run began with one.
	Quick *index.Stats `json:"quick,omitempty"`
}

// summary is the one line every index run prints.
func summary(ix *index.Index, st *index.Stats) string {
	var b strings.Builder
	if st.Tier == index.TierQuick {
		fmt.Fprintf(&b, "indexed %d files, quick tier (%d scanned, %d parsed, %d unchanged", st.Files, st.Scanned, st.Parsed, st.Unchanged)
		if st.ScanFailed > 0 {
			fmt.Fprintf(&b, ", %d left to the parser", st.ScanFailed)
		}
	} else {
		fmt.Fprintf(&b, "indexed %d files (%d parsed, %d unchanged", st.Files, st.Parsed, st.Unchanged)
	}
	if st.Renamed > 0 {
		fmt.Fprintf(&b, ", %d renamed", st.Renamed)
	}
	if st.Removed > 0 {
		fmt.Fprintf(&b, ", %d removed", st.Removed)
	}
	fmt.Fprintf(&b, "), %d symbols, %d references", st.Symbols, st.Refs)
	if st.Errors > 0 {
		fmt.Fprintf(&b, ", %d with syntax errors", st.Errors)
	}
	if n := st.SkippedTotal(); n > 0 {
		reasons := slices.SortedFunc(maps.Keys(st.Skipped), func(x, y index.Reason) int {
			return cmp.Or(cmp.Compare(st.Skipped[y], st.Skipped[x]), strings.Compare(string(x), string(y)))
		})
		parts := make([]string, 0, len(reasons))
		for _, r := range reasons {
			if st.Skipped[r] > 0 {
				parts = append(parts, fmt.Sprintf("%s %d", r, st.Skipped[r]))
			}
		}
		fmt.Fprintf(&b, "; skipped %d (%s)", n, strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, " in %s", st.Duration.Round(time.Millisecond))
	return b.String()
}
