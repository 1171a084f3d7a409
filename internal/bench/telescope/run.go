package telescope

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/winnowhq/winnow/internal/bench/measure"
	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/store"
	"github.com/winnowhq/winnow/internal/symbol"
	tel "github.com/winnowhq/winnow/internal/telescope"
)

// Options configure a run. Zero fields mean their defaults.
type Options struct {
	// Strategy is the strategy measured; default code_signature.
	Strategy string
	// Levels is the levels built; default telescope.DefaultLevels.
	Levels int
	// WarmRuns is how many warm builds are timed; the report gives their median. Default 3.
	WarmRuns int
	// Touch is the file (relative to the tree) the incremental measurement changes; ""
	// picks the code file in the middle of the tree's sorted list.
	Touch string
	// IndexOptions returns the index options for a tree root; nil means the defaults. Root
	// and Dir are set by the benchmark.
	IndexOptions func(root string) (index.Options, error)
	// TempDir holds the index and the store; default os.TempDir(). Keep leaves them.
	TempDir string
	Keep    bool
	// Progress receives one line per step; nil discards.
	Progress io.Writer
}

// A Report holds one TreeReport per tree.
type Report struct {
	Strategy string        `json:"strategy"`
	Trees    []*TreeReport `json:"trees"`
}

// TreeReport is the measurements of one tree.
type TreeReport struct {
	Root       string        `json:"root"`
	IndexBuild time.Duration `json:"index_build_ns"` // not part of any build time below
	Files      int           `json:"files"`
	CodeFiles  int           `json:"code_files"`
	// Code and All compare L1 abstracts with the raw source: code files, and every file.
	Code Tokens `json:"code"`
	All  Tokens `json:"all"`
	// Signatures checks the index's definitions against the L1 texts.
	Signatures Coverage `json:"signatures"`
	// Cold is the first build into an empty store; Warm the median of the warm builds;
	// Speedup is Cold/Warm.
	Cold    time.Duration   `json:"cold_ns"`
	Warm    time.Duration   `json:"warm_ns"`
	WarmAll []time.Duration `json:"warm_runs_ns"`
	Speedup float64         `json:"speedup"`
	// WarmHitRate is the share of nodes the first warm build found in the store.
	WarmHitRate float64 `json:"warm_hit_rate"`
	// Touched is the file changed; Recomputed what the rebuild after it computed, and
	// Expected what it should: one unit, one group per level above it, the root.
	Touched    string          `json:"touched"`
	Recomputed tel.LevelCounts `json:"recomputed"`
	Expected   tel.LevelCounts `json:"expected"`
	Rebuild    time.Duration   `json:"rebuild_ns"`
	Skipped    map[string]int  `json:"skipped"`
	TempDir    string          `json:"temp_dir,omitempty"`
}

// Tokens compares abstracts with their source.
type Tokens struct {
	Raw      int     `json:"raw"`
	Abstract int     `json:"abstract"`
	SavedPct float64 `json:"saved_pct"`
}

// Coverage counts the definitions checked and those whose signature is in the L1 text.
type Coverage struct {
	Checked int      `json:"checked"`
	Kept    int      `json:"kept"`
	Pct     float64  `json:"pct"`
	Missing []string `json:"missing,omitempty"` // the first few, as path:line name
}

// Run measures each tree.
func Run(ctx context.Context, roots []string, opts Options) (*Report, error) {
	if opts.Strategy == "" {
		opts.Strategy = tel.CodeSignature
	}
	if opts.Levels == 0 {
		opts.Levels = tel.DefaultLevels
	}
	if opts.WarmRuns <= 0 {
		opts.WarmRuns = 3
	}
	if opts.Progress == nil {
		opts.Progress = io.Discard
	}
	if opts.IndexOptions == nil {
		opts.IndexOptions = func(string) (index.Options, error) { return index.Options{}, nil }
	}
	rep := &Report{Strategy: opts.Strategy}
	for _, root := range roots {
		tr, err := runTree(ctx, root, &opts)
		if err != nil {
			return nil, fmt.Errorf("bench telescope %s: %w", root, err)
		}
		rep.Trees = append(rep.Trees, tr)
	}
	return rep, nil
}

func runTree(ctx context.Context, root string, opts *Options) (tr *TreeReport, err error) {
	root, err = filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(opts.TempDir, "winnow-bench-telescope-")
	if err != nil {
		return nil, err
	}
	tr = &TreeReport{Root: root}
	if opts.Keep {
		tr.TempDir = tmp
	} else {
		defer os.RemoveAll(tmp)
	}
	ix, err := openIndex(ctx, root, tmp, opts, tr)
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	storeURL := "sqlite://" + filepath.ToSlash(filepath.Join(tmp, "store.db"))
	req := tel.Request{Strategy: opts.Strategy, Levels: opts.Levels}

	fmt.Fprintf(opts.Progress, "%s: cold build (%s, empty store)\n", root, opts.Strategy)
	cold, e, err := build(ctx, root, storeURL, ix, req)
	if err != nil {
		return nil, err
	}
	tr.Cold = cold.Stats.Duration
	tr.Files, tr.Skipped = cold.Stats.Units, cold.Stats.Skipped
	if err := measureNodes(ctx, e, ix, cold, tr); err != nil {
		return nil, err
	}
	for i := range opts.WarmRuns {
		fmt.Fprintf(opts.Progress, "%s: warm build %d/%d (new engine, reopened store)\n", root, i+1, opts.WarmRuns)
		warm, _, err := build(ctx, root, storeURL, ix, req)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			tr.WarmHitRate = warm.Stats.HitRate
		}
		tr.WarmAll = append(tr.WarmAll, warm.Stats.Duration)
	}
	sorted := slices.Clone(tr.WarmAll)
	slices.Sort(sorted)
	tr.Warm = sorted[len(sorted)/2]
	tr.Speedup = float64(tr.Cold) / float64(max(tr.Warm, 1))
	if err := measureTouch(ctx, root, storeURL, ix, req, cold, opts, tr); err != nil {
		return nil, err
	}
	return tr, nil
}

// openIndex builds the tree's code index in tmp, timing it.
func openIndex(ctx context.Context, root, tmp string, opts *Options, tr *TreeReport) (*index.Index, error) {
	ixo, err := opts.IndexOptions(root)
	if err != nil {
		return nil, err
	}
	ixo.Root, ixo.Dir, ixo.Rebuild = root, filepath.Join(tmp, "index"), true
	fmt.Fprintf(opts.Progress, "%s: indexing into %s\n", root, ixo.Dir)
	start := time.Now()
	ix, err := index.Open(ctx, ixo)
	if err != nil {
		return nil, err
	}
	if _, err := ix.Update(ctx, nil); err != nil {
		ix.Close()
		return nil, err
	}
	tr.IndexBuild = time.Since(start)
	return ix, nil
}

// build runs one build with a new engine over a newly opened store, as a new process would.
func build(ctx context.Context, root, storeURL string, ix *index.Index, req tel.Request) (*tel.Result, *tel.Engine, error) {
	st, err := store.Open(ctx, storeURL, nil)
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	e, err := tel.New(&tel.Options{Root: root, Store: st, Symbols: tel.IndexSymbols{Index: ix}})
	if err != nil {
		return nil, nil, err
	}
	res, err := e.Build(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	if res.Stats.StoreErrors > 0 {
		return nil, nil, fmt.Errorf("%d store errors during the build", res.Stats.StoreErrors)
	}
	return res, e, nil
}

// checkedKinds are the definitions whose signatures must survive in the L1 text.
var checkedKinds = []symbol.Kind{symbol.Function, symbol.Method, symbol.Constructor, symbol.Class}

// measureNodes adds up the tokens of code and all units, and checks every indexed
// definition's signature against its file's L1 text.
func measureNodes(ctx context.Context, e *tel.Engine, ix *index.Index, res *tel.Result, tr *TreeReport) error {
	paths := make([]string, 0, len(res.KeyMap))
	for k := range res.KeyMap {
		if p, ok := strings.CutPrefix(k, "L1:"); ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		n, err := e.Node(ctx, res.KeyMap["L1:"+p])
		if err != nil {
			return err
		}
		tr.All.Raw += n.InputTokens
		tr.All.Abstract += n.OutputTokens
		if n.UnitKind != tel.UnitCode {
			continue
		}
		tr.CodeFiles++
		tr.Code.Raw += n.InputTokens
		tr.Code.Abstract += n.OutputTokens
		syms, err := ix.FileSymbols(ctx, p)
		if err != nil {
			return err
		}
		text := normalize(n.Text)
		for _, s := range syms {
			if !slices.Contains(checkedKinds, s.Kind) {
				continue
			}
			want := strings.TrimSpace(s.Signature)
			if want == "" {
				want = s.Kind.String() + " " + s.Name
			}
			tr.Signatures.Checked++
			if strings.Contains(text, normalize(want)) {
				tr.Signatures.Kept++
			} else if len(tr.Signatures.Missing) < 10 {
				tr.Signatures.Missing = append(tr.Signatures.Missing, fmt.Sprintf("%s:%d %s", p, s.Span.StartLine, s.Name))
			}
		}
	}
	tr.Code.SavedPct = saved(tr.Code)
	tr.All.SavedPct = saved(tr.All)
	if tr.Signatures.Checked > 0 {
		tr.Signatures.Pct = 100 * float64(tr.Signatures.Kept) / float64(tr.Signatures.Checked)
	}
	return nil
}

func saved(t Tokens) float64 {
	if t.Raw == 0 {
		return 0
	}
	return 100 * (1 - float64(t.Abstract)/float64(t.Raw))
}

// normalize collapses every run of white space to one space.
func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

// measureTouch appends a newline to one code file, rebuilds, and counts what was computed.
func measureTouch(ctx context.Context, root, storeURL string, ix *index.Index, req tel.Request, cold *tel.Result, opts *Options, tr *TreeReport) error {
	touch := opts.Touch
	if touch == "" {
		touch = pickFile(cold)
	}
	if touch == "" {
		return errors.New("no file to touch")
	}
	if _, ok := cold.KeyMap["L1:"+touch]; !ok {
		return fmt.Errorf("--touch %s: not a file of the telescope", touch)
	}
	tr.Touched = touch
	f, err := measure.SaveFile(filepath.Join(root, filepath.FromSlash(touch)))
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { f.Restore() })
	defer stop()
	defer func() {
		if rerr := f.Restore(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	if err := f.Touch(); err != nil {
		return err
	}
	fmt.Fprintf(opts.Progress, "%s: rebuild after appending a newline to %s\n", root, touch)
	res, _, err := build(ctx, root, storeURL, ix, req)
	if err != nil {
		return err
	}
	tr.Recomputed = res.Stats.Computed
	tr.Rebuild = res.Stats.Duration
	tr.Expected = tel.LevelCounts{Units: 1, Groups: req.Levels - 1, Root: 1}
	return nil
}

// pickFile is the code file in the middle of the telescope's sorted files.
func pickFile(res *tel.Result) string {
	var code []string
	for k := range res.KeyMap {
		if p, ok := strings.CutPrefix(k, "L1:"); ok && strings.Contains(p, "/") && (strings.HasSuffix(p, ".py") || strings.HasSuffix(p, ".go")) {
			code = append(code, p)
		}
	}
	if len(code) == 0 {
		return ""
	}
	sort.Strings(code)
	return code[len(code)/2]
}
