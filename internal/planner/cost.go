package planner

import "math"

// A CostModel prices an inline against the model turn it may save, under a prompt cache:
// prices are relative to an uncached input token (1.0).
//
// An inlined result answers any of the agent's next calls that it holds, not only the
// next one: with a candidate's probability p of being the very next call (the follow-up
// edges' lag-1 probabilities), the chance that one of the next Calls calls uses it,
// each call taken as independent, is Probability = 1 − (1 − p)^Calls. devboy's corpus
// bears this out: the chance that a Read follows a Grep at lag 1, 2 and 3 is 0.35,
// 0.32 and 0.31, so within three calls 1 − Π(1 − p_lag) = 0.69, against 0.73 from the
// lag-1 chance alone (Glob→Read 0.80 against 0.69; Edit→Read 0.36 against 0.37).
//
// A saved turn is a request the agent does not send: its context read from the cache
// (Context × Read), the model's output (TurnOutput × Output), and the call and its
// framing that would have stayed in the context ((TurnOutput + CallTokens) × (Write +
// Read × Horizon)). An inlined result that the agent does not use costs its tokens
// written once and read on every later turn: Tokens × (Write + Read × Horizon). Inline
// pays when Probability × the saved turn exceeds (1 − Probability) × the tokens carried;
// when the agent does use it, the tokens its own call would have returned would have
// been in the context anyway, and only those beyond them are carried: none for a call
// the agent makes as predicted, the lines beyond the agent's own window for a window
// around a hit (an approximate call), whose own is taken at the tool's typical size.
type CostModel struct {
	Read   float64 // a cached input token: Anthropic 0.1
	Write  float64 // a token written to the cache: Anthropic 1.25
	Output float64 // an output token: Claude Sonnet 5 ($15 against $3 per million)
	// TurnOutput is the tokens the model writes in a tool-call turn: its reasoning and
	// the call.
	TurnOutput int
	// Horizon is how many more turns an inlined result is expected to stay in the
	// context.
	Horizon int
	// BaseContext is the context before any tool result (system prompt, tool
	// definitions, the task), used when the Budget does not give the context.
	BaseContext int
	// CallTokens is what one call adds to the context besides its result: the call, the
	// result's framing.
	CallTokens int
	// Calls is how many of the agent's next calls an inlined result may answer; 0 or 1
	// prices it against the next call alone.
	Calls int
}

// DefaultCostModel is Anthropic's 5-minute prompt cache with Claude Sonnet's prices.
var DefaultCostModel = CostModel{
	Read: 0.1, Write: 1.25, Output: 5,
	TurnOutput:  150,
	Horizon:     15,
	BaseContext: 4000,
	CallTokens:  40,
	Calls:       3,
}

// inline returns the expected saving of inlining a result of tokens with probability p
// when the context holds context tokens, and its expected cost; own is the size of the
// agent's own call, which the inline answers when it is used.
func (c *CostModel) inline(p float64, tokens, own, context int) (gain, carry float64) {
	p = 1 - math.Pow(1-p, float64(max(c.Calls, 1)))
	stay := c.Write + c.Read*float64(c.Horizon)
	turn := float64(context)*c.Read + float64(c.TurnOutput)*c.Output + float64(c.TurnOutput+c.CallTokens)*stay
	excess := float64(max(tokens-own, 0))
	return p * turn, ((1-p)*float64(tokens) + p*excess) * stay
}

// estimateContext returns BaseContext plus what the calls of history added.
func (c *CostModel) estimateContext(history []Call) int {
	n := c.BaseContext
	for i := range history {
		n += tokensOf(&history[i]) + c.CallTokens + c.TurnOutput
	}
	return n
}
