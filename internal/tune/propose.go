package tune

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/winnowhq/winnow/internal/telemetry"
	"github.com/winnowhq/winnow/internal/toolvalue"
)

// When a proposal is made. Each threshold keeps a proposal from resting on too few
// observations or from churning a prior that is already close.
const (
	// Speculation is turned off for a tool whose prefetches the agent used less than
	// half the time, once there are at least 10 to tell (issue 12).
	minPrefetches = 10
	minHitRate    = 0.5
	// A size or latency prior is refreshed from at least 5 results, and only when it is
	// more than a quarter away from what they show.
	minSamples   = 5
	refreshShare = 0.25
	// Follow-ups are judged after 10 calls of a tool. An edge seen at lag 1 in less than
	// 5% of them is left out (or dropped, when the model has it and the next tool was
	// seen at all); a probability within 0.05 of the model's is left alone.
	minCalls        = 10
	minProbability  = 0.05
	probabilityStep = 0.05
	// A new edge needs a projection for each argument its calls usually carry, seen in
	// at least 3 lag-1 pairs; at most 3 new edges are proposed per tool.
	minPairs    = 3
	maxNewEdges = 3
)

// Options configure Propose.
type Options struct {
	// Model returns the effective model of a tool, what the proposals change; nil means
	// every tool is toolvalue.Unknown.
	Model func(tool string) toolvalue.Model
	// Telemetry, when set, is what the gateway recorded: how the planner did per tool.
	Telemetry *Telemetry
}

// A Proposal is what to change in one tool's model, each change with its reason.
type Proposal struct {
	Tool    string   `json:"tool"`
	Changes []Change `json:"changes"`
	// Notes are what was seen but not proposed (an edge no projection can build).
	Notes []string `json:"notes,omitempty"`
}

// A Change sets one key of a [tools."<name>"] table.
type Change struct {
	// Key is the key in the table: "speculate", "cost_model.typical_tokens",
	// "cost_model.max_tokens", "cost_model.latency_ms" or "follow_up".
	Key string `json:"key"`
	// Value is what to set: a bool, an int, or []toolvalue.FollowUp.
	Value any `json:"value"`
	// Current is what the model says now.
	Current any    `json:"current"`
	Reason  string `json:"reason"`
}

// Propose compares what obs saw of each tool with the tool's model and returns the
// changes the observations support, by tool name. It changes nothing itself.
func Propose(obs *Observations, opts Options) []Proposal {
	model := opts.Model
	if model == nil {
		model = func(string) toolvalue.Model { return toolvalue.Unknown }
	}
	names := slices.Collect(maps.Keys(obs.Tools))
	if opts.Telemetry != nil {
		for _, t := range opts.Telemetry.Summary.Tools {
			if t.Planner != nil && !slices.Contains(names, t.Tool) {
				names = append(names, t.Tool)
			}
		}
	}
	slices.Sort(names)
	var out []Proposal
	for _, name := range names {
		m := model(name)
		p := Proposal{Tool: name}
		if opts.Telemetry != nil {
			p.speculate(m, opts.Telemetry.Effect(name))
		}
		if t := obs.Tools[name]; t != nil {
			p.cost(m, t)
			p.followUps(m, obs, name, model)
		}
		if len(p.Changes) > 0 || len(p.Notes) > 0 {
			out = append(out, p)
		}
	}
	return out
}

func (p *Proposal) add(key string, value, current any, reason string, args ...any) {
	p.Changes = append(p.Changes, Change{Key: key, Value: value, Current: current, Reason: fmt.Sprintf(reason, args...)})
}

// speculate turns speculation off where prefetches were mostly wasted.
func (p *Proposal) speculate(m toolvalue.Model, e *telemetry.Effect) {
	if e == nil || !m.Speculable() || e.Prefetches < minPrefetches || e.PrefetchHitRate >= minHitRate {
		return
	}
	p.add("speculate", false, true, "prefetch hit rate %.0f%% (%d of %d prefetches used within %d calls): below %.0f%% over at least %d",
		100*e.PrefetchHitRate, e.PrefetchHits, e.Prefetches, telemetry.UseWindow, 100*minHitRate, minPrefetches)
}

// cost refreshes the size and latency priors: the median result becomes typical, the
// 99th percentile the maximum, the median latency the latency.
func (p *Proposal) cost(m toolvalue.Model, t *ToolStats) {
	if n := len(t.Tokens); n >= minSamples {
		sizes := slices.Sorted(slices.Values(t.Tokens))
		typical, most := percentile(sizes, 50), max(percentile(sizes, 99), 1)
		cur := m.Cost
		setTypical, setMax := far(typical, cur.TypicalTokens), far(most, cur.MaxTokens)
		// Either alone must not leave the maximum below the typical size.
		why := map[bool]string{true: "; set with the other size, so that max_tokens stays at or above typical_tokens"}
		forceMax := !setMax && setTypical && cur.MaxTokens > 0 && typical > cur.MaxTokens
		forceTypical := !setTypical && setMax && most < cur.TypicalTokens
		if setTypical || forceTypical {
			p.add("cost_model.typical_tokens", typical, cur.TypicalTokens,
				"median of %d results %d tokens (the model says %d%s)", n, typical, cur.TypicalTokens, why[forceTypical])
		}
		if setMax || forceMax {
			p.add("cost_model.max_tokens", most, cur.MaxTokens,
				"99th percentile of %d results %d tokens (the model says %d%s)", n, most, cur.MaxTokens, why[forceMax])
		}
	}
	if n := len(t.Latencies); n >= minSamples {
		ms := make([]int, n)
		for i, d := range t.Latencies {
			ms[i] = int(d.Round(time.Millisecond) / time.Millisecond)
		}
		slices.Sort(ms)
		seen, now := max(percentile(ms, 50), 1), int(m.Cost.LatencyP50/time.Millisecond)
		if far(seen, now) {
			p.add("cost_model.latency_ms", seen, now, "median latency of %d calls %d ms (the model says %d ms)", n, seen, now)
		}
	}
}

// followUps refreshes the probabilities of the model's edges from the lag-1 counts,
// drops the edges the agent did not follow, and adds the edges it did whose arguments
// can be projected, to tools that may be speculated (an edge to an edit is of no use
// to a planner that never runs one ahead).
func (p *Proposal) followUps(m toolvalue.Model, obs *Observations, tool string, model func(string) toolvalue.Model) {
	t := obs.Tools[tool]
	if t.Calls < minCalls {
		return
	}
	var edges []toolvalue.FollowUp
	var why []string
	for _, f := range m.FollowUps {
		if obs.Tools[f.Tool] == nil { // never seen here: nothing to judge it by
			edges = append(edges, f)
			continue
		}
		prob := round2(obs.Probability(tool, f.Tool))
		switch {
		case prob < minProbability:
			why = append(why, fmt.Sprintf("%s dropped (%.2f)", f.Tool, prob))
		case math.Abs(prob-f.Probability) >= probabilityStep:
			why = append(why, fmt.Sprintf("%s %.2f→%.2f", f.Tool, f.Probability, prob))
			f.Probability = prob
			edges = append(edges, f)
		default:
			edges = append(edges, f)
		}
	}
	added := 0
	for _, next := range byLag1(t) {
		prob := round2(obs.Probability(tool, next))
		if prob < minProbability || slices.ContainsFunc(m.FollowUps, func(f toolvalue.FollowUp) bool { return f.Tool == next }) {
			continue
		}
		if nm := model(next); !nm.Speculable() {
			continue
		}
		args := t.Next[next].Projections(minPairs)
		if args == nil && next == tool {
			continue // a self-loop: another file, another pattern, that nothing predicts
		}
		if args == nil || added == maxNewEdges {
			p.Notes = append(p.Notes, fmt.Sprintf("%s follows at lag 1 with probability %.2f, but %s", next, prob, unbuildable(args, t.Next[next])))
			continue
		}
		added++
		edges = append(edges, toolvalue.FollowUp{Tool: next, Probability: prob, Args: args})
		why = append(why, fmt.Sprintf("%s new %.2f (%s)", next, prob, describeArgs(args)))
	}
	if len(why) > 0 {
		p.add("follow_up", edges, m.FollowUps, "lag-1 probabilities over %d calls: %s", t.Calls, strings.Join(why, ", "))
	}
}

// unbuildable says why an edge is not proposed.
func unbuildable(args map[string]string, e *Edge) string {
	switch {
	case args != nil:
		return fmt.Sprintf("%d new edges are proposed already", maxNewEdges)
	case e.Pairs == 0:
		return "the source keeps no arguments to project"
	}
	return fmt.Sprintf("no projection of the call before gives its arguments in %d pairs", e.Pairs)
}

func describeArgs(args map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(args)) {
		parts = append(parts, k+" from "+args[k])
	}
	return strings.Join(parts, ", ")
}

// byLag1 returns the tools that followed t, most often at lag 1 first.
func byLag1(t *ToolStats) []string {
	names := slices.Collect(maps.Keys(t.Next))
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(t.Next[b].Lag[0], t.Next[a].Lag[0]), cmp.Compare(a, b))
	})
	return names
}

// far reports whether a prior is more than refreshShare away from what was seen (a
// prior of 0 is always far).
func far(seen, prior int) bool {
	d := math.Abs(float64(seen - prior))
	return seen != prior && (prior == 0 || d > refreshShare*float64(max(seen, prior)))
}

// percentile returns the p-th percentile of sorted values (nearest rank).
func percentile(sorted []int, p int) int {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100
	return sorted[max(i, 1)-1]
}

func round2(x float64) float64 { return math.Round(100*x) / 100 }
