package enrich

import (
	"encoding/json"
	"strings"

	"github.com/winnowhq/winnow/internal/agentcalls"
	"github.com/winnowhq/winnow/internal/planner"
	"github.com/winnowhq/winnow/internal/toolvalue"
)

// Buckets of calls saved.
const (
	bucketNone     = ""
	bucketInline   = "inline"
	bucketPrefetch = "prefetch"
	bucketDedup    = "dedup"
	bucketFailFast = "fail_fast"
)

// A step is one call of the run and what the replay made of it.
type step struct {
	call   planner.Call
	turn   int    // the assistant message that made it
	bucket string // how enrichment would have answered it, bucketNone if the agent's call ran
	plans  []plan // the planner's candidates after it (none when it was not run)
}

// A plan is one candidate the planner proposed and what came of it.
type plan struct {
	planner.Candidate
	key string
	// inlined: the gateway appended its result (an inline decision whose real size fit
	// what was left of the budget); an inline decision that did not fit was run ahead
	// into the cache like a prefetch.
	inlined bool
	truth   int // its real size in tokens: the agent's own call's, else the best estimate
	used    int // index of the first call it answered within the window, -1 if none
	actual  int // size of the agent's later call with its key, -1 if it made none
	// text is the result of the agent's later call with its key, "" if it made none:
	// what an inline of it would have shown.
	text string
}

// run is one trajectory replayed.
type run struct {
	name  string
	steps []step
	// turns lists the assistant messages that made calls, in order; saved those whose
	// every call an inline answered.
	turns []int
	saved map[int]bool
	// inlines: for each call index, the inlined results appended to it, in tokens
	// (frame included).
	inlines map[int][]int
	tokens  tokenCounter
	// speculableTurns counts the turns whose every call is of a speculable tool;
	// ceilingTurns the turns an inline could save at most, namedReads the reads in them
	// (see ceiling).
	speculableTurns          int
	ceilingTurns, namedReads int
}

type tokenCounter interface {
	count(text string) int
}

// replay runs the planner after each call of s as the gateway would and judges every
// candidate against the calls the agent made next.
func (o *Options) replay(s agentcalls.Session, counter tokenCounter) *run {
	r := &run{name: s.Source, saved: map[int]bool{}, inlines: map[int][]int{}, tokens: counter}
	for _, c := range s.Calls {
		r.steps = append(r.steps, step{
			call: planner.Call{Tool: c.Tool, Args: c.Args, Text: c.Result, Tokens: counter.count(c.Result), Error: c.Error},
			turn: c.Turn,
		})
		if len(r.turns) == 0 || r.turns[len(r.turns)-1] != c.Turn {
			r.turns = append(r.turns, c.Turn)
		}
	}
	r.speculableTurns = o.speculableTurns(s)
	r.ceilingTurns, r.namedReads = ceiling(s)
	intent := planner.Keywords(s.Task)
	all := make([]planner.Call, len(r.steps))
	for i := range r.steps {
		all[i] = r.steps[i].call
	}
	var history []planner.Call // the calls the gateway served, as it remembers them
	for i := range r.steps {
		st := &r.steps[i]
		if st.bucket == bucketNone {
			st.bucket = o.earlierAnswer(r, i, history)
		}
		if st.bucket == bucketInline || st.bucket == bucketFailFast {
			// The gateway never saw the call (an inline answered it) or did not
			// remember it (fail-fast).
			continue
		}
		history = append(history, st.call)
		if len(history) > o.History {
			history = history[len(history)-o.History:]
		}
		cands := o.Planner.Plan(history, intent, o.Budget)
		left := o.Budget.Tokens
		for _, c := range cands {
			pl := plan{Candidate: c, key: planner.Key(c.Tool, c.Args), used: -1, actual: -1}
			pl.truth = r.truth(o.Planner, all, i, &pl)
			if c.Decision == planner.Inline && pl.truth <= left {
				pl.inlined = true
				left -= pl.truth
				r.inlines[i] = append(r.inlines[i], pl.truth+r.frame(c.Tool, c.Args))
			}
			answered := o.usedBy(r, i, &pl)
			if len(answered) > 0 {
				pl.used = answered[0]
			}
			st.plans = append(st.plans, pl)
			if c.Decision != planner.Declined {
				for _, j := range answered {
					o.answer(r, j, &pl)
				}
			}
		}
	}
	return r
}

// answer marks call j as answered by the admitted candidate pl, and its turn as saved
// when inlines answered every call of it.
func (o *Options) answer(r *run, j int, pl *plan) {
	b := bucketPrefetch
	if pl.inlined {
		b = bucketInline
	}
	st := &r.steps[j]
	if st.bucket == bucketNone || b == bucketInline {
		st.bucket = b
	}
	turn := st.turn
	for k := range r.steps {
		if r.steps[k].turn == turn && r.steps[k].bucket != bucketInline {
			return
		}
	}
	r.saved[turn] = true
}

// usedBy returns the next Window calls, made in a later turn than call i (the calls of
// i's own turn were already on their way), that the candidate's result answers before
// any call makes it stale: the first only unless it was inlined. An inlined result is in
// the agent's context, so it answers every call whose result it holds (planner.Holds: a
// Read of a window within it, among the lines it shows when the agent's own call tells
// what that was); a result run ahead into the cache answers only a call with its key,
// which is how the gateway looks it up; a declined candidate is called when the agent
// makes a call with its key.
func (o *Options) usedBy(r *run, i int, pl *plan) []int {
	var out []int
	inline := &planner.Call{Tool: pl.Tool, Args: pl.Args, Text: pl.text}
	for j := i + 1; j < len(r.steps) && j <= i+o.Window; j++ {
		c := &r.steps[j].call
		answers := pl.key == planner.Key(c.Tool, c.Args)
		if pl.inlined {
			answers = planner.Holds(inline, c.Tool, c.Args)
		}
		if r.steps[j].turn > r.steps[i].turn && answers {
			out = append(out, j)
			if !pl.inlined {
				return out
			}
		}
		if o.Planner.Stale(*c, pl.Tool, pl.Args) {
			break
		}
	}
	return out
}

// truth returns the real size of a candidate's result: the size of the agent's own call
// with its key, if it made one later, else the planner's prediction with the whole run
// known (a file's length and tokens per line from any of its reads).
func (r *run) truth(p *planner.Planner, all []planner.Call, i int, pl *plan) int {
	for j := i + 1; j < len(all); j++ {
		if all[j].Tool == pl.Tool && planner.Key(all[j].Tool, all[j].Args) == pl.key {
			pl.actual, pl.text = all[j].Tokens, all[j].Text
			return pl.actual
		}
	}
	return p.Predict(all, pl.Tool, pl.Args)
}

// frame returns the tokens of the delimiters the gateway puts around an inlined result.
func (r *run) frame(tool string, args map[string]any) int {
	b, _ := json.Marshal(args)
	call := tool + " " + string(b)
	return r.tokens.count("[winnow: read ahead — " + call + "]\n\n[winnow: end of " + call + "]")
}

// earlierAnswer returns how the gateway would have answered call i without running it,
// from what came before: dedup (an earlier successful call of a speculable tool with its
// key, nothing made that stale since) or fail-fast (the tool's fail_fast_after_n earlier
// calls with its key, in a row among its calls with that key, all returned the same
// unproductive result); bucketNone if neither.
func (o *Options) earlierAnswer(r *run, i int, history []planner.Call) string {
	c := &r.steps[i].call
	m := o.Planner.Models(c.Tool)
	if m.Speculable() {
		key := planner.Key(c.Tool, c.Args)
		for j := i - 1; j >= 0; j-- {
			h := &r.steps[j]
			if h.turn < r.steps[i].turn && !h.call.Error && h.call.Tool == c.Tool && planner.Key(h.call.Tool, h.call.Args) == key {
				return bucketDedup
			}
			if o.Planner.Stale(h.call, c.Tool, c.Args) {
				break
			}
		}
	}
	if failFast(&m, c, history) {
		return bucketFailFast
	}
	return bucketNone
}

// failFast reports whether c repeats the model's FailFastAfter latest calls with its
// key in history, all of which returned one unproductive result.
func failFast(m *toolvalue.Model, c *planner.Call, history []planner.Call) bool {
	n := m.FailFastAfter
	if n <= 0 {
		return false
	}
	key := planner.Key(c.Tool, c.Args)
	var results []string
	for j := len(history) - 1; j >= 0 && len(results) < n; j-- {
		if history[j].Tool == c.Tool && planner.Key(history[j].Tool, history[j].Args) == key {
			results = append(results, history[j].Text)
		}
	}
	if len(results) < n || !unproductive(results[0]) {
		return false
	}
	for _, t := range results[1:] {
		if t != results[0] {
			return false
		}
	}
	return true
}

// unproductive reports whether a result found nothing: it is empty or says so.
func unproductive(text string) bool {
	t := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "OBSERVATION:")))
	if t == "" {
		return true
	}
	for _, p := range []string{"no matches", "no results", "no files found", "found 0 ", "0 matches", "not found"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// speculableTurns counts the turns of s whose every call is of a tool that may run ahead.
func (o *Options) speculableTurns(s agentcalls.Session) int {
	n := 0
	for i := 0; i < len(s.Calls); {
		j, ok := i, true
		for ; j < len(s.Calls) && s.Calls[j].Turn == s.Calls[i].Turn; j++ {
			m := o.Planner.Models(s.Calls[j].Tool)
			ok = ok && m.Speculable()
		}
		if ok {
			n++
		}
		i = j
	}
	return n
}
