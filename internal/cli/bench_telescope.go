package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	benchtel "github.com/winnowhq/winnow/internal/bench/telescope"
	"github.com/winnowhq/winnow/internal/index"
)

func (a *app) benchTelescopeCommand() *cobra.Command {
	var opts benchtel.Options
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "telescope [flags] <path>...",
		Short: "Benchmark telescope builds: compression, signature coverage, warm/cold, incrementality",
		Long: `Telescope builds a telescope of each tree and prints, next to their targets:

  - the tokens of the L1 abstracts against the raw source (code files, all files);
  - whether every function, method and class signature of the code index appears
    in its file's L1 text (whitespace-normalised);
  - the first build into an empty store against warm builds by a new engine over
    the reopened store (as a second process), as a ratio;
  - the nodes a rebuild computes after one file gets a newline appended, against
    one unit and its ancestors.

The code index and the store are built in a temporary directory, never in the
tree. The touched file (--touch, or the code file in the middle of the tree)
gets its bytes and modification time back afterwards, also on error or Ctrl-C.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if err := cobra.MinimumNArgs(1)(cmd, args); err != nil {
				return usageError{err}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Levels < 1 || opts.Levels > 3 {
				return usageError{fmt.Errorf("--levels %d: must be between 1 and 3", opts.Levels)}
			}
			opts.IndexOptions = func(root string) (index.Options, error) {
				return a.indexOptions(cmd, &indexFlags{}, root)
			}
			opts.Progress = a.stderr
			rep, err := benchtel.Run(cmd.Context(), args, opts)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.stdout, rep)
			}
			return rep.WriteText(a.stdout)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.Strategy, "strategy", "code_signature", "strategy to measure (deterministic ones; no model is called)")
	fs.IntVar(&opts.Levels, "levels", 2, "levels of abstracts to build")
	fs.IntVar(&opts.WarmRuns, "warm-runs", 3, "warm builds to time")
	fs.StringVar(&opts.Touch, "touch", "", "file (relative to the tree) to change for the incremental rebuild; default: one picked from the middle of the tree")
	fs.BoolVar(&opts.Keep, "keep", false, "keep the temporary index and store, and print where")
	fs.BoolVar(&asJSON, "json", false, "print the report as JSON, durations in nanoseconds")
	return cmd
}
