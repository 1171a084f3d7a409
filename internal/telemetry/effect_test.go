package telemetry

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// session builds the events of one session, a minute apart, in the order
// given: each is a call of tool with key, optionally with plans.
type session struct {
	id    string
	start time.Time
	evs   []Event
}

func (s *session) call(tool, key string, plans ...Plan) *Event {
	s.evs = append(s.evs, Event{
		Time: s.start.Add(time.Duration(len(s.evs)) * time.Minute), Tool: tool, Session: s.id,
		Args: "a-" + key, Key: key, Layer: LayerNone, Before: 100, After: 100, Counter: CounterExact, Plans: plans,
	})
	return &s.evs[len(s.evs)-1]
}

func plan(tool, key, decision string) Plan {
	return Plan{Tool: tool, Args: "a-" + key, Key: key, Decision: decision, PredictedTokens: 100}
}

// writeEvents writes the events as a telemetry file, one JSON line each,
// and returns its path.
func writeEvents(t *testing.T, lines ...any) string {
	t.Helper()
	var b strings.Builder
	for _, l := range lines {
		switch l := l.(type) {
		case string:
			b.WriteString(l + "\n")
		default:
			data, err := json.Marshal(l)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(append(data, '\n'))
		}
	}
	path := filepath.Join(t.TempDir(), "telemetry.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func summarize(t *testing.T, path string) *Summary {
	t.Helper()
	s, err := SummarizeFile(path, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var t0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

// TestEffectUseWindow checks the window: a candidate the agent calls among
// its next 3 calls is used, one it calls 4th is not, whatever the decision.
func TestEffectUseWindow(t *testing.T) {
	s := &session{id: "s1", start: t0}
	s.call("grep", "g1",
		plan("read", "r1", DecisionPrefetch), // called 1st: used
		plan("read", "r3", DecisionPrefetch), // called 3rd: used
		plan("read", "r4", DecisionPrefetch), // called 4th: not used
		plan("read", "rX", DecisionPrefetch), // never called
		plan("read", "r2", DecisionInline),   // called 2nd: used
	)
	s.call("read", "r1")
	s.call("read", "r2")
	s.call("read", "r3")
	s.call("read", "r4")
	s.call("glob", "g2",
		plan("glob", "d1", DecisionDeclined), // called 1st: recall lost
		plan("glob", "d4", DecisionDeclined), // called 4th: not lost
	)
	s.call("glob", "d1")
	s.call("glob", "x")
	s.call("glob", "y")
	s.call("glob", "d4")
	got := summarize(t, writeEvents(t, anys(s.evs)...)).Planner
	if got == nil {
		t.Fatal("no planner summary")
	}
	want := counts{Prefetches: 4, PrefetchHits: 2, Inlines: 1, InlineHits: 1, Declines: 2, DeclinesCalled: 1}
	if diff := cmp.Diff(want, countsOf(got)); diff != "" {
		t.Errorf("counts mismatch (-want +got):\n%s", diff)
	}
	if got.PrefetchHitRate != 0.5 || got.InlineHitRate != 1 || got.DeclineRecallLoss != 0.5 {
		t.Errorf("rates %v %v %v, want 0.5 1 0.5", got.PrefetchHitRate, got.InlineHitRate, got.DeclineRecallLoss)
	}
}

// TestEffectSessionsApart checks that another session's call with the same
// key does not use a candidate, however close in the file, and that calls
// are taken in the order of their times, not of the file's lines.
func TestEffectSessionsApart(t *testing.T) {
	a := &session{id: "A", start: t0}
	b := &session{id: "B", start: t0.Add(10 * time.Second)}
	a.call("grep", "g", plan("read", "k", DecisionPrefetch), plan("read", "k2", DecisionDeclined))
	b.call("read", "k") // same key, next line, other session
	b.call("read", "k2")
	a.call("ls", "1")
	a.call("ls", "2")
	a.call("ls", "3")
	a.call("read", "k2") // 4th in A
	// A's lines written newest first: their times, not their lines, say the order.
	lines := anys([]Event{a.evs[4], b.evs[0], a.evs[3], b.evs[1], a.evs[2], a.evs[1], a.evs[0]})
	s := summarize(t, writeEvents(t, lines...))
	if s.Sessions != 2 {
		t.Fatalf("%d sessions, want 2", s.Sessions)
	}
	want := counts{Prefetches: 1, Declines: 1}
	if diff := cmp.Diff(want, countsOf(s.Planner)); diff != "" {
		t.Errorf("counts mismatch (-want +got):\n%s", diff)
	}

	// The same calls in one session: both candidates are called within 3.
	for i := range lines {
		ev := lines[i].(Event)
		ev.Session = "A"
		lines[i] = ev
	}
	want = counts{Prefetches: 1, PrefetchHits: 1, Declines: 1, DeclinesCalled: 1}
	if diff := cmp.Diff(want, countsOf(summarize(t, writeEvents(t, lines...)).Planner)); diff != "" {
		t.Errorf("one session: counts mismatch (-want +got):\n%s", diff)
	}
}

// TestEffectKeylessFallback checks a file whose gateway passed no planner
// keys: byte-equal arguments of the same tool match, other tools do not.
func TestEffectKeylessFallback(t *testing.T) {
	s := &session{id: "s", start: t0}
	s.call("grep", "", Plan{Tool: "read", Args: "h1", Decision: DecisionPrefetch}, Plan{Tool: "read", Args: "h2", Decision: DecisionPrefetch})
	s.call("read", "").Args = "h1"
	s.call("glob", "").Args = "h2" // another tool with equal argument hashes
	got := countsOf(summarize(t, writeEvents(t, anys(s.evs)...)).Planner)
	if diff := cmp.Diff(counts{Prefetches: 2, PrefetchHits: 1}, got); diff != "" {
		t.Errorf("counts mismatch (-want +got):\n%s", diff)
	}
}

// TestEffectCostOverrun checks the 130% threshold: at it is an overrun,
// just below is not, and calls without a prediction are not counted.
func TestEffectCostOverrun(t *testing.T) {
	s := &session{id: "s", start: t0}
	for _, c := range []struct{ predicted, after int }{{100, 130}, {100, 129}, {200, 1000}, {50, 10}, {0, 5000}} {
		ev := s.call("read", "")
		ev.PredictedTokens, ev.Before, ev.After = c.predicted, c.after, c.after
	}
	sum := summarize(t, writeEvents(t, anys(s.evs)...))
	got := sum.Planner
	if got.Predictions != 4 || got.Overruns != 2 || got.CostOverrunRate != 0.5 {
		t.Errorf("%d overruns of %d predictions (rate %v), want 2 of 4 (0.5)", got.Overruns, got.Predictions, got.CostOverrunRate)
	}
	if tool := sum.Tools[0]; tool.Tool != "read" || tool.Planner == nil || tool.Planner.Overruns != 2 {
		t.Errorf("per tool: %+v", tool)
	}
}

// TestEffectCallsSaved checks the buckets: what answered each call decides
// its bucket, a duplicate served otherwise counts once, and the tokens of
// dedup, fail-fast and inlining add up with the layers'.
func TestEffectCallsSaved(t *testing.T) {
	s := &session{id: "s", start: t0}
	ev := s.call("grep", "g")
	ev.Before, ev.After, ev.Layer = 100, 160, LayerInline
	ev.Layers = []LayerTokens{{LayerInline, 0, 60}}
	s.call("read", "p").Served = ServedPrefetch
	ev = s.call("read", "i")
	ev.Served, ev.Dedup, ev.Before, ev.After, ev.Layer = ServedInline, true, 100, 5, LayerDedup
	ev.Layers = []LayerTokens{{LayerDedup, 100, 5}}
	ev = s.call("read", "d")
	ev.Dedup, ev.Before, ev.After, ev.Layer = true, 100, 5, LayerDedup
	ev.Layers = []LayerTokens{{LayerDedup, 100, 5}}
	ev = s.call("grep", "f")
	ev.Served, ev.Before, ev.After = ServedFailFast, 100, 20
	ev = s.call("grep", "f")
	ev.Served, ev.Before, ev.After = ServedFailFast, 100, 20

	sum := summarize(t, writeEvents(t, anys(s.evs)...))
	want := CallsSaved{
		Inline:   Bucket{Calls: 1, Tokens: -60},
		Prefetch: Bucket{Calls: 1},
		Dedup:    Bucket{Calls: 1, Tokens: 190},
		FailFast: Bucket{Calls: 2, Tokens: 160},
		Calls:    5, Tokens: 290,
	}
	if diff := cmp.Diff(want, sum.Planner.Saved); diff != "" {
		t.Errorf("calls saved mismatch (-want +got):\n%s", diff)
	}
	sv := sum.Savings
	if got := sv.Dedup.Tokens + sv.Encoding.Tokens + sv.Trimming.Tokens + sv.Inline.Tokens + sv.FailFast.Tokens; got != sum.Saved {
		t.Errorf("the layers saved %d, the total is %d", got, sum.Saved)
	}
	var b strings.Builder
	if err := sum.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"    fail-fast       160  2 calls answered without the upstream",
		"    inlining        -60  1 results with follow-ups appended",
		"  calls saved 5: inline 1, prefetch 1, dedup 1, fail-fast 2",
		"  tokens saved 290: dedup 190, fail-fast 160, inlining -60",
	} {
		if !strings.Contains(b.String(), line+"\n") {
			t.Errorf("report lacks the line %q:\n%s", line, b.String())
		}
	}
}

// TestEffectReport checks the planner's lines of the text report and its
// per-tool split.
func TestEffectReport(t *testing.T) {
	s := &session{id: "s", start: t0}
	s.call("grep", "g", plan("read", "r1", DecisionPrefetch), plan("read", "r2", DecisionPrefetch), plan("glob", "l", DecisionDeclined))
	s.call("read", "r1").PredictedTokens = 50 // 100 tokens: an overrun
	sum := summarize(t, writeEvents(t, anys(s.evs)...))
	var b strings.Builder
	if err := sum.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"planner (a candidate is used when the agent calls it within its next 3 calls):",
		"  prefetch hit rate    50.0%  1 of 2 prefetches used",
		"  inline hit rate        n/a  0 of 0 inlined candidates called again",
		"  decline recall loss   0.0%  0 of 1 declined candidates called by the agent",
		"  cost overrun rate   100.0%  1 of 1 predicted results at 130% of the prediction or more",
		"  read prefetch 1/2  inline 0/0  declined-called 0/0  overrun 1/1  saved 0 calls",
		"  glob prefetch 0/0  inline 0/0  declined-called 0/1  overrun 0/0  saved 0 calls",
	} {
		if !strings.Contains(b.String(), line+"\n") {
			t.Errorf("report lacks the line %q:\n%s", line, b.String())
		}
	}
	if strings.Contains(b.String(), "  grep prefetch") {
		t.Errorf("a tool the planner did nothing with has a planner line:\n%s", b.String())
	}
}

// TestEffectOldFile checks a file written before the planner: no planner
// summary, no planner lines, the rest as before.
func TestEffectOldFile(t *testing.T) {
	path := writeEvents(t,
		`{"time":"2026-03-02T10:00:00Z","tool":"gh__get","session":"0123456789abcdef","args":"fedcba9876543210","layer":"none","before":10,"after":10,"dedup":false,"latency_us":5,"counter":"o200k"}`,
		`{"time":"2026-03-02T10:01:00Z","tool":"gh__get","session":"0123456789abcdef","args":"fedcba9876543210","layer":"dedup","before":10,"after":2,"layers":[{"layer":"dedup","before":10,"after":2}],"dedup":true,"latency_us":5,"counter":"o200k"}`,
	)
	s := summarize(t, path)
	if s.Planner != nil || s.Tools[0].Planner != nil {
		t.Errorf("planner summary from an old file: %+v %+v", s.Planner, s.Tools[0].Planner)
	}
	if s.Calls != 2 || s.Savings.Dedup.Calls != 1 {
		t.Errorf("calls %d dedup %d, want 2 and 1", s.Calls, s.Savings.Dedup.Calls)
	}
	var b strings.Builder
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "planner") || strings.Contains(b.String(), "fail-fast") {
		t.Errorf("planner lines in the report of an old file:\n%s", b.String())
	}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "planner") || strings.Contains(string(data), "fail_fast") {
		t.Errorf("planner members in the JSON of an old file:\n%s", data)
	}
}

// counts are the Effect's counts, without the rates and savings.
type counts struct {
	Prefetches, PrefetchHits, Inlines, InlineHits, Declines, DeclinesCalled int
}

func countsOf(e *Effect) counts {
	if e == nil {
		return counts{}
	}
	return counts{e.Prefetches, e.PrefetchHits, e.Inlines, e.InlineHits, e.Declines, e.DeclinesCalled}
}

func anys(evs []Event) []any {
	out := make([]any, len(evs))
	for i, ev := range evs {
		out[i] = ev
	}
	return out
}
