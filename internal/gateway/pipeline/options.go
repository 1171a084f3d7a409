package pipeline

import (
	"log/slog"

	"github.com/winnowhq/winnow/internal/telemetry"
	"github.com/winnowhq/winnow/internal/tokens"
)

// Defaults of [Options].
const (
	DefaultDedupWindow   = 5
	DefaultMinDedupChars = 200
	DefaultCallBudget    = 4000
	DefaultMaxSessions   = 256
	DefaultMaxStoreBytes = 256 << 20
	DefaultMaxRefs       = 1024
)

// Options configures a [Pipeline]. Zero values mean the defaults.
type Options struct {
	// DedupWindow is the number of recent text results per session a new
	// one is compared with; negative turns dedup off.
	DedupWindow int
	// MinDedupChars is the length below which a text is neither replaced
	// by a reference nor remembered: a reference would save too little.
	MinDedupChars int
	// CallBudget is the most tokens one tool result should take; a longer
	// one is trimmed and the rest kept for winnow__more. Negative turns
	// trimming off.
	CallBudget int
	// Invalidates maps a tool (as the agent sees it) to the tools whose
	// cached results a call to it makes stale, as path.Match patterns
	// ("github__get_*"). Such a tool counts as mutating whatever its name.
	Invalidates map[string][]string
	// Counter counts tokens for every decision the stages make; nil means
	// the o200k estimator (tokens.NewEstimator), which is 50 times faster
	// than exact counting and within a few percent on large texts: budgets
	// here are soft targets, and telemetry recounts exactly, off the
	// request path.
	Counter tokens.Counter
	// Telemetry receives one record per result; nil records nothing.
	Telemetry Recorder
	// Logger receives stage failures (never response text or argument
	// values); nil discards them.
	Logger *slog.Logger
	// MaxSessions bounds the sessions whose state is kept; the least
	// recently used is forgotten first.
	MaxSessions int
	// MaxStoreBytes and MaxRefs bound the trimmed responses held for
	// winnow__more across all sessions; the least recently used go first,
	// and a ref that has gone says so when asked for.
	MaxStoreBytes int64
	MaxRefs       int
	// ClientCaps overrides, by the name a client gives in initialize
	// (clientInfo.name), the most bytes of a tool result the client passes
	// to its model whole (clientcap.go lists the known ones); 0 says the
	// client does not cut. A result is trimmed to fit the cap, with a
	// margin, when that is less than CallBudget.
	ClientCaps map[string]int
}

// A Recorder receives what the pipeline did to each result. It must not
// block; *telemetry.Writer is one.
type Recorder interface {
	Record(telemetry.Call)
}

// withDefaults returns o with zero values replaced by the defaults.
func (o Options) withDefaults() Options {
	if o.DedupWindow == 0 {
		o.DedupWindow = DefaultDedupWindow
	}
	if o.MinDedupChars <= 0 {
		o.MinDedupChars = DefaultMinDedupChars
	}
	if o.CallBudget == 0 {
		o.CallBudget = DefaultCallBudget
	}
	if o.Counter == nil {
		o.Counter = tokens.NewEstimator(tokens.O200k)
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.MaxStoreBytes <= 0 {
		o.MaxStoreBytes = DefaultMaxStoreBytes
	}
	if o.MaxRefs <= 0 {
		o.MaxRefs = DefaultMaxRefs
	}
	return o
}
