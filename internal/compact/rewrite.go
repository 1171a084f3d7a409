package compact

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/winnowhq/winnow/internal/chat"
)

// ErrDialect reports a dialect Rewrite does not speak.
var ErrDialect = errors.New("unknown dialect")

// A Summary says what Rewrite did to one request body.
type Summary struct {
	// Changed says the body returned differs from the one given.
	Changed bool `json:"changed"`
	// Reports are the passes' reports, in the order they ran.
	Reports []Report `json:"reports,omitempty"`
	// Violations are the invariants the compacted request broke. When
	// there are any, Rewrite returned the original body.
	Violations []Violation `json:"violations,omitempty"`
	// Horizon is the number of leading messages that were stale, and
	// Batches the steps by which the replay got there.
	Horizon int     `json:"horizon"`
	Batches []Batch `json:"batches,omitempty"`
	// TokensBefore and TokensAfter estimate the request's tokens before
	// and after (tokens.Estimator, o200k); equal when nothing changed.
	TokensBefore int `json:"tokens_before"`
	TokensAfter  int `json:"tokens_after"`
	// ServerEdit is the clear_tool_uses edit the request now asks the
	// API for, when it is compacted server-side; the request then needs
	// the BetaContextManagement beta. TokensAfter counts the results it
	// clears as the API's placeholders.
	ServerEdit *ServerEdit `json:"server_edit,omitempty"`
}

// Rewrite compacts one request body with the default passes and opts:
// see Compactor.Rewrite.
func Rewrite(dialect string, body []byte, opts Options) ([]byte, Summary, error) {
	return New(opts).Rewrite(dialect, body)
}

// Rewrite compacts one request body of dialect ("anthropic", "openai" or
// "responses"):
// decode, Run, validate the result against the body as received, encode.
// If the result breaks any invariant, it returns body itself with the
// violations in the Summary, since the original is what the client meant
// to send. It returns body and an error when body is not a request of
// dialect (wrapping chat.ErrMalformed or chat.ErrShape), when dialect is
// unknown (ErrDialect), and when the result cannot be encoded. It never
// modifies body, and the body it returns is body itself whenever nothing
// changed.
func (c *Compactor) Rewrite(dialect string, body []byte) ([]byte, Summary, error) {
	return c.RewriteCached(nil, dialect, body)
}

// RewriteCached is Rewrite with cache, which makes the next request of a
// conversation cheap: a body that extends one the cache holds (the same
// bytes up to the end of its messages, then more) is decoded only past
// them, and what was learnt of the earlier messages is reused. The result
// is byte for byte Rewrite's, cache or not. A nil cache is Rewrite.
//
// The cache keeps body itself, not a copy (a copy of a megabyte body
// costs about a tenth of a millisecond): the caller must not modify body
// after the call. A proxy's request body, read once and forwarded as it
// is, qualifies.
func (c *Compactor) RewriteCached(cache *Cache, dialect string, body []byte) ([]byte, Summary, error) {
	var sum Summary
	decode, encode, err := codec(dialect)
	if err != nil {
		return body, sum, err
	}
	orig, sd, prev, key := cache.decode(dialect, body)
	if orig == nil {
		if orig, err = decode(body); err != nil {
			return body, sum, fmt.Errorf("compact: %w", err)
		}
	}
	if cache != nil && sd.memo == nil {
		sd.memo = newTextMemo()
	}
	st, reps := c.run(dialect, orig, sd)
	var memo *chat.EncodeMemo
	if cache != nil {
		memo = chat.NewEncodeMemo(prev.encoded())
	}
	defer func() { cache.store(key, body, st, prev, memo) }()
	out := st.conv
	sum.Reports, sum.Horizon, sum.Batches = reps, st.horizon, st.batches
	sum.TokensBefore = st.conversationTokens(orig)
	sum.TokensAfter = sum.TokensBefore
	if out.Unchanged() {
		return body, sum, nil
	}
	if sum.Violations = c.validate(st); len(sum.Violations) > 0 {
		return body, sum, nil
	}
	enc, err := encode(out, memo)
	if err != nil {
		return body, sum, fmt.Errorf("compact: encode the compacted request: %w", err)
	}
	if bytes.Equal(enc, body) {
		return body, sum, nil
	}
	sum.Changed = true
	sum.TokensAfter = st.conversationTokens(out)
	if st.edit != nil {
		sum.ServerEdit = st.edit
		sum.TokensAfter -= st.edit.Tokens - st.edit.Cleared*placeholderTokens
	}
	return enc, sum, nil
}

// validate checks st's result against the request as received. A
// thinking block kept after a rewritten message was produced against the
// rewritten request that the proxy sent then, not against the client's
// history: its prefix is checked against that request, which a Run of the
// history up to the block's message reproduces, since the rewrites are
// sticky.
func (c *Compactor) validate(st *State) []Violation {
	d, orig, out := st.dialect, st.orig, st.conv
	if st.family != Preserved {
		return Validate(d, orig, out) // no prefix check to line up
	}
	p := lastThinkingOrigin(orig, out)
	if p < 0 {
		return Validate(d, orig, out)
	}
	// run clones its input and never changes it, so the prefix can share
	// orig's messages rather than copy the whole conversation.
	prefix := *orig
	prefix.Messages = orig.Messages[:p:p]
	sent, _ := c.run(string(d), &prefix, seed{facts: st.facts[:p], memo: st.memo})
	return ValidateBound(d, orig, out, sent.conv)
}

// lastThinkingOrigin returns the index in orig of the message holding the
// last thinking block out keeps, or -1 if out keeps none.
func lastThinkingOrigin(orig, out *chat.Conversation) int {
	for i := len(out.Messages) - 1; i >= 0; i-- {
		m := &out.Messages[i]
		if countThinking(m.Parts) == 0 {
			continue
		}
		for oi := range orig.Messages {
			if m.SameOrigin(&orig.Messages[oi]) {
				return oi
			}
		}
		return -1
	}
	return -1
}

// conversationTokens estimates the tokens of c's system prompt and
// messages. The messages of st's input, unchanged, count as their facts
// say, without estimating them again.
func (st *State) conversationTokens(c *chat.Conversation) int {
	n := 0
	for k := range c.System {
		n += st.partTokens(&c.System[k])
	}
	next := 0 // messages of st.orig before it have been matched
	for i := range c.Messages {
		m := &c.Messages[i]
		j := next
		for j < len(st.orig.Messages) && !m.SameOrigin(&st.orig.Messages[j]) {
			j++
		}
		if j < len(st.orig.Messages) {
			next = j + 1
			if j < len(st.facts) && m.Unchanged() {
				n += st.facts[j].tokens
				continue
			}
		}
		n += st.messageTokens(m)
	}
	return n
}
