package claude

import (
	"strings"
	"time"

	"github.com/winnowhq/winnow/internal/compact/costsim"
)

// A thinkingRule is how a model family treats thinking blocks sent back to it.
type thinkingRule int

const (
	// lastTurnOnly: earlier Opus and Sonnet models and Haiku through 4.5. The API strips
	// thinking blocks of earlier turns before the model reads them (and bills none of
	// them); only the current turn's (a tool loop is one turn) are kept.
	lastTurnOnly thinkingRule = iota
	// keepAll: Opus 4.5 to 5, Sonnet 4.6 and 5, Fable 5, Mythos 5. Every thinking block sent
	// back is kept in context and billed; nothing but the latest assistant message is
	// verified.
	keepAll
	// preserved: Fable 5.1 and later, Mythos 5.1 and later, Opus 5.5, Sonnet 5.5, Haiku
	// 5.5. Every block is kept and checked against the prefix it was produced against
	// (system, tools and the messages before it, thinking excluded) and against the
	// thinking block that preceded it (kept blocks must be an unbroken run).
	preserved
)

func (r thinkingRule) String() string {
	switch r {
	case lastTurnOnly:
		return "last-turn-only"
	case keepAll:
		return "keep-all"
	}
	return "preserved"
}

// A family is what the fake knows of a group of models: how it treats thinking and how
// its prompt cache is priced.
type family struct {
	rule      thinkingRule
	cacheRead float64 // price of a cache read, relative to an uncached input token
	minPrefix int     // shortest cacheable prompt, in tokens
}

// families maps model id prefixes to their family; the longest matching prefix wins. It
// is the fake's own table, written from Anthropic's documentation (thinking, preserved
// thinking, context editing and prompt caching pages, November 2026), and deliberately
// independent of winnow's compaction code, whose rules it is there to check. An unknown
// claude-* model is treated as preserved, the strictest rule.
var families = map[string]family{
	// Thinking of earlier turns stripped.
	"claude-3":             {lastTurnOnly, 0.1, 1024},
	"claude-3-5-haiku":     {lastTurnOnly, 0.1, 2048},
	"claude-3-haiku":       {lastTurnOnly, 0.1, 2048},
	"claude-opus-4-1":      {lastTurnOnly, 0.1, 1024},
	"claude-opus-4-2025":   {lastTurnOnly, 0.1, 1024}, // claude-opus-4-20250514
	"claude-sonnet-4-2025": {lastTurnOnly, 0.1, 1024}, // claude-sonnet-4-20250514
	"claude-sonnet-4-5":    {lastTurnOnly, 0.1, 1024},
	"claude-haiku-4-5":     {lastTurnOnly, 0.1, 4096},
	// Thinking kept, not prefix-checked.
	"claude-opus-4-5":       {keepAll, 0.1, 4096},
	"claude-opus-4-6":       {keepAll, 0.1, 4096},
	"claude-opus-4-7":       {keepAll, 0.1, 1024},
	"claude-opus-4-8":       {keepAll, 0.1, 1024},
	"claude-opus-5":         {keepAll, 0.1, 512},
	"claude-sonnet-4-6":     {keepAll, 0.1, 1024},
	"claude-sonnet-5":       {keepAll, 0.1, 1024},
	"claude-fable-5":        {keepAll, 0.1, 1024},
	"claude-mythos-5":       {keepAll, 0.1, 1024},
	"claude-mythos-preview": {keepAll, 0.1, 1024},
	// Preserved thinking: prefix-checked. Haiku 5.5's minimum prefix is not documented;
	// Haiku 4.5's is used.
	"claude-opus-5-5":   {preserved, 0.05, 512},
	"claude-sonnet-5-5": {preserved, 0.1, 1024},
	"claude-haiku-5-5":  {preserved, 0.1, 4096},
	"claude-fable-5-1":  {preserved, 0.025, 512},
	"claude-mythos-5-1": {preserved, 0.025, 512},
	"claude-fable-5-2":  {preserved, 0.025, 512},
	"claude-mythos-5-2": {preserved, 0.025, 512},
	"claude-":           {preserved, 0.1, 1024}, // a newer Claude
	"":                  {preserved, 0.1, 1024}, // not a Claude id at all
}

// familyOf returns the family of a model id; Bedrock and Vertex spellings
// (anthropic.claude-…-v1:0, claude-…@date) are reduced to the API's.
func familyOf(model string) family {
	m := strings.TrimPrefix(model, "anthropic.")
	if i := strings.IndexAny(m, "@:"); i >= 0 {
		m = m[:i]
	}
	best, bestLen := families[""], -1
	for prefix, f := range families {
		if strings.HasPrefix(m, prefix) && len(prefix) > bestLen {
			best, bestLen = f, len(prefix)
		}
	}
	return best
}

// pricing is the family's prompt cache under costsim: 5-minute writes at 1.25×, reads at
// the family's price, one breakpoint at the end of each request (Claude Code's layout).
func (f family) pricing() costsim.Pricing {
	return costsim.Pricing{Name: "anthropic", Mode: costsim.Breakpoints, Read: f.cacheRead, Write: 1.25, MinPrefix: f.minPrefix, TTL: 5 * time.Minute}
}
