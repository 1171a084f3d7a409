package enrich

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/winnowhq/winnow/internal/compact/costsim"
	"github.com/winnowhq/winnow/internal/compact/traj"
	"github.com/winnowhq/winnow/internal/planner"
)

// Targets of issue 12, on the shared trajectories.
const (
	TargetPrefetchHitRate   = 0.60
	TargetDeclineRecallLoss = 0.10
	TargetCostOverrunRate   = 0.15
	TargetTurnsSavedRatio   = 0.10
	TargetNetCostRatio      = 0.95
)

// Counts are what the replay counted; the rates are made of them.
type Counts struct {
	Calls int `json:"calls"`
	// Turns are the agent's turns that made tool calls (assistant messages with calls);
	// SpeculableTurns those whose every call is of a tool that may run ahead (a read, a
	// search, a listing): only they can be saved, so they bound TurnsSaved.
	Turns           int `json:"tool_call_turns"`
	SpeculableTurns int `json:"speculable_turns"`
	// TurnsSavedCeiling is what inlines could save at most (see ceiling): the turns
	// whose every call is a Read that a result of an earlier turn names, file and
	// window; NamedReads the Reads in them.
	TurnsSavedCeiling int `json:"turns_saved_ceiling"`
	NamedReads        int `json:"named_reads"`
	// Plans are the calls after which the planner ran: every call the gateway saw.
	Plans      int `json:"plans"`
	Candidates int `json:"candidates"`
	// Inlines are the candidates the planner decided to inline; Inlined those whose
	// real size fitted the turn budget, so the gateway appended them (the others ran
	// into the cache and count as prefetches).
	Inlines    int `json:"inlines"`
	Inlined    int `json:"inlined"`
	InlineHits int `json:"inline_hits"`
	// Prefetches are prefetch decisions and the inline decisions that did not fit.
	Prefetches   int `json:"prefetches"`
	PrefetchHits int `json:"prefetch_hits"`
	Declines     int `json:"declines"`
	// DeclinesCalled are the declined candidates the agent made within the window;
	// DeclinesLost those of them that nothing else answered either (no inline, prefetch
	// or dedup): the calls the decline cost.
	DeclinesCalled int `json:"declines_called"`
	DeclinesLost   int `json:"declines_lost"`
	// Predictions are the admitted candidates whose actual size is known (the agent
	// made the call with its key later in the run); Overruns those whose actual size
	// was at least Overrun times the prediction.
	Predictions int `json:"predictions_known"`
	Overruns    int `json:"overruns"`
	// Saved counts the agent's calls enrichment would have answered, by bucket: inline
	// (its result was appended earlier), prefetch (run ahead within the window), dedup
	// (an earlier read of the session covers it), fail_fast.
	Saved         map[string]int `json:"calls_saved"`
	TurnsSaved    int            `json:"turns_saved"`
	InlinedTokens int            `json:"inlined_tokens"`
	// DeclineReasons counts declines and the declined candidates called, by reason.
	DeclineReasons map[string]*ReasonCount `json:"decline_reasons"`
	// ByTool counts admitted candidates and hits by the candidate's tool.
	ByTool map[string]*ToolCount `json:"by_tool"`
}

// A ReasonCount is how often a decline reason was given, and how often the agent then
// made the declined call.
type ReasonCount struct {
	Declines int `json:"declines"`
	Called   int `json:"called"`
}

// A ToolCount is what was admitted of one tool and how much of it the agent used.
type ToolCount struct {
	Admitted int `json:"admitted"`
	Used     int `json:"used"`
}

func (c *Counts) add(d *Counts) {
	c.Calls += d.Calls
	c.Turns += d.Turns
	c.SpeculableTurns += d.SpeculableTurns
	c.TurnsSavedCeiling += d.TurnsSavedCeiling
	c.NamedReads += d.NamedReads
	c.Plans += d.Plans
	c.Candidates += d.Candidates
	c.Inlines += d.Inlines
	c.Inlined += d.Inlined
	c.InlineHits += d.InlineHits
	c.Prefetches += d.Prefetches
	c.PrefetchHits += d.PrefetchHits
	c.Declines += d.Declines
	c.DeclinesCalled += d.DeclinesCalled
	c.DeclinesLost += d.DeclinesLost
	c.Predictions += d.Predictions
	c.Overruns += d.Overruns
	c.TurnsSaved += d.TurnsSaved
	c.InlinedTokens += d.InlinedTokens
	c.init()
	for k, v := range d.Saved {
		c.Saved[k] += v
	}
	for k, v := range d.DeclineReasons {
		r := c.reason(k)
		r.Declines += v.Declines
		r.Called += v.Called
	}
	for k, v := range d.ByTool {
		t := c.tool(k)
		t.Admitted += v.Admitted
		t.Used += v.Used
	}
}

func (c *Counts) init() {
	if c.Saved == nil {
		c.Saved = map[string]int{bucketInline: 0, bucketPrefetch: 0, bucketDedup: 0, bucketFailFast: 0}
		c.DeclineReasons = map[string]*ReasonCount{}
		c.ByTool = map[string]*ToolCount{}
	}
}

func (c *Counts) reason(r string) *ReasonCount {
	if c.DeclineReasons[r] == nil {
		c.DeclineReasons[r] = &ReasonCount{}
	}
	return c.DeclineReasons[r]
}

func (c *Counts) tool(t string) *ToolCount {
	if c.ByTool[t] == nil {
		c.ByTool[t] = &ToolCount{}
	}
	return c.ByTool[t]
}

// Rates are the effectiveness numbers of issue 12, each of sums over all trajectories.
type Rates struct {
	PrefetchHitRate float64 `json:"prefetch_hit_rate"` // prefetch hits / prefetches
	InlineHitRate   float64 `json:"inline_hit_rate"`   // inline hits / inlined
	// DeclineRecallLoss is the declined candidates the agent then made itself and
	// nothing else answered, over declines; DeclinesCalledRate counts every declined
	// candidate the agent made, answered otherwise (by dedup: it had been read) or not.
	DeclineRecallLoss  float64 `json:"decline_recall_loss"`
	DeclinesCalledRate float64 `json:"declines_called_rate"`
	CostOverrunRate    float64 `json:"cost_overrun_rate"` // overruns / predictions known
	TurnsSavedRatio    float64 `json:"turns_saved_ratio"` // turns saved / tool-call turns
	// TurnsSavedCeilingRatio is the ceiling of TurnsSavedRatio: turns saved at most /
	// tool-call turns.
	TurnsSavedCeilingRatio float64 `json:"turns_saved_ceiling_ratio"`
	// NetCostRatio is the cost of the runs with enrichment over without, under
	// Anthropic's prompt cache with output priced (see the package documentation);
	// NetCostRatioOpenAI under OpenAI's.
	NetCostRatio       float64 `json:"net_cost_ratio"`
	NetCostRatioOpenAI float64 `json:"net_cost_ratio_openai"`
}

func (c *Counts) rates(without, with Cost) Rates {
	return Rates{
		PrefetchHitRate:        ratio(c.PrefetchHits, c.Prefetches),
		InlineHitRate:          ratio(c.InlineHits, c.Inlined),
		DeclineRecallLoss:      ratio(c.DeclinesLost, c.Declines),
		DeclinesCalledRate:     ratio(c.DeclinesCalled, c.Declines),
		CostOverrunRate:        ratio(c.Overruns, c.Predictions),
		TurnsSavedRatio:        ratio(c.TurnsSaved, c.Turns),
		TurnsSavedCeilingRatio: ratio(c.TurnsSavedCeiling, c.Turns),
		NetCostRatio:           ratioF(with.Anthropic, without.Anthropic),
		NetCostRatioOpenAI:     ratioF(with.OpenAI, without.OpenAI),
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func ratioF(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// TrajectoryReport is one trajectory's numbers.
type TrajectoryReport struct {
	Name string `json:"name"`
	Rates
	Counts
	Without Cost `json:"without"`
	With    Cost `json:"with"`
}

func (t *TrajectoryReport) progress() string {
	return fmt.Sprintf("%s: %d calls, %d inlined (%d used), %d prefetched (%d used), %d declined, %d of %d turns saved, cost %.3f",
		t.Name, t.Calls, t.Inlined, t.InlineHits, t.Prefetches, t.PrefetchHits, t.Declines, t.TurnsSaved, t.Turns, t.NetCostRatio)
}

// Report is the outcome of Run.
type Report struct {
	Rates
	Counts
	Trajectories int            `json:"trajectories"`
	Without      Cost           `json:"without"`
	With         Cost           `json:"with"`
	Budget       planner.Budget `json:"budget"`
	Window       int            `json:"window"`
	// LoadAvg is the machine's 1, 5 and 15 minute load average at the start of the
	// run, LoadAvgEnd at its end ("" where unknown).
	LoadAvg    string             `json:"load_avg"`
	LoadAvgEnd string             `json:"load_avg_end"`
	ElapsedMS  float64            `json:"elapsed_ms"`
	Runs       []TrajectoryReport `json:"runs,omitempty"`
}

func (r *Report) add(t *TrajectoryReport, keep bool) {
	r.Trajectories++
	r.Counts.add(&t.Counts)
	r.Without.add(t.Without)
	r.With.add(t.With)
	if keep {
		r.Runs = append(r.Runs, *t)
	}
}

func (r *Report) finish() {
	r.Counts.init()
	r.Rates = r.Counts.rates(r.Without, r.With)
}

// report counts what the replay made of the trajectory and prices it.
func (r *run) report(t traj.Trajectory, enc *costsim.Encoder) (*TrajectoryReport, error) {
	tr := &TrajectoryReport{Name: r.name}
	c := &tr.Counts
	c.init()
	c.Calls, c.Turns = len(r.steps), len(r.turns)
	for i := range r.steps {
		st := &r.steps[i]
		if st.bucket != bucketNone {
			c.Saved[st.bucket]++
		}
		if st.bucket != bucketInline && st.bucket != bucketFailFast {
			c.Plans++
		}
		for j := range st.plans {
			r.count(c, &st.plans[j])
		}
	}
	c.TurnsSaved = len(r.saved)
	c.SpeculableTurns = r.speculableTurns
	c.TurnsSavedCeiling, c.NamedReads = r.ceilingTurns, r.namedReads
	conv, err := newConversation(t, enc)
	if err != nil {
		return nil, err
	}
	extra := map[int][][]uint32{}
	seed := 0
	for i, sizes := range r.inlines {
		at := conv.blockEnd(r.steps[i].turn)
		for _, n := range sizes {
			seed++
			extra[at] = append(extra[at], synthetic(seed, n))
		}
	}
	if tr.Without, err = conv.price(nil, nil); err != nil {
		return nil, err
	}
	if tr.With, err = conv.price(r.saved, extra); err != nil {
		return nil, err
	}
	tr.Rates = c.rates(tr.Without, tr.With)
	return tr, nil
}

// count adds one candidate to the counts.
func (r *run) count(c *Counts, pl *plan) {
	c.Candidates++
	used := pl.used >= 0
	switch {
	case pl.Decision == planner.Declined:
		c.Declines++
		rc := c.reason(reasonKind(pl.Reason))
		rc.Declines++
		if used {
			c.DeclinesCalled++
			rc.Called++
			if r.steps[pl.used].bucket == bucketNone {
				c.DeclinesLost++
			}
		}
		return
	case pl.inlined:
		c.Inlines++
		c.Inlined++
		c.InlinedTokens += pl.truth
		if used {
			c.InlineHits++
		}
	default:
		if pl.Decision == planner.Inline {
			c.Inlines++
		}
		c.Prefetches++
		if used {
			c.PrefetchHits++
		}
	}
	tc := c.tool(pl.Tool)
	tc.Admitted++
	if used {
		tc.Used++
	}
	if pl.actual >= 0 {
		c.Predictions++
		if float64(pl.actual) >= Overrun*float64(pl.Tokens) {
			c.Overruns++
		}
	}
}

// reasonKinds are the planner's decline reasons without their numbers.
var reasonKinds = []string{
	"already seen in this session", "below probability floor", "not read-only",
	"speculation turned off", "worth nothing", "over turn budget", "inline does not pay",
	"approximate arguments, never prefetched: over turn budget",
	"approximate arguments, never prefetched: inline does not pay",
}

func reasonKind(reason string) string {
	for _, k := range reasonKinds {
		if strings.HasPrefix(reason, k) {
			return k
		}
	}
	return reason
}

// WriteText writes the report for people.
func (r *Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "winnow bench enrich: %d trajectories, %d calls in %d tool-call turns, budget %d tokens and %d prefetches per plan, used = within %d calls\n",
		r.Trajectories, r.Calls, r.Turns, r.Budget.Tokens, r.Budget.MaxPrefetch, r.Window)
	fmt.Fprintf(tw, "load average %s at start, %s at end; %.0f ms\n\n", orNA(r.LoadAvg), orNA(r.LoadAvgEnd), r.ElapsedMS)
	fmt.Fprintf(tw, "metric\tvalue\ttarget\tcounts\n")
	row := func(name string, v float64, target string, ok bool, counts string) {
		mark := "no"
		if ok {
			mark = "yes"
		}
		fmt.Fprintf(tw, "%s\t%.3f\t%s (%s)\t%s\n", name, v, target, mark, counts)
	}
	row("prefetch_hit_rate", r.PrefetchHitRate, fmt.Sprintf(">= %.2f", TargetPrefetchHitRate), r.PrefetchHitRate >= TargetPrefetchHitRate,
		fmt.Sprintf("%d of %d prefetches used", r.PrefetchHits, r.Prefetches))
	row("decline_recall_loss", r.DeclineRecallLoss, fmt.Sprintf("<= %.2f", TargetDeclineRecallLoss), r.DeclineRecallLoss <= TargetDeclineRecallLoss,
		fmt.Sprintf("%d of %d declines called and not answered otherwise (%d called)", r.DeclinesLost, r.Declines, r.DeclinesCalled))
	row("cost_overrun_rate", r.CostOverrunRate, fmt.Sprintf("<= %.2f", TargetCostOverrunRate), r.CostOverrunRate <= TargetCostOverrunRate,
		fmt.Sprintf("%d of %d known sizes >= %.0f%% of predicted", r.Overruns, r.Predictions, Overrun*100))
	row("turns_saved_ratio", r.TurnsSavedRatio, fmt.Sprintf(">= %.2f", TargetTurnsSavedRatio), r.TurnsSavedRatio >= TargetTurnsSavedRatio,
		fmt.Sprintf("%d of %d turns; %d turns only read, search or list", r.TurnsSaved, r.Turns, r.SpeculableTurns))
	fmt.Fprintf(tw, "turns_saved_ceiling\t%.3f\t\t%d of %d turns only read what an earlier result names (%d reads): what inlines could save at most\n",
		r.TurnsSavedCeilingRatio, r.TurnsSavedCeiling, r.Turns, r.NamedReads)
	row("net_cost_ratio", r.NetCostRatio, fmt.Sprintf("<= %.2f", TargetNetCostRatio), r.NetCostRatio <= TargetNetCostRatio,
		fmt.Sprintf("%.0f with / %.0f without (Anthropic cache, output 5x)", r.With.Anthropic, r.Without.Anthropic))
	fmt.Fprintf(tw, "net_cost_ratio_openai\t%.3f\t\t%.0f with / %.0f without (OpenAI cache, output 4x)\n", r.NetCostRatioOpenAI, r.With.OpenAI, r.Without.OpenAI)
	fmt.Fprintf(tw, "inline_hit_rate\t%.3f\t\t%d of %d inlined used (%d inline decisions, %d tokens inlined)\n", r.InlineHitRate, r.InlineHits, r.Inlined, r.Inlines, r.InlinedTokens)
	fmt.Fprintf(tw, "\ncalls saved\tinline %d\tprefetch %d\tdedup %d\tfail_fast %d\n", r.Saved[bucketInline], r.Saved[bucketPrefetch], r.Saved[bucketDedup], r.Saved[bucketFailFast])
	fmt.Fprintf(tw, "\ndecline reason\tdeclines\tcalled\n")
	for _, k := range slices.Sorted(maps.Keys(r.DeclineReasons)) {
		v := r.DeclineReasons[k]
		fmt.Fprintf(tw, "%s\t%d\t%d\n", k, v.Declines, v.Called)
	}
	fmt.Fprintf(tw, "\nadmitted tool\tadmitted\tused\n")
	for _, k := range slices.Sorted(maps.Keys(r.ByTool)) {
		v := r.ByTool[k]
		fmt.Fprintf(tw, "%s\t%d\t%d\n", k, v.Admitted, v.Used)
	}
	if len(r.Runs) > 0 {
		fmt.Fprintf(tw, "\ntrajectory\tcalls\tturns saved\tinlined (used)\tprefetched (used)\tdeclined (called)\tnet cost\n")
		for _, t := range r.Runs {
			fmt.Fprintf(tw, "%s\t%d\t%d/%d\t%d (%d)\t%d (%d)\t%d (%d)\t%.3f\n", t.Name, t.Calls, t.TurnsSaved, t.Turns,
				t.Inlined, t.InlineHits, t.Prefetches, t.PrefetchHits, t.Declines, t.DeclinesCalled, t.NetCostRatio)
		}
	}
	return tw.Flush()
}

// WriteJSON writes the report as one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func orNA(s string) string {
	if s == "" {
		return "n/a"
	}
	return s
}
