package costsim

import (
	"errors"
	"fmt"
	"time"
)

// A Mode is how a provider decides what part of a request its cache
// serves.
type Mode int

const (
	// Breakpoints is Anthropic's prompt caching: a request writes the
	// prefix up to its cache breakpoint to the cache, and a later request
	// reads the longest whole prefix written earlier that it starts with.
	Breakpoints Mode = iota
	// AutoPrefix is OpenAI's automatic prompt caching: a request reads
	// the longest prefix it shares with any earlier request, rounded down
	// to the cache's increments; there is no write premium.
	AutoPrefix
)

// String returns the mode's name.
func (m Mode) String() string {
	switch m {
	case Breakpoints:
		return "breakpoints"
	case AutoPrefix:
		return "auto-prefix"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Pricing describes one provider's prompt cache and what it charges,
// relative to an uncached input token (1.0).
type Pricing struct {
	Name      string
	Mode      Mode
	Read      float64       // cost of a token read from the cache
	Write     float64       // cost of a token written to the cache (Breakpoints only; AutoPrefix writes for free)
	MinPrefix int           // a request shorter than this is neither cached nor served from the cache
	Increment int           // AutoPrefix: cached prefixes grow past MinPrefix in steps of this many tokens; 0 or 1 for any length
	TTL       time.Duration // an entry not used for this long is gone
}

// AnthropicPricing is Claude's prompt caching with the 5-minute cache:
// reads at 0.1× the input price, writes at 1.25×, a minimum cacheable
// prefix of 1024 tokens (Sonnet and Opus; Haiku's is 2048).
func AnthropicPricing() Pricing {
	return Pricing{Name: "anthropic", Mode: Breakpoints, Read: 0.1, Write: 1.25, MinPrefix: 1024, TTL: 5 * time.Minute}
}

// OpenAIPricing is OpenAI's automatic prompt caching: cached input
// tokens at read times the input price (0.5 for gpt-4o; 0.25 for gpt-4.1,
// 0.1 for gpt-5), prompts of at least 1024 tokens, cache hits in
// 128-token increments, entries kept 5–10 minutes after last use (5
// here).
func OpenAIPricing(read float64) Pricing {
	return Pricing{Name: "openai", Mode: AutoPrefix, Read: read, Write: 1, MinPrefix: 1024, Increment: 128, TTL: 5 * time.Minute}
}

// Validate reports a Pricing that cannot be simulated.
func (p Pricing) Validate() error {
	switch {
	case p.Mode != Breakpoints && p.Mode != AutoPrefix:
		return fmt.Errorf("pricing %s: unknown mode %d", p.Name, int(p.Mode))
	case p.Read < 0 || p.Write < 0:
		return fmt.Errorf("pricing %s: negative price (read %g, write %g)", p.Name, p.Read, p.Write)
	case p.MinPrefix < 0 || p.Increment < 0:
		return fmt.Errorf("pricing %s: negative token count (min prefix %d, increment %d)", p.Name, p.MinPrefix, p.Increment)
	case p.TTL <= 0:
		return errors.New("pricing " + p.Name + ": the TTL must be positive")
	}
	return nil
}
