package telemetry

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestWriterRecordsExchanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	w, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	digest := []byte("digest of the opening, not the opening")
	x := Exchange{ProxyEvent: ProxyEvent{Time: time.Date(2026, 3, 2, 10, 0, 0, 0, time.FixedZone("x", 3600)),
		Dialect: "anthropic", Path: "/v1/messages", Client: "claude-code", Model: "claude-opus-5-5", Status: 200,
		Rewrite: "changed", TokensBefore: 1000, TokensAfter: 800, Usage: &Usage{Input: 1, Output: 2}}, ConversationDigest: digest}
	w.RecordExchange(x)
	w.RecordExchange(x)
	w.Record(sampleCall())
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []ProxyEvent
	tools := 0
	skipped, err := ScanAll(bytes.NewReader(data), func(Event) { tools++ }, func(ev ProxyEvent) { got = append(got, ev) })
	if err != nil || skipped != 0 || tools != 1 || len(got) != 2 {
		t.Fatalf("read %d tool events, %d proxy events, %d skipped, %v:\n%s", tools, len(got), skipped, err, data)
	}
	want := x.ProxyEvent
	want.Kind, want.Time, want.Conversation = KindProxy, x.Time.UTC(), got[0].Conversation
	if diff := cmp.Diff(want, got[0]); diff != "" {
		t.Errorf("event (-want +got):\n%s", diff)
	}
	if len(got[0].Conversation) != 16 || got[0].Conversation != got[1].Conversation {
		t.Errorf("conversation hashes %q, %q: want two equal 16-digit hashes", got[0].Conversation, got[1].Conversation)
	}
	if bytes.Contains(data, digest) {
		t.Error("the digest itself reached the file")
	}
	if n, _ := Scan(bytes.NewReader(data), func(Event) {}); n != 0 {
		t.Errorf("Scan counted %d proxy lines as skipped", n)
	}
}

func TestPriceOf(t *testing.T) {
	for model, want := range map[string]float64{
		"claude-opus-5-5":                            4,
		"claude-opus-5-5[1m]":                        4,
		"us.anthropic.claude-opus-4-5-20251101-v1:0": 5,
		"claude-haiku-4-5@20251001":                  1,
		"anthropic/claude-sonnet-4-5-20250929":       3,
		"Claude-Sonnet-5":                            2,
		"gpt-5-2025-08-07":                           1.25,
		"gpt-5-codex":                                1.25,
		"openai/gpt-5.4-mini":                        0.75,
		"gpt-5.5-codex":                              0, // no list price of its own
		"claude-haiku-5-5":                           0, // priced by prompt length
		"llama-3":                                    0,
		"":                                           0,
	} {
		p, ok := PriceOf(model)
		if ok != (want != 0) || p.Input != want {
			t.Errorf("PriceOf(%q) = %v, %v; want input %v", model, p, ok, want)
		}
	}
	for _, p := range prices {
		if p.CacheRead >= p.Input || p.CacheWrite < p.Input || p.Output <= p.Input {
			t.Errorf("%v: %+v is not shaped like a price list (read < input ≤ write, output > input)", p.ids, p.Price)
		}
	}
}

func TestProxySummary(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	events := []ProxyEvent{
		{Kind: KindProxy, Time: t0, Dialect: "anthropic", Client: "claude-code", Model: "claude-opus-5-5", Conversation: "c1",
			Status: 200, Rewrite: "changed", TokensBefore: 1000, TokensAfter: 800, EditRequested: true,
			Passes:      []PassTokens{{"dedup", 2, 300, 150}, {"snip", 1, 100, 50}},
			Usage:       &Usage{Input: 100, CacheWrite: 200, CacheRead: 1000, Output: 50},
			ServerEdits: []ServerEdit{{Type: "clear_tool_uses_20250919", ClearedToolUses: 3, ClearedInputTokens: 650}}},
		{Kind: KindProxy, Time: t0.Add(time.Minute), Dialect: "openai", Client: "codex", Model: "gpt-5.5-codex", Conversation: "c2",
			Status: 200, Rewrite: "unchanged", TokensBefore: 2000, TokensAfter: 2000, Usage: &Usage{Input: 500, CacheRead: 500, Output: 10}},
		{Kind: KindProxy, Time: t0.Add(2 * time.Minute), Dialect: "openai", Client: "openai-sdk", Model: "gpt-5.4", Conversation: "c2",
			Status: 502, Rewrite: "bypassed", Reason: "rewrite_failed"},
		{Kind: KindProxy, Time: t0.Add(-2 * time.Hour), Model: "claude-opus-5-5", Rewrite: "changed", TokensBefore: 5, TokensAfter: 1},
	}
	s := NewSummary(t0.Add(-time.Hour))
	for _, ev := range events {
		s.AddProxy(ev)
	}
	s.Finish()
	// Opus 5.5: $4 input, $5 cache write, $0.20 cache read, $20 output per million.
	billed := (100*4 + 200*5 + 1000*0.2 + 50*20) / 1e6 // 0.0026
	rate := (100*4 + 200*5 + 1000*0.2) / 1e6 / 1300    // per billed input token
	savedCompaction := 1300 * 200.0 / 800 * rate       // 325 tokens the upstream would have billed more
	savedEdits := 650 * rate
	opusCost := Cost{Billed: billed, SavedCompaction: savedCompaction, SavedServerEdits: savedEdits}
	want := &ProxySummary{
		First: t0, Last: t0.Add(2 * time.Minute), Requests: 3, Conversations: 2, Changed: 1, Bypassed: 1,
		Reasons: map[string]int{"rewrite_failed": 1},
		Tokens:  Tokens{Before: 3000, After: 2800, Saved: 200, Ratio: 2800.0 / 3000},
		Passes: []PassSummary{
			{Pass: "dedup", Requests: 1, Changed: 2, Tokens: 150, SavedUSD: savedCompaction * 150 / 200},
			{Pass: "snip", Requests: 1, Changed: 1, Tokens: 50, SavedUSD: savedCompaction * 50 / 200},
		},
		ServerEdits: ServerEditSummary{Requested: 1, Applied: 1, ClearedToolUses: 3, ClearedInputTokens: 650, SavedUSD: savedEdits},
		WithUsage:   2, Usage: Usage{Input: 600, CacheWrite: 200, CacheRead: 1500, Output: 60},
		Cost: opusCost, Unpriced: 1, UnpricedModels: []string{"gpt-5.5-codex"},
		Models: []GroupSummary{
			{Name: "claude-opus-5-5", Requests: 1, Tokens: Tokens{1000, 800, 200, 0.8}, WithUsage: 1, Usage: *events[0].Usage, Cost: opusCost},
			{Name: "gpt-5.4", Requests: 1},
			{Name: "gpt-5.5-codex", Requests: 1, Tokens: Tokens{2000, 2000, 0, 1}, WithUsage: 1, Usage: *events[1].Usage, Unpriced: 1},
		},
		Clients: []GroupSummary{
			{Name: "claude-code", Requests: 1, Tokens: Tokens{1000, 800, 200, 0.8}, WithUsage: 1, Usage: *events[0].Usage, Cost: opusCost},
			{Name: "codex", Requests: 1, Tokens: Tokens{2000, 2000, 0, 1}, WithUsage: 1, Usage: *events[1].Usage, Unpriced: 1},
			{Name: "openai-sdk", Requests: 1},
		},
	}
	if diff := cmp.Diff(want, s.Proxy, cmpopts.IgnoreUnexported(ProxySummary{}), cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("proxy summary (-want +got):\n%s", diff)
	}

	var b strings.Builder
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"proxy: 3 requests in 2 conversations from " + t0.Local().Format(time.DateTime) + " to " +
			t0.Add(2*time.Minute).Local().Format(time.DateTime) + "; 1 rewritten, 1 forwarded as sent (rewrite_failed 1)",
		"  after          2800 (ratio 0.933)",
		"  saved           200 (6.7%)",
		"    dedup               150  1 requests, 2 parts; ≈ $0.0003 saved",
		"server-side edits: 1 requested, 1 applied, 3 tool uses and 650 input tokens cleared (the API's count), ≈ $0.0008 saved",
		"billed by the upstreams (2 responses with usage): input 600, cache write 200, cache read 1500, output 60 tokens",
		"cost at list prices: $0.0026 billed, ≈ $0.0004 saved by compaction, ≈ $0.0008 by server-side edits (31.6% of what it would have cost)",
		"unpriced: 1 requests to models with no list price here (gpt-5.5-codex)",
		"  claude-opus-5-5      1 requests       1000 →        800 tokens (20.0%)  $0.0026 billed, ≈ $0.0012 saved",
		"  gpt-5.5-codex        1 requests       2000 →       2000 tokens (0.0%)  unpriced",
		"  codex            1 requests       2000 →       2000 tokens (0.0%)  unpriced",
		"  openai-sdk       1 requests          0 →          0 tokens (0%)  no usage reported",
	} {
		if !strings.Contains(b.String(), line+"\n") {
			t.Errorf("report lacks the line %q:\n%s", line, b.String())
		}
	}
	if strings.Contains(b.String(), "tool results") {
		t.Errorf("a report without gateway results has a gateway part:\n%s", b.String())
	}
	data, err := json.Marshal(s)
	if err != nil || !bytes.Contains(data, []byte(`"proxy":{`)) {
		t.Errorf("json %s, %v", data, err)
	}
}
