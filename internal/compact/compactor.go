package compact

import (
	"fmt"
	"slices"

	"github.com/winnowhq/winnow/internal/chat"
)

// A Pass rewrites the stale part of a conversation. It changes only
// messages before the State's horizon (or those its batches name), and
// what it writes for them depends only on messages before the horizon of
// the batch that made them stale, so that every later request of the
// conversation carries the same bytes for them.
type Pass interface {
	// Name is the pass's name, as Only takes it.
	Name() string
	// Apply rewrites st's conversation and reports what it changed.
	Apply(st *State) Report
}

// A Report says what one pass changed in one request and why.
type Report struct {
	Pass    string `json:"pass"`
	Changed int    `json:"changed"` // parts or messages changed, added or dropped
	// TokensBefore and TokensAfter are the estimated tokens of what the
	// pass changed, before and after.
	TokensBefore int      `json:"tokens_before"`
	TokensAfter  int      `json:"tokens_after"`
	Notes        []string `json:"notes,omitempty"`
}

// maxNotes bounds Report.Notes; the rest are counted in one last note.
const maxNotes = 12

func (r *Report) note(format string, args ...any) {
	switch {
	case len(r.Notes) < maxNotes:
		r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
	case len(r.Notes) == maxNotes:
		r.Notes = append(r.Notes, "and more")
	}
}

// Pass names, in the order the passes run.
const (
	passDedup    = "dedup"
	passSnip     = "snip"
	passClear    = "clear"
	passArgs     = "args"
	passLexical  = "lexical"
	passThinking = "thinking"
	passTrim     = "trim"
	passRepair   = "repair"
)

// allPasses returns every pass, in the one order they run:
//
//  1. dedup: a later copy of an earlier output becomes a reference to it;
//  2. snip: large outputs of the newest stale batch keep head and tail;
//  3. clear: outputs of older batches become placeholders;
//  4. args: large tool-call arguments that a later call repeats or
//     supersedes are elided;
//  5. lexical: blank and punctuation-only lines of assistant text go;
//  6. thinking: thinking blocks that a batch made invalid are dropped;
//  7. trim: past the hard limit, old tool calls and results are dropped;
//  8. repair: tool calls and results are paired the way the API wants.
//
// The content passes come first and work on the messages as received;
// thinking decides from the batches alone, before trim removes messages;
// repair runs last, over the final messages.
func allPasses() []Pass {
	return []Pass{dedupPass{}, snipPass{}, clearPass{}, argsPass{}, lexicalPass{}, thinkingPass{}, trimPass{}, repairPass{}}
}

// mandatory passes run even when Only leaves them out: without them a
// compacted request could be one the API rejects.
var mandatory = []string{passThinking, passRepair}

// PassNames returns the names of every pass, in the order they run.
func PassNames() []string {
	var names []string
	for _, p := range allPasses() {
		names = append(names, p.Name())
	}
	return names
}

// A Compactor runs the passes over conversations. It holds no state
// between requests, so one Compactor serves any number of conversations,
// concurrently; two Compactors with the same Options agree on every
// request.
type Compactor struct {
	opts   Options
	passes []Pass
	on     map[string]bool // the names of passes; read-only
}

// newCompactor returns a Compactor running passes, in order, with opts as
// they are.
func newCompactor(opts Options, passes []Pass) *Compactor {
	on := make(map[string]bool, len(passes))
	for _, p := range passes {
		on[p.Name()] = true
	}
	return &Compactor{opts: opts, passes: passes, on: on}
}

// New returns a Compactor with opts (zero fields take their defaults)
// running every pass, in the order of PassNames.
func New(opts Options) *Compactor {
	return newCompactor(opts.withDefaults(), allPasses())
}

// Only returns a Compactor with c's options running only the named passes,
// for measuring each pass alone, and the thinking and repair passes, which
// keep the result valid and always run. Names that are not passes are
// ignored; PassNames lists the valid ones.
func (c *Compactor) Only(names ...string) *Compactor {
	var passes []Pass
	for _, p := range c.passes {
		if slices.Contains(names, p.Name()) || slices.Contains(mandatory, p.Name()) {
			passes = append(passes, p)
		}
	}
	return newCompactor(c.opts, passes)
}

// WithServerEdits returns c with Options.ServerEdits set to on: a proxy
// holds both and picks per request, by whether the upstream accepts
// server-side edits.
func (c *Compactor) WithServerEdits(on bool) *Compactor {
	d := *c
	d.opts.ServerEdits = on
	return &d
}

// Options returns the options c runs with, defaults filled in.
func (c *Compactor) Options() Options { return c.opts }

// Run compacts conv, a request in dialect ("anthropic", "openai" or
// "responses"), and
// returns the compacted conversation and one Report per pass. It never
// changes conv: the result is a Clone that shares conv's original bytes,
// so an untouched message still encodes as received and Validate can
// line the two up. A conv of another dialect comes back as an unchanged
// clone, with a Report saying why.
func (c *Compactor) Run(dialect string, conv *chat.Conversation) (*chat.Conversation, []Report) {
	st, reps := c.run(dialect, conv, seed{})
	if st == nil {
		return nil, reps
	}
	return st.conv, reps
}

func (c *Compactor) run(dialect string, conv *chat.Conversation, sd seed) (*State, []Report) {
	if conv == nil {
		return nil, []Report{{Pass: "compactor", Notes: []string{"no conversation"}}}
	}
	if _, known := codecs[conv.Dialect]; conv.Dialect != chat.Dialect(dialect) || !known {
		st := &State{dialect: conv.Dialect, orig: conv, conv: conv.Clone()}
		return st, []Report{{Pass: "compactor", Notes: []string{fmt.Sprintf("conversation is %q, not %q: left as it is", conv.Dialect, dialect)}}}
	}
	st := newSeededState(conv, c.opts, c.on, sd)
	if st.server {
		return st, st.runServer()
	}
	reps := make([]Report, 0, len(c.passes))
	for _, p := range c.passes {
		r := p.Apply(st)
		r.Pass = p.Name()
		reps = append(reps, r)
	}
	return st, reps
}
