package compact

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/winnowhq/winnow/internal/compact/costsim"
	"github.com/winnowhq/winnow/internal/compact/probe"
)

// Targets a compaction is judged by (issue 5): cached cost at most 0.7×
// the raw replay's with caching, at most 0.6× the tokens sent, no
// violations, recall at least 95%.
const (
	TargetCachedCostRatio = 0.7
	TargetTokensSentRatio = 0.6
	TargetRecall          = 0.95
)

// Metrics are one variant's numbers against the raw replay. Ratios are
// of sums over all requests of all trajectories, so long conversations
// weigh more, as they do on a bill.
type Metrics struct {
	TokensSentRatio       float64 `json:"tokens_sent_ratio"`        // input tokens sent / raw
	CachedCostRatio       float64 `json:"cached_cost_ratio"`        // Anthropic cost with caching / raw's with caching
	CacheHitRatio         float64 `json:"cache_hit_ratio"`          // Anthropic: cache reads / tokens sent
	OpenAICachedCostRatio float64 `json:"openai_cached_cost_ratio"` // the same under OpenAI's automatic caching
	OpenAICacheHitRatio   float64 `json:"openai_cache_hit_ratio"`
	Violations            *int    `json:"violations"` // null when no validator ran
	RecallProbe           float64 `json:"recall_probe"`
}

// A VariantReport is one variant over all trajectories.
type VariantReport struct {
	Name string `json:"name"`
	Metrics
	RewriteErrors int                `json:"rewrite_errors"` // bodies the rewriter failed on, sent unchanged
	Anthropic     costsim.Usage      `json:"anthropic"`
	OpenAI        costsim.Usage      `json:"openai"`
	Probe         probe.Result       `json:"probe"`
	RewriteMS     float64            `json:"ms"` // time spent in the rewriter
	Trajectories  []TrajectoryReport `json:"trajectories"`
}

// A TrajectoryReport is one variant on one trajectory.
type TrajectoryReport struct {
	Name            string  `json:"name"`
	Dialect         string  `json:"dialect"`
	Requests        int     `json:"requests"`
	TokensSentRatio float64 `json:"tokens_sent_ratio"`
	CachedCostRatio float64 `json:"cached_cost_ratio"`
	OpenAICostRatio float64 `json:"openai_cached_cost_ratio"`
	RecallProbe     float64 `json:"recall_probe"`
	Facts           int     `json:"facts"`
}

// Baseline is the raw replay: every request as the agent sent it, priced
// with caching.
type Baseline struct {
	Anthropic costsim.Usage `json:"anthropic"`
	OpenAI    costsim.Usage `json:"openai"`
}

// Report is the outcome of Run. Its top-level Metrics are the Primary
// variant's.
type Report struct {
	Primary string `json:"primary"`
	Metrics
	Trajectories int             `json:"trajectories"`
	Requests     int             `json:"requests"`
	Facts        int             `json:"facts"` // recall probe facts over all trajectories
	OpenAIRead   float64         `json:"openai_read_multiplier"`
	Baseline     Baseline        `json:"baseline"`
	Variants     []VariantReport `json:"variants"`
	ElapsedMS    float64         `json:"elapsed_ms"`
}

// accumulator sums trajectory runs into a Report.
type accumulator struct {
	rep      Report
	validate bool
}

func newAccumulator(vs []Variant, validate bool) *accumulator {
	a := &accumulator{validate: validate}
	for _, v := range vs {
		a.rep.Variants = append(a.rep.Variants, VariantReport{Name: v.Name})
	}
	return a
}

func (a *accumulator) add(r *trajectoryRun) {
	a.rep.Trajectories++
	a.rep.Requests += r.requests
	a.rep.Baseline.Anthropic.Add(r.baseline.Anthropic)
	a.rep.Baseline.OpenAI.Add(r.baseline.OpenAI)
	for i, vr := range r.variants {
		v := &a.rep.Variants[i]
		v.Anthropic.Add(vr.Anthropic)
		v.OpenAI.Add(vr.OpenAI)
		v.Probe.Add(vr.probe)
		v.RewriteErrors += vr.rewriteErrors
		v.RewriteMS += ms(vr.rewrite)
		if a.validate {
			n := vr.violations
			if v.Violations != nil {
				n += *v.Violations
			}
			v.Violations = &n
		}
		v.Trajectories = append(v.Trajectories, TrajectoryReport{
			Name:            r.t.Name,
			Dialect:         r.t.Dialect,
			Requests:        r.requests,
			TokensSentRatio: ratio(vr.Anthropic.Input, r.baseline.Anthropic.Input),
			CachedCostRatio: ratioF(vr.Anthropic.Cost, r.baseline.Anthropic.Cost),
			OpenAICostRatio: ratioF(vr.OpenAI.Cost, r.baseline.OpenAI.Cost),
			RecallProbe:     vr.probe.Recall(),
			Facts:           vr.probe.Facts,
		})
	}
}

func (a *accumulator) report(primary string, openAIRead float64) *Report {
	rep := a.rep
	rep.Primary = primary
	rep.OpenAIRead = openAIRead
	base := rep.Baseline
	for i := range rep.Variants {
		v := &rep.Variants[i]
		violations := v.Violations
		v.Metrics = Metrics{
			TokensSentRatio:       ratio(v.Anthropic.Input, base.Anthropic.Input),
			CachedCostRatio:       ratioF(v.Anthropic.Cost, base.Anthropic.Cost),
			CacheHitRatio:         v.Anthropic.HitRatio(),
			OpenAICachedCostRatio: ratioF(v.OpenAI.Cost, base.OpenAI.Cost),
			OpenAICacheHitRatio:   v.OpenAI.HitRatio(),
			Violations:            violations,
			RecallProbe:           v.Probe.Recall(),
		}
		if v.Name == primary {
			rep.Metrics = v.Metrics
			rep.Facts = v.Probe.Facts
		}
	}
	return &rep
}

func ratio(a, b int) float64 { return ratioF(float64(a), float64(b)) }

func ratioF(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// WriteJSON writes the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the report as a table for people, with the targets.
func (r *Report) WriteText(w io.Writer) error {
	b := r.Baseline
	fmt.Fprintf(w, "trajectories %d, requests %d, recall-probe facts %d\n", r.Trajectories, r.Requests, r.Facts)
	fmt.Fprintf(w, "raw replay: %s input tokens; cached cost %s (anthropic: reads 0.1×, writes 1.25×, hit %s), %s (openai: reads %g×, hit %s)\n\n",
		thousands(b.Anthropic.Input), thousands(int(b.Anthropic.Cost+0.5)), percent(b.Anthropic.HitRatio()),
		thousands(int(b.OpenAI.Cost+0.5)), r.OpenAIRead, percent(b.OpenAI.HitRatio()))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "variant\ttokens sent\tcost anthropic\tcost openai\thit anthropic\thit openai\tviolations\trecall\terrors\tms\t\n")
	for _, v := range r.Variants {
		name := v.Name
		if v.Name == r.Primary {
			name = "*" + name
		}
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%.3f\t%s\t%s\t%s\t%s\t%d\t%.0f\t\n",
			name, v.TokensSentRatio, v.CachedCostRatio, v.OpenAICachedCostRatio,
			percent(v.CacheHitRatio), percent(v.OpenAICacheHitRatio), count(v.Violations),
			percent(v.RecallProbe), v.RewriteErrors, v.RewriteMS)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nratios are against the raw replay with caching; * marks the primary variant\n")
	fmt.Fprintf(w, "targets: tokens sent ≤ %.2f, cost anthropic ≤ %.2f, violations 0, recall ≥ %s\n",
		TargetTokensSentRatio, TargetCachedCostRatio, percent(TargetRecall))
	for _, v := range r.Variants {
		for _, e := range v.Probe.Examples {
			fmt.Fprintf(w, "lost by %s: %s\n", v.Name, e)
		}
	}
	_, err := fmt.Fprintf(w, "elapsed %.1f s\n", r.ElapsedMS/1000)
	return err
}

func percent(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }

func count(n *int) string {
	if n == nil {
		return "n/a"
	}
	return fmt.Sprint(*n)
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
