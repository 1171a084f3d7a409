package telemetry

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// A ProxySummary aggregates the proxy's events: how many requests it could
// rewrite, their tokens before and after, what each compaction pass and
// the API's own context edits saved, what the upstreams billed, and what
// that saved in dollars, per model and per client.
//
// Dollars are estimates at list prices (see PriceOf), cache-aware: the
// tokens compaction removed from a request are priced at the blended rate
// the request's own input was billed at (its mix of full-price, cache-write
// and cache-read tokens), after scaling them from o200k to the upstream's
// tokens by the ratio of its billed input to the proxy's count. The same
// rate prices the input tokens a server-side edit cleared, which the API
// counts itself. Requests to a model with no price are counted apart, never
// guessed.
type ProxySummary struct {
	First time.Time `json:"first,omitzero"`
	Last  time.Time `json:"last,omitzero"`

	Requests      int `json:"requests"`
	Conversations int `json:"conversations"`
	// Changed counts requests whose body the proxy replaced; Bypassed
	// those it forwarded untouched without a rewrite, by Reasons.
	Changed  int            `json:"changed"`
	Bypassed int            `json:"bypassed"`
	Reasons  map[string]int `json:"bypass_reasons,omitempty"`
	// Tokens are the rewriter's o200k counts of the requests it counted.
	Tokens Tokens `json:"tokens"`
	// Passes splits the tokens saved by compaction pass, most saved first.
	Passes []PassSummary `json:"passes"`
	// ServerEdits sums the context edits the API applied.
	ServerEdits ServerEditSummary `json:"server_edits"`
	// WithUsage counts requests whose response reported usage; Usage sums it.
	WithUsage int   `json:"with_usage"`
	Usage     Usage `json:"usage"`
	// Cost covers the requests with usage and a priced model.
	Cost Cost `json:"cost"`
	// Unpriced counts the requests with usage whose model has no price, and
	// UnpricedModels names those models.
	Unpriced       int      `json:"unpriced"`
	UnpricedModels []string `json:"unpriced_models,omitempty"`
	// Models and Clients split the traffic, most tokens saved first.
	Models  []GroupSummary `json:"models"`
	Clients []GroupSummary `json:"clients"`

	conversations map[string]bool
	passes        map[string]*PassSummary
	models        map[string]*GroupSummary
	clients       map[string]*GroupSummary
	unpriced      map[string]bool
}

// Tokens are the rewriter's counts (o200k) before and after, over the
// requests it counted. Ratio is After/Before.
type Tokens struct {
	Before int     `json:"before"`
	After  int     `json:"after"`
	Saved  int     `json:"saved"`
	Ratio  float64 `json:"ratio"`
}

// Cost is in US dollars at list prices: what the upstream billed, and the
// estimated saving of compaction and of server-side edits.
type Cost struct {
	Billed           float64 `json:"billed_usd"`
	SavedCompaction  float64 `json:"saved_compaction_usd"`
	SavedServerEdits float64 `json:"saved_server_edits_usd"`
}

func (c *Cost) add(o Cost) {
	c.Billed += o.Billed
	c.SavedCompaction += o.SavedCompaction
	c.SavedServerEdits += o.SavedServerEdits
}

// PassSummary is what one compaction pass did over a period: the requests
// it changed, the parts, the o200k tokens it saved and their share of the
// compaction's dollar saving.
type PassSummary struct {
	Pass     string  `json:"pass"`
	Requests int     `json:"requests"`
	Changed  int     `json:"changed"`
	Tokens   int     `json:"tokens_saved"`
	SavedUSD float64 `json:"saved_usd"`
}

// ServerEditSummary is what the API's own context edits did: the requests
// that asked for one, the edits applied, and what they cleared, in the
// API's tokens.
type ServerEditSummary struct {
	Requested          int     `json:"requested"`
	Applied            int     `json:"applied"`
	ClearedToolUses    int     `json:"cleared_tool_uses"`
	ClearedInputTokens int     `json:"cleared_input_tokens"`
	SavedUSD           float64 `json:"saved_usd"`
}

// GroupSummary is the traffic of one model or client.
type GroupSummary struct {
	Name     string `json:"name"`
	Requests int    `json:"requests"`
	Tokens   Tokens `json:"tokens"`
	// WithUsage counts its requests whose response reported usage.
	WithUsage int   `json:"with_usage"`
	Usage     Usage `json:"usage"`
	Cost      Cost  `json:"cost"`
	// Unpriced counts its requests with usage but no price.
	Unpriced int `json:"unpriced"`
}

func newProxySummary() *ProxySummary {
	return &ProxySummary{
		Reasons: map[string]int{}, conversations: map[string]bool{}, passes: map[string]*PassSummary{},
		models: map[string]*GroupSummary{}, clients: map[string]*GroupSummary{}, unpriced: map[string]bool{},
	}
}

// add counts ev.
func (s *ProxySummary) add(ev ProxyEvent) {
	widen(&s.First, &s.Last, ev.Time)
	s.Requests++
	if ev.Conversation != "" {
		s.conversations[ev.Conversation] = true
	}
	switch ev.Rewrite {
	case "changed":
		s.Changed++
	case "bypassed":
		s.Bypassed++
		s.Reasons[ev.Reason]++
	}
	s.Tokens.Before += ev.TokensBefore
	s.Tokens.After += ev.TokensAfter
	if ev.EditRequested {
		s.ServerEdits.Requested++
	}
	for _, e := range ev.ServerEdits {
		s.ServerEdits.Applied++
		s.ServerEdits.ClearedToolUses += e.ClearedToolUses
		s.ServerEdits.ClearedInputTokens += e.ClearedInputTokens
	}
	cost, priced := proxyCost(ev)
	s.ServerEdits.SavedUSD += cost.SavedServerEdits
	s.addPasses(ev, cost.SavedCompaction)
	if ev.Usage != nil {
		s.WithUsage++
		s.Usage.add(*ev.Usage)
		if priced {
			s.Cost.add(cost)
		} else {
			s.Unpriced++
			s.unpriced[cmp.Or(ev.Model, "(none)")] = true
		}
	}
	group(s.models, cmp.Or(ev.Model, "(none)")).add(ev, cost, priced)
	group(s.clients, cmp.Or(ev.Client, "other")).add(ev, cost, priced)
}

// addPasses counts ev's passes, sharing out saved, the compaction's dollar
// saving on ev, in proportion to the tokens each pass saved.
func (s *ProxySummary) addPasses(ev ProxyEvent, saved float64) {
	total := 0
	for _, p := range ev.Passes {
		total += max(p.Before-p.After, 0)
	}
	for _, p := range ev.Passes {
		ps := s.passes[p.Pass]
		if ps == nil {
			ps = &PassSummary{Pass: p.Pass}
			s.passes[p.Pass] = ps
		}
		ps.Requests++
		ps.Changed += p.Changed
		ps.Tokens += p.Before - p.After
		if total > 0 {
			ps.SavedUSD += saved * float64(max(p.Before-p.After, 0)) / float64(total)
		}
	}
}

// CostOf prices one proxy event as a ProxySummary does: what its upstream
// billed, and what compaction and server-side edits saved on it. priced is
// false when ev reported usage but its model has no list price. It lets a
// caller split the summary's dollars by time or by conversation.
func CostOf(ev ProxyEvent) (c Cost, priced bool) { return proxyCost(ev) }

// proxyCost prices ev: what its upstream billed, and what compaction and
// server-side edits saved (see ProxySummary). priced is false when ev has
// usage but its model no price.
func proxyCost(ev ProxyEvent) (c Cost, priced bool) {
	if ev.Usage == nil {
		return Cost{}, true
	}
	p, ok := PriceOf(ev.Model)
	if !ok {
		return Cost{}, false
	}
	u := *ev.Usage
	c.Billed = p.cost(u)
	rate := p.promptRate(u)
	if ev.Rewrite == "changed" && ev.TokensAfter > 0 && ev.TokensBefore > ev.TokensAfter {
		removed := float64(u.Prompt()) * float64(ev.TokensBefore-ev.TokensAfter) / float64(ev.TokensAfter)
		c.SavedCompaction = removed * rate
	}
	for _, e := range ev.ServerEdits {
		c.SavedServerEdits += float64(e.ClearedInputTokens) * rate
	}
	return c, true
}

func (u *Usage) add(o Usage) {
	u.Input += o.Input
	u.CacheWrite += o.CacheWrite
	u.CacheRead += o.CacheRead
	u.Output += o.Output
}

func group(m map[string]*GroupSummary, name string) *GroupSummary {
	g := m[name]
	if g == nil {
		g = &GroupSummary{Name: name}
		m[name] = g
	}
	return g
}

func (g *GroupSummary) add(ev ProxyEvent, c Cost, priced bool) {
	g.Requests++
	g.Tokens.Before += ev.TokensBefore
	g.Tokens.After += ev.TokensAfter
	if ev.Usage == nil {
		return
	}
	g.WithUsage++
	g.Usage.add(*ev.Usage)
	if priced {
		g.Cost.add(c)
	} else {
		g.Unpriced++
	}
}

// finish computes what depends on all events.
func (s *ProxySummary) finish() {
	s.Conversations = len(s.conversations)
	s.Tokens.finish()
	s.Passes = s.Passes[:0]
	for _, p := range s.passes {
		s.Passes = append(s.Passes, *p)
	}
	slices.SortFunc(s.Passes, func(a, b PassSummary) int {
		return cmp.Or(cmp.Compare(b.Tokens, a.Tokens), cmp.Compare(a.Pass, b.Pass))
	})
	s.Models, s.Clients = sortedGroups(s.models), sortedGroups(s.clients)
	s.UnpricedModels = s.UnpricedModels[:0]
	for m := range s.unpriced {
		s.UnpricedModels = append(s.UnpricedModels, m)
	}
	slices.Sort(s.UnpricedModels)
}

func (t *Tokens) finish() {
	t.Saved = t.Before - t.After
	t.Ratio = 0
	if t.Before > 0 {
		t.Ratio = float64(t.After) / float64(t.Before)
	}
}

func sortedGroups(m map[string]*GroupSummary) []GroupSummary {
	out := make([]GroupSummary, 0, len(m))
	for _, g := range m {
		g.Tokens.finish()
		out = append(out, *g)
	}
	slices.SortFunc(out, func(a, b GroupSummary) int {
		return cmp.Or(cmp.Compare(b.Tokens.Saved, a.Tokens.Saved), cmp.Compare(b.Requests, a.Requests), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// maxGroupLines bounds the per-model and per-client lines WriteText prints.
const maxGroupLines = 10

// writeText writes s as a short report for people.
func (s *ProxySummary) writeText(b *strings.Builder) {
	fmt.Fprintf(b, "proxy: %d requests in %d conversations from %s to %s; %d rewritten, %d forwarded as sent%s\n",
		s.Requests, s.Conversations, s.First.Local().Format(time.DateTime), s.Last.Local().Format(time.DateTime),
		s.Changed, s.Bypassed, reasons(s.Reasons))
	fmt.Fprintf(b, "tokens the proxy counted (o200k):\n")
	fmt.Fprintf(b, "  before   %10d\n", s.Tokens.Before)
	fmt.Fprintf(b, "  after    %10d (ratio %.3f)\n", s.Tokens.After, s.Tokens.Ratio)
	fmt.Fprintf(b, "  saved    %10d (%s)\n", s.Tokens.Saved, pct(s.Tokens.Saved, s.Tokens.Before))
	for _, p := range s.Passes {
		fmt.Fprintf(b, "    %-12s %10d  %d requests, %d parts%s\n", p.Pass, p.Tokens, p.Requests, p.Changed, usdNote(p.SavedUSD, "; ≈ ", " saved"))
	}
	e := s.ServerEdits
	fmt.Fprintf(b, "server-side edits: %d requested, %d applied, %d tool uses and %d input tokens cleared (the API's count)%s\n",
		e.Requested, e.Applied, e.ClearedToolUses, e.ClearedInputTokens, usdNote(e.SavedUSD, ", ≈ ", " saved"))
	u := s.Usage
	fmt.Fprintf(b, "billed by the upstreams (%d responses with usage): input %d, cache write %d, cache read %d, output %d tokens\n",
		s.WithUsage, u.Input, u.CacheWrite, u.CacheRead, u.Output)
	fmt.Fprintf(b, "cost at list prices: %s billed, ≈ %s saved by compaction, ≈ %s by server-side edits",
		usd(s.Cost.Billed), usd(s.Cost.SavedCompaction), usd(s.Cost.SavedServerEdits))
	if total := s.Cost.Billed + s.Cost.SavedCompaction + s.Cost.SavedServerEdits; total > 0 {
		fmt.Fprintf(b, " (%.1f%% of what it would have cost)", 100*(s.Cost.SavedCompaction+s.Cost.SavedServerEdits)/total)
	}
	b.WriteString("\n")
	if s.Unpriced > 0 {
		fmt.Fprintf(b, "unpriced: %d requests to models with no list price here (%s)\n", s.Unpriced, strings.Join(s.UnpricedModels, ", "))
	}
	writeGroups(b, "by model", s.Models)
	writeGroups(b, "by client", s.Clients)
}

func writeGroups(b *strings.Builder, title string, gs []GroupSummary) {
	shown := gs[:min(len(gs), maxGroupLines)]
	width := 0
	for _, g := range shown {
		width = max(width, len(g.Name))
	}
	fmt.Fprintf(b, "%s (most saved first):\n", title)
	for _, g := range shown {
		saved := usd(g.Cost.SavedCompaction + g.Cost.SavedServerEdits)
		var cost string
		switch {
		case g.WithUsage == 0:
			cost = "no usage reported"
		case g.Unpriced == g.WithUsage:
			cost = "unpriced"
		case g.Unpriced > 0:
			cost = fmt.Sprintf("%s billed, ≈ %s saved; %d unpriced", usd(g.Cost.Billed), saved, g.Unpriced)
		default:
			cost = fmt.Sprintf("%s billed, ≈ %s saved", usd(g.Cost.Billed), saved)
		}
		fmt.Fprintf(b, "  %-*s %6d requests %10d → %10d tokens (%s)  %s\n",
			width, g.Name, g.Requests, g.Tokens.Before, g.Tokens.After, pct(g.Tokens.Saved, g.Tokens.Before), cost)
	}
	if n := len(gs) - len(shown); n > 0 {
		fmt.Fprintf(b, "  … and %d more (--json lists all)\n", n)
	}
}

func reasons(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", cmp.Or(k, "?"), m[k])
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// usd formats dollars with four decimals, enough for a single request.
func usd(x float64) string { return fmt.Sprintf("$%.4f", x) }

// usdNote is prefix+usd(x)+suffix, or "" when x is zero.
func usdNote(x float64, prefix, suffix string) string {
	if x == 0 {
		return ""
	}
	return prefix + usd(x) + suffix
}
