package telemetry

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// UseWindow is how many of the agent's next calls in a session a planned
// candidate may come within to count as used: the agent's own call with the
// candidate's key among them means the agent wanted it.
const UseWindow = 3

// OverrunPercent is the size, in percent of the prediction, at which a
// result counts as a cost overrun.
const OverrunPercent = 130

// An Effect is how well the planner did over a period, worked out from the
// events afterwards: each session's calls in order, each plan judged by the
// agent's next UseWindow calls in the same session.
type Effect struct {
	// Prefetches counts candidates fetched ahead; PrefetchHits those the
	// agent then called within UseWindow calls. Inlines and InlineHits
	// count the same for candidates appended to a result.
	Prefetches   int `json:"prefetches"`
	PrefetchHits int `json:"prefetch_hits"`
	Inlines      int `json:"inlines"`
	InlineHits   int `json:"inline_hits"`
	// Declines counts candidates the planner refused; DeclinesCalled those
	// the agent called itself within UseWindow calls: recall lost.
	Declines       int `json:"declines"`
	DeclinesCalled int `json:"declines_called"`
	// Predictions counts calls with a predicted size; Overruns those whose
	// result reached OverrunPercent of it.
	Predictions int `json:"predictions"`
	Overruns    int `json:"overruns"`

	// The rates: PrefetchHits/Prefetches, InlineHits/Inlines,
	// DeclinesCalled/Declines, Overruns/Predictions; 0 when nothing was
	// counted.
	PrefetchHitRate   float64 `json:"prefetch_hit_rate"`
	InlineHitRate     float64 `json:"inline_hit_rate"`
	DeclineRecallLoss float64 `json:"decline_recall_loss"`
	CostOverrunRate   float64 `json:"cost_overrun_rate"`

	// Saved counts the agent's calls the upstream did not have to answer,
	// by what answered them.
	Saved CallsSaved `json:"calls_saved"`
}

// CallsSaved splits the calls answered without the upstream by what
// answered them, with the tokens each bucket saved.
type CallsSaved struct {
	// Inline counts calls answered by a result inlined earlier; its Tokens
	// are those the inlining added to earlier results (negative).
	Inline Bucket `json:"inline"`
	// Prefetch counts calls answered by a prefetched result; a prefetch
	// saves the agent the upstream's latency, not tokens.
	Prefetch Bucket `json:"prefetch"`
	// Dedup counts duplicates the upstream answered but the agent read as a
	// reference (not counted again under another bucket), with the tokens
	// the dedup layers saved.
	Dedup Bucket `json:"dedup"`
	// FailFast counts calls answered from the session after repeated
	// unproductive results, with the tokens of the results they stand for
	// less the answers.
	FailFast Bucket `json:"fail_fast"`
	// Calls and Tokens are the totals.
	Calls  int `json:"calls"`
	Tokens int `json:"tokens"`
}

// A Bucket is the calls one kind of answer saved and the tokens it saved.
type Bucket struct {
	Calls  int `json:"calls"`
	Tokens int `json:"tokens"`
}

// effectCall is what the effectiveness needs of one event, kept per session
// until Finish.
type effectCall struct {
	time  time.Time
	tool  string
	key   string
	plans []Plan
}

// matchKey is what identifies a call for matching candidates to the agent's
// calls: the planner key's hash, or, in a file whose gateway passed no keys,
// the tool and the arguments' hash (equal only for byte-equal arguments).
func matchKey(tool, key, args string) string {
	if key != "" {
		return key
	}
	if args == "" {
		return ""
	}
	return tool + "\x00" + args
}

// addEffect counts what one event says by itself (its prediction, what
// answered it) and keeps what needs its session's later calls.
func (s *Summary) addEffect(ev Event) {
	s.effectCalls[ev.Session] = append(s.effectCalls[ev.Session], effectCall{
		time: ev.Time, tool: ev.Tool, key: matchKey(ev.Tool, ev.Key, ev.Args), plans: ev.Plans,
	})
	s.planned = s.planned || ev.PredictedTokens > 0 || ev.Served != "" || len(ev.Plans) > 0
	for _, e := range []*Effect{&s.effect, s.toolEffect(ev.Tool)} {
		if ev.PredictedTokens > 0 {
			e.Predictions++
			e.Overruns += b2i(ev.After*100 >= ev.PredictedTokens*OverrunPercent)
		}
		switch {
		case ev.Served == ServedInline:
			e.Saved.Inline.Calls++
		case ev.Served == ServedPrefetch:
			e.Saved.Prefetch.Calls++
		case ev.Served == ServedFailFast:
			e.Saved.FailFast.Calls++
			e.Saved.FailFast.Tokens += unexplained(ev)
		case ev.Dedup:
			e.Saved.Dedup.Calls++
		}
		e.Saved.Dedup.Tokens += layerSaved(ev, LayerDedup, LayerNearRef)
		e.Saved.Inline.Tokens += layerSaved(ev, LayerInline)
	}
}

// layerSaved is what the named layers saved on ev.
func layerSaved(ev Event, names ...string) int {
	n := 0
	for _, l := range ev.Layers {
		if slices.Contains(names, l.Layer) {
			n += l.Before - l.After
		}
	}
	return n
}

// unexplained is the part of ev's saving no layer accounts for: what a
// fail-fast answer saved against the result it stands for.
func unexplained(ev Event) int {
	n := ev.Before - ev.After
	for _, l := range ev.Layers {
		n -= l.Before - l.After
	}
	return n
}

func (s *Summary) toolEffect(tool string) *Effect {
	t := s.tools[tool]
	if t == nil {
		t = &ToolSummary{Tool: tool}
		s.tools[tool] = t
	}
	if t.Planner == nil {
		t.Planner = &Effect{}
	}
	return t.Planner
}

// finishEffect judges every plan by its session's next calls and computes
// the rates. Sessions are judged apart; within one, calls are taken in the
// order of their times (the file's order among equal times).
func (s *Summary) finishEffect() {
	for _, calls := range s.effectCalls {
		slices.SortStableFunc(calls, func(a, b effectCall) int { return a.time.Compare(b.time) })
		for i, c := range calls {
			next := calls[i+1 : min(len(calls), i+1+UseWindow)]
			for _, p := range c.plans {
				used := calledIn(next, matchKey(p.Tool, p.Key, p.Args))
				for _, e := range []*Effect{&s.effect, s.toolEffect(p.Tool)} {
					e.count(p.Decision, used)
				}
			}
		}
	}
	s.effectCalls = nil
	if !s.planned {
		for _, t := range s.tools {
			t.Planner = nil
		}
		return
	}
	s.effect.finish()
	s.Planner = &s.effect
	for _, t := range s.tools {
		switch {
		case t.Planner == nil:
		case *t.Planner == Effect{}:
			t.Planner = nil // the planner had nothing to do with the tool
		default:
			t.Planner.finish()
		}
	}
}

func calledIn(calls []effectCall, key string) bool {
	if key == "" {
		return false
	}
	return slices.ContainsFunc(calls, func(c effectCall) bool { return c.key == key })
}

// count judges one plan.
func (e *Effect) count(decision string, used bool) {
	switch decision {
	case DecisionPrefetch:
		e.Prefetches++
		e.PrefetchHits += b2i(used)
	case DecisionInline:
		e.Inlines++
		e.InlineHits += b2i(used)
	case DecisionDeclined:
		e.Declines++
		e.DeclinesCalled += b2i(used)
	}
}

func (e *Effect) finish() {
	e.PrefetchHitRate = ratio(e.PrefetchHits, e.Prefetches)
	e.InlineHitRate = ratio(e.InlineHits, e.Inlines)
	e.DeclineRecallLoss = ratio(e.DeclinesCalled, e.Declines)
	e.CostOverrunRate = ratio(e.Overruns, e.Predictions)
	sv := &e.Saved
	sv.Calls = sv.Inline.Calls + sv.Prefetch.Calls + sv.Dedup.Calls + sv.FailFast.Calls
	sv.Tokens = sv.Inline.Tokens + sv.Prefetch.Tokens + sv.Dedup.Tokens + sv.FailFast.Tokens
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

// writeEffect writes the planner's part of the report.
func (s *Summary) writeEffect(b *strings.Builder) {
	e := s.Planner
	fmt.Fprintf(b, "planner (a candidate is used when the agent calls it within its next %d calls):\n", UseWindow)
	fmt.Fprintf(b, "  prefetch hit rate   %6s  %d of %d prefetches used\n", rate(e.PrefetchHits, e.Prefetches), e.PrefetchHits, e.Prefetches)
	fmt.Fprintf(b, "  inline hit rate     %6s  %d of %d inlined candidates called again\n", rate(e.InlineHits, e.Inlines), e.InlineHits, e.Inlines)
	fmt.Fprintf(b, "  decline recall loss %6s  %d of %d declined candidates called by the agent\n", rate(e.DeclinesCalled, e.Declines), e.DeclinesCalled, e.Declines)
	fmt.Fprintf(b, "  cost overrun rate   %6s  %d of %d predicted results at %d%% of the prediction or more\n", rate(e.Overruns, e.Predictions), e.Overruns, e.Predictions, OverrunPercent)
	sv := e.Saved
	fmt.Fprintf(b, "  calls saved %d: inline %d, prefetch %d, dedup %d, fail-fast %d\n", sv.Calls, sv.Inline.Calls, sv.Prefetch.Calls, sv.Dedup.Calls, sv.FailFast.Calls)
	fmt.Fprintf(b, "  tokens saved %d: dedup %d, fail-fast %d, inlining %d\n", sv.Tokens, sv.Dedup.Tokens, sv.FailFast.Tokens, sv.Inline.Tokens)
	var tools []ToolSummary
	for _, t := range s.Tools {
		if t.Planner != nil {
			tools = append(tools, t)
		}
	}
	slices.SortFunc(tools, func(a, b ToolSummary) int {
		return cmp.Or(cmp.Compare(b.Planner.planned(), a.Planner.planned()), cmp.Compare(a.Tool, b.Tool))
	})
	width := 0
	for _, t := range tools[:min(len(tools), maxToolLines)] {
		width = max(width, len(t.Tool))
	}
	b.WriteString("planner by tool (most planned first; used/planned):\n")
	for _, t := range tools[:min(len(tools), maxToolLines)] {
		p := t.Planner
		fmt.Fprintf(b, "  %-*s prefetch %d/%d  inline %d/%d  declined-called %d/%d  overrun %d/%d  saved %d calls\n", width, t.Tool,
			p.PrefetchHits, p.Prefetches, p.InlineHits, p.Inlines, p.DeclinesCalled, p.Declines, p.Overruns, p.Predictions, p.Saved.Calls)
	}
	if n := len(tools) - maxToolLines; n > 0 {
		fmt.Fprintf(b, "  … and %d more tools (--json lists all)\n", n)
	}
}

// planned is how much the planner had to do with a tool, for ordering.
func (e *Effect) planned() int {
	return e.Prefetches + e.Inlines + e.Declines + e.Predictions + e.Saved.Calls
}

// rate formats n/d as a percentage, or "n/a" when d is 0.
func rate(n, d int) string {
	if d == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(d))
}
