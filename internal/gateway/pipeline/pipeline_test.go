package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/winnowhq/winnow/internal/telemetry"
)

// upper is a test stage that upper-cases texts.
type upper struct{}

func (upper) Name() string                        { return "upper" }
func (upper) Before(context.Context, *Turn) error { return nil }
func (upper) After(_ context.Context, t *Turn) error {
	for _, tx := range t.Texts {
		tx.Text = strings.ToUpper(tx.Text)
	}
	return nil
}

// broken is a test stage that rewrites texts and then fails or panics.
type broken struct{ panics bool }

func (broken) Name() string { return "broken" }
func (b broken) Before(context.Context, *Turn) error {
	if b.panics {
		panic("before exploded")
	}
	return errors.New("before failed")
}
func (b broken) After(_ context.Context, t *Turn) error {
	for _, tx := range t.Texts {
		tx.Text, tx.Hint, tx.Final = "garbage", "garbage hint", true
	}
	if b.panics {
		panic("after exploded")
	}
	return errors.New("after failed")
}

func TestStageFailureLeavesTextUnchanged(t *testing.T) {
	const secret = "token=ghp_SECRET123"
	for _, panics := range []bool{false, true} {
		t.Run(fmt.Sprintf("panics=%v", panics), func(t *testing.T) {
			var logs bytes.Buffer
			p := New(Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))}, broken{panics}, upper{})
			c := &Call{Session: "s", Tool: "x__read", Args: json.RawMessage(`{"q":"` + secret + `"}`)}
			p.Before(t.Context(), c)
			got := onlyText(t, p.After(t.Context(), c, textResult("hello "+secret)))
			if want := strings.ToUpper("hello " + secret); got != want {
				t.Errorf("result %q, want %q: the failed stage's changes must be undone and later stages still run", got, want)
			}
			if n := strings.Count(logs.String(), "stage=broken"); n != 2 {
				t.Errorf("logged %d failures of the broken stage, want 2 (before and after):\n%s", n, logs.String())
			}
			if strings.Contains(logs.String(), "SECRET") {
				t.Errorf("the log holds response or argument text:\n%s", logs.String())
			}
		})
	}
}

func TestAfterPassesWhatItDoesNotProcess(t *testing.T) {
	p := Default(Options{})
	ctx := t.Context()
	if p.After(ctx, nil, textResult("x")) == nil {
		t.Error("nil call: result lost")
	}
	if p.After(ctx, &Call{Tool: "a__b"}, nil) != nil {
		t.Error("nil result: got a result")
	}
	p.Before(ctx, nil) // must not panic

	img := &mcp.ImageContent{MIMEType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}}
	in := &mcp.CallToolResult{Content: []mcp.Content{img}, StructuredContent: map[string]any{"a": 1}}
	if out := p.After(ctx, &Call{Tool: "a__b"}, in); out != in {
		t.Error("a result without text was copied or changed")
	}
	big := mustJSON(t, issues(80), true)
	more := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: big}, img}}
	for range 2 {
		if out := p.After(ctx, &Call{Tool: MoreToolName}, more); out != more {
			t.Error("a winnow__more result was processed")
		}
	}
	out := p.After(ctx, &Call{Tool: "a__list"}, more)
	if out == more || out.Content[1] != img {
		t.Errorf("want a new result sharing the image content, got %p with content %T", out, out.Content[1])
	}
	if more.Content[0].(*mcp.TextContent).Text != big {
		t.Error("the upstream's text content was modified")
	}
}

func TestBoundedState(t *testing.T) {
	ctx := t.Context()
	body := mustJSON(t, issues(3), true)
	t.Run("sessions", func(t *testing.T) {
		p := Default(Options{MaxSessions: 2})
		for _, s := range []string{"s1", "s2", "s3", "s1"} {
			got := onlyText(t, p.After(ctx, &Call{Session: s, Tool: "a__get"}, textResult(body)))
			if strings.HasPrefix(got, "[same") {
				t.Errorf("session %s: deduplicated against a session that should have been forgotten", s)
			}
		}
	})
	t.Run("refs", func(t *testing.T) {
		p := Default(Options{MaxRefs: 1, CallBudget: 300})
		first := onlyText(t, p.After(ctx, &Call{Session: "s", Tool: "a__list", Args: json.RawMessage(`{"page":1}`)}, textResult(mustJSON(t, issues(40), true))))
		p.After(ctx, &Call{Session: "s", Tool: "a__list", Args: json.RawMessage(`{"page":2}`)}, textResult(mustJSON(t, issues(41), true)))
		_, hint := splitHint(first)
		m := nextCall.FindStringSubmatch(hint)
		if m == nil {
			t.Fatalf("no hint in %q", hint)
		}
		res := p.More("s", json.RawMessage(m[1]))
		if !res.IsError || !strings.Contains(onlyText(t, res), "repeat the original tool call") {
			t.Errorf("an evicted ref: got %+v, want a tool error saying what to do", onlyText(t, res))
		}
	})
}

// TestLargeText sends 50 MB texts through the default pipeline: they are
// trimmed to the budget, their rest is served by winnow__more, and a
// repeat is deduplicated. The time is logged, not asserted.
func TestLargeText(t *testing.T) {
	if testing.Short() {
		t.Skip("50 MB inputs")
	}
	const size = 50 << 20
	var lines strings.Builder
	for i := 0; lines.Len() < size; i++ {
		fmt.Fprintf(&lines, "2025-03-02T10:00:00Z INFO request %d served in %d ms by worker %d\n", i, i%97, i%13)
	}
	var arr strings.Builder
	arr.WriteString("[")
	for i := 0; arr.Len() < size; i++ {
		if i > 0 {
			arr.WriteString(",")
		}
		fmt.Fprintf(&arr, `{"id":%d,"name":"item %d","tags":["a","b"],"ok":true}`, i, i)
	}
	arr.WriteString("]")
	for _, tt := range []struct{ name, text string }{{"lines", lines.String()}, {"json array", arr.String()}} {
		t.Run(tt.name, func(t *testing.T) {
			p := Default(Options{})
			c := &Call{Session: "s", Tool: "a__dump", Args: json.RawMessage(`{"worker":7}`)}
			start := time.Now()
			view := onlyText(t, p.After(t.Context(), c, textResult(tt.text)))
			t.Logf("%s: %d MB → %d bytes in %v", tt.name, len(tt.text)>>20, len(view), time.Since(start))
			if n := p.opts.Counter.Count(view); n > DefaultCallBudget {
				t.Errorf("view of %d tokens, over the budget", n)
			}
			_, hint := splitHint(view)
			m := nextCall.FindStringSubmatch(hint)
			if m == nil {
				t.Fatalf("no hint in %q", hint)
			}
			if res := p.More("s", json.RawMessage(m[1])); res.IsError {
				t.Errorf("first page: %s", onlyText(t, res))
			}
			start = time.Now()
			again := onlyText(t, p.After(t.Context(), c, textResult(tt.text)))
			t.Logf("%s: repeat in %v", tt.name, time.Since(start))
			if !strings.HasPrefix(again, "[same result as a__dump") {
				t.Errorf("repeat not deduplicated: %.100q", again)
			}
		})
	}
}

// TestConcurrentSessions runs sessions in parallel, each with calls of its
// own in parallel; run it with -race. References never cross sessions.
func TestConcurrentSessions(t *testing.T) {
	p := Default(Options{CallBudget: 400})
	ctx := t.Context()
	var wg sync.WaitGroup
	for s := range 8 {
		session := fmt.Sprintf("s%d", s)
		body := mustJSON(t, issues(3+s), true) // each session's own body
		for g := range 4 {
			wg.Go(func() {
				for i := range 20 {
					args := json.RawMessage(fmt.Sprintf(`{"g":%d,"i":%d}`, g, i%3))
					c := &Call{Session: session, Tool: "gh__get", Args: args}
					p.Before(ctx, c)
					out := onlyText(t, p.After(ctx, c, textResult(body)))
					if strings.HasPrefix(out, "[same") {
						continue
					}
					if _, hint := splitHint(out); strings.Contains(hint, "winnow__more") {
						if res := p.More(session, json.RawMessage(nextCall.FindStringSubmatch(hint)[1])); res.IsError {
							t.Errorf("%s: %s", session, onlyText(t, res))
						}
					}
					p.Before(ctx, &Call{Session: session, Tool: "gh__update_issue", Args: args})
				}
			})
		}
	}
	wg.Wait()
	for s := range 8 {
		session := fmt.Sprintf("s%d", s)
		c := &Call{Session: session, Tool: "gh__get", Args: json.RawMessage(`{"final":true}`)}
		p.After(ctx, c, textResult(mustJSON(t, issues(3+s), true)))
		out := onlyText(t, p.After(ctx, c, textResult(mustJSON(t, issues(3+s), true))))
		if !strings.HasPrefix(out, `[same result as gh__get {"final":true}, 1 call ago]`) {
			t.Errorf("%s: %q", session, out)
		}
	}
}

// TestTelemetryHoldsNoText records a session that exercises every layer
// into a real telemetry file and checks the events: what they count, and
// that no response text or argument value is in the file.
func TestTelemetryHoldsNoText(t *testing.T) {
	path := filepath.Join(t.TempDir(), "telemetry.jsonl")
	w, err := telemetry.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := Default(Options{CallBudget: 500, Telemetry: w})
	ctx := t.Context()
	const argSecret, bodySecret = "argsecret-q7", "bodysecret-z9"
	list := issues(60)
	list[5]["title"] = bodySecret
	issue := list[7]
	issue["body"] = bodySecret + " " + issue["body"].(string)
	closed := map[string]any{}
	for k, v := range issue {
		closed[k] = v
	}
	closed["state"] = "reopened"
	steps := []struct {
		tool  string
		args  string
		body  string
		err   bool
		layer string
	}{
		{"gh__list", `{"q":"` + argSecret + `"}`, mustJSON(t, list, true), false, "encode+trim"},
		{"gh__get", `{"n":7}`, mustJSON(t, issue, true), false, "encode"},
		{"gh__get", `{"n":7}`, mustJSON(t, issue, true), false, "dedup"},
		{"gh__get", `{"n":7}`, mustJSON(t, closed, true), false, "near_ref"},
		{"gh__get", `{"n":8}`, bodySecret + " not found", true, "none"},
	}
	for _, st := range steps {
		c := &Call{Session: "session-" + argSecret, Tool: st.tool, Args: json.RawMessage(st.args)}
		res := textResult(st.body)
		res.IsError = st.err
		p.Before(ctx, c)
		p.After(ctx, c, res)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{argSecret, bodySecret, "Steps to reproduce", `"q"`} {
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("the telemetry file holds %q:\n%s", secret, data)
		}
	}
	var events []telemetry.Event
	if _, err := telemetry.Scan(bytes.NewReader(data), func(ev telemetry.Event) { events = append(events, ev) }); err != nil {
		t.Fatal(err)
	}
	if len(events) != len(steps) {
		t.Fatalf("%d events, want %d:\n%s", len(events), len(steps), data)
	}
	for i, ev := range events {
		st := steps[i]
		if ev.Tool != st.tool || ev.Layer != st.layer || ev.Error != st.err {
			t.Errorf("event %d: tool %s layer %s error %v, want %s %s %v", i+1, ev.Tool, ev.Layer, ev.Error, st.tool, st.layer, st.err)
		}
		saved := 0
		for _, l := range ev.Layers {
			saved += l.Before - l.After
		}
		if diff := ev.Before - ev.After - saved; diff < -3 || diff > 3 {
			t.Errorf("event %d: before %d - after %d = %d, but the layers saved %d", i+1, ev.Before, ev.After, ev.Before-ev.After, saved)
		}
		if ev.Counter != telemetry.CounterExact || len(ev.Session) != 16 || len(ev.Args) != 16 {
			t.Errorf("event %d: counter %q session %q args %q", i+1, ev.Counter, ev.Session, ev.Args)
		}
	}
	if !events[2].Dedup || !events[3].Dedup || events[1].Dedup {
		t.Errorf("dedup flags %v %v %v, want false true true", events[1].Dedup, events[2].Dedup, events[3].Dedup)
	}
	if events[1].Args != events[2].Args || events[1].Args == events[4].Args {
		t.Error("equal arguments must hash alike, different ones differently")
	}
	if events[0].After >= events[0].Before || events[0].Before < 2000 {
		t.Errorf("trimmed list: %d → %d tokens", events[0].Before, events[0].After)
	}
}

// TestConcurrentNearRefs polls one issue from several goroutines of one
// session while its state changes, with arguments long enough to stamp
// results: exact and near references, stamps and cache updates all race.
// Run it with -race.
func TestConcurrentNearRefs(t *testing.T) {
	p := Default(Options{})
	ctx := t.Context()
	states := []string{"open", "closed", "reopened"}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 30 {
				issue := issues(8)[7]
				issue["state"] = states[(g+i)%3]
				c := &Call{Session: "s", Tool: "gh__get_issue", Args: json.RawMessage(`{"owner":"acme","repo":"widget","issue_number":1007,"include":"all"}`)}
				out := onlyText(t, p.After(ctx, c, textResult(mustJSON(t, issue, true))))
				switch {
				case strings.HasPrefix(out, "[same result as #r"), strings.HasPrefix(out, "[same as #r"), strings.HasPrefix(out, "#r"):
				default:
					t.Errorf("unexpected result %.80q", out)
				}
			}
		})
	}
	wg.Wait()
}
