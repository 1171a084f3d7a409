package planner

// A CostModel prices an inline against the model turn it may save, under a prompt cache:
// prices are relative to an uncached input token (1.0).
//
// A saved turn is a request the agent does not send: its context read from the cache
// (Context × Read), the model's output (TurnOutput × Output), and the call and its
// framing that would have stayed in the context ((TurnOutput + CallTokens) × (Write +
// Read × Horizon)). An inlined result that the agent does not use costs its tokens
// written once and read on every later turn: Tokens × (Write + Read × Horizon). Inline
// pays when Probability × the saved turn exceeds (1 − Probability) × the tokens carried;
// when the agent does use it, its tokens would have been in the context anyway.
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
}

// DefaultCostModel is Anthropic's 5-minute prompt cache with Claude Sonnet's prices.
var DefaultCostModel = CostModel{
	Read: 0.1, Write: 1.25, Output: 5,
	TurnOutput:  150,
	Horizon:     15,
	BaseContext: 4000,
	CallTokens:  40,
}

// inline returns the expected saving of inlining a result of tokens with probability p
// when the context holds context tokens, and its expected cost.
func (c *CostModel) inline(p float64, tokens, context int) (gain, carry float64) {
	stay := c.Write + c.Read*float64(c.Horizon)
	turn := float64(context)*c.Read + float64(c.TurnOutput)*c.Output + float64(c.TurnOutput+c.CallTokens)*stay
	return p * turn, (1 - p) * float64(tokens) * stay
}

// estimateContext returns BaseContext plus what the calls of history added.
func (c *CostModel) estimateContext(history []Call) int {
	n := c.BaseContext
	for i := range history {
		n += tokensOf(&history[i]) + c.CallTokens + c.TurnOutput
	}
	return n
}
