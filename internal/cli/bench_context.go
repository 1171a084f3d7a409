package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/bench"
	"github.com/winnowhq/winnow/internal/bench/localize"
)

func (a *app) benchContextCommand() *cobra.Command {
	var repo, data, winnow string
	var runs, limit int
	var mcpMode, asJSON bool
	cmd := &cobra.Command{
		Use:   "context --repo <dir> --data <jsonl>",
		Short: "Benchmark the latency of winnow context, one process per task",
		Long: `Context times 'winnow context "<task>"' as an agent runs it: one process per
task, over the tree's index (built by an unmeasured first call). Each run is
followed by 'winnow version', the floor of any winnow process, run the same
way, so the ratio says what answering costs beyond starting. Wall and CPU time
(user+sys) are reported as p50/p95, with the load average at the start and the
end. With --mcp, the context tool is also timed over one long-lived 'winnow mcp'
session on stdio.

The tasks are the problem statements of --data (bench/localize's JSONL) for
the tree's repository, read from the tree's name (<owner>__<name>@<commit>).
Copy the tree somewhere of its own first if others use it.`,
		Example: `  winnow bench context --repo /tmp/sympy --data dev.jsonl --limit 8 --runs 3 --mcp`,
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if repo == "" || data == "" {
				return usageError{fmt.Errorf("--repo and --data are required")}
			}
			instances, err := localize.LoadInstances(data)
			if err != nil {
				return err
			}
			name := filepath.Base(filepath.Clean(repo))
			owner, rest, ok := strings.Cut(strings.SplitN(name, "@", 2)[0], "__")
			if !ok {
				return usageError{fmt.Errorf("--repo %s: the tree's name must be <owner>__<name>@<commit>, as bench/localize/prepare.sh makes it, to find its tasks", repo)}
			}
			var tasks []string
			for _, in := range instances {
				if in.Repo == owner+"/"+rest && (limit <= 0 || len(tasks) < limit) {
					tasks = append(tasks, in.ProblemStatement)
				}
			}
			if len(tasks) == 0 {
				return usageError{fmt.Errorf("%s has no task of %s/%s", data, owner, rest)}
			}
			if winnow == "" {
				if winnow, err = os.Executable(); err != nil {
					return err
				}
			}
			res, err := bench.MeasureContext(cmd.Context(), bench.ContextOptions{Winnow: winnow, Repo: repo, Tasks: tasks, Runs: runs, MCP: mcpMode})
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(res)
			}
			w := a.stdout
			fmt.Fprintf(w, "%s: %d tasks × %d runs; load average %s → %s\n", res.Repo, res.Tasks, res.Runs, res.Machine.LoadAvg, res.Machine.LoadAvgEnd)
			fmt.Fprintf(w, "  %-16s wall p50 %-8v p95 %-8v  cpu p50 %-8v p95 %v\n", "winnow context", res.Context.Wall.P50, res.Context.Wall.P95, res.Context.CPU.P50, res.Context.CPU.P95)
			fmt.Fprintf(w, "  %-16s wall p50 %-8v p95 %-8v  cpu p50 %-8v p95 %v\n", "winnow version", res.Floor.Wall.P50, res.Floor.Wall.P95, res.Floor.CPU.P50, res.Floor.CPU.P95)
			fmt.Fprintf(w, "  context / floor  wall %.1f×  cpu %.1f×   (targets: context p50 ≤ 100ms, p95 ≤ 200ms)\n", res.WallRatio, res.CPURatio)
			if res.MCP != nil {
				fmt.Fprintf(w, "  %-16s wall p50 %-8v p95 %v   (target: p95 ≤ 25ms)\n", "mcp context tool", res.MCP.P50, res.MCP.P95)
			}
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&repo, "repo", "", "the tree, named <owner>__<name>@<commit>")
	fs.StringVar(&data, "data", "", "JSONL of tasks (bench/localize format)")
	fs.StringVar(&winnow, "winnow", "", "the winnow binary to measure (default: this one)")
	fs.IntVar(&runs, "runs", 3, "times each task is asked")
	fs.IntVar(&limit, "limit", 8, "tasks to use at most (0: all)")
	fs.BoolVar(&mcpMode, "mcp", false, "also time the context tool over a long-lived winnow mcp")
	fs.BoolVar(&asJSON, "json", false, "print the results as JSON")
	return cmd
}
