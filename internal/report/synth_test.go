package report

import (
	"bufio"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/winnowhq/winnow/internal/telemetry"
)

var synthOut = flag.String("synth", "", "write 100,000 synthetic telemetry events spanning a year to this file (TestWriteSynth), e.g. to time `winnow report --file`")

// synth describes synthetic telemetry shaped like a team's: sessions in
// working hours, each an agent calling MCP tools through the gateway
// (about 40% of the events) while its conversation goes through the
// proxy, whose requests grow turn by turn and mostly hit the prompt cache.
type synth struct {
	Events int
	Start  time.Time
	Span   time.Duration
	Seed   uint64
}

var synthTools = []struct {
	name   string
	weight int
	size   float64 // median tokens the upstream returns
}{
	{"github__list_issues", 14, 9000}, {"github__get_issue", 10, 1800}, {"github__search_code", 8, 6000},
	{"github__get_pull_request_diff", 6, 12000}, {"github__list_commits", 5, 7000},
	{"filesystem__read_text_file", 16, 3500}, {"filesystem__list_directory", 9, 900},
	{"filesystem__search_files", 4, 2500}, {"jira__search_issues", 5, 11000}, {"jira__get_issue", 4, 2200},
	{"gitlab__list_merge_requests", 3, 8000}, {"sentry__list_events", 3, 15000},
	{"winnow__context", 6, 2500}, {"winnow__find_symbol", 4, 600}, {"winnow__more", 2, 3000},
	{"postgres__query", 3, 5000},
}

var synthModels = []struct {
	model, client string
	weight        int
}{
	{"claude-opus-5-5", "claude-code", 40}, {"claude-sonnet-5-5", "claude-code", 22},
	{"gpt-5.5-codex", "codex", 14}, {"gpt-5.4", "codex", 12}, {"claude-haiku-4-5", "anthropic-sdk", 7},
	{"gpt-5-mini", "openai-sdk", 5},
}

var synthPasses = []string{"dedup", "snip", "clear", "args", "lexical", "thinking", "trim"}

// events generates s.Events events in time order.
func (s synth) events() (tools []telemetry.Event, proxy []telemetry.ProxyEvent) {
	rng := rand.New(rand.NewPCG(s.Seed, s.Seed^0x9e3779b97f4a7c15))
	hex := func() string { return fmt.Sprintf("%016x", rng.Uint64()) }
	days := max(int(s.Span/(24*time.Hour)), 1)
	for n := 0; n < s.Events; {
		// A session: a working hour on a random day (or anywhere in a
		// span shorter than a day), 20 to 300 events over up to 2 hours.
		var at time.Time
		if s.Span < 24*time.Hour {
			at = s.Start.Add(time.Duration(rng.Int64N(int64(s.Span))))
		} else {
			day := s.Start.AddDate(0, 0, rng.IntN(days))
			at = time.Date(day.Year(), day.Month(), day.Day(), 8+rng.IntN(11), rng.IntN(60), 0, 0, time.UTC)
		}
		size := min(20+rng.IntN(280), s.Events-n)
		length := time.Duration(10+rng.IntN(110)) * time.Minute
		if s.Span < 24*time.Hour {
			length = min(length, s.Start.Add(s.Span).Sub(at))
		}
		session, conv := hex(), hex()
		m := synthModels[pick(rng, len(synthModels), func(i int) int { return synthModels[i].weight })]
		turn := 0
		for range size {
			t := at.Add(time.Duration(rng.Int64N(int64(length) + 1)))
			if rng.IntN(10) < 4 {
				tools = append(tools, synthToolEvent(rng, t, session, hex()))
			} else {
				proxy = append(proxy, synthProxyEvent(rng, t, conv, m.model, m.client, turn))
				turn++
			}
			n++
		}
	}
	slices.SortFunc(tools, func(a, b telemetry.Event) int { return a.Time.Compare(b.Time) })
	slices.SortFunc(proxy, func(a, b telemetry.ProxyEvent) int { return a.Time.Compare(b.Time) })
	return tools, proxy
}

func synthToolEvent(rng *rand.Rand, t time.Time, session, args string) telemetry.Event {
	tool := synthTools[pick(rng, len(synthTools), func(i int) int { return synthTools[i].weight })]
	before := max(int(tool.size*math.Exp(rng.NormFloat64()*0.8)), 20)
	ev := telemetry.Event{Time: t, Tool: tool.name, Session: session, Args: args, Shape: "array",
		Before: before, After: before, Layer: telemetry.LayerNone, LatencyUS: 200 + rng.Int64N(4000), Counter: telemetry.CounterExact}
	step := func(layer string, after int) {
		ev.Layers = append(ev.Layers, telemetry.LayerTokens{Layer: layer, Before: ev.After, After: after})
		ev.After = after
	}
	switch r := rng.IntN(100); {
	case r < 35:
	case r < 60:
		step(telemetry.LayerEncode, ev.After*(45+rng.IntN(40))/100)
	case r < 70:
		step(telemetry.LayerTrim, min(ev.After, 4000+rng.IntN(2000)))
	case r < 85:
		step(telemetry.LayerEncode, ev.After*(45+rng.IntN(40))/100)
		step(telemetry.LayerTrim, min(ev.After, 4000+rng.IntN(2000)))
	case r < 95:
		step(telemetry.LayerDedup, 25)
		ev.Dedup = true
	default:
		step(telemetry.LayerNearRef, ev.After/10+30)
		ev.Dedup = true
	}
	var names []string
	for _, l := range ev.Layers {
		if l.Before != l.After {
			names = append(names, l.Layer)
		}
	}
	if len(names) > 0 {
		ev.Layer = names[0]
		for _, n := range names[1:] {
			ev.Layer += "+" + n
		}
	}
	ev.Error = rng.IntN(100) == 0
	if ev.Before > 50000 {
		ev.Counter = telemetry.CounterEstimate
	}
	return ev
}

func synthProxyEvent(rng *rand.Rand, t time.Time, conv, model, client string, turn int) telemetry.ProxyEvent {
	dialect, path := "anthropic", "/v1/messages"
	if client == "codex" || client == "openai-sdk" {
		dialect, path = "openai", "/v1/responses"
	}
	before := 6000 + turn*(800+rng.IntN(1600))
	ev := telemetry.ProxyEvent{Kind: telemetry.KindProxy, Time: t, Dialect: dialect, Path: path, Client: client,
		Model: model, Conversation: conv, Status: 200, Rewrite: "unchanged", TokensBefore: before, TokensAfter: before}
	switch r := rng.IntN(100); {
	case r < 8:
		ev.Rewrite, ev.Reason, ev.TokensBefore, ev.TokensAfter = "bypassed", "too_small", 0, 0
	case r < 25 || turn < 3:
	default:
		ev.Rewrite = "changed"
		for _, p := range rng.Perm(len(synthPasses))[:1+rng.IntN(3)] {
			cut := ev.TokensAfter * (2 + rng.IntN(15)) / 100
			ev.Passes = append(ev.Passes, telemetry.PassTokens{Pass: synthPasses[p], Changed: 1 + rng.IntN(12), Before: cut + 40, After: 40})
			ev.TokensAfter -= cut
		}
	}
	if rng.IntN(20) == 0 {
		ev.EditRequested = true
		ev.ServerEdits = []telemetry.ServerEdit{{Type: "clear_tool_uses_20250919", ClearedToolUses: 1 + rng.IntN(6), ClearedInputTokens: 2000 + rng.IntN(20000)}}
	}
	if rng.IntN(50) == 0 {
		ev.Status = 499 // the client left: no usage
		return ev
	}
	prompt := max(ev.TokensAfter, 1000) * (100 + rng.IntN(12)) / 100
	u := telemetry.Usage{Output: 150 + rng.IntN(2500)}
	switch {
	case turn == 0:
		u.CacheWrite = prompt * 9 / 10
	case rng.IntN(12) == 0: // the cache expired
		u.CacheWrite = prompt * 9 / 10
	default:
		u.CacheRead = prompt * (80 + rng.IntN(18)) / 100
		u.CacheWrite = (prompt - u.CacheRead) * 2 / 3
	}
	u.Input = prompt - u.CacheRead - u.CacheWrite
	if dialect == "openai" {
		u.Input, u.CacheWrite = u.Input+u.CacheWrite, 0
	}
	ev.Usage = &u
	return ev
}

// pick draws an index from 0 to n-1 with the weights weight(i).
func pick(rng *rand.Rand, n int, weight func(int) int) int {
	total := 0
	for i := range n {
		total += weight(i)
	}
	r := rng.IntN(total)
	for i := range n {
		if r -= weight(i); r < 0 {
			return i
		}
	}
	return n - 1
}

// write writes the events as a telemetry file, one JSON line each, in time
// order as the writer would have.
func (s synth) write(path string) error {
	tools, proxy := s.events()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	i, j := 0, 0
	for i < len(tools) || j < len(proxy) {
		if j == len(proxy) || (i < len(tools) && cmp.Less(tools[i].Time.UnixNano(), proxy[j].Time.UnixNano())) {
			err = enc.Encode(tools[i])
			i++
		} else {
			err = enc.Encode(proxy[j])
			j++
		}
		if err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// synthFile writes s into a telemetry file in a temporary directory.
func synthFile(tb testing.TB, s synth) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "telemetry.jsonl")
	if err := s.write(path); err != nil {
		tb.Fatal(err)
	}
	return path
}

// yearOfEvents is the benchmark's data: 100,000 events over a year.
var yearOfEvents = synth{Events: 100_000, Start: time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC), Span: 365 * 24 * time.Hour, Seed: 15}

// TestWriteSynth writes yearOfEvents to the file -synth names, for timing
// the real command: go test ./internal/report -run TestWriteSynth -synth /tmp/big.jsonl
func TestWriteSynth(t *testing.T) {
	if *synthOut == "" {
		t.Skip("-synth not given")
	}
	if err := yearOfEvents.write(*synthOut); err != nil {
		t.Fatal(err)
	}
}
