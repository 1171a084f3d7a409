package compact

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/winnowhq/winnow/internal/compact"
	"github.com/winnowhq/winnow/internal/compact/costsim"
	"github.com/winnowhq/winnow/internal/compact/probe"
)

// TargetThinkingCachedCostRatio is the thinking issue's target: with
// thinking in every assistant message, compaction costs at most 0.8× the
// raw requests with caching.
const TargetThinkingCachedCostRatio = 0.8

// ThinkingReport is the outcome of RunThinking: one FamilyReport per
// case, each against the same requests sent raw to the same model.
type ThinkingReport struct {
	Trajectories int            `json:"trajectories"`
	Requests     int            `json:"requests"` // per case
	Facts        int            `json:"facts"`    // recall probe facts over all trajectories
	Families     []FamilyReport `json:"families"`
	ElapsedMS    float64        `json:"elapsed_ms"`
}

// A FamilyReport is one ThinkingCase over all trajectories. Ratios are
// of sums over all requests, as in the default report, and every token
// count is of the prompt as the API model bills it.
type FamilyReport struct {
	Name    string `json:"name"`
	Family  string `json:"family"` // compact.ModelFamily of Model
	Model   string `json:"model"`
	Variant string `json:"variant"`
	// TokensSentRatio is the input tokens the API bills, after its own
	// edits and thinking stripping, over the raw requests'.
	TokensSentRatio float64 `json:"tokens_sent_ratio"`
	// CachedCostRatio is the cost with caching at the model's cache-read
	// price (Read) over the raw requests' at the same price, and
	// CachedCostRatioRead01 the same at 0.1×, the default report's price.
	CachedCostRatio       float64 `json:"cached_cost_ratio"`
	CachedCostRatioRead01 float64 `json:"cached_cost_ratio_read_0_1"`
	CacheHitRatio         float64 `json:"cache_hit_ratio"`
	BaselineHitRatio      float64 `json:"baseline_cache_hit_ratio"`
	Violations            int     `json:"violations"` // compact.ValidateBound on every compacted request
	RecallProbe           float64 `json:"recall_probe"`
	// ServerEditRequests counts the requests whose body asked for a
	// clear_tool_uses edit; ServerEditsApplied those past its trigger,
	// and ClearedResults the tool results the API cleared, summed over
	// requests.
	ServerEditRequests int `json:"server_edit_requests"`
	ServerEditsApplied int `json:"server_edits_applied"`
	ClearedResults     int `json:"cleared_results"`
	// StrippedThinking counts the thinking blocks the API stripped
	// (LastTurn models), summed over the compacted requests.
	StrippedThinking  int                `json:"stripped_thinking"`
	ChangedRequests   int                `json:"changed_requests"` // bodies the variant changed
	RewriteErrors     int                `json:"rewrite_errors"`   // bodies the variant failed on, sent unchanged
	Read              float64            `json:"cache_read_multiplier"`
	Baseline          costsim.Usage      `json:"baseline"` // at Read
	Usage             costsim.Usage      `json:"usage"`    // at Read
	Probe             probe.Result       `json:"probe"`
	ViolationExamples []string           `json:"violation_examples,omitempty"`
	RewriteMS         float64            `json:"ms"`
	Trajectories      []FamilyTrajectory `json:"trajectories"`

	baseline01, usage01 costsim.Usage
}

// A FamilyTrajectory is one case on one trajectory.
type FamilyTrajectory struct {
	Name               string  `json:"name"`
	Requests           int     `json:"requests"`
	TokensSentRatio    float64 `json:"tokens_sent_ratio"`
	CachedCostRatio    float64 `json:"cached_cost_ratio"`
	ChangedRequests    int     `json:"changed_requests"`
	ServerEditRequests int     `json:"server_edit_requests"`
	RecallProbe        float64 `json:"recall_probe"`
}

func newThinkingReport(cases []ThinkingCase) *ThinkingReport {
	rep := &ThinkingReport{}
	for _, c := range cases {
		read := c.Read
		if read == 0 {
			read = ReadClaude45
		}
		rep.Families = append(rep.Families, FamilyReport{
			Name: c.Name, Family: compact.ModelFamily(c.Model).String(), Model: c.Model, Variant: c.Variant.Name, Read: read,
		})
	}
	return rep
}

// add adds one trajectory's runs, in case order.
func (rep *ThinkingReport) add(runs []caseRun) {
	rep.Trajectories++
	rep.Requests += runs[0].requests
	for i, r := range runs {
		f := &rep.Families[i]
		f.Baseline.Add(r.baseline[0])
		f.Usage.Add(r.usage[0])
		f.baseline01.Add(r.baseline[1])
		f.usage01.Add(r.usage[1])
		f.Violations += r.violations
		for _, e := range r.examples {
			if len(f.ViolationExamples) < maxViolationExamples {
				f.ViolationExamples = append(f.ViolationExamples, e)
			}
		}
		f.RewriteErrors += r.rewriteErrors
		f.ChangedRequests += r.changed
		f.ServerEditRequests += r.edits
		f.ServerEditsApplied += r.applied
		f.ClearedResults += r.cleared
		f.StrippedThinking += r.stripped
		f.Probe.Add(r.probe)
		f.RewriteMS += ms(r.rewrite)
		f.Trajectories = append(f.Trajectories, FamilyTrajectory{
			Name:               r.trajectory,
			Requests:           r.requests,
			TokensSentRatio:    ratio(r.usage[0].Input, r.baseline[0].Input),
			CachedCostRatio:    ratioF(r.usage[0].Cost, r.baseline[0].Cost),
			ChangedRequests:    r.changed,
			ServerEditRequests: r.edits,
			RecallProbe:        r.probe.Recall(),
		})
	}
}

// finish computes the ratios from the sums.
func (rep *ThinkingReport) finish() {
	for i := range rep.Families {
		f := &rep.Families[i]
		f.TokensSentRatio = ratio(f.Usage.Input, f.Baseline.Input)
		f.CachedCostRatio = ratioF(f.Usage.Cost, f.Baseline.Cost)
		f.CachedCostRatioRead01 = ratioF(f.usage01.Cost, f.baseline01.Cost)
		f.CacheHitRatio = f.Usage.HitRatio()
		f.BaselineHitRatio = f.Baseline.HitRatio()
		f.RecallProbe = f.Probe.Recall()
		rep.Facts = f.Probe.Facts
	}
}

// WriteJSON writes the report as one indented JSON object.
func (rep *ThinkingReport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// WriteText writes the report as a table for people, ratios first, with
// the target.
func (rep *ThinkingReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "thinking: trajectories %d as Anthropic messages with a signed thinking block in every assistant message, %d requests per family, recall-probe facts %d\n\n",
		rep.Trajectories, rep.Requests, rep.Facts)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "family\ttokens sent\tcost\tcost@0.1×\thit\tviolations\trecall\tserver edits\tchanged\terrors\tmodel\tread\traw tokens\tms\t\n")
	for _, f := range rep.Families {
		edits := "-"
		if f.ServerEditRequests > 0 {
			edits = fmt.Sprintf("%d/%d", f.ServerEditsApplied, f.ServerEditRequests)
		}
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%.3f\t%s\t%d\t%s\t%s\t%d\t%d\t%s\t%g×\t%s\t%.0f\t\n",
			f.Name, f.TokensSentRatio, f.CachedCostRatio, f.CachedCostRatioRead01, percent(f.CacheHitRatio),
			f.Violations, percent(f.RecallProbe), edits, f.ChangedRequests, f.RewriteErrors,
			f.Model, f.Read, thousands(f.Baseline.Input), f.RewriteMS)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nratios are against the same requests sent raw to the same model, both priced as the API bills them\n")
	fmt.Fprintf(w, "(last-turn: earlier turns' thinking stripped; server edits applied; signatures not billed);\n")
	fmt.Fprintf(w, "cost at the model's cache-read price (read), cost@0.1× at 0.1×; writes 1.25×; server edits: applied/requested\n")
	fmt.Fprintf(w, "target: cost ≤ %.2f, violations 0\n", TargetThinkingCachedCostRatio)
	for _, f := range rep.Families {
		for _, e := range f.ViolationExamples {
			fmt.Fprintf(w, "violation in %s: %s\n", f.Name, e)
		}
		for _, e := range f.Probe.Examples {
			fmt.Fprintf(w, "lost by %s: %s\n", f.Name, e)
		}
	}
	_, err := fmt.Fprintf(w, "elapsed %.1f s\n", rep.ElapsedMS/1000)
	return err
}
