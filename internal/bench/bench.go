package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/winnowhq/winnow/internal/bench/measure"
	"github.com/winnowhq/winnow/internal/index"
)

// Options configure a benchmark. The zero value of each field but Winnow
// means its default.
type Options struct {
	// Winnow is the winnow binary whose cold index and index command are
	// timed. Required.
	Winnow string
	// WinnowArgs are global flags put before the subcommand, such as
	// --config, so that the subprocess reads the configuration the
	// in-process measurements use.
	WinnowArgs []string
	// Ctags is the Universal Ctags program; default "ctags" from PATH.
	Ctags string
	// Runs is the number of cold runs of each tool; default 5.
	Runs int
	// ReopenRuns, UpdateRuns and LookupNames size the in-process
	// measurements; defaults 20, 10 and 1,000.
	ReopenRuns, UpdateRuns, LookupNames int
	// IndexOptions returns the index options for a tree root, the same
	// the winnow subprocess derives from its configuration; nil means
	// the index's defaults. Root, Dir and Rebuild are set by the bench.
	IndexOptions func(root string) (index.Options, error)
	// TempDir holds the benchmark's working directory; default
	// os.TempDir().
	TempDir string
	// Keep leaves the working directory (indexes, file lists, tags files)
	// in place; Report.TempDir says where.
	Keep bool
	// Progress receives one line per step; nil discards.
	Progress io.Writer
	// CPUProfile, if set, is where the first cold `winnow index` of the
	// first tree writes its CPU profile (winnow index --cpuprofile); the
	// Nth tree's goes to CPUProfile with ".N" appended. A profiled run is
	// timed like the others.
	CPUProfile string
}

func (o *Options) defaults() error {
	if o.Winnow == "" {
		return errors.New("bench: no winnow binary")
	}
	exe, err := exec.LookPath(o.Winnow)
	if err == nil {
		exe, err = filepath.Abs(exe)
	}
	if err != nil {
		return fmt.Errorf("bench: winnow binary: %w", err)
	}
	o.Winnow = exe
	if o.Ctags == "" {
		o.Ctags = "ctags"
	}
	setDefault(&o.Runs, 5)
	setDefault(&o.ReopenRuns, 20)
	setDefault(&o.UpdateRuns, 10)
	setDefault(&o.LookupNames, 1000)
	if o.IndexOptions == nil {
		o.IndexOptions = func(string) (index.Options, error) { return index.Options{}, nil }
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	return nil
}

func setDefault(n *int, def int) {
	if *n <= 0 {
		*n = def
	}
}

// Index benchmarks indexing each tree against ctags and returns the
// measurements. Nothing is written into the trees except the file the
// incremental update touches, which is restored.
func Index(ctx context.Context, trees []string, opts Options) (*Report, error) {
	if err := opts.defaults(); err != nil {
		return nil, err
	}
	if len(trees) == 0 {
		return nil, errors.New("bench: no tree to index")
	}
	ctags, version, err := checkCtags(ctx, opts.Ctags)
	if err != nil {
		return nil, err
	}
	opts.Ctags = ctags
	roots := make([]string, len(trees))
	for i, t := range trees {
		if roots[i], err = treeRoot(t); err != nil {
			return nil, err
		}
	}
	work, err := os.MkdirTemp(opts.TempDir, "winnow-bench-")
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	rep := &Report{Machine: thisMachine(), Winnow: opts.Winnow, Ctags: ctags, CtagsVersion: version, Runs: opts.Runs}
	if opts.Keep {
		rep.TempDir = work
		fmt.Fprintf(opts.Progress, "keeping the indexes and tags files in %s\n", work)
	} else {
		defer os.RemoveAll(work)
	}
	for i, root := range roots {
		tb := &treeBench{opts: &opts, root: root, work: filepath.Join(work, fmt.Sprintf("%d-%s", i+1, filepath.Base(root)))}
		if tb.profile = opts.CPUProfile; tb.profile != "" && i > 0 {
			tb.profile += fmt.Sprintf(".%d", i+1)
		}
		t, err := tb.run(ctx)
		if err != nil {
			return nil, fmt.Errorf("bench %s: %w", root, err)
		}
		rep.Trees = append(rep.Trees, *t)
	}
	rep.Machine.LoadAvgEnd = measure.LoadAvg()
	return rep, nil
}

func treeRoot(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("bench: %w", err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("bench: %w", err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("bench: %s is not a directory", abs)
	}
	return abs, nil
}

// treeBench runs the measurements of one tree, in order.
type treeBench struct {
	opts    *Options
	root    string
	work    string // this tree's working directory
	ix      index.Options
	profile string // where the first cold winnow index writes its CPU profile; "" for none
}

func (b *treeBench) run(ctx context.Context) (*Tree, error) {
	if err := os.MkdirAll(b.work, 0o755); err != nil {
		return nil, err
	}
	ixOpts, err := b.opts.IndexOptions(b.root)
	if err != nil {
		return nil, err
	}
	ixOpts.Root, ixOpts.Dir, ixOpts.Rebuild = b.root, filepath.Join(b.work, "index"), false
	b.ix = ixOpts

	t := &Tree{Path: b.root}
	if t.Cold, err = b.cold(ctx); err != nil {
		return nil, err
	}
	if t.Reopen, err = b.reopen(ctx); err != nil {
		return nil, err
	}
	ix, err := index.Open(ctx, b.ix)
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	if t.Update, err = b.update(ctx, ix); err != nil {
		return nil, err
	}
	if t.Lookup, err = b.lookup(ctx, ix); err != nil {
		return nil, err
	}
	t.Checks = t.checks()
	return t, nil
}

// logf writes one progress line, prefixed with the tree's name.
func (b *treeBench) logf(format string, args ...any) {
	fmt.Fprintf(b.opts.Progress, "%s: %s\n", filepath.Base(b.root), strings.TrimSuffix(fmt.Sprintf(format, args...), "\n"))
}
