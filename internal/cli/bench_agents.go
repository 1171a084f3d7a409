package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/bench/agents"
)

func (a *app) benchAgentsCommand() *cobra.Command {
	var opts agents.Options
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "agents",
		Short: "Benchmark the proxy with a real agent client against a scripted API",
		Long: `Agents runs a real agent CLI (--client claude-code: Claude Code's claude -p;
--client codex: Codex's codex exec)
headless through a scripted session of --steps tool steps over generated files,
twice: straight at a scripted API on loopback (the passthrough baseline) and
through 'winnow proxy' in process, compaction on with its defaults. The
scripted API plays the model, checks every request against the API's rules
(a request that breaks one is answered 400 and counted invalid), applies the
server-side context edits the client asks for, and bills the input as the
API would: o200k tokens (Claude's tokenizer is not public) and a prompt-cache
simulation.

It prints both sessions side by side (requests, billed input tokens, cache
reads and writes, cached cost, invalid requests, server-side edits, what the
proxy did with each request) and the ratios winnow/passthrough with their
targets. Nothing leaves the machine: the client gets a placeholder API key.

The clients are npm packages (see .ci/run): --agents names the node_modules
directory holding them, by default $WINNOW_TEST_AGENTS.`,
		Example: `  npm install --prefix /tmp/agents --no-save @anthropic-ai/claude-code@2.1.328
  winnow bench agents --agents /tmp/agents/node_modules
  winnow bench agents --client claude-code --steps 20 --json
  winnow bench agents --client codex`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Steps < 1 || opts.Files < 1 {
				return usageError{fmt.Errorf("--steps %d, --files %d: must be at least 1", opts.Steps, opts.Files)}
			}
			if opts.Agents == "" {
				return usageError{fmt.Errorf("no --agents directory and WINNOW_TEST_AGENTS is not set: npm install --prefix DIR --no-save @anthropic-ai/claude-code@2.1.328 @openai/codex@0.169.0, then pass DIR/node_modules")}
			}
			opts.Progress = a.stderr
			rep, err := agents.Run(cmd.Context(), opts)
			if err != nil {
				return err
			}
			return writeReport(a.stdout, rep, asJSON)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.Client, "client", agents.ClaudeCode, "the agent client: claude-code or codex")
	fs.IntVar(&opts.Steps, "steps", 20, "tool steps of the scripted session")
	fs.IntVar(&opts.Files, "files", 8, "generated workspace files (20-40 KB each)")
	fs.StringVar(&opts.ServerEdits, "server-edits", "on", "the proxy's --server-edits: on (the scripted API stands for api.anthropic.com), or off (client-side compaction only, as for a gateway)")
	fs.StringVar(&opts.Agents, "agents", os.Getenv("WINNOW_TEST_AGENTS"), "node_modules directory holding the clients' CLIs (default $WINNOW_TEST_AGENTS)")
	fs.DurationVar(&opts.Timeout, "timeout", agents.DefaultTimeout, "longest one session may run")
	fs.BoolVar(&asJSON, "json", false, "print the report as one JSON object")
	return cmd
}
