package cli

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/retrieve"
	"github.com/winnowhq/winnow/internal/tokens"
)

// maxTaskBytes bounds a task read from stdin.
const maxTaskBytes = 1 << 20

func (a *app) contextCommand() *cobra.Command {
	var f indexFlags
	var budget int
	var format string
	var explain bool
	var cpuprofile string
	cmd := &cobra.Command{
		Use:   "context <task>",
		Short: "Print the smallest context that holds what a task needs",
		Long: `Context turns a task description (an issue, a request, a pasted stack trace)
into a token-budgeted context of the repository's definitions: the best
candidates with their full source, the next ones as signatures and docs, and,
as the task's intent calls for, the code around stack frames, the imports of
the files in play, their tests and their callers. No model or network call is
made.

The context goes to stdout; a one-line summary (intent, cards, tokens, time)
to stderr. With "-" as the task, the task is read from stdin. The index is
brought up to date before each query. A repository never indexed gets the
quick tier of the index at once (a fast scan, no parse): the context says so
(index="quick" in its header, "index" in the JSON, a note on stderr), and
'winnow index' builds the full one.`,
		Example: `  winnow context "requests.get sends Content-Length on GET requests"
  gh issue view 123 | winnow context - --budget 4000 --format md
  winnow context "who calls parse_header" --explain`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			task := args[0]
			if task == "-" {
				data, err := io.ReadAll(io.LimitReader(bufio.NewReader(a.stdin), maxTaskBytes))
				if err != nil {
					return fmt.Errorf("read the task from stdin: %w", err)
				}
				task = string(data)
			}
			if strings.TrimSpace(task) == "" {
				return usageError{fmt.Errorf("the task is empty: say what you want to do, e.g. winnow context \"fix the crash in parse_header\"")}
			}
			if budget < 0 {
				return usageError{fmt.Errorf("--budget %d: must be positive", budget)}
			}
			form, err := retrieve.ParseFormat(format)
			if err != nil {
				return usageError{err}
			}
			stop, err := a.startCPUProfile(cpuprofile)
			if err != nil {
				return err
			}
			defer stop()
			// One query, then exit: the corpus file is mapped, not read.
			opts := &retrieve.Options{Logger: a.logger(), MapCorpus: true}
			var eng *retrieve.Engine
			// While the index is brought up to date (a stat of every
			// file), the other core opens the corpus file and builds the
			// exact counter's vocabulary: 10-25 ms of wall time on sympy.
			var preload sync.WaitGroup
			defer preload.Wait()
			preload.Go(func() { tokens.Exact(tokens.O200k) })
			// A repository never indexed is read by the fast scanner (the
			// quick tier): an answer in seconds, and a note saying so.
			f.quickFirst = true
			f.beforeUpdate = func(ix *index.Index) {
				eng = retrieve.New(ix, opts)
				preload.Go(func() { eng.Preload(cmd.Context()) })
			}
			return a.withIndex(cmd, &f, ".", func(ix *index.Index) error {
				if eng == nil {
					// A first build: the references' indexes it deferred are
					// made on one core while the corpus loads on the other.
					eng = retrieve.New(ix, opts)
					var refs error
					var indexing sync.WaitGroup
					indexing.Go(func() { refs = ix.IndexRefs(cmd.Context()) })
					warm := eng.Warm(cmd.Context())
					indexing.Wait()
					if err := cmp.Or(refs, warm); err != nil {
						return err
					}
				}
				// After the update and the load, which allocate far more than
				// a query: with the collector off it would all stay.
				oneShotGC()
				pack, err := eng.Context(cmd.Context(), retrieve.Request{Task: task, Budget: budget, Format: form, Explain: explain})
				if err != nil {
					return err
				}
				if err := pack.Render(a.stdout, form); err != nil {
					return err
				}
				cards, full := pack.Cards()
				fmt.Fprintf(a.stderr, "context: intent %s (%.2f), %d cards (%d full), %d/%d tokens, %d ms\n",
					pack.Intent.Kind, pack.Intent.Confidence, cards, full, pack.Tokens, pack.Budget, pack.Elapsed.Milliseconds())
				if cards == 0 {
					fmt.Fprintf(a.stderr, "context: nothing in %s matched the task; name a function, a file or an error message, or check the repository with 'winnow index'\n", ix.Root())
				}
				if pack.Index != index.TierFull {
					fmt.Fprintf(a.stderr, "context: answered from the quick index (definitions found by a fast scan, not yet parsed); run 'winnow index' to build the full one\n")
				}
				if explain && form != retrieve.JSON {
					if err := retrieve.WriteExplanation(a.stderr, pack.Explain); err != nil {
						return err
					}
					return retrieve.WriteFileExplanation(a.stderr, pack.ExplainFiles)
				}
				return nil
			})
		},
	}
	f.register(cmd, true)
	fs := cmd.Flags()
	fs.IntVar(&budget, "budget", retrieve.DefaultBudget, "token budget of the context (o200k tokens)")
	fs.StringVar(&format, "format", "xml", "output format: xml, md or json")
	fs.BoolVar(&explain, "explain", false, "show why each definition ranked where it did (stderr; in the JSON with --format json)")
	fs.StringVar(&cpuprofile, "cpuprofile", "", "write a CPU profile of the run to this file, for go tool pprof")
	return cmd
}

// oneShotGC turns the garbage collector off for a process that answers
// one query and exits, up to a soft memory limit past which it collects
// again: on sympy a query allocates ~100 MB in a few dozen milliseconds,
// and collecting it took ~20% of the process's CPU (GOGC=off 121-131 ms
// against 151-153 ms by default, perf stat task-clock). A GOGC or
// GOMEMLIMIT of the environment is kept.
func oneShotGC() {
	if old := debug.SetGCPercent(-1); old != 100 {
		debug.SetGCPercent(old) // GOGC was set: keep it
		return
	}
	if debug.SetMemoryLimit(-1) == math.MaxInt64 {
		debug.SetMemoryLimit(oneShotMemoryLimit)
	}
}

// oneShotMemoryLimit is the heap at which a one-shot process collects
// again: ten times what a query over sympy allocates.
const oneShotMemoryLimit = 1 << 30
