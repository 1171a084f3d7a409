package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/schollz/progressbar/v3"

	"github.com/winnowhq/winnow/internal/config"
	"github.com/winnowhq/winnow/internal/index"
)

// indexFlags are the flags of every command that opens an index.
type indexFlags struct {
	repo      string
	indexDir  string
	workers   int
	maxBytes  int64
	exclude   []string
	languages []string
	noRefresh bool
	// quickFirst reads new files with the fast scanner until the index is
	// complete (index.Options.QuickFirst): winnow context and winnow mcp
	// answer from it at once.
	quickFirst bool
	// beforeUpdate, if set, is called with an existing index just before
	// it is brought up to date (winnow context opens its corpus meanwhile).
	beforeUpdate func(*index.Index)
}

func (f *indexFlags) register(cmd *cobra.Command, withRefresh bool) {
	fs := cmd.Flags()
	fs.StringVar(&f.repo, "repo", "", "repository root (default: the enclosing indexed directory, git work tree, or the current directory)")
	fs.StringVar(&f.indexDir, "index-dir", "", "directory of the index files (default from the config: <repo>/.winnow)")
	fs.IntVar(&f.workers, "workers", 0, "parsing goroutines (default: all cores)")
	fs.Int64Var(&f.maxBytes, "max-file-bytes", 0, "skip files larger than this (default 1 MiB)")
	fs.StringSliceVar(&f.exclude, "exclude", nil, "gitignore-style pattern of paths not to index (repeatable)")
	fs.StringSliceVar(&f.languages, "lang", nil, "index only these languages (repeatable; see 'winnow index --help')")
	if withRefresh {
		fs.BoolVar(&f.noRefresh, "no-refresh", false, "use the index as it is, without checking the tree for changes")
	}
}

// findRoot picks the repository root for a starting directory: the
// nearest ancestor holding an index or a .winnow.toml, else the git work
// tree, else the directory itself.
func findRoot(start string) (string, error) {
	start, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	for dir := start; ; {
		for _, marker := range []string{filepath.Join(".winnow", "index.db"), config.RepoFile} {
			if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
				return dir, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	out, err := exec.Command("git", "-C", start, "rev-parse", "--show-toplevel").Output()
	if err == nil {
		if top := strings.TrimSpace(string(out)); top != "" {
			return top, nil
		}
	}
	return start, nil
}

// loadConfig reads the layered configuration for root (the user file
// alone when root is ""). Warnings go to stderr: unknown keys, and the
// settings the repository's .winnow.toml may not make, which are left out.
func (a *app) loadConfig(root string) (*config.Config, error) {
	cfg, _, err := a.loadConfigWarnings(root)
	return cfg, err
}

// loadConfigWarnings is loadConfig that also returns the warnings. A
// command that loads the configuration twice prints each warning once.
func (a *app) loadConfigWarnings(root string) (*config.Config, []config.Warning, error) {
	cfg, warnings, err := config.Load(config.LoadOptions{RepoRoot: root, UserFile: a.configFile})
	if a.warned == nil {
		a.warned = make(map[string]bool)
	}
	for _, w := range warnings {
		if s := w.String(); !a.warned[s] {
			a.warned[s] = true
			fmt.Fprintf(a.stderr, "winnow: warning: %s\n", s)
		}
	}
	if err != nil {
		return nil, warnings, err
	}
	return cfg, warnings, nil
}

// indexOptions turns configuration and flags into index options.
func (a *app) indexOptions(cmd *cobra.Command, f *indexFlags, root string) (index.Options, error) {
	cfg, err := a.loadConfig(root)
	if err != nil {
		return index.Options{}, err
	}
	fs := cmd.Flags()
	if fs.Changed("workers") {
		cfg.Index.Workers = f.workers
	}
	if fs.Changed("max-file-bytes") {
		cfg.Index.MaxFileBytes = f.maxBytes
	}
	if fs.Changed("exclude") {
		cfg.Index.Exclude = append(cfg.Index.Exclude, f.exclude...)
	}
	if fs.Changed("lang") {
		cfg.Index.Languages = f.languages
	}
	if err := cfg.Validate(); err != nil {
		return index.Options{}, usageError{err}
	}
	dir := f.indexDir
	if dir == "" {
		if dir, err = cfg.IndexDir(root); err != nil {
			return index.Options{}, err
		}
		if cfg.Index.Location == config.LocationRepo {
			if err := checkInsideRepo(root, dir); err != nil {
				return index.Options{}, err
			}
		}
	}
	return index.Options{
		Root:             root,
		Dir:              dir,
		MaxFileBytes:     cfg.Index.MaxFileBytes,
		Exclude:          cfg.Index.Exclude,
		Languages:        cfg.Index.Languages,
		Workers:          cfg.Index.Workers,
		IncludeVendored:  cfg.Index.IncludeVendored,
		IncludeGenerated: cfg.Index.IncludeGenerated,
		QuickFirst:       f.quickFirst,
		Logger:           a.logger(),
	}, nil
}

// checkInsideRepo refuses an index directory in the repository, dir, that
// is a symbolic link to a place outside it: a cloned repository may commit
// .winnow as such a link, and must not choose where winnow writes.
func checkInsideRepo(root, dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return nil // not there yet (made a directory), or a directory of its own
	}
	target, err := filepath.EvalSymlinks(dir)
	if err == nil {
		realRoot, rootErr := filepath.EvalSymlinks(root)
		if rel, relErr := filepath.Rel(realRoot, target); rootErr == nil && relErr == nil && filepath.IsLocal(rel) {
			return nil
		}
	} else if target, err = os.Readlink(dir); err != nil {
		return fmt.Errorf("index directory %s: %w", dir, err)
	}
	return fmt.Errorf("index directory %s is a symbolic link to %s, outside the repository: winnow does not write an index where a repository points (remove the link, or choose the place yourself with --index-dir, or index.location = \"cache\" in your configuration file)", dir, target)
}

// resolveRoot returns --repo, or the root found from start.
func resolveRoot(f *indexFlags, start string) (string, error) {
	if f.repo != "" {
		return filepath.Abs(f.repo)
	}
	return findRoot(start)
}

// withIndex runs fn on the index of the repository found from start
// (or named by --repo), brought up to date by openFresh.
func (a *app) withIndex(cmd *cobra.Command, f *indexFlags, start string, fn func(*index.Index) error) error {
	root, err := resolveRoot(f, start)
	if err != nil {
		return err
	}
	ix, err := a.openFresh(cmd.Context(), cmd, f, root)
	if err != nil {
		return err
	}
	defer ix.Close()
	return fn(ix)
}

// openFresh opens the index of root and brings it up to date, unless
// --no-refresh was given and an index exists.
func (a *app) openFresh(ctx context.Context, cmd *cobra.Command, f *indexFlags, root string) (*index.Index, error) {
	opts, err := a.indexOptions(cmd, f, root)
	if err != nil {
		return nil, err
	}
	_, statErr := os.Stat(filepath.Join(opts.Dir, "index.db"))
	existed := statErr == nil
	ix, err := index.Open(ctx, opts)
	if err != nil {
		return nil, err
	}
	if existed && f.noRefresh {
		return ix, nil
	}
	if existed && f.beforeUpdate != nil {
		f.beforeUpdate(ix)
	}
	st, err := ix.Update(ctx, a.progressLabel(!existed, updateLabel(ctx, ix, opts)))
	if err != nil {
		ix.Close()
		return nil, err
	}
	if !existed {
		fmt.Fprintln(a.stderr, summary(ix, st))
	}
	return ix, nil
}

// progress returns a progress callback that draws a bar on stderr when
// stderr is a terminal and show is set; otherwise nil.
func (a *app) progress(show bool) index.Progress { return a.progressLabel(show, "indexing") }

// progressLabel is progress with the bar's label.
func (a *app) progressLabel(show bool, label string) index.Progress {
	if !show || !a.stderrIsTerminal() {
		return nil
	}
	var bar *progressbar.ProgressBar
	return func(done, total int) {
		if bar == nil {
			bar = progressbar.NewOptions(total,
				progressbar.OptionSetWriter(a.stderr),
				progressbar.OptionSetDescription(label),
				progressbar.OptionShowCount(),
				progressbar.OptionSetWidth(30),
				progressbar.OptionThrottle(100_000_000),
				progressbar.OptionClearOnFinish(),
			)
		}
		bar.Set(done)
		if done == total {
			bar.Finish()
		}
	}
}

func (a *app) stderrIsTerminal() bool {
	f, ok := a.stderr.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// statDir returns the directory of p: p itself if it is one.
func statDir(p string) (string, bool, error) {
	fi, err := os.Stat(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", false, fmt.Errorf("%s does not exist", p)
		}
		return "", false, err
	}
	if fi.IsDir() {
		return p, true, nil
	}
	return filepath.Dir(p), false, nil
}
