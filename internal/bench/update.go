package bench

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/winnowhq/winnow/internal/bench/measure"
	"github.com/winnowhq/winnow/internal/index"
)

// Update is the incremental update after touching one file, measured
// three ways.
type Update struct {
	File  string `json:"file"` // the touched file, relative to the root
	Bytes int64  `json:"bytes"`
	// Paths is Index.UpdatePaths of the file, what `winnow index --watch`
	// does on a change.
	Paths Durations `json:"update_paths"`
	// Full is Index.Update: the stat scan of the whole tree that finds
	// the one change.
	Full Durations `json:"update"`
	// CLI is the `winnow index` command, what a user typing it waits for.
	CLI Durations `json:"cli"`
}

// updateWay is one way of bringing the index up to date, timed by
// itself.
type updateWay func() (*index.Stats, time.Duration, error)

// update touches one file of the tree and times the update that follows,
// restoring the file after each repetition and whatever happens.
func (b *treeBench) update(ctx context.Context, ix *index.Index) (u Update, err error) {
	f, err := pickFile(ctx, ix)
	if err != nil {
		return u, err
	}
	path := filepath.Join(b.root, filepath.FromSlash(f.Path))
	saved, err := measure.SaveFile(path)
	if err != nil {
		return u, err
	}
	defer func() { err = errors.Join(err, saved.Restore()) }()
	u.File, u.Bytes = f.Path, f.Size

	inProcess := func(update func() (*index.Stats, error)) updateWay {
		return func() (*index.Stats, time.Duration, error) {
			start := time.Now()
			st, err := update()
			return st, time.Since(start), err
		}
	}
	ways := []struct {
		name string
		out  *Durations
		run  updateWay
	}{
		{"UpdatePaths", &u.Paths, inProcess(func() (*index.Stats, error) { return ix.UpdatePaths(ctx, []string{path}) })},
		{"Update", &u.Full, inProcess(func() (*index.Stats, error) { return ix.Update(ctx, nil) })},
		{"winnow index", &u.CLI, func() (*index.Stats, time.Duration, error) { return b.cliUpdate(ctx) }},
	}
	for _, w := range ways {
		b.logf("incremental %s ×%d: touching %s (restored after each run)", w.name, b.opts.UpdateRuns, f.Path)
		var ds []time.Duration
		for range b.opts.UpdateRuns {
			d, err := b.touchAndUpdate(ctx, ix, saved, w.run)
			if err != nil {
				return u, fmt.Errorf("incremental %s of %s: %w", w.name, f.Path, err)
			}
			ds = append(ds, d)
		}
		*w.out = measure.Summarize(ds)
	}
	return u, nil
}

// touchAndUpdate times one update after touching the file, then restores
// the file and brings the index back in step with it, so that the next
// repetition starts where this one did.
func (b *treeBench) touchAndUpdate(ctx context.Context, ix *index.Index, f *measure.TouchedFile, run updateWay) (time.Duration, error) {
	if err := f.Touch(); err != nil {
		return 0, err
	}
	st, d, err := run()
	if err = errors.Join(err, f.Restore()); err != nil {
		return 0, err
	}
	if err := parsedOne(st, "the update"); err != nil {
		return 0, err
	}
	st, err = ix.UpdatePaths(ctx, []string{f.Path()})
	if err != nil {
		return 0, err
	}
	return d, parsedOne(st, "restoring the index")
}

// parsedOne checks that an update parsed exactly the touched file.
func parsedOne(st *index.Stats, what string) error {
	if st.Parsed != 1 {
		return fmt.Errorf("%s parsed %d files, not 1 (%d unchanged, %d removed): is the tree changing while the benchmark runs?",
			what, st.Parsed, st.Unchanged, st.Removed)
	}
	return nil
}

// cliUpdate runs `winnow index` on the tree and returns its summary.
func (b *treeBench) cliUpdate(ctx context.Context) (*index.Stats, time.Duration, error) {
	r, err := b.winnowIndex(ctx)
	if err != nil {
		return nil, 0, err
	}
	var st index.Stats
	if err := json.Unmarshal(r.stdout, &st); err != nil {
		return nil, 0, fmt.Errorf("read the summary of winnow index: %w", err)
	}
	return &st, r.wall, nil
}

// pickFile chooses the file to touch: the median indexed file by size,
// ties broken by path, among those without syntax errors.
func pickFile(ctx context.Context, ix *index.Index) (index.FileInfo, error) {
	files, err := ix.Files(ctx, "")
	if err != nil {
		return index.FileInfo{}, err
	}
	files = slices.DeleteFunc(files, func(f index.FileInfo) bool { return f.Skip != "" || f.HasError || f.Size == 0 })
	if len(files) == 0 {
		return index.FileInfo{}, errors.New("no indexed file to touch")
	}
	slices.SortFunc(files, func(a, b index.FileInfo) int { return cmp.Or(cmp.Compare(a.Size, b.Size), cmp.Compare(a.Path, b.Path)) })
	return files[len(files)/2], nil
}
