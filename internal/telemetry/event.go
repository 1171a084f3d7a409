package telemetry

import "time"

// Layer names, as they appear in [Event].Layer and [LayerTokens].Layer.
const (
	LayerNone    = "none"     // the result passed unchanged
	LayerDedup   = "dedup"    // replaced by a reference to an identical earlier result
	LayerNearRef = "near_ref" // replaced by an earlier result plus the fields that changed
	LayerEncode  = "encode"   // re-encoded losslessly into a shorter form
	LayerTrim    = "trim"     // cut to the call budget, the rest kept for winnow__more
	LayerInline  = "inline"   // follow-up results the planner appended (adds tokens)
)

// Counter names, as they appear in [Event].Counter.
const (
	CounterExact    = "o200k"          // every text counted with the real o200k BPE
	CounterEstimate = "o200k_estimate" // at least one text too large to count exactly, estimated
)

// An Event is one tool result as the gateway shaped it: one JSON line in the
// telemetry file. It holds no text from the response or the arguments.
type Event struct {
	Time time.Time `json:"time"`
	// Tool is the name the agent called, e.g. "github__get_issue".
	Tool string `json:"tool"`
	// Session and Args are keyed hashes (16 hex digits) of the session id
	// and of the raw arguments; see the package documentation.
	Session string `json:"session"`
	Args    string `json:"args"`
	// Shape is the kind of response the shape classifier saw (e.g. "array",
	// "object", "text"); empty when no classification ran.
	Shape string `json:"shape,omitempty"`
	// Layer names the layers that changed the result, joined by "+" in
	// pipeline order ("encode+trim"), or LayerNone.
	Layer string `json:"layer"`
	// Before is the tokens of text the upstream returned; After the tokens
	// of text the agent received.
	Before int `json:"before"`
	After  int `json:"after"`
	// Layers holds the tokens before and after each layer that ran and
	// changed something, in order.
	Layers []LayerTokens `json:"layers,omitempty"`
	// Dedup reports that the result was a duplicate of a recent one
	// (identical or near), whatever it was replaced with.
	Dedup bool `json:"dedup"`
	// Error reports that the upstream returned a tool error; errors pass
	// unchanged.
	Error bool `json:"error,omitempty"`
	// LatencyUS is the time the gateway spent on the result, in microseconds.
	LatencyUS int64 `json:"latency_us"`
	// Counter says how tokens were counted: CounterExact or CounterEstimate.
	Counter string `json:"counter"`

	// The planner's part; absent from files written before it existed.

	// Served says what answered the call in place of the upstream
	// (ServedPrefetch, ServedInline, ServedFailFast); empty when the
	// upstream did.
	Served string `json:"served,omitempty"`
	// PredictedTokens is the result size the planner predicted for the
	// call; 0 when nothing predicted it.
	PredictedTokens int `json:"predicted_tokens,omitempty"`
	// Key is a keyed hash of the call's planner key: equal to the Key of
	// a Plan for the same call within one Writer.
	Key string `json:"key,omitempty"`
	// Plans holds the follow-up candidates the planner considered after
	// the call, in its order.
	Plans []Plan `json:"plans,omitempty"`
	// UpstreamUS is the time the upstream took to answer, in
	// microseconds; 0 when it was not asked or not timed.
	UpstreamUS int64 `json:"upstream_us,omitempty"`
}

// LayerTokens is what one layer did to a result: tokens of text before and
// after it. Before - After is what the layer saved (negative when it added,
// as the id stamp the dedup layer puts on a body it may refer to later).
type LayerTokens struct {
	Layer  string `json:"layer"`
	Before int    `json:"before"`
	After  int    `json:"after"`
}
