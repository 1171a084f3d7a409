package compact

import "slices"

// Defaults of Options. Token amounts are estimates (tokens.Estimator,
// o200k): the horizon must be a deterministic function of the history,
// not an exact count.
const (
	// DefaultKeep tool outputs, the most recent, are never rewritten.
	DefaultKeep = 2
	// DefaultTrigger: no batch fires while the request, as compacted so
	// far, is estimated below this many tokens. A short conversation is
	// cheap to resend from the cache; rewriting it is not worth a miss.
	DefaultTrigger = 2_000
	// DefaultMinBatch: a batch fires only when it can reclaim at least this
	// many tokens of stale tool output at once.
	DefaultMinBatch = 1_500
	// DefaultPayback: a batch fires only when it reclaims at least this
	// many times the tokens it makes the provider write to the cache
	// again. A write costs 1.25× and a read 0.1× an uncached token at
	// Anthropic, so a batch that reclaims R tokens and rewrites W pays
	// 1.15·W once and saves 0.1·R on every later request: at R = 3W it
	// has paid for itself after four requests. This is what keeps batches
	// rare and large (see the package documentation for the measurements).
	DefaultPayback = 3.0
	// DefaultClearMin: outputs smaller than this are not cleared; the
	// placeholder would save too little.
	DefaultClearMin = 120
	// DefaultSnipMin: outputs smaller than this are not snipped.
	DefaultSnipMin = 400
	// DefaultSnipHead and DefaultSnipTail lines survive a snip.
	DefaultSnipHead = 12
	DefaultSnipTail = 8
	// DefaultSnipLineBytes caps each kept line of a snipped output.
	DefaultSnipLineBytes = 300
	// DefaultDedupMin: identical outputs smaller than this are left alone.
	DefaultDedupMin = 40
	// DefaultArgsMin: tool-call string arguments shorter than this many
	// bytes are never collapsed.
	DefaultArgsMin = 600
	// DefaultHardLimit: when a request is estimated above this many tokens
	// even after clearing, trim-middle drops old tool calls. Claude's and
	// GPT-4o's windows are 200k and 128k tokens; this leaves room for
	// estimation error and the answer.
	DefaultHardLimit = 110_000
	// DefaultSink leading messages (the system prompt, the task) are never
	// dropped by trim-middle: models attend to the start of the context.
	DefaultSink = 4
)

// Options are the knobs of a Compactor. The zero value means every
// default; a field left zero takes its default.
type Options struct {
	// Keep is the number of most recent tool outputs that are never
	// rewritten; the horizon stops before the call of the oldest of them.
	// Default DefaultKeep.
	Keep int
	// Trigger is the estimated size, in tokens, a request must reach (as
	// compacted by earlier batches) before a batch may fire. Default
	// DefaultTrigger.
	Trigger int
	// MinBatch is the estimated number of tokens a batch must reclaim from
	// stale tool outputs for it to fire. Default DefaultMinBatch.
	MinBatch int
	// Payback is how many times the tokens a batch makes the provider
	// write again (the stale messages it rewrites and everything after
	// them) it must reclaim to fire; negative drops the condition.
	// Default DefaultPayback.
	Payback float64
	// SnipFirst is the number of batches a stale output spends snipped
	// (head and tail kept) before it is cleared, when both passes run.
	// The default, 0, clears it in the batch that makes it stale: on the
	// benchmark, snipping for one batch keeps more of what the model saw
	// last, and sends 0.55× the tokens at 0.80× the cost instead of 0.53×
	// at 0.77×.
	SnipFirst int
	// ClearMin is the estimated size, in tokens, below which an output is
	// not cleared. Default DefaultClearMin.
	ClearMin int
	// SnipMin is the estimated size, in tokens, below which an output is
	// not snipped; SnipHead and SnipTail are the lines kept at either end,
	// each cut to SnipLineBytes. Defaults DefaultSnipMin, DefaultSnipHead,
	// DefaultSnipTail, DefaultSnipLineBytes.
	SnipMin, SnipHead, SnipTail, SnipLineBytes int
	// DedupMin is the estimated size, in tokens, below which a repeated
	// output is left alone. Default DefaultDedupMin.
	DedupMin int
	// ArgsMin is the length, in bytes, below which a string argument of a
	// tool call is never collapsed. Default DefaultArgsMin.
	ArgsMin int
	// HardLimit is the estimated request size, in tokens, above which
	// trim-middle drops old tool calls and their results; negative never
	// trims. Default DefaultHardLimit.
	HardLimit int
	// Sink is the number of leading messages trim-middle never drops.
	// Default DefaultSink.
	Sink int
	// ExcludeTools names tools whose outputs are never deduplicated,
	// snipped or cleared (for a text-form agent, the command's first word
	// or the <function=NAME> name).
	ExcludeTools []string
	// ServerEdits lets a request to a model that binds thinking to its
	// prefix (Family Preserved) be compacted by the API's own
	// clear_tool_uses edit instead of client-side passes, which could not
	// touch the active tool loop at all (see server.go). Only for
	// upstreams that accept the context-management beta: the Anthropic
	// API, Bedrock and Vertex do; a gateway may not.
	ServerEdits bool
	// NoTextForm turns off the text form: in a conversation without tool
	// calls, a user message that answers an assistant's command block
	// (SWE-agent and SWE-smith agents) is treated as a tool output. See
	// the package documentation.
	NoTextForm bool
}

// withDefaults returns o with every zero field set to its default.
func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&o.Keep, DefaultKeep)
	if o.Payback == 0 {
		o.Payback = DefaultPayback
	}
	def(&o.Trigger, DefaultTrigger)
	def(&o.MinBatch, DefaultMinBatch)
	def(&o.ClearMin, DefaultClearMin)
	def(&o.SnipMin, DefaultSnipMin)
	def(&o.SnipHead, DefaultSnipHead)
	def(&o.SnipTail, DefaultSnipTail)
	def(&o.SnipLineBytes, DefaultSnipLineBytes)
	def(&o.DedupMin, DefaultDedupMin)
	def(&o.ArgsMin, DefaultArgsMin)
	def(&o.HardLimit, DefaultHardLimit)
	def(&o.Sink, DefaultSink)
	o.Keep = max(o.Keep, 1)
	o.SnipFirst = max(o.SnipFirst, 0)
	o.SnipHead, o.SnipTail = max(o.SnipHead, 0), max(o.SnipTail, 0)
	o.SnipLineBytes = max(o.SnipLineBytes, 16)
	o.Sink = max(o.Sink, 0)
	o.ExcludeTools = slices.Clone(o.ExcludeTools)
	return o
}

// excluded reports whether tool's outputs are exempt from compaction.
func (o *Options) excluded(tool string) bool {
	return tool != "" && slices.Contains(o.ExcludeTools, tool)
}
