package telemetry

// Served values, as they appear in [Event].Served: what answered a call in
// place of the upstream.
const (
	ServedPrefetch = "prefetch"  // a result the planner fetched ahead of the agent
	ServedInline   = "inline"    // a result the planner had already appended to an earlier one
	ServedFailFast = "fail_fast" // the session, after repeated unproductive results
)

// Decision values, as they appear in [Plan].Decision.
const (
	DecisionInline   = "inline"   // appended to the result of the call that led to it
	DecisionPrefetch = "prefetch" // fetched in the background into the session cache
	DecisionDeclined = "declined" // not run; Reason says why
)

// A Plan is one follow-up candidate the planner considered after a call, as
// stored in an [Event]: no argument values, only keyed hashes.
type Plan struct {
	Tool string `json:"tool"`
	// Args and Key are keyed hashes (16 hex digits) of the candidate's raw
	// arguments and of its planner key. Key hashes like the [Event].Key of
	// the agent's own call with the same key, within one Writer.
	Args string `json:"args,omitempty"`
	Key  string `json:"key,omitempty"`
	// Decision is DecisionInline, DecisionPrefetch or DecisionDeclined.
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
	// PredictedTokens is the size the planner predicted for the result.
	PredictedTokens int `json:"predicted_tokens,omitempty"`
}

// plans hashes the gateway's candidates into Plans.
func (w *Writer) plans(cands []Candidate) []Plan {
	if len(cands) == 0 {
		return nil
	}
	out := make([]Plan, len(cands))
	for i, c := range cands {
		out[i] = Plan{
			Tool:            c.Tool,
			Args:            w.hashOpt(c.Args),
			Key:             w.hashOpt([]byte(c.Key)),
			Decision:        c.Decision,
			Reason:          c.Reason,
			PredictedTokens: c.PredictedTokens,
		}
	}
	return out
}

// hashOpt hashes b, or returns "" for no bytes: an absent key stays absent.
func (w *Writer) hashOpt(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return w.hash(b)
}
