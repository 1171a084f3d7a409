package telemetry

import "time"

// A Call is what a [Writer] is given for one tool result. Unlike an [Event]
// it carries raw text, so that tokens can be counted off the request path;
// the Writer turns it into an Event and keeps none of the text.
type Call struct {
	Time    time.Time
	Session string // raw session id, hashed by the Writer
	Tool    string
	Args    []byte // raw arguments, hashed by the Writer
	Shape   string
	Error   bool
	Dedup   bool
	Latency time.Duration
	// Upstream holds the text contents the upstream returned; Delivered the
	// text contents the agent received. A call answered without the upstream
	// (see Served) puts in Upstream the result that answer stands for: the
	// prefetched or inlined result, or the repeated unproductive result a
	// fail-fast answer replaced.
	Upstream, Delivered []string
	// Steps holds, in order, each change a layer made to one text content.
	// Follow-up results the planner appended to this result are a step of
	// LayerInline with the appended text as After.
	Steps []Step

	// Served says what answered the call in place of the upstream:
	// ServedPrefetch, ServedInline or ServedFailFast; empty when the upstream
	// answered it (a duplicate is reported by Dedup).
	Served string
	// PredictedTokens is the size of the result the planner predicted for
	// this call (it planned the call, or its tool's cost model priced it), in
	// tokens; 0 when nothing predicted it.
	PredictedTokens int
	// Key is the call's planner key (planner.Key of its tool and arguments),
	// hashed by the Writer. A plan's candidate and the agent's own later call
	// with the same key hash alike, which is how `winnow stats` finds out
	// whether a candidate was used.
	Key string
	// Plans holds what the planner decided after this call, one entry per
	// candidate it considered, in its order.
	Plans []Candidate
	// UpstreamLatency is the time the upstream took to answer the call (for
	// a prefetched result, the prefetch's own call); 0 when the upstream
	// was not asked. `winnow tune` refreshes latency priors from it.
	UpstreamLatency time.Duration
}

// A Step is one layer's change to one text content: the text before and
// after it.
type Step struct {
	Layer         string
	Before, After string
}

// A Candidate is one follow-up call the planner considered after a call, as
// the gateway hands it to a [Writer]: raw arguments and key, which the Writer
// hashes into a [Plan].
type Candidate struct {
	Tool string
	Args []byte // raw arguments of the candidate call, hashed by the Writer
	Key  string // planner.Key of the candidate, hashed by the Writer
	// Decision is DecisionInline, DecisionPrefetch or DecisionDeclined.
	Decision string
	// Reason says why, in the planner's words ("below probability 0.30",
	// "over the turn budget"); it must not quote argument values.
	Reason string
	// PredictedTokens is the size the planner predicted for its result.
	PredictedTokens int
}
