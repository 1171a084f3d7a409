package planner

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/winnowhq/winnow/internal/toolvalue"
)

// A Call is a call the agent made, with its result.
type Call struct {
	Tool string
	Args map[string]any
	// Text is the result's text content, joined; Structured its structured content (nil
	// if none).
	Text       string
	Structured any
	// Tokens is the size of the result as the agent received it; 0 means unknown, and
	// the planner estimates it from Text.
	Tokens int
	Error  bool
}

// A Decision is what the planner does with a candidate call.
type Decision string

// The decisions.
const (
	// Inline: run the call now and append its result to the current one, so that the
	// agent does not spend a model turn asking for it.
	Inline Decision = "inline"
	// Prefetch: run the call in the background; a later identical call is answered from
	// the session cache. It costs no tokens and saves only the call's latency.
	Prefetch Decision = "prefetch"
	// Declined: do nothing; Reason says why.
	Declined Decision = "declined"
)

// A Candidate is a call the agent may make next, and what the planner decided about it.
type Candidate struct {
	Tool string
	Args map[string]any
	// After is the tool of the call whose follow-up edge proposed the candidate.
	After string
	// Probability is the chance the agent makes the call within its next few calls.
	Probability float64
	// Value is the expected worth of the result: Probability times the value class's
	// weight, boosted by intent, penalised for slow or costly tools. Candidates are
	// admitted by Value per predicted token.
	Value float64
	// Tokens is the predicted size of the result.
	Tokens int
	// Approximate says the arguments approximate the call the agent may make (the window
	// around a search's hit; see toolvalue.Projection.Approximate): the agent's own call
	// would rarely have the candidate's key, so a prefetch of it would answer nothing,
	// and it is inlined or declined.
	Approximate bool
	Decision    Decision
	Reason      string
}

// Key returns the candidate's canonical identity; see the function Key.
func (c *Candidate) Key() string { return Key(c.Tool, c.Args) }

// A Budget bounds what one plan may spend.
type Budget struct {
	// Tokens is how many tokens inlined results may add to the current result.
	Tokens int `json:"tokens"`
	// MaxPrefetch is how many calls may be prefetched.
	MaxPrefetch int `json:"max_prefetch"`
	// Context is the size of the agent's context so far, in tokens, which prices the
	// model turn an inline saves; 0 estimates it from the history (see CostModel).
	Context int `json:"context,omitempty"`
}

// DefaultBudget is the budget of one plan when nothing configures it: the gateway's
// default turn budget and its prefetch concurrency.
var DefaultBudget = Budget{Tokens: 2000, MaxPrefetch: 3}

// Defaults of a Planner's zero fields.
const (
	// DefaultFloor is the lowest probability a candidate may have. devboy's default of
	// 0.5 excludes every follow-up edge of its own corpus and its host passes 0.3; the
	// built-in probabilities are of the very next call, while a candidate counts as used
	// within the next three, so 0.25 admits a search's hit that intent or a short list
	// singles out and still excludes every edge under 0.15 (Edit→Read 0.14, Bash→Read
	// 0.11). See the package documentation for the sweep that chose it.
	DefaultFloor = 0.25
	// DefaultPerEdge caps the calls one follow-up edge proposes after one call (the
	// first hits of a search, the first files of a listing).
	DefaultPerEdge = 3
	// DefaultRecent is how many of the latest calls propose follow-ups: the latest
	// only, since the planner runs after every call and earlier ones had their turn.
	DefaultRecent = 1
)

// A Planner proposes the calls an agent is likely to make next and decides, within a
// budget, which to run ahead of it. The zero values of its fields other than Models mean
// the defaults. A Planner is safe for concurrent use if Models is.
type Planner struct {
	// Models returns the value model of a tool.
	Models func(tool string) toolvalue.Model
	// Floor is the lowest probability a candidate may have to be run ahead; 0 means
	// DefaultFloor.
	Floor float64
	// PerEdge caps the candidates of one follow-up edge; 0 means DefaultPerEdge.
	PerEdge int
	// Recent is how many of the latest calls propose follow-ups; 0 means DefaultRecent.
	Recent int
	// Cost prices inlining against a model turn; nil means DefaultCostModel.
	Cost *CostModel
	// Logger receives a debug line for each follow-up edge whose projection does not
	// apply; nil discards them.
	Logger *slog.Logger
}

// Named weights of the value score.
const (
	// intentBoost multiplies a candidate's value by 1 + intentBoost per point of intent
	// match (see intentScore), up to maxIntent points: at most 3 times.
	intentBoost = 0.25
	maxIntent   = 16
	// slowLatency halves the value of a tool whose median latency it is: a slow call
	// ties up a prefetch slot and an inline delays the current result.
	slowLatency = 2 * time.Second
	// costlyDollars halves the value of a tool whose calls cost that much.
	costlyDollars = 0.01
	// rankPool is how many argument sets an edge yields before intent picks the best
	// PerEdge of them.
	rankPool = 64
)

// Plan proposes the follow-ups of the latest calls in history (the agent's calls so far,
// oldest first, with their results) and decides each: inline, prefetch or declined, with
// a reason. intent holds keywords of what the agent is working on (see Keywords); they
// favour candidates whose arguments or field groups name them. Only calls of speculable
// tools (toolvalue.Model.Speculable) are ever inlined or prefetched; inlined tokens never
// exceed b.Tokens nor prefetches b.MaxPrefetch. The result is deterministic: candidates
// in decreasing order of value per token, declined ones after the admitted ones.
func (p *Planner) Plan(history []Call, intent []string, b Budget) []Candidate {
	if len(history) == 0 || p.Models == nil {
		return nil
	}
	s := newSession(history, p.Models)
	props := p.propose(s, intent)
	if len(props) == 0 {
		return nil
	}
	return p.decide(s, props, intent, b)
}

// A proposal is a candidate and its key.
type proposal struct {
	Candidate
	key string
}

// propose returns the candidates of the follow-up edges of the latest calls, one per
// key.
func (p *Planner) propose(s *session, intent []string) []proposal {
	var out []proposal
	byKey := map[string]int{}
	recent := cmp.Or(p.Recent, DefaultRecent)
	for lag := 1; lag <= recent && lag <= len(s.history); lag++ {
		c := &s.history[len(s.history)-lag]
		if c.Error {
			continue
		}
		m := s.model(c.Tool)
		src := &toolvalue.Source{Args: c.Args, Text: c.Text, Structured: c.Structured}
		for i := range m.FollowUps {
			e := &m.FollowUps[i]
			for _, cand := range p.edgeCandidates(c.Tool, e, src, intent, lag) {
				s.place(&cand)
				k := Key(cand.Tool, cand.Args)
				if j, ok := byKey[k]; ok {
					// Two edges predict one call: either may come true.
					out[j].Probability = 1 - (1-out[j].Probability)*(1-cand.Probability)
					continue
				}
				byKey[k] = len(out)
				out = append(out, proposal{cand, k})
			}
		}
	}
	return out
}

// edgeCandidates applies one follow-up edge of a call. The edge's probability is shared
// among all its argument sets, each getting a share in proportion to its weight: (1 + its
// intent points, at most maxIntent)² over its position in the result (1, 2, 3, ...), so
// that the first hits of a search and the files the task names are the likely ones; the
// PerEdge heaviest are kept, and a call older than the latest (lag > 1) has its shares
// divided by its lag.
func (p *Planner) edgeCandidates(after string, e *toolvalue.FollowUp, src *toolvalue.Source, intent []string, lag int) []Candidate {
	sets, err := e.Apply(src, rankPool)
	if err != nil {
		p.logger().LogAttrs(context.Background(), slog.LevelDebug, "follow-up projection skipped",
			slog.String("after", after), slog.String("tool", e.Tool), slog.String("error", err.Error()))
		return nil
	}
	if len(sets) == 0 {
		return nil
	}
	type weighted struct {
		args   map[string]any
		weight float64
	}
	ws := make([]weighted, len(sets))
	base := searchDir(src.Args)
	var total float64
	for i, a := range sets {
		resolvePaths(a, base)
		boost := float64(1 + min(argsIntent(a, intent), maxIntent))
		ws[i] = weighted{a, boost * boost / float64(i+1)}
		total += ws[i].weight
	}
	slices.SortStableFunc(ws, func(a, b weighted) int { return cmp.Compare(b.weight, a.weight) })
	n := min(len(ws), cmp.Or(p.PerEdge, DefaultPerEdge))
	out := make([]Candidate, n)
	for i := range n {
		out[i] = Candidate{
			Tool:        e.Tool,
			Args:        ws[i].args,
			After:       after,
			Probability: e.Probability * ws[i].weight / total / float64(lag),
			Approximate: e.Approximate(ws[i].args),
		}
	}
	return out
}

// decide scores the candidates, declines those that may not or need not run, and admits
// the rest greedily by value per token: inline while the budget lasts and inlining pays,
// else prefetch while slots last.
func (p *Planner) decide(s *session, props []proposal, intent []string, b Budget) []Candidate {
	floor := p.Floor
	if floor == 0 {
		floor = DefaultFloor
	}
	cost := p.Cost
	if cost == nil {
		cost = &DefaultCostModel
	}
	context := b.Context
	if context <= 0 {
		context = cost.estimateContext(s.history)
	}
	for i := range props {
		c := &props[i].Candidate
		m := s.model(c.Tool)
		c.Tokens = s.predict(c, props[i].key, &m)
		c.Value = c.Probability * m.Class.Weight() * (1 + intentBoost*float64(min(intentScore(c.Args, &m, intent), maxIntent))) * penalty(&m)
		switch {
		case s.seen(c, props[i].key):
			c.Decision, c.Reason = Declined, "already seen in this session"
		case c.Probability < floor:
			c.Decision, c.Reason = Declined, fmt.Sprintf("below probability floor %g", floor)
		case !m.SideEffect.Safe():
			c.Decision, c.Reason = Declined, fmt.Sprintf("not read-only: side_effect=%s", m.SideEffect)
		case !m.Speculable():
			c.Decision, c.Reason = Declined, "speculation turned off for "+c.Tool
		case c.Value <= 0:
			c.Decision, c.Reason = Declined, fmt.Sprintf("worth nothing: value_class=%s", m.Class)
		}
	}
	slices.SortStableFunc(props, func(a, b proposal) int {
		return cmp.Or(
			cmp.Compare(declined(a.Candidate), declined(b.Candidate)),
			cmp.Compare(b.Value/float64(max(b.Tokens, 1)), a.Value/float64(max(a.Tokens, 1))),
			cmp.Compare(b.Probability, a.Probability),
			cmp.Compare(a.key, b.key),
		)
	})
	cands := make([]Candidate, len(props))
	for i := range props {
		cands[i] = props[i].Candidate
	}
	left, slots := max(b.Tokens, 0), max(b.MaxPrefetch, 0)
	for i := range cands {
		c := &cands[i]
		if c.Decision == Declined {
			continue
		}
		own := c.Tokens
		if c.Approximate {
			m := s.model(c.Tool)
			own = min(own, m.Cost.TypicalTokens)
		}
		gain, carry := cost.inline(c.Probability, c.Tokens, own, context)
		switch {
		case c.Tokens <= left && gain > carry:
			c.Decision = Inline
			c.Reason = fmt.Sprintf("inline pays: a saved turn is worth %.0f, the tokens carried %.0f", gain, carry)
			left -= c.Tokens
		case c.Approximate:
			c.Decision = Declined
			if c.Tokens > left {
				c.Reason = fmt.Sprintf("approximate arguments, never prefetched: over turn budget: %d > %d left", c.Tokens, left)
			} else {
				c.Reason = fmt.Sprintf("approximate arguments, never prefetched: inline does not pay: a saved turn is worth %.0f, the tokens carried %.0f", gain, carry)
			}
		case slots > 0:
			c.Decision = Prefetch
			if c.Tokens > left {
				c.Reason = fmt.Sprintf("over turn budget: %d > %d left", c.Tokens, left)
			} else {
				c.Reason = fmt.Sprintf("inline does not pay: a saved turn is worth %.0f, the tokens carried %.0f", gain, carry)
			}
			slots--
		default:
			c.Decision = Declined
			if c.Tokens > left {
				c.Reason = fmt.Sprintf("over turn budget: %d > %d left, and %d prefetches already", c.Tokens, left, b.MaxPrefetch)
			} else {
				c.Reason = fmt.Sprintf("inline does not pay and %d prefetches already", b.MaxPrefetch)
			}
		}
	}
	// Admitted first, in the order they were admitted; declined after, by value.
	slices.SortStableFunc(cands, func(a, b Candidate) int { return cmp.Compare(declined(a), declined(b)) })
	return cands
}

func declined(c Candidate) int {
	if c.Decision == Declined {
		return 1
	}
	return 0
}

// penalty is the factor that slow or costly tools' values are multiplied by: 1 for a
// fast free tool, ½ at slowLatency or costlyDollars, less beyond.
func penalty(m *toolvalue.Model) float64 {
	return 1 / (1 + float64(m.Cost.LatencyP50)/float64(slowLatency)) / (1 + m.Cost.Dollars/costlyDollars)
}

var discard = slog.New(slog.DiscardHandler)

func (p *Planner) logger() *slog.Logger {
	if p.Logger == nil {
		return discard
	}
	return p.Logger
}

// Predict returns the predicted size, in tokens, of a call of tool with args after the
// calls of history: the size Plan gives a candidate (see the Candidate's Tokens).
func (p *Planner) Predict(history []Call, tool string, args map[string]any) int {
	s := newSession(history, p.Models)
	m := s.model(tool)
	c := Candidate{Tool: tool, Args: args}
	return s.predict(&c, Key(tool, args), &m)
}

// Stale reports whether the call after makes a cached result of a call of tool with args
// stale: after's model invalidates the tool and the two calls name the same file_path or
// path, or either names none.
func (p *Planner) Stale(after Call, tool string, args map[string]any) bool {
	s := newSession(nil, p.Models)
	return s.invalidates(&after, tool, args)
}

// searchDir is the absolute directory a call searched or listed, which relative paths in
// its result are relative to: its path argument (the directory of it, if it names a
// file), else the directory of its file_path; "" if neither is absolute.
func searchDir(args map[string]any) string {
	if p := strArg(args, "path"); strings.HasPrefix(p, "/") {
		if path.Ext(p) != "" {
			return path.Dir(p)
		}
		return path.Clean(p)
	}
	if f := strArg(args, "file_path"); strings.HasPrefix(f, "/") {
		return path.Dir(f)
	}
	return ""
}

// resolvePaths makes the relative paths among a candidate's path arguments (those named
// *path) absolute under base, as a shell that searched base printed them: "src/a.py"
// after a search of /repo/src is /repo/src/a.py, so is "./a.py"; a path that starts with
// base's last element is relative to base's parent ("grep -r X src" in /repo prints
// "src/a.py").
func resolvePaths(args map[string]any, base string) {
	if base == "" {
		return
	}
	for k, v := range args {
		rel, ok := v.(string)
		if !ok || rel == "" || strings.HasPrefix(rel, "/") || strings.HasPrefix(rel, "~") ||
			strings.Contains(rel, "://") || !strings.HasSuffix(strings.ToLower(k), "path") {
			continue
		}
		rel = path.Clean(rel)
		first, _, _ := strings.Cut(rel, "/")
		if first == path.Base(base) && strings.Contains(rel, "/") {
			args[k] = path.Join(path.Dir(base), rel)
		} else {
			args[k] = path.Join(base, rel)
		}
	}
}
