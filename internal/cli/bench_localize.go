package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/bench/localize"
	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/retrieve"
)

func (a *app) benchLocalizeCommand() *cobra.Command {
	var data, repos, out, score, only, indexDir, tier string
	var asJSON bool
	var limit int
	var budgets []int
	var noContext bool
	var params []string
	cmd := &cobra.Command{
		Use:   "localize --data <jsonl> --repos <dir>",
		Short: "Benchmark retrieval on real issues: does the context hold the code the fix edited?",
		Long: `Localize runs the retrieval engine on each issue of a dataset (see
bench/localize/README.md) and scores the result against the files and
functions the real fix edited: file Acc@1/3/5/10, module and function Acc@5/10,
function Recall@k and MRR, budgeted-context recall at 2K/4K/8K/16K tokens, cold
index time and warm query latency.

Each instance's tree must be prepared as <repos>/<owner>__<name>@<commit>
(bench/localize/prepare.sh does it from git clones); nothing is checked out
here. Each tree is indexed on first use (inside the tree, or under
--index-dir) and reused after. --tier quick measures indexes built by the fast
scanner alone, as the first winnow context on a repository never indexed
answers from them (no git history either: the quick tier does not read it).
Per-instance results go to --out as JSON lines; --score scores a results file
without running anything.`,
		Example: `  winnow bench localize --data ../shared/bench/localize/dev.jsonl --repos /work/bench-trees/localize --out results.jsonl
  winnow bench localize --data dev.jsonl --repos trees --score results.jsonl --json
  winnow bench localize --data dev.jsonl --repos trees --tier quick --index-dir /tmp/quick --out quick.jsonl`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if data == "" || repos == "" {
				return usageError{fmt.Errorf("--data and --repos are required")}
			}
			instances, err := localize.LoadInstances(data)
			if err != nil {
				return err
			}
			var results []localize.Result
			if score != "" {
				if results, err = localize.ReadResults(score); err != nil {
					return err
				}
			} else {
				if tier != "full" && tier != "quick" {
					return usageError{fmt.Errorf("--tier %q: use quick or full", tier)}
				}
				if tier == "quick" && indexDir == "" {
					return usageError{fmt.Errorf("--tier quick needs --index-dir: the trees' own indexes are full and would stay so")}
				}
				opts := localize.RunOptions{
					Repos:    repos,
					Budgets:  budgets,
					Log:      a.stderr,
					IndexDir: indexDir,
					Quick:    tier == "quick",
					IndexOptions: func(root string) index.Options {
						opts, err := a.indexOptions(cmd, &indexFlags{}, root)
						if err != nil {
							return index.Options{Root: root}
						}
						return opts
					},
				}
				if len(params) > 0 {
					par := retrieve.DefaultParams
					if err := par.ParseAssignments(params); err != nil {
						return usageError{err}
					}
					opts.Params = &par
				}
				if noContext {
					opts.Budgets = []int{}
				}
				if only != "" || limit > 0 {
					n := 0
					opts.Only = func(in localize.Instance) bool {
						if only != "" && !strings.Contains(in.ID, only) {
							return false
						}
						n++
						return limit <= 0 || n <= limit
					}
				}
				if out != "" {
					f, err := os.Create(out)
					if err != nil {
						return err
					}
					defer f.Close()
					opts.Results = f
				}
				if results, err = localize.Run(cmd.Context(), instances, opts); err != nil {
					return err
				}
				instances = ran(instances, results)
			}
			rep, err := localize.Score(instances, results, localize.TreeExists(repos))
			if err != nil {
				return err
			}
			return writeReport(a.stdout, rep, asJSON)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&data, "data", "", "the dataset, JSON lines (see bench/localize/README.md)")
	fs.StringVar(&repos, "repos", "", "directory of prepared trees <owner>__<name>@<commit>")
	fs.StringVar(&out, "out", "", "write per-instance results here (JSON lines)")
	fs.StringVar(&score, "score", "", "score this results file instead of running")
	fs.StringVar(&only, "only", "", "run only instances whose id contains this")
	fs.IntVar(&limit, "limit", 0, "run at most this many instances")
	fs.BoolVar(&asJSON, "json", false, "print the report as JSON")
	fs.IntSliceVar(&budgets, "budgets", nil, "token budgets to measure context recall at (default 2000,4000,8000,16000)")
	fs.StringSliceVar(&params, "param", nil, "override a ranking parameter, name=value (repeatable; for tuning)")
	fs.BoolVar(&noContext, "no-context", false, "rank only: skip packing contexts (faster, for tuning the ranking)")
	fs.StringVar(&indexDir, "index-dir", "", "keep each instance's index in DIR/<tree name> rather than in the tree, which is left alone")
	fs.StringVar(&tier, "tier", "full", "index tier to build and measure: full, or quick (the fast scanner alone, as a first winnow context answers; needs --index-dir)")
	return cmd
}

// ran keeps the instances that have a result, so that a partial run
// (--only, --limit) is scored on what it ran.
func ran(instances []localize.Instance, results []localize.Result) []localize.Instance {
	have := make(map[string]bool, len(results))
	for _, r := range results {
		have[r.ID] = true
	}
	var out []localize.Instance
	for _, in := range instances {
		if have[in.ID] {
			out = append(out, in)
		}
	}
	return out
}
