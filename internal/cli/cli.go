// Package cli is winnow's command line: the command table, one file per
// command, and the wiring from flags to configuration to components. It
// holds no logic of its own; each command calls into the package that
// does the work.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// Main runs winnow with args (without the program name) and returns the
// process exit code. It never calls os.Exit, so tests run it in process.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr}
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, new(usageError)), strings.HasPrefix(err.Error(), "unknown command"):
		fmt.Fprintf(stderr, "winnow: %v\nRun 'winnow help' for usage.\n", err)
		return exitUsage
	case ctx.Err() != nil:
		fmt.Fprintln(stderr, "winnow: interrupted")
		return exitError
	default:
		fmt.Fprintf(stderr, "winnow: %v\n", err)
		return exitError
	}
}

// app is the state shared by the commands of one invocation.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer

	configFile string          // --config
	verbose    bool            // --verbose
	warned     map[string]bool // configuration warnings printed, so each is printed once
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "winnow",
		Short: "A context engine for LLM coding agents",
		Long: `winnow decides what enters an LLM agent's context window, and in what shape.

  winnow context "<task>"   the smallest token-budgeted context for a task, from
                            a tree-sitter index of the repository, with no model call
  winnow mcp                those tools over MCP, and a gateway that shapes the
                            responses of the other MCP servers you configure
  winnow proxy              compacts conversation history in front of the
                            Anthropic and OpenAI APIs, keeping the prompt cache hot
  winnow telescope build    content-addressed digests of a corpus to drill into`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	pf := root.PersistentFlags()
	pf.StringVar(&a.configFile, "config", "", "user configuration file (default $WINNOW_CONFIG or ~/.config/winnow/config.toml)")
	pf.BoolVarP(&a.verbose, "verbose", "v", false, "log debug information to stderr")
	root.AddCommand(
		a.indexCommand(),
		a.contextCommand(),
		a.symbolsCommand(),
		a.outlineCommand(),
		a.refsCommand(),
		a.mcpCommand(),
		a.proxyCommand(),
		a.statsCommand(),
		a.tuneCommand(),
		a.reportCommand(),
		a.telescopeCommand(),
		a.storeCommand(),
		a.configCommand(),
		a.toolsCommand(),
		a.benchCommand(),
		a.setupCommand(),
		a.versionCommand(),
	)
	return root
}

// logger returns the debug logger: stderr with --verbose, else discard.
func (a *app) logger() *slog.Logger {
	if a.verbose {
		return slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// usageError marks errors in how winnow was invoked.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// exactArgs is cobra.ExactArgs with errors marked as usage errors.
func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.ExactArgs(n)(cmd, args); err != nil {
			return usageError{err}
		}
		return nil
	}
}

func maxArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.MaximumNArgs(n)(cmd, args); err != nil {
			return usageError{err}
		}
		return nil
	}
}
