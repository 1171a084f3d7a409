package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/config"
	"github.com/winnowhq/winnow/internal/toolvalue"
	"github.com/winnowhq/winnow/internal/tune"
)

func (a *app) tuneCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tune",
		Short: "Propose changes to the tools' value models from telemetry and agent logs",
		Long: `Tune compares what agents were seen to do with the value models the gateway's
planner uses (built-in defaults, the upstreams' annotations, your [tools."<name>"]
tables; 'winnow config show' lists yours) and proposes changes, each with its
reason, as [tools."<name>"] tables to copy into the user configuration.

  analyze     from the gateway's telemetry: speculation off where prefetches
              were mostly wasted, sizes, latency and follow-up probabilities
  from-logs   from Claude Code transcripts, Codex rollouts and trajectories:
              sizes and follow-up edges, with the arguments each edge projects;
              --write adds them to the user configuration`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return usageError{errors.New("tune: name a subcommand: analyze or from-logs")}
		},
	}
	cmd.AddCommand(a.tuneAnalyzeCommand(), a.tuneFromLogsCommand())
	return cmd
}

func (a *app) tuneAnalyzeCommand() *cobra.Command {
	var asJSON bool
	var file, since string
	cmd := &cobra.Command{
		Use:   "analyze",
		Short: "Propose changes to the tools' value models from the gateway's telemetry",
		Long: `Analyze reads the gateway's telemetry (see 'winnow stats') and proposes, per tool:

  speculate = false          where the agent used fewer than 50% of the planner's
                             prefetches within its next 3 calls, over at least 10
  cost_model.typical_tokens  the median size of at least 5 results the upstream
  cost_model.max_tokens      answered, and their 99th percentile, when the model
                             is more than a quarter away
  cost_model.latency_ms      the median time the upstream took, likewise
  follow_up                  the model's edges with their lag-1 probabilities
                             refreshed (count(tool→next at once) / count(tool)),
                             edges the agent did not follow dropped

It prints them as [tools."<name>"] tables, a comment with the reason above each
key, and applies nothing: copy what you want into the user configuration. The
telemetry holds no arguments, so new follow-up edges are listed as notes; 'winnow
tune from-logs' mines them with their arguments from the agents' own logs.`,
		Example: `  winnow tune analyze
  winnow tune analyze --since 7d --json`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, from, err := a.telemetryRange(file, since)
			if err != nil {
				return err
			}
			tel, err := tune.ReadTelemetry(path, from)
			if errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("no telemetry at %s: the gateway records it only when the configuration sets [telemetry] enabled = true (see 'winnow config show'); 'winnow tune from-logs' works from the agents' own logs instead", path)
			}
			if err != nil {
				return err
			}
			model, err := a.toolModels()
			if err != nil {
				return err
			}
			ps := tune.Propose(tel.Obs, tune.Options{Model: model, Telemetry: tel})
			if asJSON {
				return writeJSON(a.stdout, analyzeReport{Files: tel.Summary.Files, Sessions: tel.Obs.Sessions, Calls: tel.Obs.Calls, Proposals: orEmpty(ps), Edges: orEmpty(tel.Obs.Edges())})
			}
			s := tel.Summary
			fmt.Fprintf(a.stdout, "winnow tune analyze: %d tool results in %d sessions%s (%s)\n", s.Calls, s.Sessions, period(s.First, s.Last), strings.Join(s.Files, ", "))
			return a.printProposals(ps)
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&asJSON, "json", false, "print the proposals and the edges counted (lags 1 to 3) as JSON")
	fs.StringVar(&file, "telemetry", "", "telemetry file to read (default from the configuration)")
	fs.StringVar(&since, "since", "", "only calls of this recent period, e.g. 90m, 24h or 7d")
	return cmd
}

// analyzeReport is what winnow tune analyze --json prints.
type analyzeReport struct {
	Files     []string        `json:"files"`
	Sessions  int             `json:"sessions"`
	Calls     int             `json:"calls"`
	Proposals []tune.Proposal `json:"proposals"`
	Edges     []tune.EdgeRow  `json:"edges"`
}

func period(first, last time.Time) string {
	if first.IsZero() {
		return ""
	}
	return fmt.Sprintf(" from %s to %s", first.Local().Format(time.DateTime), last.Local().Format(time.DateTime))
}

// printProposals prints the proposals as a snippet of the user configuration.
func (a *app) printProposals(ps []tune.Proposal) error {
	if len(ps) == 0 {
		_, err := fmt.Fprintln(a.stdout, "nothing to propose: the models agree with what was seen, or too little was seen to tell")
		return err
	}
	user, err := a.userFile()
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "proposals for %d tools; nothing is applied: copy what you want into %s\n\n", len(ps), user)
	_, err = io.WriteString(a.stdout, tune.Snippet(ps))
	return err
}

// userFile is the user configuration file: --config, else $WINNOW_CONFIG, else the
// default location.
func (a *app) userFile() (string, error) {
	if a.configFile != "" {
		return a.configFile, nil
	}
	p, _, err := config.UserFile()
	return p, err
}

// toolModels returns the effective model of each tool as the gateway resolves it
// without an upstream's annotations: the built-in defaults, then the user's [tools]
// tables.
func (a *app) toolModels() (func(string) toolvalue.Model, error) {
	cfg, err := a.loadConfig("")
	if err != nil {
		return nil, err
	}
	builtin, user := toolvalue.Builtin(), cfg.ToolRules()
	return func(tool string) toolvalue.Model {
		m, _ := toolvalue.Resolve(tool, builtin, user)
		return m
	}, nil
}

func (a *app) tuneFromLogsCommand() *cobra.Command {
	var asJSON, write bool
	var home string
	cmd := &cobra.Command{
		Use:   "from-logs [PATH...]",
		Short: "Mine follow-up edges and result sizes from agent logs into [tools] tables",
		Long: `From-logs reads agent sessions and proposes changes to the tools' value models
as 'winnow tune analyze' does, from the calls the agents made: result sizes
(o200k tokens of each result; failed calls left out) and follow-up edges, the
tools called within 3 calls of each other, with lag-1 probabilities
(count(tool→next at once) / count(tool)). An edge is proposed only when each
argument its calls usually carry can be projected from the call before: a path
the earlier result listed (result.paths) or an equal argument (arg.<name>);
the rest are notes.

It reads, by default, Claude Code's transcripts (~/.claude/projects/*/*.jsonl,
or $CLAUDE_CONFIG_DIR/projects) and Codex's rollouts (~/.codex/sessions/**/
rollout-*.jsonl, or $CODEX_HOME/sessions); given paths, those files and every
.json, .jsonl and .traj file under those directories: transcripts, rollouts and
the trajectory formats 'winnow bench' reads (OpenHands, SWE-agent, SWE-smith).
MCP tools are named as the gateway names them: mcp__winnow__github__get_issue
and mcp__github__get_issue are both github__get_issue.

It prints the proposals and the diff they would make to the user configuration.
With --write it writes that diff, after a backup of the file (NAME.bak-YYYYMMDD-
HHMMSS beside it). Only what you have not written is added: a key any of your
[tools] tables sets for the tool (its own or a pattern matching it) is kept as
it is, and nothing is replaced or removed.`,
		Example: `  winnow tune from-logs
  winnow tune from-logs ~/.claude/projects/-home-me-app --json
  winnow tune from-logs --write`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.tuneFromLogs(args, home, write, asJSON)
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&write, "write", false, "add the proposals to the user configuration (after a backup); without it, only print them and the diff")
	fs.BoolVar(&asJSON, "json", false, "print what was read, the edges counted (lags 1 to 3), the proposals and the plan for the configuration as JSON")
	fs.StringVar(&home, "home", "", "home directory whose agent logs to read when no path is given (default $HOME)")
	return cmd
}

// fromLogsReport is what winnow tune from-logs --json prints.
type fromLogsReport struct {
	Read      tune.LogReport  `json:"read"`
	Proposals []tune.Proposal `json:"proposals"`
	Edges     []tune.EdgeRow  `json:"edges"`
	Config    mergeReport     `json:"config"`
}

type mergeReport struct {
	Path    string   `json:"path"`
	Diff    string   `json:"diff"`
	Added   []string `json:"added"`
	Kept    []string `json:"kept"`
	Skipped []string `json:"skipped"`
	Written bool     `json:"written"`
	Backup  string   `json:"backup,omitempty"`
}

func (a *app) tuneFromLogs(paths []string, home string, write, asJSON bool) error {
	if len(paths) == 0 {
		var err error
		if home == "" {
			if home, err = os.UserHomeDir(); err != nil {
				return fmt.Errorf("tune from-logs: %w (pass --home, or the logs to read)", err)
			}
		}
		if paths, err = tune.DefaultLogs(home, os.Getenv("CLAUDE_CONFIG_DIR"), os.Getenv("CODEX_HOME")); err != nil {
			return err
		}
		if len(paths) == 0 {
			return fmt.Errorf("no agent logs under %s: looked for Claude Code transcripts in %s and Codex rollouts under %s; pass the files or directories to read",
				home, filepath.Join(home, ".claude", "projects", "*", "*.jsonl"), filepath.Join(home, ".codex", "sessions"))
		}
	}
	m, err := tune.NewMiner()
	if err != nil {
		return err
	}
	if err := m.ReadPaths(paths); err != nil {
		return err
	}
	if m.Report.Sessions == 0 {
		return fmt.Errorf("no agent sessions with tool calls in %s%s", strings.Join(paths, ", "), failures(m.Report.Failed))
	}
	model, err := a.toolModels()
	if err != nil {
		return err
	}
	ps := tune.Propose(m.Obs, tune.Options{Model: model})
	user, err := a.userFile()
	if err != nil {
		return err
	}
	plan, err := tune.PlanMerge(user, ps)
	if err != nil {
		return err
	}
	rep := mergeReport{Path: user, Diff: plan.Diff(displayName(user)), Added: orEmpty(plan.Added), Kept: orEmpty(plan.Kept), Skipped: orEmpty(plan.Skipped)}
	var writeErr error
	if write && plan.Changed() {
		rep.Backup, writeErr = plan.Write(time.Now())
		rep.Written = writeErr == nil
	}
	if asJSON {
		if err := writeJSON(a.stdout, fromLogsReport{Read: m.Report, Proposals: orEmpty(ps), Edges: orEmpty(m.Obs.Edges()), Config: rep}); err != nil {
			return err
		}
		return writeErr
	}
	a.printLogReport(m.Report)
	if len(ps) == 0 {
		fmt.Fprintln(a.stdout, "nothing to propose: the models agree with what was seen, or too little was seen to tell")
		return writeErr
	}
	fmt.Fprintf(a.stdout, "proposals for %d tools:\n\n%s\n", len(ps), tune.Snippet(ps))
	printMerge(a.stdout, rep, plan.Changed(), write)
	return writeErr
}

func failures(failed []string) string {
	if len(failed) == 0 {
		return ""
	}
	return ":\n  " + strings.Join(failed, "\n  ")
}

// displayName shows a path under the home directory as ~/….
func displayName(path string) string {
	if home, err := os.UserHomeDir(); err == nil && strings.HasPrefix(path, home+string(filepath.Separator)) {
		return "~" + path[len(home):]
	}
	return path
}

func (a *app) printLogReport(r tune.LogReport) {
	var parts []string
	for _, f := range []struct{ key, name string }{{tune.FormatClaudeCode, "Claude Code"}, {tune.FormatCodex, "Codex"}, {tune.FormatTrajectory, "trajectories"}} {
		if n := r.ByFormat[f.key]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", f.name, n))
		}
	}
	fmt.Fprintf(a.stdout, "winnow tune from-logs: %d sessions (%s), %d tool calls, from %d files\n", r.Sessions, strings.Join(parts, ", "), r.Calls, r.Files)
	if r.SkippedLines > 0 {
		fmt.Fprintf(a.stdout, "note: %d lines were not JSON and were skipped\n", r.SkippedLines)
	}
	if len(r.Failed) > 0 {
		fmt.Fprintf(a.stdout, "could not read %d files:%s\n", len(r.Failed), failures(r.Failed))
	}
	fmt.Fprintln(a.stdout)
}

// printMerge prints what the proposals do to the user configuration: the diff, what
// was kept and skipped, and what was written.
func printMerge(w io.Writer, r mergeReport, changed, write bool) {
	name := displayName(r.Path)
	switch {
	case !changed:
		fmt.Fprintf(w, "%s: nothing to add\n", name)
	case r.Written:
		fmt.Fprintf(w, "%s: added %s\n%s", name, strings.Join(r.Added, ", "), r.Diff)
	default:
		fmt.Fprintf(w, "%s: would add %s\n%s", name, strings.Join(r.Added, ", "), r.Diff)
	}
	if len(r.Kept) > 0 {
		fmt.Fprintf(w, "kept as you wrote them: %s\n", strings.Join(r.Kept, ", "))
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "not added: %s\n", s)
	}
	switch {
	case r.Written && r.Backup != "":
		fmt.Fprintf(w, "wrote %s (the old file is %s)\n", name, displayName(r.Backup))
	case r.Written:
		fmt.Fprintf(w, "wrote %s\n", name)
	case changed && !write:
		fmt.Fprintln(w, "run again with --write to add them")
	}
}
