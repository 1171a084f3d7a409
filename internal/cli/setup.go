package cli

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/llmproxy"
	"github.com/winnowhq/winnow/internal/setup"
)

// setupFlags are the flags of `winnow setup`.
type setupFlags struct {
	write, asJSON   bool
	scope           string
	noMCP, noProxy  bool
	home, repo, cmd string
}

func (a *app) setupCommand() *cobra.Command {
	var f setupFlags
	cmd := &cobra.Command{
		Use:   "setup claude-code|codex",
		Short: "Wire winnow's MCP server and proxy into Claude Code's or Codex's configuration",
		Long: `Setup prints the configuration that makes an agent client use winnow, as a
diff of the client's own files; with --write it backs each changed file up
(NAME.bak-YYYYMMDD-HHMMSS beside it) and writes it. It sets up:

  the MCP server   'winnow mcp', registered as the server "winnow"
  the proxy        the client's API requests sent through 'winnow proxy', at
                   [proxy] listen of the user configuration (127.0.0.1:8787)

claude-code  user scope: ~/.claude.json (mcpServers) and ~/.claude/settings.json
             (env.ANTHROPIC_BASE_URL), or $CLAUDE_CONFIG_DIR/.claude.json and
             settings.json; project scope: the project's .mcp.json (shared) and
             .claude/settings.local.json (personal)
codex        ~/.codex/config.toml ($CODEX_HOME/config.toml): [mcp_servers.winnow],
             and a provider [model_providers.winnow] chosen by model_provider;
             project scope puts the MCP server in the project's .codex/config.toml

Only winnow's entries are touched: other keys keep their order and text, and
comments stay. A second run finds nothing to change. A file that does not
parse, or that already sends the client to another base URL or provider, is
an error, and nothing is written.

With the proxy set up, the client reaches the API only while 'winnow proxy'
runs.`,
		Example: `  winnow setup claude-code
  winnow setup claude-code --write
  winnow setup codex --write --no-proxy
  winnow setup claude-code --scope project --no-proxy --write`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.setup(cmd, args[0], &f)
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&f.write, "write", false, "write the changes (after a backup of each changed file); without it, only print them")
	fs.StringVar(&f.scope, "scope", "user", "where to register the MCP server: user (every project) or project (the project's shared file)")
	fs.BoolVar(&f.noMCP, "no-mcp", false, "leave the MCP server out")
	fs.BoolVar(&f.noProxy, "no-proxy", false, "leave the proxy out")
	fs.BoolVar(&f.asJSON, "json", false, "print the plan (and what was written) as JSON")
	fs.StringVar(&f.home, "home", "", "home directory whose client configuration to edit (default $HOME)")
	fs.StringVar(&f.repo, "repo", "", "project directory, with --scope project (default: the git work tree of the current directory)")
	fs.StringVar(&f.cmd, "command", "", `winnow executable the client starts (default "winnow" when it is on PATH, else this executable's path)`)
	return cmd
}

func (a *app) setup(cmd *cobra.Command, client string, f *setupFlags) error {
	if !slices.Contains(setup.Clients, client) {
		return usageError{fmt.Errorf("unknown client %q: winnow setup knows %s", client, strings.Join(setup.Clients, " and "))}
	}
	opts := setup.Options{
		Scope:           setup.Scope(f.scope),
		MCP:             !f.noMCP,
		Proxy:           !f.noProxy,
		Command:         f.cmd,
		ClaudeConfigDir: os.Getenv("CLAUDE_CONFIG_DIR"),
		CodexHome:       os.Getenv("CODEX_HOME"),
		Home:            f.home,
	}
	switch {
	case opts.Scope != setup.ScopeUser && opts.Scope != setup.ScopeProject:
		return usageError{fmt.Errorf("--scope %q: must be user or project", f.scope)}
	case f.noMCP && f.noProxy:
		return usageError{fmt.Errorf("--no-mcp and --no-proxy leave nothing to set up")}
	}
	var err error
	if opts.Home == "" {
		if opts.Home, err = os.UserHomeDir(); err != nil {
			return fmt.Errorf("setup: %w (pass --home)", err)
		}
	}
	if opts.Home, err = filepath.Abs(opts.Home); err != nil {
		return err
	}
	for _, dir := range []*string{&opts.ClaudeConfigDir, &opts.CodexHome} {
		if *dir != "" {
			if *dir, err = filepath.Abs(*dir); err != nil {
				return err
			}
		}
	}
	if opts.Scope == setup.ScopeProject {
		if opts.Project, err = resolveRoot(&indexFlags{repo: f.repo}, "."); err != nil {
			return err
		}
	}
	if opts.MCP && opts.Command == "" {
		if opts.Command, err = defaultCommand(); err != nil {
			return err
		}
	}
	if opts.Proxy {
		if opts.ProxyURL, err = a.proxyURL(); err != nil {
			return err
		}
	}
	plan, err := setup.New(client, opts)
	if err != nil {
		return err
	}
	var writeErr error
	if f.write {
		writeErr = plan.Write(time.Now())
	}
	if f.asJSON {
		if err := writeJSON(a.stdout, setupReport(plan, f.write)); err != nil {
			return err
		}
	} else {
		printSetup(a.stdout, plan, f.write, displayPath(opts.Home))
	}
	return writeErr
}

// proxyURL is the base URL clients reach `winnow proxy` at, from [proxy] listen of the
// user configuration (never a repository's: it decides where API keys go).
func (a *app) proxyURL() (string, error) {
	cfg, err := a.loadConfig("")
	if err != nil {
		return "", err
	}
	_, port, err := net.SplitHostPort(cfg.Proxy.Listen)
	if err != nil {
		return "", fmt.Errorf("[proxy] listen %q: %w", cfg.Proxy.Listen, err)
	}
	if port == "0" {
		return "", fmt.Errorf("[proxy] listen %q picks a free port on every start, which no client configuration can name: set a fixed port (or pass --no-proxy)", cfg.Proxy.Listen)
	}
	return llmproxy.ClientURL(listenAddr(cfg.Proxy.Listen)), nil
}

// listenAddr is a host:port as a net.Addr.
type listenAddr string

func (a listenAddr) Network() string { return "tcp" }
func (a listenAddr) String() string  { return string(a) }

// defaultCommand is the winnow executable clients should start: "winnow" when it is on
// PATH (as clients find it), else this executable's absolute path, unless this one is
// a temporary build of 'go run'.
func defaultCommand() (string, error) {
	if _, err := exec.LookPath("winnow"); err == nil {
		return "winnow", nil
	}
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		return "", fmt.Errorf("setup: find this executable: %w (pass --command)", err)
	}
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return "", fmt.Errorf("winnow is not on PATH and this is a temporary build of 'go run' (%s): install winnow (go install ./cmd/winnow), or pass --command with its path", exe)
	}
	return exe, nil
}

// displayPath shows paths under home as ~/….
func displayPath(home string) func(string) string {
	return func(s string) string {
		return strings.ReplaceAll(s, home+string(filepath.Separator), "~"+string(filepath.Separator))
	}
}

var clientNames = map[string]string{setup.ClaudeCode: "Claude Code", setup.Codex: "Codex"}

// printSetup prints the plan: a line and a diff per file, what was written, winnow's
// part of each file (before writing), and the notes.
func printSetup(w io.Writer, p *setup.Plan, wrote bool, show func(string) string) {
	var parts []string
	for _, c := range p.Changes {
		parts = append(parts, c.Sets...)
	}
	fmt.Fprintf(w, "winnow setup %s (%s scope): %s\n", p.Client, p.Scope, strings.Join(parts, ", "))
	for _, c := range p.Changes {
		name := show(c.Path)
		sets := strings.Join(c.Sets, ", ")
		switch {
		case !c.Changed():
			fmt.Fprintf(w, "\n%s: %s already set; unchanged\n", name, sets)
			continue
		case !c.Exists:
			fmt.Fprintf(w, "\n%s: new file, sets %s\n", name, sets)
		default:
			fmt.Fprintf(w, "\n%s: sets %s\n", name, sets)
		}
		fmt.Fprint(w, c.Diff(name))
	}
	fmt.Fprintln(w)
	switch {
	case !p.Changed() && !anyWritten(p):
		fmt.Fprintln(w, "Already set up: nothing to change.")
	case wrote:
		for _, c := range p.Changes {
			switch {
			case c.Written && c.Backup != "":
				fmt.Fprintf(w, "Wrote %s (the old one is %s).\n", show(c.Path), show(c.Backup))
			case c.Written:
				fmt.Fprintf(w, "Wrote %s (new).\n", show(c.Path))
			case c.Changed():
				fmt.Fprintf(w, "Did not write %s.\n", show(c.Path))
			}
		}
	default:
		fmt.Fprintln(w, "Nothing written: run again with --write to apply this (each changed file is backed up first).")
		fmt.Fprintln(w, "\nWhat winnow adds, to write by hand instead:")
		for _, c := range p.Changes {
			fmt.Fprintf(w, "\n%s:\n%s", show(c.Path), c.Snippet)
		}
	}
	fmt.Fprintf(w, "\nWith this set up, for %s:\n", clientNames[p.Client])
	for _, n := range p.Notes {
		fmt.Fprintf(w, "- %s\n", show(n))
	}
}

func anyWritten(p *setup.Plan) bool {
	return slices.ContainsFunc(p.Changes, func(c *setup.Change) bool { return c.Written })
}

// setupFile is one file of `winnow setup --json`.
type setupFile struct {
	Path    string   `json:"path"`
	Status  string   `json:"status"` // "create", "update" or "unchanged"
	Sets    []string `json:"sets"`
	Diff    string   `json:"diff,omitempty"`
	Snippet string   `json:"snippet"`
	Written bool     `json:"written"`
	Backup  string   `json:"backup,omitempty"`
}

type setupOutput struct {
	Client string      `json:"client"`
	Scope  string      `json:"scope"`
	Write  bool        `json:"write"`
	Files  []setupFile `json:"files"`
	Notes  []string    `json:"notes"`
}

func setupReport(p *setup.Plan, write bool) setupOutput {
	out := setupOutput{Client: p.Client, Scope: string(p.Scope), Write: write, Notes: p.Notes}
	for _, c := range p.Changes {
		status := "update"
		switch {
		case !c.Changed():
			status = "unchanged"
		case !c.Exists:
			status = "create"
		}
		out.Files = append(out.Files, setupFile{Path: c.Path, Status: status, Sets: c.Sets, Diff: c.Diff(c.Path),
			Snippet: c.Snippet, Written: c.Written, Backup: c.Backup})
	}
	return out
}
