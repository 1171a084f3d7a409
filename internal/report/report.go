package report

import (
	"cmp"
	"slices"
	"time"

	"github.com/winnowhq/winnow/internal/telemetry"
)

// Row caps: the page and the JSON list at most this many entries of each
// kind, most saved first, and count the rest; with them and the bounded
// series (see maxBuckets) the page's size does not grow with the events.
const (
	maxRows     = 15 // tools, passes, models, clients
	maxSessions = 10 // gateway sessions, proxy conversations
)

// A Report is what the page shows: headline totals, the savings over time,
// and the top tools, passes, models, clients, sessions and conversations.
// It is also what `winnow report --json` prints.
type Report struct {
	// Generated is when the report was built; Files the telemetry files
	// read, oldest first; Since the start of the period asked for (zero:
	// everything).
	Generated time.Time `json:"generated"`
	Files     []string  `json:"files"`
	Since     time.Time `json:"since,omitzero"`
	// First and Last are the times of the first and last event counted.
	First time.Time `json:"first,omitzero"`
	Last  time.Time `json:"last,omitzero"`
	// Skipped counts lines that were not events.
	Skipped int `json:"skipped_lines"`

	Totals Totals `json:"totals"`

	// Unit is the width of one bucket of Series ("hour", "day", "week" or
	// "month"), Every the number of units per bucket (1 unless the period
	// holds more than maxBuckets units); Series holds every bucket of the
	// period in order, empty ones included. Unit is "" when nothing was
	// counted.
	Unit   string   `json:"bucket_unit,omitempty"`
	Every  int      `json:"bucket_every,omitempty"`
	Series []Bucket `json:"series"`

	// Layers is what the gateway's layers saved.
	Layers telemetry.Savings `json:"gateway_layers"`
	// Tools, Passes, Models and Clients are the top entries of the
	// telemetry summary's lists; More counts the rest of each.
	Tools       []telemetry.ToolSummary     `json:"tools"`
	Passes      []telemetry.PassSummary     `json:"passes"`
	ServerEdits telemetry.ServerEditSummary `json:"server_edits"`
	Models      []telemetry.GroupSummary    `json:"models"`
	Clients     []telemetry.GroupSummary    `json:"clients"`
	// Sessions are the gateway's MCP sessions, Conversations the proxy's,
	// most tokens saved first.
	Sessions      []Session `json:"sessions"`
	Conversations []Session `json:"conversations"`
	More          More      `json:"more"`
}

// More counts the entries of each list left out of a Report.
type More struct {
	Tools         int `json:"tools,omitempty"`
	Passes        int `json:"passes,omitempty"`
	Models        int `json:"models,omitempty"`
	Clients       int `json:"clients,omitempty"`
	Sessions      int `json:"sessions,omitempty"`
	Conversations int `json:"conversations,omitempty"`
}

// Totals are the headline numbers. Gateway tokens are those of tool results
// (what the upstream servers returned against what the agent received),
// proxy tokens those of the requests it compacted, both counted with o200k;
// TokensSaved adds the two. Dollars are the proxy's, at list prices and
// cache-aware (see telemetry.ProxySummary).
type Totals struct {
	ToolResults   int `json:"tool_results"`
	Sessions      int `json:"sessions"`
	Requests      int `json:"proxy_requests"`
	Conversations int `json:"conversations"`

	GatewayBefore int `json:"gateway_tokens_before"`
	GatewaySaved  int `json:"gateway_tokens_saved"`
	ProxyBefore   int `json:"proxy_tokens_before"`
	ProxySaved    int `json:"proxy_tokens_saved"`
	TokensSaved   int `json:"tokens_saved"`

	CostBilled float64 `json:"cost_billed_usd"`
	CostSaved  float64 `json:"cost_saved_usd"`
	// Unpriced counts the requests with usage whose model has no price,
	// UnpricedModels names those models.
	Unpriced       int      `json:"unpriced"`
	UnpricedModels []string `json:"unpriced_models,omitempty"`

	// Usage sums what the upstreams billed; CacheHitRatio is the share of
	// its prompt tokens read from the prompt cache (0 without usage).
	WithUsage     int             `json:"with_usage"`
	Usage         telemetry.Usage `json:"usage"`
	CacheHitRatio float64         `json:"cache_hit_ratio"`
}

// A Bucket is one step of the time series: the events whose time falls in
// [Start, next bucket's Start).
type Bucket struct {
	Start        time.Time `json:"start"`
	ToolResults  int       `json:"tool_results"`
	Requests     int       `json:"proxy_requests"`
	GatewaySaved int       `json:"gateway_tokens_saved"`
	ProxySaved   int       `json:"proxy_tokens_saved"`
	CostSaved    float64   `json:"cost_saved_usd"`
	// Prompt and CacheRead sum the prompt tokens billed and those read from
	// the cache, over the requests that reported usage.
	Prompt    int `json:"prompt_tokens"`
	CacheRead int `json:"cache_read_tokens"`
}

// HitRatio is the share of b's prompt tokens read from the cache; ok is
// false when no request in b reported usage.
func (b Bucket) HitRatio() (ratio float64, ok bool) {
	if b.Prompt == 0 {
		return 0, false
	}
	return float64(b.CacheRead) / float64(b.Prompt), true
}

func (b *Bucket) add(o Bucket) {
	b.ToolResults += o.ToolResults
	b.Requests += o.Requests
	b.GatewaySaved += o.GatewaySaved
	b.ProxySaved += o.ProxySaved
	b.CostSaved += o.CostSaved
	b.Prompt += o.Prompt
	b.CacheRead += o.CacheRead
}

// A Session is one gateway session (Kind "gateway": tool results) or one
// proxy conversation (Kind "proxy": requests). ID is the keyed hash the
// telemetry holds, never the session id itself.
type Session struct {
	Kind   string    `json:"kind"`
	ID     string    `json:"id"`
	First  time.Time `json:"first"`
	Last   time.Time `json:"last"`
	Events int       `json:"events"`
	Before int       `json:"tokens_before"`
	After  int       `json:"tokens_after"`
	Saved  int       `json:"tokens_saved"`
	// For a proxy conversation: the model and client of its last request,
	// and the dollars saved on it.
	Model     string  `json:"model,omitempty"`
	Client    string  `json:"client,omitempty"`
	CostSaved float64 `json:"cost_saved_usd,omitempty"`
}

// Session kinds.
const (
	KindGateway = "gateway"
	KindProxy   = "proxy"
)

func (s *Session) add(t time.Time, before, after int) {
	if s.Events == 0 || t.Before(s.First) {
		s.First = t
	}
	if t.After(s.Last) {
		s.Last = t
	}
	s.Events++
	s.Before += before
	s.After += after
	s.Saved += before - after
}

// Options tune a Builder. The zero value (or nil) means the defaults.
type Options struct {
	// Since drops the events before it; zero keeps them all. When set, the
	// time series covers Since to Now even where it holds no events.
	Since time.Time
	// Now is the time the report is built; zero means time.Now().
	Now time.Time
	// Location is the time zone of the buckets and of the times the page
	// shows; nil means time.Local.
	Location *time.Location
}

// A Builder aggregates telemetry events into a Report: it hands each event
// to a telemetry.Summary (the totals, tools, passes, models, clients and
// dollars of `winnow stats`) and adds what the page needs besides, the
// hourly buckets of the time series and the per-session sums.
type Builder struct {
	opts          Options
	sum           *telemetry.Summary
	hours         map[int64]*Bucket // by the Unix time of the local hour's start
	sessions      map[string]*Session
	conversations map[string]*Session
	first, last   time.Time
}

// NewBuilder returns an empty Builder; opts may be nil.
func NewBuilder(opts *Options) *Builder {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	if o.Location == nil {
		o.Location = time.Local
	}
	return &Builder{
		opts: o, sum: telemetry.NewSummary(o.Since),
		hours: map[int64]*Bucket{}, sessions: map[string]*Session{}, conversations: map[string]*Session{},
	}
}

// Add counts the gateway's ev, unless it is older than Options.Since.
func (b *Builder) Add(ev telemetry.Event) {
	if ev.Time.Before(b.opts.Since) {
		return
	}
	b.sum.Add(ev)
	h := b.hour(ev.Time)
	h.ToolResults++
	h.GatewaySaved += ev.Before - ev.After
	session(b.sessions, KindGateway, ev.Session).add(ev.Time, ev.Before, ev.After)
}

// AddProxy counts the proxy's ev, unless it is older than Options.Since.
func (b *Builder) AddProxy(ev telemetry.ProxyEvent) {
	if ev.Time.Before(b.opts.Since) {
		return
	}
	b.sum.AddProxy(ev)
	cost, priced := telemetry.CostOf(ev)
	saved := 0.0
	if priced {
		saved = cost.SavedCompaction + cost.SavedServerEdits
	}
	h := b.hour(ev.Time)
	h.Requests++
	h.ProxySaved += ev.TokensBefore - ev.TokensAfter
	h.CostSaved += saved
	if ev.Usage != nil {
		h.Prompt += ev.Usage.Prompt()
		h.CacheRead += ev.Usage.CacheRead
	}
	if ev.Conversation == "" {
		return
	}
	c := session(b.conversations, KindProxy, ev.Conversation)
	c.add(ev.Time, ev.TokensBefore, ev.TokensAfter)
	c.CostSaved += saved
	if !ev.Time.Before(c.Last) {
		c.Model, c.Client = ev.Model, ev.Client
	}
}

// hour returns the bucket of the local hour holding t, widening the period.
func (b *Builder) hour(t time.Time) *Bucket {
	if b.first.IsZero() || t.Before(b.first) {
		b.first = t
	}
	if t.After(b.last) {
		b.last = t
	}
	lt := t.In(b.opts.Location)
	start := time.Date(lt.Year(), lt.Month(), lt.Day(), lt.Hour(), 0, 0, 0, b.opts.Location)
	k := start.Unix()
	h := b.hours[k]
	if h == nil {
		h = &Bucket{Start: start}
		b.hours[k] = h
	}
	return h
}

func session(m map[string]*Session, kind, id string) *Session {
	s := m[id]
	if s == nil {
		s = &Session{Kind: kind, ID: id}
		m[id] = s
	}
	return s
}

// Report finishes the aggregation; files and skipped are what the reader
// saw (see telemetry.ScanFile).
func (b *Builder) Report(files []string, skipped int) *Report {
	b.sum.Finish()
	s := b.sum
	r := &Report{
		Generated: b.opts.Now.In(b.opts.Location), Files: files, Since: b.opts.Since, Skipped: skipped,
		First: b.first, Last: b.last, Layers: s.Savings,
	}
	r.Totals = Totals{
		ToolResults: s.Calls, Sessions: s.Sessions,
		GatewayBefore: s.Before, GatewaySaved: s.Saved,
	}
	r.Tools, r.More.Tools = top(s.Tools, maxRows)
	if p := s.Proxy; p != nil {
		r.addProxy(p)
	}
	r.Totals.TokensSaved = r.Totals.GatewaySaved + r.Totals.ProxySaved
	r.Sessions, r.More.Sessions = topSessions(b.sessions)
	r.Conversations, r.More.Conversations = topSessions(b.conversations)
	from, to := b.period()
	r.Unit, r.Every, r.Series = series(b.hours, from, to, b.opts.Location)
	return r
}

// addProxy copies the proxy's part of the summary.
func (r *Report) addProxy(p *telemetry.ProxySummary) {
	t := &r.Totals
	t.Requests, t.Conversations = p.Requests, p.Conversations
	t.ProxyBefore, t.ProxySaved = p.Tokens.Before, p.Tokens.Saved
	t.CostBilled = p.Cost.Billed
	t.CostSaved = p.Cost.SavedCompaction + p.Cost.SavedServerEdits
	t.Unpriced, t.UnpricedModels = p.Unpriced, p.UnpricedModels
	t.WithUsage, t.Usage = p.WithUsage, p.Usage
	if n := p.Usage.Prompt(); n > 0 {
		t.CacheHitRatio = float64(p.Usage.CacheRead) / float64(n)
	}
	r.ServerEdits = p.ServerEdits
	r.Passes, r.More.Passes = top(p.Passes, maxRows)
	r.Models, r.More.Models = top(p.Models, maxRows)
	r.Clients, r.More.Clients = top(p.Clients, maxRows)
}

// period is the span the series covers: Since to Now when a period was
// asked for, else the first event to the last.
func (b *Builder) period() (from, to time.Time) {
	if !b.opts.Since.IsZero() {
		if b.last.After(b.opts.Now) {
			return b.opts.Since, b.last
		}
		return b.opts.Since, b.opts.Now
	}
	return b.first, b.last
}

// top returns the first n of list (already sorted) and how many it left out.
func top[T any](list []T, n int) ([]T, int) {
	if len(list) <= n {
		return slices.Clone(list), 0
	}
	return slices.Clone(list[:n]), len(list) - n
}

// topSessions returns the sessions of m that saved most, and how many it
// left out.
func topSessions(m map[string]*Session) ([]Session, int) {
	all := make([]Session, 0, len(m))
	for _, s := range m {
		all = append(all, *s)
	}
	slices.SortFunc(all, func(a, b Session) int {
		return cmp.Or(cmp.Compare(b.Saved, a.Saved), cmp.Compare(b.CostSaved, a.CostSaved), cmp.Compare(a.ID, b.ID))
	})
	return top(all, maxSessions)
}

// BuildFile reads the telemetry file at path and its rotated predecessor
// (see telemetry.ScanFile) into a Report. A missing path is an error
// wrapping fs.ErrNotExist.
func BuildFile(path string, opts *Options) (*Report, error) {
	b := NewBuilder(opts)
	files, skipped, err := telemetry.ScanFile(path, b.Add, b.AddProxy)
	if err != nil {
		return nil, err
	}
	return b.Report(files, skipped), nil
}
