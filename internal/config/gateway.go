package config

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Defaults of the [gateway] table.
const (
	DefaultDedupWindow   = 5
	DefaultMinDedupChars = 200
	DefaultCallBudget    = 4000
	// DefaultEnrich runs predicted follow-ups ahead of the agent but never changes what it
	// reads: a prefetched result is served exactly as a direct call would be, so a wrong
	// prediction costs an upstream call and no tokens; inline, which appends results the
	// agent did not ask for, is opt-in.
	DefaultEnrich = EnrichPrefetch
	// DefaultTurnBudget is what inline follow-ups may add to one result, in tokens: three
	// typical file reads, half a result's call_budget.
	DefaultTurnBudget = 2000
)

// The values of gateway.enrich.
const (
	EnrichInline   = "inline"   // append the best follow-ups to the result, prefetch the rest
	EnrichPrefetch = "prefetch" // fetch follow-ups into the session cache only
	EnrichOff      = "off"      // no planner: no prefetch, no inline, no fail-fast
)

// Bounds of the [gateway] table.
const (
	maxDedupWindow   = 64
	maxMinDedupChars = 1 << 20
	minCallBudget    = 256
	maxCallBudget    = 1_000_000
	maxClientCap     = 1 << 30
	maxTurnBudget    = 1_000_000
)

// telemetryFile is the name of the telemetry file in the cache directory.
const telemetryFile = "telemetry.jsonl"

// Gateway configures how the MCP gateway shapes tool results on their way to the agent. It
// shapes the results of the user's own upstreams, so it is a user-only setting ([UserOnly]).
type Gateway struct {
	// DedupWindow is the number of recent results per session a new result is compared with;
	// an identical one becomes a one-line reference.
	DedupWindow int `toml:"dedup_window" json:"dedup_window"`
	// MinDedupChars is the length below which a result is never replaced by a reference: a
	// reference would save too little.
	MinDedupChars int `toml:"min_dedup_chars" json:"min_dedup_chars"`
	// CallBudget is the most tokens (o200k) one tool result may take; a longer one is trimmed
	// and the rest is available through the winnow__more tool.
	CallBudget int `toml:"call_budget" json:"call_budget"`
	// ClientCaps sets, by the name an MCP client gives in initialize (clientInfo.name, such
	// as "codex-mcp-client" or "claude-code"), the most bytes of a tool result the client
	// passes to its model whole; a result is trimmed to fit it when that is less than
	// CallBudget. It overrides winnow's table of known clients; 0 says the client does not
	// cut. Example: client_caps = { "codex-mcp-client" = 40000 } for a Codex whose
	// tool_output_token_limit was raised.
	ClientCaps map[string]int `toml:"client_caps" json:"client_caps,omitempty"`
	// Enrich says what the gateway's planner does after each call: "prefetch" (the
	// default) runs the likely follow-up calls of read-only tools in the background and
	// answers the agent's identical call from them; "inline" also appends the best of
	// them to the current result, saving a model turn; "off" turns the planner off,
	// fail-fast answers included.
	Enrich string `toml:"enrich" json:"enrich"`
	// TurnBudget is the most tokens the follow-ups inlined (enrich = "inline") may add to
	// one result; 0 inlines nothing. Prefetches cost no tokens and are bounded in number.
	TurnBudget int `toml:"turn_budget" json:"turn_budget"`
}

// Telemetry configures the local record of what the gateway did to each tool result and
// what the proxy did to each request it could rewrite (no text, no argument values; see
// internal/telemetry), which `winnow stats` reads. Whether and where the user's sessions
// are recorded is a user-only setting ([UserOnly]).
type Telemetry struct {
	// Enabled turns recording on; it is off unless the user asks for it.
	Enabled bool `toml:"enabled" json:"enabled"`
	// Path is the JSONL file; "" means telemetry.jsonl in the cache directory. A leading "~/"
	// is the home directory. See [Config.TelemetryPath].
	Path string `toml:"path" json:"path"`
}

func defaultGateway() Gateway {
	return Gateway{
		DedupWindow:   DefaultDedupWindow,
		MinDedupChars: DefaultMinDedupChars,
		CallBudget:    DefaultCallBudget,
		Enrich:        DefaultEnrich,
		TurnBudget:    DefaultTurnBudget,
	}
}

// validate reports every invalid value of the [gateway] table, in the format of
// [Config.Validate].
func (g Gateway) validate() []error {
	var errs []error
	bad := func(key string, val any, msg string, args ...any) {
		errs = append(errs, fmt.Errorf("gateway.%s = %s: %s", key, tomlValue(val), fmt.Sprintf(msg, args...)))
	}
	if g.DedupWindow < 1 || g.DedupWindow > maxDedupWindow {
		bad("dedup_window", g.DedupWindow, "must be between 1 and %d", maxDedupWindow)
	}
	if g.MinDedupChars < 1 || g.MinDedupChars > maxMinDedupChars {
		bad("min_dedup_chars", g.MinDedupChars, "must be between 1 and %d", maxMinDedupChars)
	}
	if g.CallBudget < minCallBudget || g.CallBudget > maxCallBudget {
		bad("call_budget", g.CallBudget, "must be between %d and %d tokens", minCallBudget, maxCallBudget)
	}
	if g.Enrich != EnrichInline && g.Enrich != EnrichPrefetch && g.Enrich != EnrichOff {
		bad("enrich", g.Enrich, "must be %q, %q or %q", EnrichPrefetch, EnrichInline, EnrichOff)
	}
	if g.TurnBudget < 0 || g.TurnBudget > maxTurnBudget {
		bad("turn_budget", g.TurnBudget, "must be between 0 (inline nothing) and %d tokens", maxTurnBudget)
	}
	for _, name := range slices.Sorted(maps.Keys(g.ClientCaps)) {
		if n := g.ClientCaps[name]; n < 0 || n > maxClientCap {
			bad(fmt.Sprintf("client_caps.%q", name), n, "must be between 0 (no cap) and %d bytes", maxClientCap)
		}
	}
	return errs
}

// validate reports every invalid value of the [telemetry] table, in the format of
// [Config.Validate].
func (t Telemetry) validate() []error {
	if p := t.Path; p != "" && p != "~" && !strings.HasPrefix(p, "~/") && !filepath.IsAbs(p) {
		return []error{fmt.Errorf("telemetry.path = %s: %s", tomlValue(p),
			`must be an absolute path, start with "~/", or be "" for the cache directory`)}
	}
	if t.Path == "~" {
		return []error{fmt.Errorf("telemetry.path = %s: must name a file, not the home directory", tomlValue(t.Path))}
	}
	return nil
}

// TelemetryPath returns the telemetry file: telemetry.path with a leading "~/" expanded, or
// telemetry.jsonl in the cache directory (see [Config.CacheDir]) when it is empty.
func (c *Config) TelemetryPath() (string, error) {
	p := c.Telemetry.Path
	if p == "" {
		dir, err := c.CacheDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(dir, telemetryFile), nil
	}
	if !strings.HasPrefix(p, "~/") {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("expand telemetry.path = %q: %w", p, err)
	}
	return filepath.Join(home, p[2:]), nil
}
