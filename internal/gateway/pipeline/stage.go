package pipeline

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/telemetry"
	"github.com/winnowhq/winnow/internal/tokens"
)

// A Stage is one step a tool call goes through. Before runs ahead of the
// dispatch to the upstream, After on the result on its way to the agent;
// each does nothing when it has nothing to do at that point. A Stage that
// returns an error (or panics) leaves the Turn as it found it: the
// pipeline restores the texts and logs the error.
type Stage interface {
	Name() string
	Before(ctx context.Context, t *Turn) error
	After(ctx context.Context, t *Turn) error
}

// A Turn is one call on its way through the stages.
type Turn struct {
	Call *Call
	// Result is the upstream's result, never modified; nil in Before.
	Result *mcp.CallToolResult
	// Texts holds one Text per text content of Result, in order. Other
	// content (images, audio, resources) is not touched by any stage.
	Texts []*Text

	p      *Pipeline
	sess   *session
	seq    int      // the call's number in its session
	words  []string // argument words of this call
	recent []string // argument words of the session's calls before this one
	// counted remembers the token counts of the long texts counted in
	// this turn (see count).
	counted []counted
}

// A counted text and its token count.
type counted struct {
	text   string
	tokens int
}

// Texts of at least memoBytes are remembered once counted, the last
// memoTexts of them. The stages and the packages they call count some
// long texts more than once in a turn (the upstream text in Encode and
// again in Trim, a trimmed view in trimtree and again when it is encoded);
// short texts (trimtree's items) are counted once each and would only
// push the long ones out.
const (
	memoBytes = 1 << 10
	memoTexts = 8
)

// A Text is one text content of a result as the stages rewrite it.
type Text struct {
	// Upstream is the text as the upstream returned it.
	Upstream string
	// Text is the text as it stands.
	Text string
	// Shape is the shape the shape stage classified Upstream as.
	Shape string
	// Encoder names the lossless encoding Text is in ("" for none).
	Encoder string
	// Ref is the short id ("r7") the text is known by, if it has one.
	Ref string
	// Stamp shows "#"+Ref as the text's first line, so that a later
	// reference to it can be short.
	Stamp bool
	// Hint is a line appended after Text.
	Hint string
	// Final marks a text replaced by a reference: later stages leave it.
	Final bool
	// Dedup marks a text replaced because it repeated a recent one.
	Dedup bool

	index int // position in Result.Content; -1 for a text of structured content only
	// fields are the top-level members of the structured content that hold
	// this text and receive it shaped.
	fields []string
	// whole marks the structured content itself, as compact JSON; serial
	// are the positions of the text contents that serialize it.
	whole  bool
	serial []int
	entry  *entry // the dedup cache entry made for this text, if any
	steps  []telemetry.Step
	// tokens and upstreamTokens are the counts of Text and Upstream when
	// a stage has them (0 when not), so that later stages need not count
	// again.
	tokens, upstreamTokens int
	// spans are the start and end offsets of the elements of spansOf, a
	// JSON array text the Encode stage parsed, in pairs (see
	// shape.EncodeBelowSpans), so that Trim need not parse it again.
	spans   []int
	spansOf string
}

// record notes, for telemetry, that layer turned before into after.
func (tx *Text) record(layer, before, after string) {
	tx.steps = append(tx.steps, telemetry.Step{Layer: layer, Before: before, After: after})
}

// rendered returns the text the agent receives.
func (tx *Text) rendered() string {
	s := tx.Text
	if tx.Stamp && tx.Ref != "" {
		s = "#" + tx.Ref + "\n" + s
	}
	switch {
	case tx.Hint == "":
		return s
	case s == "" || s[len(s)-1] == '\n':
		return s + tx.Hint + "\n"
	}
	return s + "\n" + tx.Hint
}

// count counts tokens with the pipeline's counter. A long text counted
// before in the same turn is not counted again: a counter's count is a
// function of the text alone, and comparing a text with a remembered one
// costs far less than counting it (texts of different lengths differ at
// once, and the same string at the same address is equal at once).
func (t *Turn) count(s string) int {
	if len(s) < memoBytes {
		return t.p.opts.Counter.Count(s)
	}
	for _, c := range t.counted {
		if c.text == s {
			return c.tokens
		}
	}
	n := t.p.opts.Counter.Count(s)
	t.remember(s, n)
	return n
}

// remember makes n the count of the long text s for the rest of the turn.
func (t *Turn) remember(s string, n int) {
	if len(t.counted) == memoTexts {
		t.counted = append(t.counted[:0], t.counted[1:]...)
	}
	t.counted = append(t.counted, counted{s, n})
}

// below returns count(s) and true if that is less than limit, and false
// otherwise; with the estimator it then stops counting as soon as a
// prefix of s counts limit tokens (see tokens.Estimator.CountBelow).
func (t *Turn) below(s string, limit int) (int, bool) {
	e, ok := t.p.opts.Counter.(tokens.Estimator)
	if !ok || len(s) < memoBytes {
		n := t.count(s)
		return n, n < limit
	}
	for _, c := range t.counted {
		if c.text == s {
			return c.tokens, c.tokens < limit
		}
	}
	n, ok := e.CountBelow(s, limit)
	if ok {
		t.remember(s, n)
	}
	return n, ok
}

// textTokens returns the tokens of tx.Text, counting them if no stage has.
func (t *Turn) textTokens(tx *Text) int {
	if tx.tokens == 0 {
		tx.tokens = t.count(tx.Text)
	}
	return tx.tokens
}

// upstreamTokens returns the tokens of tx.Upstream, counting them if no
// stage has.
func (t *Turn) upstreamTokens(tx *Text) int {
	if tx.upstreamTokens == 0 {
		tx.upstreamTokens = t.count(tx.Upstream)
	}
	return tx.upstreamTokens
}
