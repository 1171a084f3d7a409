package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/config"
	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/llm"
	"github.com/winnowhq/winnow/internal/store"
	"github.com/winnowhq/winnow/internal/telescope"
)

// telescopeFlags are the flags of every telescope command.
type telescopeFlags struct {
	index indexFlags
	store string // --store
}

func (f *telescopeFlags) register(cmd *cobra.Command, withIndex bool) {
	if withIndex {
		f.index.register(cmd, true)
	} else {
		cmd.Flags().StringVar(&f.index.repo, "repo", "", "repository root (default: the enclosing indexed directory, git work tree, or the current directory)")
	}
	cmd.Flags().StringVar(&f.store, "store", "", `store URL, replacing [store] url: "sqlite:///path.db" or "redis://host:port/db"`)
}

func (a *app) telescopeCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "telescope",
		Short: "Build hierarchical digests of a corpus and drill into them",
		Long: `Telescope digests a tree into levels: L1 one abstract per file (its
signatures, its headings, its security-relevant sites … by strategy), L2 one
per directory, and a root index. A model reads the root and drills down by id:
a group shows its members' abstracts, a file its source with line numbers.

Every node is stored under a content-addressed key, so an unchanged file costs
nothing the second time, in any process sharing the store; after one file
changes, only its node and its ancestors are recomputed.`,
	}
	cmd.AddCommand(a.telescopeBuildCommand(), a.telescopeShowCommand(), a.telescopeDrilldownCommand())
	return cmd
}

func (a *app) telescopeBuildCommand() *cobra.Command {
	var f telescopeFlags
	var req telescope.Request
	var inline string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "build [path]",
		Short: "Digest a file or directory and print its root index",
		Long: `Build digests the files under path (default: the repository root) with a
strategy and prints the root index; --json prints {namespace, level, key_map,
stats{input_tokens, output_tokens, saved_pct, …}} with the index and root id.

Strategies: code_signature (signatures, docstrings, key comments; the default),
code_security (auth, crypto, validation, IO, SQL, deserialisation sites with
their lines), narrative_summary (headings and lead sentences), audit_findings
(finding-shaped records of reports), llm_summary (a cheap model, see [llm] in
the configuration), and the [[strategy]] entries of the configuration. A
strategy may be given inline as JSON with --inline.

--purpose ranks the files by relevance to a question (BM25 over their terms)
and keeps the relevant ones. Binary, non-UTF-8 and too-large files are skipped
and counted by reason; paths outside the repository are refused.`,
		Example: `  winnow telescope build
  winnow telescope build internal/store --strategy code_security --json
  winnow telescope build docs --strategy narrative_summary --levels 1
  winnow telescope build . --purpose "where are API keys read and sent"`,
		Args: maxArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			target := "."
			if len(args) == 1 {
				target = args[0]
			}
			abs, err := filepath.Abs(target)
			if err != nil {
				return err
			}
			dir, _, err := statDir(abs)
			if err != nil {
				return err
			}
			if inline != "" {
				sp, err := telescope.ParseInline(inline)
				if err != nil {
					return usageError{err}
				}
				req.Inline = &sp
			}
			if req.Levels < 0 || req.Levels > telescope.MaxLevels {
				return usageError{fmt.Errorf("--levels %d: must be between 1 and %d", req.Levels, telescope.MaxLevels)}
			}
			req.Path = abs
			f.index.quickFirst = true // whichever tier is ready; the root says when it is the quick one
			return a.withTelescope(cmd, &f, dir, true, func(e *telescope.Engine) error {
				res, err := e.Build(cmd.Context(), req)
				if err != nil {
					if errors.Is(err, telescope.ErrOutsideRoot) {
						return usageError{err}
					}
					return err
				}
				if asJSON {
					return writeJSON(a.stdout, res)
				}
				fmt.Fprint(a.stdout, res.Index)
				fmt.Fprintln(a.stderr, buildSummary(res))
				return nil
			})
		},
	}
	f.register(cmd, true)
	fs := cmd.Flags()
	fs.StringVarP(&req.Strategy, "strategy", "s", telescope.CodeSignature, "strategy name")
	fs.StringVar(&inline, "inline", "", `strategy given inline as JSON, e.g. '{"kind":"llm","prompt":"…{{.Content}}"}'`)
	fs.IntVar(&req.Levels, "levels", telescope.DefaultLevels, "levels of abstracts: 1 (files), 2 (+ directories), 3 (+ top-level directories)")
	fs.StringVar(&req.Purpose, "purpose", "", "what is being asked: ranks and filters the files by relevance")
	fs.BoolVar(&asJSON, "json", false, "print the result as JSON")
	return cmd
}

// buildSummary is the one line on stderr after a build.
func buildSummary(res *telescope.Result) string {
	s := res.Stats
	return fmt.Sprintf("winnow: telescope %s: %d files, %d groups; %d → %d tokens in L1 abstracts (%.1f%% saved); computed %d nodes, reused %d (hit rate %.0f%%) in %s",
		res.Namespace, s.Units, s.Groups, s.InputTokens, s.OutputTokens, s.SavedPct,
		s.Computed.Units+s.Computed.Groups+s.Computed.Root, s.Reused.Units+s.Reused.Groups+s.Reused.Root,
		100*s.HitRate, s.Duration.Round(1e6))
}

func (a *app) telescopeShowCommand() *cobra.Command {
	var f telescopeFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show <id>",
		Short: "Print one telescope node: its level, span, sizes and abstract",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withTelescope(cmd, &f, ".", false, func(e *telescope.Engine) error {
				n, err := e.Node(cmd.Context(), args[0])
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(a.stdout, n)
				}
				fmt.Fprint(a.stdout, telescope.RenderNode(n))
				return nil
			})
		},
	}
	f.register(cmd, false)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the node as JSON")
	return cmd
}

func (a *app) telescopeDrilldownCommand() *cobra.Command {
	var f telescopeFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "drilldown <id>",
		Short: "Open a node: a group's members' abstracts, or a file's source with line numbers",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withTelescope(cmd, &f, ".", false, func(e *telescope.Engine) error {
				d, err := e.Drilldown(cmd.Context(), args[0])
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(a.stdout, d)
				}
				fmt.Fprint(a.stdout, d.Render())
				return nil
			})
		},
	}
	f.register(cmd, false)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the node and its children or source as JSON")
	return cmd
}

// withTelescope runs fn on an engine for the repository found from start, with its store
// open, and, when withIndex is set, its code index brought up to date for code_signature.
func (a *app) withTelescope(cmd *cobra.Command, f *telescopeFlags, start string, withIndex bool, fn func(*telescope.Engine) error) error {
	ctx := cmd.Context()
	root, err := resolveRoot(&f.index, start)
	if err != nil {
		return err
	}
	cfg, err := a.loadConfig(root)
	if err != nil {
		return err
	}
	var ix *index.Index
	if withIndex {
		if ix, err = a.openFresh(ctx, cmd, &f.index, root); err != nil {
			return err
		}
		defer ix.Close()
	}
	e, closeStore, err := a.telescopeEngine(ctx, cfg, root, f.store, ix)
	if err != nil {
		return err
	}
	defer closeStore()
	return fn(e)
}

// telescopeEngine wires an engine: the store (degrading to no cache, with a warning, when
// it fails), the code index, and the strategies of cfg with the model of the user's own
// configuration file. The returned function closes the store.
func (a *app) telescopeEngine(ctx context.Context, cfg *config.Config, root, storeURL string, ix *index.Index) (*telescope.Engine, func(), error) {
	warn := a.warnLogger()
	user, _, err := config.Load(config.LoadOptions{UserFile: a.configFile})
	if err != nil {
		return nil, nil, err
	}
	reg, err := a.strategies(cfg, user.LLM)
	if err != nil {
		return nil, nil, err
	}
	opts := &telescope.Options{
		Root:         root,
		Strategies:   reg,
		MaxFileBytes: cfg.Index.MaxFileBytes,
		Logger:       a.logger(),
	}
	closeStore := func() {}
	st, _, err := a.openUserStore(ctx, user, storeURL) // [store] of the user file, or --store
	switch {
	case errors.As(err, new(usageError)):
		return nil, nil, err
	case err != nil:
		// No cache is slower, never wrong: build without one rather than fail.
		warn.Warn("telescope: no store, nodes live in this process only", "error", err)
	default:
		opts.Store = store.Degrade(st, warn)
		closeStore = func() { st.Close() }
	}
	if ix != nil {
		opts.Symbols = telescope.IndexSymbols{Index: ix}
	}
	e, err := telescope.New(opts)
	if err != nil {
		closeStore()
		return nil, nil, err
	}
	return e, closeStore, nil
}

// mcpTelescope returns the engine behind the telescope and drilldown tools of winnow mcp,
// over ix's repository, configured by cfg (the repository's) and user (the user file's).
// Its store (the default one) is opened on the first call of a telescope tool, not before:
// a server whose client never asks for one leaves no file.
func (a *app) mcpTelescope(ctx context.Context, ix *index.Index, cfg, user *config.Config) (*telescope.Engine, func(), error) {
	reg, err := a.strategies(cfg, user.LLM)
	if err != nil {
		return nil, nil, err
	}
	ls := &lazyStore{open: func() (store.Store, error) {
		st, _, err := a.openUserStore(context.WithoutCancel(ctx), user, "")
		return st, err
	}, warn: a.warnLogger()}
	e, err := telescope.New(&telescope.Options{
		Root: ix.Root(), Store: ls, Strategies: reg, Symbols: telescope.IndexSymbols{Index: ix},
		MaxFileBytes: cfg.Index.MaxFileBytes, Logger: a.logger(),
	})
	if err != nil {
		return nil, nil, err
	}
	return e, ls.close, nil
}

// lazyStore opens its store on first use; a store that does not open is no cache, with one
// warning.
type lazyStore struct {
	open func() (store.Store, error)
	warn *slog.Logger
	once sync.Once
	st   store.Store // nil when it did not open
	raw  store.Store
}

func (l *lazyStore) get() store.Store {
	l.once.Do(func() {
		st, err := l.open()
		if err != nil {
			l.warn.Warn("telescope: no store, nodes live in this process only", "error", err)
			return
		}
		l.raw, l.st = st, store.Degrade(st, l.warn)
	})
	return l.st
}

// Get reads from the store, opening it first; without one it misses.
func (l *lazyStore) Get(ctx context.Context, key string) ([]byte, bool, error) {
	if st := l.get(); st != nil {
		return st.Get(ctx, key)
	}
	return nil, false, nil
}

// Put writes to the store, opening it first; without one it does nothing.
func (l *lazyStore) Put(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if st := l.get(); st != nil {
		return st.Put(ctx, key, value, ttl)
	}
	return nil
}

func (l *lazyStore) close() {
	l.once.Do(func() {}) // waits for an open in progress; never opens
	if l.raw != nil {
		l.raw.Close()
	}
}

// strategies returns the registry of cfg's [[strategy]] entries, with an llm client when
// userLLM, the [llm] table of the user's own configuration file, is set. The [llm] table is
// never read from the repository's .winnow.toml: a cloned repository must not choose where
// the key goes.
func (a *app) strategies(cfg *config.Config, userLLM config.LLM) (*telescope.Registry, error) {
	specs := make([]telescope.Spec, 0, len(cfg.Strategies))
	for _, s := range cfg.Strategies {
		specs = append(specs, telescope.Spec{
			Name: s.Name, Version: s.Version, Kind: s.Kind, Prompt: s.Prompt,
			Model: s.Model, TargetTokens: s.TargetTokens, Fallback: s.Fallback,
		})
	}
	client, noModel := a.llmClient(userLLM)
	reg, err := telescope.NewRegistry(specs, client)
	if err != nil {
		return nil, err
	}
	if noModel != nil {
		reg.NoModel(noModel)
	}
	return reg, nil
}

// llmClient returns the client [llm] describes, or nil and why there is none; that is only
// an error when an llm strategy is named.
func (a *app) llmClient(l config.LLM) (telescope.Completer, error) {
	if !l.Configured() {
		return nil, nil
	}
	key, err := l.APIKey()
	if err != nil {
		return nil, err
	}
	retries := l.Retries()
	if retries == 0 {
		retries = -1 // llm.Options reads 0 as its default
	}
	c, err := llm.New(&llm.Options{
		Provider: llm.Provider(l.Provider), BaseURL: l.BaseURL, APIKey: key, Model: l.Model,
		Concurrency: l.Workers(), RequestsPerMinute: l.Rate, MaxRetries: retries,
		Timeout: l.CallTimeout(), Logger: a.logger(),
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// warnLogger logs warnings to stderr even without --verbose: a store that fails is worth
// knowing about.
func (a *app) warnLogger() *slog.Logger {
	if a.verbose {
		return a.logger()
	}
	return slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}
