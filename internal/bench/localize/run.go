package localize

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/intent"
	"github.com/winnowhq/winnow/internal/retrieve"
)

// DefaultBudgets are the token budgets budgeted-context recall is
// measured at.
var DefaultBudgets = []int{2000, 4000, 8000, 16000}

// entityDepth is how deep the function ranking of a result goes.
const entityDepth = 100

// RunOptions configure Run.
type RunOptions struct {
	Repos   string              // the prepared trees, see TreeDir
	Budgets []int               // budgets to pack contexts at; nil means DefaultBudgets, empty (non-nil) none
	Only    func(Instance) bool // nil runs every instance
	Results io.Writer           // receives each Result as a JSON line, as it is done
	Log     io.Writer           // progress lines; nil for none
	// IndexOptions returns the options of the index of a tree; nil means
	// the defaults with the index inside the tree.
	IndexOptions func(root string) index.Options
	Params       *retrieve.Params
	// IndexDir, when set, holds each instance's index in IndexDir/<the
	// tree's directory name> instead of the tree's own, which is then
	// never opened: a run of another tier or binary leaves it alone.
	IndexDir string
	// Quick builds and updates the indexes at the quick tier only (the
	// fast scanner, index.Options.QuickFirst, no upgrade): what a first
	// winnow context on a repository never indexed answers from. A
	// complete index stays complete; Result.Index says what was measured.
	Quick bool
}

// Run indexes each instance's tree (incrementally: a tree indexed
// before is reused), asks the retrieval engine for the ranking
// and its contexts at each budget, and returns one Result per instance.
// It checks nothing out: the trees must be prepared.
func Run(ctx context.Context, instances []Instance, opts RunOptions) ([]Result, error) {
	if opts.Budgets == nil {
		opts.Budgets = DefaultBudgets
	}
	var out []Result
	for i, in := range instances {
		if opts.Only != nil && !opts.Only(in) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return out, err
		}
		r := runOne(ctx, in, opts)
		if opts.Log != nil {
			status := fmt.Sprintf("%.0f ms", r.LatencyMS)
			if r.Error != "" {
				status = "error: " + r.Error
			}
			fmt.Fprintf(opts.Log, "[%d/%d] %s: %s\n", i+1, len(instances), in.ID, status)
		}
		if opts.Results != nil {
			if err := WriteResults(opts.Results, r); err != nil {
				return out, err
			}
		}
		out = append(out, r)
	}
	return out, nil
}

func runOne(ctx context.Context, in Instance, opts RunOptions) Result {
	r := Result{ID: in.ID, BudgetRecall: make(map[int]float64)}
	fail := func(err error) Result {
		r.Error = err.Error()
		return r
	}
	root := TreeDir(opts.Repos, in)
	if err := checkTree(ctx, root, in); err != nil {
		return fail(err)
	}
	ixOpts := index.Options{Root: root}
	if opts.IndexOptions != nil {
		ixOpts = opts.IndexOptions(root)
	}
	if opts.IndexDir != "" {
		ixOpts.Dir = filepath.Join(opts.IndexDir, filepath.Base(root))
	}
	ixOpts.QuickFirst = opts.Quick
	ix, err := index.Open(ctx, ixOpts)
	if err != nil {
		return fail(err)
	}
	defer ix.Close()
	start := time.Now()
	st, err := ix.Update(ctx, nil)
	if err == nil {
		err = ix.IndexRefs(ctx) // what a quick first build defers, as winnow context makes it
	}
	if err != nil {
		return fail(err)
	}
	if st.Parsed+st.Scanned > 0 {
		r.IndexMS = ms(time.Since(start))
	}
	eng := retrieve.New(ix, &retrieve.Options{Params: opts.Params})
	// The first query loads the engine's view of the index; the latency
	// reported is a warm query's, as an agent's session sees after it.
	if _, err := eng.Rank(ctx, in.ProblemStatement); err != nil {
		return fail(err)
	}
	start = time.Now()
	ranking, err := eng.Rank(ctx, in.ProblemStatement)
	if err != nil {
		return fail(err)
	}
	r.LatencyMS = ms(time.Since(start))
	r.Index = ranking.Index().String()
	for _, d := range ranking.Defs {
		if len(r.FoundEntities) == entityDepth {
			break
		}
		if d.Kind.IsCallable() {
			r.FoundEntities = append(r.FoundEntities, d.Path+":"+d.Qual)
		}
	}
	for _, f := range ranking.Files {
		r.FoundFiles = append(r.FoundFiles, f.Path)
	}
	for _, b := range opts.Budgets {
		pack, err := eng.Pack(ctx, ranking, retrieve.Request{Task: in.ProblemStatement, Budget: b})
		if err != nil {
			return fail(err)
		}
		var cards []Card
		for _, s := range pack.Sections {
			if s.Section != intent.Definitions {
				continue
			}
			for _, c := range s.Cards {
				full := c.Detail == retrieve.Full
				cards = append(cards, Card{Path: c.Path, Name: c.Name, Full: full})
				for _, name := range c.Contains {
					cards = append(cards, Card{Path: c.Path, Name: name, Full: full})
				}
			}
		}
		r.BudgetRecall[b] = GoldInContext(in, cards)
		if b == retrieve.DefaultBudget {
			r.ContextTokens = pack.Tokens
		}
	}
	return r
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
