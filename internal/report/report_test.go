package report

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/telemetry"
)

var t0 = time.Date(2026, 3, 4, 9, 0, 0, 0, time.UTC)

// gatewayEvent is a tool result that went from before to after tokens.
func gatewayEvent(at time.Time, tool, session string, before, after int) telemetry.Event {
	return telemetry.Event{Time: at, Tool: tool, Session: session, Before: before, After: after, Layer: telemetry.LayerEncode,
		Layers: []telemetry.LayerTokens{{Layer: telemetry.LayerEncode, Before: before, After: after}}}
}

// proxyEvent is a compacted request to model, billed with u.
func proxyEvent(at time.Time, conv, model string, before, after int, u *telemetry.Usage) telemetry.ProxyEvent {
	return telemetry.ProxyEvent{Kind: telemetry.KindProxy, Time: at, Client: "claude-code", Model: model, Conversation: conv,
		Status: 200, Rewrite: "changed", TokensBefore: before, TokensAfter: after, Usage: u,
		Passes: []telemetry.PassTokens{{Pass: "clear", Changed: 1, Before: before - after + 10, After: 10}}}
}

func build(opts *Options, tools []telemetry.Event, proxy []telemetry.ProxyEvent) *Report {
	b := NewBuilder(opts)
	for _, ev := range tools {
		b.Add(ev)
	}
	for _, ev := range proxy {
		b.AddProxy(ev)
	}
	return b.Report([]string{"telemetry.jsonl"}, 0)
}

// TestTotalsAgreeWithStats holds the page's numbers to winnow stats' summary
// of the same events, and checks what the page adds: the cache hit ratio,
// sessions and conversations, and series that add up to the totals.
func TestTotalsAgreeWithStats(t *testing.T) {
	u1 := &telemetry.Usage{Input: 1000, CacheWrite: 2000, CacheRead: 7000, Output: 500}
	u2 := &telemetry.Usage{Input: 500, CacheRead: 9500, Output: 300}
	tools := []telemetry.Event{
		gatewayEvent(t0, "github__list_issues", "s1", 30000, 12000),
		gatewayEvent(t0.Add(10*time.Minute), "github__get_issue", "s1", 2000, 1500),
		gatewayEvent(t0.Add(3*time.Hour), "github__list_issues", "s2", 9000, 8000),
	}
	proxy := []telemetry.ProxyEvent{
		proxyEvent(t0.Add(5*time.Minute), "c1", "claude-opus-5-5", 10000, 8000, u1),
		proxyEvent(t0.Add(7*time.Minute), "c1", "claude-sonnet-5-5", 12000, 9000, u2),
		proxyEvent(t0.Add(4*time.Hour), "c2", "gpt-5.5-codex", 5000, 4000, &telemetry.Usage{Input: 4100}),
	}
	r := build(&Options{Location: time.UTC, Now: t0.Add(5 * time.Hour)}, tools, proxy)

	s := telemetry.NewSummary(time.Time{})
	for _, ev := range tools {
		s.Add(ev)
	}
	for _, ev := range proxy {
		s.AddProxy(ev)
	}
	s.Finish()
	want := Totals{
		ToolResults: 3, Sessions: 2, Requests: 3, Conversations: 2,
		GatewayBefore: 41000, GatewaySaved: s.Saved, ProxyBefore: 27000, ProxySaved: 6000, TokensSaved: s.Saved + 6000,
		CostBilled: s.Proxy.Cost.Billed, CostSaved: s.Proxy.Cost.SavedCompaction + s.Proxy.Cost.SavedServerEdits,
		Unpriced: 1, UnpricedModels: []string{"gpt-5.5-codex"},
		WithUsage: 3, Usage: telemetry.Usage{Input: 5600, CacheWrite: 2000, CacheRead: 16500, Output: 800},
		CacheHitRatio: 16500.0 / 24100,
	}
	if diff := cmp.Diff(want, r.Totals); diff != "" {
		t.Errorf("totals (-want +got):\n%s", diff)
	}
	if s.Saved != 19500 || want.CostSaved <= 0 {
		t.Fatalf("summary: saved %d, cost saved %v", s.Saved, want.CostSaved)
	}
	if diff := cmp.Diff(s.Tools, r.Tools); diff != "" {
		t.Errorf("tools (-stats +report):\n%s", diff)
	}
	if diff := cmp.Diff(s.Proxy.Models, r.Models); diff != "" {
		t.Errorf("models (-stats +report):\n%s", diff)
	}

	wantSessions := []Session{
		{Kind: KindGateway, ID: "s1", First: t0, Last: t0.Add(10 * time.Minute), Events: 2, Before: 32000, After: 13500, Saved: 18500},
		{Kind: KindGateway, ID: "s2", First: t0.Add(3 * time.Hour), Last: t0.Add(3 * time.Hour), Events: 1, Before: 9000, After: 8000, Saved: 1000},
	}
	if diff := cmp.Diff(wantSessions, r.Sessions); diff != "" {
		t.Errorf("sessions (-want +got):\n%s", diff)
	}
	if len(r.Conversations) != 2 || r.Conversations[0].ID != "c1" || r.Conversations[0].Events != 2 ||
		r.Conversations[0].Model != "claude-sonnet-5-5" || r.Conversations[0].Saved != 5000 ||
		math.Abs(r.Conversations[0].CostSaved-want.CostSaved) > 1e-12 || r.Conversations[1].CostSaved != 0 {
		t.Errorf("conversations: %+v", r.Conversations)
	}

	// The series: whole day of hours, and its buckets add up to the totals.
	if r.Unit != "hour" || r.Every != 1 || len(r.Series) != 24 || !r.Series[0].Start.Equal(time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("series: %s×%d, %d buckets from %v", r.Unit, r.Every, len(r.Series), r.Series[0].Start)
	}
	var sum Bucket
	for _, b := range r.Series {
		sum.add(b)
	}
	if sum.GatewaySaved != r.Totals.GatewaySaved || sum.ProxySaved != r.Totals.ProxySaved || sum.ToolResults != 3 || sum.Requests != 3 ||
		math.Abs(sum.CostSaved-r.Totals.CostSaved) > 1e-12 || sum.CacheRead != 16500 || sum.Prompt != 24100 {
		t.Errorf("series sum %+v, totals %+v", sum, r.Totals)
	}
	if nine := r.Series[9]; nine.ToolResults != 2 || nine.Requests != 2 || nine.GatewaySaved != 18500 {
		t.Errorf("09:00 bucket: %+v", nine)
	}
}

// TestSeriesUnits checks the bucket width each span of data gets, that the
// series stays within maxBuckets, and that each bucket starts on its unit's
// boundary in the report's time zone.
func TestSeriesUnits(t *testing.T) {
	ist := time.FixedZone("IST", 5*3600+1800) // half-hour offset: UTC hours straddle local days
	for _, tc := range []struct {
		name        string
		first, last time.Time
		loc         *time.Location
		unit        string
		every       int
		buckets     int
		start       time.Time
	}{
		{"one event", t0, t0, time.UTC, "hour", 1, 24, time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)},
		{"two days", t0, t0.Add(47 * time.Hour), time.UTC, "hour", 1, 72, time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)},
		{"ten days", t0, t0.AddDate(0, 0, 10), time.UTC, "day", 1, 11, time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)},
		{"six months", t0, t0.AddDate(0, 0, 180), time.UTC, "day", 1, 181, time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)},
		{"a year", t0, t0.AddDate(1, 0, 0), time.UTC, "week", 1, 53, time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)}, // a Monday
		{"ten years", t0, t0.AddDate(10, 0, 0), time.UTC, "month", 1, 121, time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)},
		{"a clock gone wrong", time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC), t0, time.UTC, "month", 3, 225, time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"local midnight", time.Date(2026, 3, 4, 18, 40, 0, 0, time.UTC), time.Date(2026, 3, 4, 18, 40, 0, 0, time.UTC), ist, "hour", 1, 24, time.Date(2026, 3, 5, 0, 0, 0, 0, ist)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := build(&Options{Location: tc.loc}, []telemetry.Event{
				gatewayEvent(tc.first, "a", "s", 100, 40), gatewayEvent(tc.last, "a", "s", 100, 40),
			}, nil)
			if r.Unit != tc.unit || r.Every != tc.every || len(r.Series) != tc.buckets || !r.Series[0].Start.Equal(tc.start) {
				t.Fatalf("got %s×%d, %d buckets from %v; want %s×%d, %d from %v",
					r.Unit, r.Every, len(r.Series), r.Series[0].Start, tc.unit, tc.every, tc.buckets, tc.start)
			}
			saved := 0
			for _, b := range r.Series {
				saved += b.GatewaySaved
			}
			if saved != 120 {
				t.Errorf("the series holds %d tokens saved, want 120", saved)
			}
			if tc.loc == ist && r.Series[0].GatewaySaved != 120 {
				t.Errorf("18:40 UTC is 00:10 IST, in the first hour of 5 March: %+v", r.Series[0])
			}
		})
	}
}

// TestSince drops older events and covers the period asked for, quiet
// hours included.
func TestSince(t *testing.T) {
	now := t0.Add(2 * time.Hour)
	r := build(&Options{Location: time.UTC, Now: now, Since: now.AddDate(0, 0, -7)}, []telemetry.Event{
		gatewayEvent(now.AddDate(0, 0, -30), "old", "s", 1000, 0),
		gatewayEvent(now.Add(-time.Hour), "new", "s", 1000, 400),
	}, []telemetry.ProxyEvent{proxyEvent(now.AddDate(0, 0, -8), "c", "claude-opus-5-5", 100, 50, nil)})
	if r.Totals.ToolResults != 1 || r.Totals.GatewaySaved != 600 || r.Totals.Requests != 0 || len(r.Tools) != 1 || r.Tools[0].Tool != "new" {
		t.Errorf("since: %+v, tools %+v", r.Totals, r.Tools)
	}
	if r.Unit != "day" || len(r.Series) != 8 || !r.Series[0].Start.Equal(time.Date(2026, 2, 25, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("since a week: %s, %d buckets from %v", r.Unit, len(r.Series), r.Series[0].Start)
	}
}

// TestTopCaps lists the top entries of each kind and counts the rest.
func TestTopCaps(t *testing.T) {
	var tools []telemetry.Event
	var proxy []telemetry.ProxyEvent
	for i := range 40 {
		at := t0.Add(time.Duration(i) * time.Minute)
		tools = append(tools, gatewayEvent(at, string(rune('a'+i%26))+string(rune('a'+i/26)), string(rune('A'+i)), 100+i, 0))
		proxy = append(proxy, proxyEvent(at, string(rune('A'+i)), string(rune('a'+i%26))+"-model", 100+i, 0, nil))
	}
	r := build(&Options{Location: time.UTC}, tools, proxy)
	got := More{Tools: len(r.Tools), Models: len(r.Models), Sessions: len(r.Sessions), Conversations: len(r.Conversations)}
	if diff := cmp.Diff(More{Tools: maxRows, Models: maxRows, Sessions: maxSessions, Conversations: maxSessions}, got); diff != "" {
		t.Errorf("listed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(More{Tools: 25, Models: 11, Sessions: 30, Conversations: 30}, r.More); diff != "" {
		t.Errorf("more (-want +got):\n%s", diff)
	}
	if r.Sessions[0].Saved != 139 || r.Sessions[9].Saved != 130 {
		t.Errorf("sessions not most saved first: %+v", r.Sessions)
	}
}
