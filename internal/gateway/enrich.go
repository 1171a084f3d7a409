package gateway

import (
	"context"
	"encoding/json"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/config"
	"github.com/winnowhq/winnow/internal/gateway/pipeline"
	"github.com/winnowhq/winnow/internal/planner"
	"github.com/winnowhq/winnow/internal/telemetry"
	"github.com/winnowhq/winnow/internal/tokens"
	"github.com/winnowhq/winnow/internal/toolvalue"
)

// Defaults of Enrich.
const (
	DefaultTurnBudget      = config.DefaultTurnBudget
	DefaultMaxPrefetch     = 3 // devboy's parallel prefetches
	DefaultHostConcurrency = 2
	DefaultInlineWait      = time.Second
	DefaultCacheBytes      = 8 << 20
	DefaultCacheEntries    = 64
	// DefaultMaxAge bounds how long a prefetched result waits for the agent's call even
	// when its tool's freshness_ttl is 0 ("until invalidated"): the planner predicts the
	// next few calls, and a result not asked for within minutes was a wrong guess that
	// would only grow stale.
	DefaultMaxAge  = 2 * time.Minute
	DefaultHistory = 8
)

// Limits on what a session remembers of its calls for the planner.
const (
	maxHistoryText = 256 << 10 // bytes of one result's text kept for projections
	maxIntentWords = 32
	maxWordLength  = 48
)

// Enrich configures the planner in the gateway (see the package documentation,
// "Enrichment"). Zero fields mean their defaults.
type Enrich struct {
	// Mode is config.EnrichPrefetch or config.EnrichInline; anything else turns the
	// planner off (Options.Enrich nil does too).
	Mode string
	// Tools holds the tools' value models; the gateway adds each upstream tool's
	// annotations as its tool list arrives. Nil: the built-in models alone.
	Tools *toolvalue.Registry
	// Planner chooses the follow-ups after each call; nil: a planner.Planner reading
	// Tools.
	Planner Planner
	// TurnBudget is the most tokens inline follow-ups may add to one result (in inline
	// mode); negative inlines nothing.
	TurnBudget int
	// MaxPrefetch is the most follow-ups one plan may run in the background, and the most
	// follow-up calls of one session in flight at once.
	MaxPrefetch int
	// HostConcurrency is the most follow-up calls in flight to one host (a tool's
	// rate_limit_host, else its upstream: a stdio upstream is one host, an HTTP one is its
	// URL's host), across sessions.
	HostConcurrency int
	// InlineWait is how long a result waits for its inline follow-ups; those that do not
	// finish by then land in the session cache instead.
	InlineWait time.Duration
	// CacheBytes and CacheEntries bound each session's cache of results run ahead; the
	// oldest go first.
	CacheBytes   int
	CacheEntries int
	// MaxAge bounds how long a result run ahead is kept for the agent's call, whatever
	// its tool's freshness_ttl.
	MaxAge time.Duration
	// History is how many recent calls of a session the planner sees.
	History int
}

// A Planner chooses the follow-up calls to make after a call: *planner.Planner.
type Planner interface {
	Plan(history []planner.Call, intent []string, b planner.Budget) []planner.Candidate
}

func (o *Enrich) withDefaults() Enrich {
	d := *o
	if d.Tools == nil {
		d.Tools = toolvalue.NewRegistry(toolvalue.Builtin())
	}
	if d.Planner == nil {
		d.Planner = &planner.Planner{Models: d.Tools.Model}
	}
	if d.TurnBudget == 0 {
		d.TurnBudget = DefaultTurnBudget
	}
	if d.MaxPrefetch <= 0 {
		d.MaxPrefetch = DefaultMaxPrefetch
	}
	if d.HostConcurrency <= 0 {
		d.HostConcurrency = DefaultHostConcurrency
	}
	if d.InlineWait <= 0 {
		d.InlineWait = DefaultInlineWait
	}
	if d.CacheBytes <= 0 {
		d.CacheBytes = DefaultCacheBytes
	}
	if d.CacheEntries <= 0 {
		d.CacheEntries = DefaultCacheEntries
	}
	if d.MaxAge <= 0 {
		d.MaxAge = DefaultMaxAge
	}
	if d.History <= 0 {
		d.History = DefaultHistory
	}
	return d
}

// An enricher is the planner in the gateway: per agent session, the recent calls, the
// results run ahead and the fail-fast streaks.
type enricher struct {
	g      *Gateway
	o      Enrich
	inline bool
	count  tokens.Counter

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*enrichSession
	hosts    map[string]chan struct{} // a slot per follow-up call in flight to the host
	tools    map[*upstream]map[string]*mcp.ToolAnnotations
	unsafe   map[string]bool // tools whose annotations forbid running them ahead
	changed  chan struct{}   // closed and replaced when a follow-up is sent or lands, or a session ends

	stats enrichStats
}

// changes returns a channel closed at the next change of the planner's state: a follow-up
// sent or landed, a session ended.
func (e *enricher) changes() <-chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.changed
}

func (e *enricher) notify() {
	e.mu.Lock()
	defer e.mu.Unlock()
	close(e.changed)
	e.changed = make(chan struct{})
}

// newEnricher returns the planner of g, or nil when o turns it off.
func newEnricher(g *Gateway, o *Enrich) *enricher {
	if o == nil || (o.Mode != config.EnrichPrefetch && o.Mode != config.EnrichInline) {
		return nil
	}
	return &enricher{
		g:        g,
		o:        o.withDefaults(),
		inline:   o.Mode == config.EnrichInline,
		count:    tokens.NewEstimator(tokens.O200k),
		sessions: make(map[*mcp.ServerSession]*enrichSession),
		hosts:    make(map[string]chan struct{}),
		tools:    make(map[*upstream]map[string]*mcp.ToolAnnotations),
		unsafe:   make(map[string]bool),
		changed:  make(chan struct{}),
	}
}

// setTools records the annotations of the tools u re-exports (by agent-visible name) in
// the registry, forgetting those of tools it no longer has.
func (e *enricher) setTools(u *upstream, defs map[string]*mcp.Tool) {
	if e == nil {
		return
	}
	e.mu.Lock()
	old := e.tools[u]
	now := make(map[string]*mcp.ToolAnnotations, len(defs))
	var changed []string
	for name, t := range defs {
		now[name] = t.Annotations
		if prev, ok := old[name]; !ok || !sameAnnotations(prev, t.Annotations) {
			changed = append(changed, name)
		}
		e.unsafe[name] = destructive(t.Annotations)
	}
	var gone []string
	for name := range old {
		if _, ok := now[name]; !ok {
			gone = append(gone, name)
			delete(e.unsafe, name)
		}
	}
	e.tools[u] = now
	e.mu.Unlock()
	for _, name := range changed {
		e.o.Tools.SetAnnotations(name, toolvalue.FromAnnotations(name, now[name]))
	}
	for _, name := range gone {
		e.o.Tools.SetAnnotations(name, nil)
	}
}

// destructive reports whether a tool's annotations forbid running it ahead of the agent,
// whatever its value model says: it may be destructive (destructiveHint, true by default
// unless the tool is read-only) or it is not read-only.
func destructive(a *mcp.ToolAnnotations) bool {
	if a == nil {
		return false
	}
	return !a.ReadOnlyHint || (a.DestructiveHint != nil && *a.DestructiveHint)
}

func sameAnnotations(a, b *mcp.ToolAnnotations) bool {
	if a == nil || b == nil {
		return a == b
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// speculable reports whether tool may run before the agent asks for it: its model says
// so and its annotations do not forbid it. The planner checks the model too; the gateway
// does not rely on it.
func (e *enricher) speculable(tool string, m *toolvalue.Model) bool {
	if !m.Speculable() {
		return false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return !e.unsafe[tool]
}

// session returns the state of the agent's session ss, creating it (and the watcher that
// ends it with the session) at its first call. It returns nil once the gateway is
// closing.
func (e *enricher) session(ss *mcp.ServerSession) *enrichSession {
	e.mu.Lock()
	defer e.mu.Unlock()
	if s := e.sessions[ss]; s != nil {
		return s
	}
	if e.g.ctx.Err() != nil {
		return nil
	}
	s := newEnrichSession(e.g.ctx)
	e.sessions[ss] = s
	if ss != nil {
		// The watcher ends when the agent's session does; the SDK has no hook for it.
		go func() {
			ss.Wait()
			e.endSession(ss)
		}()
	}
	return s
}

// endSession cancels what the session has in flight and forgets it.
func (e *enricher) endSession(ss *mcp.ServerSession) {
	e.mu.Lock()
	s := e.sessions[ss]
	delete(e.sessions, ss)
	e.mu.Unlock()
	if s != nil {
		s.end()
		e.notify()
	}
}

// An enrichCall is the planner's part in one call of the agent.
type enrichCall struct {
	e     *enricher
	s     *enrichSession
	u     *upstream
	call  *Call
	args  map[string]any
	key   string
	model toolvalue.Model
	rule  staleRule // what the call makes stale; nil if nothing

	sent            time.Time // when the call went to the upstream
	served          string    // telemetry.Served* when the upstream was not asked
	predicted       int
	upstreamLatency time.Duration
	replaced        []string // for a fail-fast answer, the results it stands for
	plans           []telemetry.Candidate
	blocks          []string // inline follow-ups, delimited
}

// begin starts the planner's part in a call of u about to be dispatched: the results run
// ahead that the call makes stale are dropped. It returns nil when the planner is off.
func (e *enricher) begin(u *upstream, ss *mcp.ServerSession, call *Call) *enrichCall {
	if e == nil {
		return nil
	}
	s := e.session(ss)
	if s == nil {
		return nil
	}
	ec := &enrichCall{e: e, s: s, u: u, call: call, model: e.o.Tools.Model(call.Tool)}
	if len(call.Args) > 0 {
		json.Unmarshal(call.Args, &ec.args) // arguments that are not an object have no key of their own
	}
	ec.key = planner.Key(call.Tool, ec.args)
	ec.predicted = ec.model.Cost.TypicalTokens
	ec.rule = e.staleRule(call, &ec.model)
	if ec.rule != nil {
		s.invalidate(ec.rule)
	}
	return ec
}

// answer returns the result that answers the call without the upstream, or nil: a
// fail-fast answer, or a result run ahead (waiting for it if it is in flight).
func (ec *enrichCall) answer(ctx context.Context) *mcp.CallToolResult {
	if ec == nil {
		return nil
	}
	if res := ec.failFast(); res != nil {
		return res
	}
	if f := ec.s.take(ctx, ec.key, ec.u.cfg.CallTimeout()); f != nil {
		ec.served, ec.predicted, ec.upstreamLatency = f.source, f.predicted, f.latency
		ec.e.stats.served.Add(1)
		ec.u.gw.noteLinks(ec.u, f.res.Content)
		return f.res
	}
	ec.sent = time.Now()
	return nil
}

// deliver shapes res, the result of the call (from the upstream, or answer's), for the
// agent: it is remembered for the planner, the planner runs (in inline mode the best
// follow-ups are appended to the result), and the telemetry record says what the planner
// did.
func (ec *enrichCall) deliver(ctx context.Context, shaper Shaper, res *mcp.CallToolResult) *mcp.CallToolResult {
	if !ec.sent.IsZero() {
		ec.upstreamLatency = time.Since(ec.sent)
	}
	if ec.served != telemetry.ServedFailFast {
		ec.s.remember(ec.historyCall(res), ec.e.o.History)
		ec.observe(res)
		ec.plan(ctx, res)
	}
	ec.call.Annotate = ec.annotate
	out := shaper.After(ctx, ec.call, res)
	if out == nil {
		out = res
	}
	return appendInline(out, ec.blocks)
}

// end finishes the planner's part in the call, whatever its outcome: a call that makes
// results stale drops them again, since a follow-up may have started while it ran.
func (ec *enrichCall) end() {
	if ec == nil {
		return
	}
	if ec.rule != nil {
		ec.s.invalidate(ec.rule)
	}
}

// annotate completes the call's telemetry record.
func (ec *enrichCall) annotate(c *telemetry.Call) {
	c.Served, c.Key, c.PredictedTokens, c.UpstreamLatency = ec.served, ec.key, ec.predicted, ec.upstreamLatency
	c.Plans = ec.plans
	if ec.served == telemetry.ServedFailFast {
		c.Upstream = ec.replaced
	}
	for _, b := range ec.blocks {
		c.Steps = append(c.Steps, telemetry.Step{Layer: telemetry.LayerInline, After: b})
		c.Delivered = append(c.Delivered, b)
	}
}

// historyCall is the call as the planner sees it.
func (ec *enrichCall) historyCall(res *mcp.CallToolResult) planner.Call {
	txt := resultText(res)
	pc := planner.Call{Tool: ec.call.Tool, Args: ec.args, Structured: res.StructuredContent, Error: res.IsError}
	pc.Tokens = ec.e.count.Count(txt)
	if len(txt) > maxHistoryText {
		// Projections read paths from the head of a long text; a structured content that
		// large is not kept for them.
		txt, pc.Structured = txt[:maxHistoryText], nil
	}
	pc.Text = txt
	return pc
}

// plan asks the planner for the follow-ups of the call and runs those it admits: inline
// ones are waited for (at most InlineWait) and become blocks appended to the result; the
// rest run in the background into the session cache.
func (ec *enrichCall) plan(ctx context.Context, res *mcp.CallToolResult) {
	e := ec.e
	history, intent := ec.s.recent()
	b := planner.Budget{MaxPrefetch: e.o.MaxPrefetch}
	canInline := e.inline && inlinable(res)
	if canInline {
		b.Tokens = max(e.o.TurnBudget, 0)
	}
	cands := e.o.Planner.Plan(history, intent, b)
	var inline []*fetch
	var inlinePlans []int  // their entries in ec.plans
	var approximate []bool // whether their arguments are a guess (a window around a hit)
	for i := range cands {
		c := &cands[i]
		dec, reason := c.Decision, c.Reason
		if dec == planner.Inline && !canInline {
			dec = planner.Prefetch
		}
		key := planner.Key(c.Tool, c.Args)
		if dec != planner.Declined {
			f, why := ec.launch(c, key)
			switch {
			case why != "":
				dec, reason = planner.Declined, why
			case dec == planner.Inline:
				inline = append(inline, f)
				inlinePlans = append(inlinePlans, len(ec.plans))
				approximate = append(approximate, c.Approximate)
			}
		}
		args, _ := json.Marshal(c.Args)
		ec.plans = append(ec.plans, telemetry.Candidate{
			Tool: c.Tool, Args: args, Key: key, Decision: string(dec), Reason: reason, PredictedTokens: c.Tokens,
		})
	}
	if len(inline) == 0 {
		return
	}
	var why []string
	ec.blocks, why = ec.s.awaitInline(ctx, inline, e.o.InlineWait, e.o.TurnBudget, e.count)
	for i, w := range why {
		if w == "" {
			continue
		}
		p := &ec.plans[inlinePlans[i]]
		if approximate[i] {
			// A guessed window is worth showing, not keeping: the cache answers only
			// an identical call, and the agent's own read seldom has its bounds.
			ec.s.discard(inline[i])
			p.Decision, p.Reason = string(planner.Declined), "inline: "+w+"; approximate arguments are not kept"
			continue
		}
		// What was not inlined was prefetched: telemetry says so, and why.
		p.Decision, p.Reason = string(planner.Prefetch), "inline: "+w
	}
}

// launch starts the follow-up c of the call, whose key is key, unless it must not or need
// not run; it returns the follow-up, or why it was declined.
func (ec *enrichCall) launch(c *planner.Candidate, key string) (*fetch, string) {
	e := ec.e
	m := e.o.Tools.Model(c.Tool)
	if !e.speculable(c.Tool, &m) {
		return nil, "not run ahead: the tool may change something"
	}
	if key == ec.key {
		return nil, "the call itself"
	}
	u, name := e.g.route(c.Tool)
	if u == nil {
		return nil, "no upstream serves the tool"
	}
	args, err := json.Marshal(c.Args)
	if err != nil {
		return nil, "arguments are not JSON"
	}
	f := &fetch{
		key: key, tool: c.Tool, args: args, paths: pipeline.PathArgs(args),
		predicted: c.Tokens, source: telemetry.ServedPrefetch, done: make(chan struct{}),
	}
	ttl := e.o.MaxAge
	if t := m.Cost.FreshnessTTL; t > 0 && t < ttl {
		ttl = t
	}
	return e.start(ec.s, f, u, name, e.host(u, &m), ttl)
}

// host names the host whose concurrency cap a follow-up call of u shares.
func (e *enricher) host(u *upstream, m *toolvalue.Model) string {
	if m.RateLimitHost != "" {
		return m.RateLimitHost
	}
	if u.cfg.URL != "" {
		if p, err := url.Parse(u.cfg.URL); err == nil && p.Host != "" {
			return p.Host
		}
	}
	return "upstream " + u.cfg.Name
}

// route returns the upstream that re-exports tool, and the upstream's own name for it.
func (g *Gateway) route(tool string) (*upstream, string) {
	for _, u := range g.ups {
		u.mu.Lock()
		item, ok := u.exported[tool]
		u.mu.Unlock()
		if ok {
			return u, item.name
		}
	}
	return nil, ""
}

// A staleRule reports whether a call makes the remembered result of a call of tool,
// whose path arguments were paths, stale.
type staleRule func(tool string, paths []string) bool

// staleRule returns what call makes stale, by the rules of the response pipeline's
// invalidation (a mutating tool name, the upstream's invalidates table) and the tool's
// value model (its invalidates list); nil if nothing.
func (e *enricher) staleRule(call *Call, m *toolvalue.Model) staleRule {
	rule, ok := pipeline.Invalidation(call, e.g.stale[call.Tool])
	if !ok && len(m.Invalidates) == 0 {
		return nil
	}
	patterns := make([]toolvalue.Rule, len(m.Invalidates))
	for i, p := range m.Invalidates {
		patterns[i].Pattern = p
	}
	return func(tool string, paths []string) bool {
		if ok && rule.Stale(tool, paths) {
			return true
		}
		for i := range patterns {
			if patterns[i].Matches(tool) {
				return true
			}
		}
		return false
	}
}

// resultText is the text contents of res, joined by newlines.
func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok && t != nil {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// argWords adds the words of the argument values (not the keys) to words: the runs of
// letters, digits and underscores of strings, and numbers, without repeats.
func argWords(words []string, v any) []string {
	switch x := v.(type) {
	case string:
		for f := range strings.FieldsFuncSeq(x, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
		}) {
			if len(words) < maxIntentWords && len(f) <= maxWordLength && !slices.Contains(words, f) {
				words = append(words, f)
			}
		}
	case float64:
		words = argWords(words, strconv.FormatFloat(x, 'f', -1, 64))
	case []any:
		for _, e := range x {
			words = argWords(words, e)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			words = argWords(words, x[k])
		}
	}
	return words
}

// enrichStats counts what the planner ran ahead, for tests and debugging; telemetry has
// the per-call record.
type enrichStats struct {
	started, served, failed, discarded atomic.Int64
}
