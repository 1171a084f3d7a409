package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	benchenrich "github.com/winnowhq/winnow/internal/bench/enrich"
	"github.com/winnowhq/winnow/internal/compact/traj"
	"github.com/winnowhq/winnow/internal/planner"
	"github.com/winnowhq/winnow/internal/toolvalue"
)

func (a *app) benchEnrichCommand() *cobra.Command {
	var data, only string
	var asJSON, perTrajectory bool
	var budget, limit int
	cmd := &cobra.Command{
		Use:   "enrich --data <dir or file>",
		Short: "Benchmark the tool-call planner on recorded agent runs: prefetch hits, turns saved, net cached cost",
		Long: `Enrich replays each recorded agent run call by call through the planner
that the gateway runs after every tool call. The agents' calls are read in
one vocabulary (Read, Grep, Glob, LS, Edit, Write, Bash, as Claude Code
names them; see internal/agentcalls), the planner sees only the calls
before each point with their results, and its decisions are judged against
the calls the agent made next:

  - prefetch_hit_rate: prefetched calls the agent made (same key) within
    its next 3 calls / prefetches;
  - decline_recall_loss: declined calls the agent made within 3 that
    nothing else answered (no inline, prefetch or dedup) / declines;
  - cost_overrun_rate: admitted calls whose real size, where the agent's
    own call tells it, was at least 130% of the prediction / those;
  - turns_saved_ratio: the agent's tool-call turns every call of which an
    earlier inline answered (its result holds the call's: a Read of a
    window within an inlined file) / tool-call turns; turns_saved_ceiling
    beside it, the turns whose every call reads a file (and a line of the
    window) that an earlier result names: what inlines could save at most;
  - net_cost_ratio: the runs' cost with enrichment over without, under
    Anthropic's prompt cache (reads 0.1x, writes 1.25x) with output at 5x:
    inlined results join the context from their turn on, a saved turn's
    request and its messages are gone; net_cost_ratio_openai the same
    under OpenAI's cache with output at 4x.

The models are winnow's built-in ones with the [tools] tables of your
configuration over them, as the gateway uses them; the budget is the
gateway's default turn budget unless --budget says otherwise. Progress goes
to stderr, the report to stdout.`,
		Example: `  winnow bench enrich --data internal/compact/traj/testdata/trajectories
  winnow bench enrich --data run.traj.json --json
  winnow bench enrich --data internal/compact/traj/testdata/trajectories --per-trajectory --budget 4000`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if data == "" {
				return usageError{fmt.Errorf("--data is required: a trajectory file or a directory of them")}
			}
			if budget < 0 {
				return usageError{fmt.Errorf("--budget %d: want a number of tokens, 0 or more", budget)}
			}
			cfg, err := a.loadConfig("")
			if err != nil {
				return err
			}
			ts, err := traj.Load(data)
			if err != nil {
				return err
			}
			ts = filterTrajectories(ts, only, limit)
			if len(ts) == 0 {
				return fmt.Errorf("no trajectory in %s matches --only %q", data, only)
			}
			reg := toolvalue.NewRegistry(toolvalue.Builtin())
			reg.SetUser(cfg.ToolRules())
			b := planner.DefaultBudget
			if cmd.Flags().Changed("budget") {
				b.Tokens = budget
			}
			rep, err := benchenrich.Run(cmd.Context(), ts, benchenrich.Options{
				Planner:       &planner.Planner{Models: reg.Model, Logger: a.logger()},
				Budget:        b,
				PerTrajectory: perTrajectory,
				Progress:      a.stderr,
			})
			if err != nil {
				return err
			}
			return writeReport(a.stdout, rep, asJSON)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&data, "data", "", "a trajectory file or a directory of them")
	fs.BoolVar(&asJSON, "json", false, "print the report as one JSON object")
	fs.IntVar(&budget, "budget", planner.DefaultBudget.Tokens, "tokens that inlined results may add after one call")
	fs.BoolVar(&perTrajectory, "per-trajectory", false, "report every trajectory's numbers too")
	fs.StringVar(&only, "only", "", "replay only trajectories whose name contains this")
	fs.IntVar(&limit, "limit", 0, "replay at most this many trajectories")
	return cmd
}
