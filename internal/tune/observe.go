package tune

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/winnowhq/winnow/internal/toolvalue"
)

// Window is how many of the calls after a call count as its follow-ups: the lags the
// design's edge statistics cover (paper3_followup_edges.csv counts lags 1 to 3).
const Window = 3

// A Step is one call of a session as the miner sees it.
type Step struct {
	Tool string
	// Args are the call's arguments; nil when the source keeps none (telemetry holds
	// only hashes), which leaves projections unmined.
	Args map[string]any
	// Result is the text the call returned, for projections; "" when unknown.
	Result string
	// Tokens is the size of the result in tokens; negative when it says nothing about
	// the tool's sizes (an error, a duplicate, a result answered without the upstream).
	Tokens int
	// Latency is the time the call took; 0 when unknown.
	Latency time.Duration
}

// Observations are what a set of sessions says about each tool: how often it was
// called, the sizes and latencies of its results, and what came after it.
type Observations struct {
	Sessions int
	Calls    int
	Tools    map[string]*ToolStats
}

// ToolStats is what was seen of one tool.
type ToolStats struct {
	Calls     int
	Tokens    []int           // sizes of its results, in arrival order
	Latencies []time.Duration // times of its calls
	// Next holds the tools called after it within Window calls, by name.
	Next map[string]*Edge
}

// An Edge counts the calls of one tool after another.
type Edge struct {
	// Lag[i] counts the times the tool came i+1 calls after the other.
	Lag [Window]int
	// Pairs counts the lag-1 pairs whose arguments were known; Present[arg] how many of
	// those carried the argument; Support[arg][projection] how many of those the
	// projection of the earlier call would have produced.
	Pairs   int
	Present map[string]int
	Support map[string]map[string]int
}

// NewObservations returns empty Observations.
func NewObservations() *Observations {
	return &Observations{Tools: map[string]*ToolStats{}}
}

func (o *Observations) tool(name string) *ToolStats {
	t := o.Tools[name]
	if t == nil {
		t = &ToolStats{Next: map[string]*Edge{}}
		o.Tools[name] = t
	}
	return t
}

// Add counts one session's calls, in order.
func (o *Observations) Add(steps []Step) {
	if len(steps) == 0 {
		return
	}
	o.Sessions++
	o.Calls += len(steps)
	for i, s := range steps {
		t := o.tool(s.Tool)
		t.Calls++
		if s.Tokens >= 0 {
			t.Tokens = append(t.Tokens, s.Tokens)
		}
		if s.Latency > 0 {
			t.Latencies = append(t.Latencies, s.Latency)
		}
		for lag := 1; lag <= Window && i+lag < len(steps); lag++ {
			next := steps[i+lag]
			e := t.Next[next.Tool]
			if e == nil {
				e = &Edge{Present: map[string]int{}, Support: map[string]map[string]int{}}
				t.Next[next.Tool] = e
			}
			e.Lag[lag-1]++
			if lag == 1 && s.Args != nil && next.Args != nil {
				e.addPair(s, next)
			}
		}
	}
}

// addPair counts, for each argument of next, the projections of prev that yield it.
func (e *Edge) addPair(prev, next Step) {
	e.Pairs++
	var listed []string
	for arg, v := range next.Args {
		want, ok := scalar(v)
		if !ok {
			continue
		}
		e.Present[arg]++
		var found []string
		for name, pv := range prev.Args {
			if got, ok := scalar(pv); ok && got == want {
				found = append(found, "arg."+name)
			}
		}
		if prev.Result != "" && listed == nil {
			listed = toolvalue.ListedPaths(prev.Result)
		}
		if slices.ContainsFunc(listed, func(p string) bool { return samePath(p, want) }) {
			found = append(found, "result.paths")
		}
		if e.Support[arg] == nil && len(found) > 0 {
			e.Support[arg] = map[string]int{}
		}
		for _, p := range found {
			e.Support[arg][p]++
		}
	}
}

// scalar renders a string, number or boolean argument for comparison.
func scalar(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, x != ""
	case float64, int, int64, bool:
		return fmt.Sprint(x), true
	}
	return "", false
}

// samePath reports whether a listed path names the argument's file: equal, or one
// relative to a directory the other is absolute under.
func samePath(listed, arg string) bool {
	listed = strings.TrimPrefix(listed, "./")
	return listed == arg || strings.HasSuffix(arg, "/"+listed) || strings.HasSuffix(listed, "/"+arg)
}

// Probability is the lag-1 probability of next after prev: the times next came right
// after prev over the calls of prev.
func (o *Observations) Probability(prev, next string) float64 {
	t := o.Tools[prev]
	if t == nil || t.Calls == 0 || t.Next[next] == nil {
		return 0
	}
	return float64(t.Next[next].Lag[0]) / float64(t.Calls)
}

// Projections returns the arguments of next that the edge's lag-1 pairs say can be
// projected from the call before it, or nil when some argument most calls of next
// carry cannot be: a call built from the edge would lack it. An argument is projected
// by the projection that yields it in the most pairs, if that is at least half of the
// pairs carrying it and at least minPairs.
func (e *Edge) Projections(minPairs int) map[string]string {
	if e == nil || e.Pairs < minPairs {
		return nil
	}
	args := map[string]string{}
	for arg, n := range e.Present {
		best, bestN := "", 0
		for p, c := range e.Support[arg] {
			if c > bestN || c == bestN && p < best {
				best, bestN = p, c
			}
		}
		switch {
		case bestN >= minPairs && 2*bestN >= n:
			args[arg] = best
		case 2*n >= e.Pairs:
			return nil // a usual argument no projection gives
		}
	}
	if len(args) == 0 {
		return nil
	}
	return args
}

// An EdgeRow is one edge of the follow-up graph as counted: like a row of devboy's
// paper3_followup_edges.csv, with all three lags, the calls of the earlier tool and
// the lag-1 probability.
type EdgeRow struct {
	Prev        string      `json:"prev"`
	Next        string      `json:"next"`
	Lags        [Window]int `json:"lags"`
	PrevCalls   int         `json:"prev_calls"`
	Probability float64     `json:"probability"`
}

// Edges lists every edge seen, most frequent at lag 1 first.
func (o *Observations) Edges() []EdgeRow {
	var rows []EdgeRow
	for prev, t := range o.Tools {
		for next, e := range t.Next {
			rows = append(rows, EdgeRow{Prev: prev, Next: next, Lags: e.Lag, PrevCalls: t.Calls, Probability: round2(o.Probability(prev, next))})
		}
	}
	slices.SortFunc(rows, func(a, b EdgeRow) int {
		return cmp.Or(cmp.Compare(b.Lags[0], a.Lags[0]), cmp.Compare(b.Lags[1]+b.Lags[2], a.Lags[1]+a.Lags[2]),
			cmp.Compare(a.Prev, b.Prev), cmp.Compare(a.Next, b.Next))
	})
	return rows
}
