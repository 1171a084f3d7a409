package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/bench"
	"github.com/winnowhq/winnow/internal/index"
)

func (a *app) benchCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Run winnow's benchmarks against their peers",
	}
	cmd.AddCommand(a.benchIndexCommand(), a.benchLocalizeCommand(), a.benchCompactCommand(), a.benchShapeCommand(), a.benchProxyCommand(), a.benchAgentsCommand(), a.benchTelescopeCommand(), a.benchContextCommand(), a.benchEnrichCommand())
	return cmd
}

func (a *app) benchIndexCommand() *cobra.Command {
	var opts bench.Options
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "index [flags] <path>...",
		Short: "Benchmark indexing a tree against Universal Ctags",
		Long: `Index benchmarks winnow's index of each tree against Universal Ctags and
prints the numbers side by side with their targets:

  - cold index: 'winnow index --rebuild' against 'ctags -L' over the same files,
    interleaved, --runs times each (wall time, CPU time, peak RSS, files/s,
    MB/s), and 'ctags -R' over the whole tree once for reference;
  - reopening the index;
  - the incremental update after touching one file, in process (UpdatePaths as
    --watch does, and Update) and as the 'winnow index' command;
  - exact and default symbol lookup latency.

The index is built in a temporary directory, never in the tree. One file of
the tree gets a newline appended during the update measurements; its bytes
and modification time are restored afterwards, also on error or Ctrl-C.
Progress goes to stderr, results to stdout. Speed varies with the machine's
load, which the report shows; compare the ratios.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if err := cobra.MinimumNArgs(1)(cmd, args); err != nil {
				return usageError{err}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Runs < 1 {
				return usageError{fmt.Errorf("--runs %d: must be at least 1", opts.Runs)}
			}
			if opts.Winnow == "" {
				exe, err := os.Executable()
				if err != nil {
					return fmt.Errorf("find the winnow binary: %w", err)
				}
				opts.Winnow = exe
			}
			if a.configFile != "" {
				opts.WinnowArgs = []string{"--config", a.configFile}
			}
			if opts.CPUProfile != "" {
				// The cold runs start in the tree: a relative path would land in it.
				abs, err := filepath.Abs(opts.CPUProfile)
				if err != nil {
					return fmt.Errorf("--cpuprofile: %w", err)
				}
				opts.CPUProfile = abs
			}
			opts.IndexOptions = func(root string) (index.Options, error) {
				return a.indexOptions(cmd, &indexFlags{}, root)
			}
			opts.Progress = a.stderr
			rep, err := bench.Index(cmd.Context(), args, opts)
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			return rep.WriteText(a.stdout)
		},
	}
	fs := cmd.Flags()
	fs.IntVar(&opts.Runs, "runs", 5, "cold index runs of each tool")
	fs.StringVar(&opts.Ctags, "ctags", "ctags", "the Universal Ctags program")
	fs.StringVar(&opts.Winnow, "winnow", "", "the winnow binary to benchmark (default: this one)")
	fs.BoolVar(&asJSON, "json", false, "print the report as one JSON object, durations in milliseconds")
	fs.BoolVar(&opts.Keep, "keep", false, "keep the temporary indexes and tags files, and print where")
	fs.StringVar(&opts.CPUProfile, "cpuprofile", "", "write a CPU profile of the first cold winnow index to this file (the Nth tree's gets .N appended), for go tool pprof")
	return cmd
}
