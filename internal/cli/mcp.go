package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/config"
	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/mcpserver"
)

func (a *app) mcpCommand() *cobra.Command {
	var f indexFlags
	var httpAddr string
	var allowRemote bool
	var maxOutput int
	var refresh time.Duration
	var origins []string
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve winnow's tools to an agent over MCP (stdio, or streamable HTTP)",
		Long: `Mcp serves winnow's tools to an LLM agent over the Model Context Protocol:

  context      the token-budgeted context of a task
  find_symbol  definitions by name, with their source on request
  outline      the skeleton of a file or directory
  references   who uses a name
  telescope    a digest of the repository, directory or file, level by level
  drilldown    open a telescope entry: its members, or a file's or part's source
  <prefix>__<tool>  the tools of each [[upstream]] MCP server of the user
               configuration (winnow is then their gateway), with their
               resources and prompts
  winnow__more the rest of an upstream result the gateway trimmed (with
               upstreams only)

Answers of winnow's own tools are capped at --max-output-tokens and say what
was cut.

By default it speaks MCP on stdin and stdout, as agents expect of a server
they start themselves; logs and the first indexing's summary go to stderr.
With --http it serves streamable HTTP at http://ADDR/mcp instead, on a
loopback address unless --allow-remote is given, and prints the URL to stderr;
on interrupt it stops taking calls and lets those in flight finish.

The server answers at once. The index is built (on first use) or brought up
to date in the background as it starts, and tool calls wait for that; after
that, each call brings it up to date first, at most once per --refresh. A
repository never indexed gets the quick tier first (a fast scan, seconds on a
large repository), which the tools answer from, saying so, while the full index
is built in the background.
Outside a git repository (with no .winnow.toml and no --repo), nothing is
indexed at start: the current directory is indexed when a tool first needs
it, so that starting in a home directory does not index all of it.`,
		Example: `  claude mcp add winnow -- winnow mcp
  winnow mcp --repo ~/src/project
  winnow mcp --http 127.0.0.1:8765
  winnow mcp --http 127.0.0.1:8765 --max-output-tokens 4000
  winnow mcp --http 127.0.0.1:8765 --allow-origin https://inspector.example`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if httpAddr != "" {
				if err := mcpserver.CheckAddr(httpAddr, allowRemote); err != nil {
					return usageError{fmt.Errorf("--http %w", err)}
				}
			}
			if maxOutput < mcpserver.MinMaxOutputTokens {
				return usageError{fmt.Errorf("--max-output-tokens %d: must be at least %d", maxOutput, mcpserver.MinMaxOutputTokens)}
			}
			if refresh <= 0 {
				return usageError{fmt.Errorf("--refresh %s: must be positive (--no-refresh turns refreshing off)", refresh)}
			}
			return a.serveMCP(cmd, &f, mcpserver.Options{
				MaxOutputTokens: maxOutput,
				RefreshInterval: refresh,
				Version:         version(),
				Logger:          a.logger(),
				AllowedOrigins:  origins,
			}, httpAddr, allowRemote)
		},
	}
	f.register(cmd, true)
	fs := cmd.Flags()
	fs.StringVar(&httpAddr, "http", "", "serve streamable HTTP on this host:port (e.g. 127.0.0.1:8765) instead of stdio")
	fs.BoolVar(&allowRemote, "allow-remote", false, "allow --http to listen on a non-loopback address (exposes the repository's code to the network)")
	fs.StringArrayVar(&origins, "allow-origin", nil, "with --http, also serve requests whose Origin header is this (scheme://host[:port], or * for any); loopback origins are always served, others refused with 403")
	fs.IntVar(&maxOutput, "max-output-tokens", mcpserver.DefaultMaxOutputTokens, "cap of each answer, in o200k tokens")
	fs.DurationVar(&refresh, "refresh", mcpserver.DefaultRefreshInterval, "bring the index up to date before answering at most this often")
	return cmd
}

// serveMCP opens the index and serves it until the client hangs up or
// the command is interrupted. The server answers at once; the index is
// built or brought up to date in the background meanwhile (a client may
// give up on a server that takes long to start), and tool calls wait for
// that update.
func (a *app) serveMCP(cmd *cobra.Command, f *indexFlags, opts mcpserver.Options, httpAddr string, allowRemote bool) error {
	ctx := cmd.Context()
	root, err := resolveRoot(f, ".")
	if err != nil {
		return err
	}
	lazy := f.repo == "" && !isProject(root)
	f.quickFirst = true // the quick tier first; the full one in the background
	ixOpts, err := a.indexOptions(cmd, f, root)
	if err != nil {
		return err
	}
	_, statErr := os.Stat(filepath.Join(ixOpts.Dir, "index.db"))
	existed := statErr == nil
	ix, err := index.Open(ctx, ixOpts)
	if err != nil {
		return err
	}
	defer ix.Close()
	// indexOptions has shown the configuration's warnings: these loads are quiet. The
	// user file alone configures what a repository must not choose (upstreams, [llm]).
	cfg, _, err := config.Load(config.LoadOptions{RepoRoot: ix.Root(), UserFile: a.configFile})
	if err != nil {
		return err
	}
	user, _, err := config.Load(config.LoadOptions{UserFile: a.configFile})
	if err != nil {
		return err
	}
	tel, closeTel, err := a.mcpTelescope(ctx, ix, cfg, user)
	if err != nil {
		return err
	}
	defer closeTel()
	opts.Telescope = tel
	keep := existed && f.noRefresh // --no-refresh: use the index as it is
	if keep {
		opts.RefreshInterval = -1
	}
	srv, err := mcpserver.New(ix, &opts)
	if err != nil {
		return err
	}
	if lazy && !existed {
		fmt.Fprintf(a.stderr, "winnow mcp: %s is not in a git repository (no .git, .winnow.toml or index): nothing is indexed now; it is indexed when a tool first needs it (pass --repo DIR to serve another directory)\n", root)
	}
	if !keep && !(lazy && !existed) {
		updateCtx, cancel := context.WithCancel(ctx)
		updated := make(chan struct{})
		go func() {
			defer close(updated)
			st, err := srv.Refresh(updateCtx)
			switch {
			case err != nil && updateCtx.Err() == nil:
				fmt.Fprintf(a.stderr, "winnow mcp: %v\n", err)
			case err == nil && !existed:
				fmt.Fprintf(a.stderr, "winnow mcp: %s\n", summary(ix, st))
			}
			if err == nil && st.Tier != index.TierFull {
				a.upgradeInBackground(updateCtx, ix, srv)
			}
		}()
		defer func() { cancel(); <-updated }() // before the index closes
		watched := make(chan struct{})
		go func() { defer close(watched); srv.Watch(updateCtx) }() // then tool calls ask the watcher, not the tree
		defer func() { cancel(); <-watched }()
	}
	stop, err := a.startGateway(ctx, srv.MCP(), user)
	if err != nil {
		return err
	}
	defer stop()
	if httpAddr != "" {
		return srv.ListenAndServe(ctx, httpAddr, allowRemote, func(url string) {
			fmt.Fprintf(a.stderr, "winnow mcp: serving %s over streamable HTTP at %s\n", ix.Root(), url)
		})
	}
	if err := srv.Run(ctx, a.stdioTransport()); err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}

// upgradeInBackground brings an index at the quick tier to the full
// tier while the server answers from it (index.Index.Upgrade: a chunk of
// files per transaction, so tool calls wait for one chunk at most), then
// has the server load the full index.
func (a *app) upgradeInBackground(ctx context.Context, ix *index.Index, srv *mcpserver.Server) {
	fmt.Fprintf(a.stderr, "winnow mcp: answering from the quick index; building the full one in the background\n")
	st, err := ix.Upgrade(ctx, nil)
	if err == nil {
		_, err = srv.Refresh(ctx)
	}
	switch {
	case err != nil && ctx.Err() == nil:
		fmt.Fprintf(a.stderr, "winnow mcp: the full index: %v\n", err)
	case err == nil:
		fmt.Fprintf(a.stderr, "winnow mcp: full index ready: %s\n", summary(ix, st))
	}
}

// stdioTransport is MCP over the command's stdin and stdout, which then
// carry nothing but the protocol. A malformed line is answered with a
// JSON-RPC error and does not end the session.
func (a *app) stdioTransport() mcp.Transport {
	return mcpserver.StdioTransport(a.stdin, a.stdout)
}

// isProject reports whether root is a project winnow should index at
// start: a git work tree, or a directory with winnow's configuration or
// index. findRoot falls back to the current directory when it finds none.
func isProject(root string) bool {
	for _, marker := range []string{".git", config.RepoFile, filepath.Join(".winnow", "index.db")} {
		if _, err := os.Stat(filepath.Join(root, marker)); err == nil {
			return true
		}
	}
	return false
}
