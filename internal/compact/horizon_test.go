package compact

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/winnowhq/winnow/internal/chat"
)

func batchesOf(t *testing.T, d chat.Dialect, body string, opts Options) []Batch {
	t.Helper()
	on := map[string]bool{}
	for _, n := range PassNames() {
		on[n] = true
	}
	return newState(decode(t, d, body), opts.withDefaults(), on).batches
}

func TestReplay(t *testing.T) {
	body, _ := openAIAgent()
	// The run's messages: 0 system, 1 task, then six calls (2, 4, …, 12)
	// each answered by the next message.
	for _, tc := range []struct {
		name string
		opts Options
		want []Batch
	}{
		{"every output as soon as it is stale", testOptions, []Batch{
			{At: 6, From: 0, Horizon: 4},
			{At: 8, From: 4, Horizon: 6},
			{At: 10, From: 6, Horizon: 8},
			// message 9 ("Wrote a.py.") is too small to reclaim anything, so
			// no batch at 12; at 14 the stale outputs 9 and 11 are worth one.
			{At: 14, From: 8, Horizon: 12},
		}},
		{"keep three", withOpts(testOptions, func(o *Options) { o.Keep = 3 }), []Batch{
			{At: 10, From: 0, Horizon: 4},
			{At: 12, From: 4, Horizon: 6},
			{At: 14, From: 6, Horizon: 8},
		}},
		{"trigger above the request", withOpts(testOptions, func(o *Options) { o.Trigger = 100_000 }), nil},
		{"min batch: wait until enough is stale", withOpts(testOptions, func(o *Options) { o.MinBatch = 150 }), []Batch{
			{At: 8, From: 0, Horizon: 6},
			{At: 14, From: 6, Horizon: 12},
		}},
		// Estimated tokens of messages 3 to 13: 139 (reclaims 95), 10, 125
		// (81), 12, 139 (95), 166, 8, 150, 123 (79), 10, 6. A batch must
		// reclaim half of what it rewrites, from its first stale output on:
		// at 6, 95 of 139+10+125-95; at 8, 81 of 125+12+139-81 = 195 is too
		// little; at 10, 176 of 450-176; at 14, 79 of 123+10+6-79.
		{"payback", withOpts(testOptions, func(o *Options) { o.Payback = 0.5 }), []Batch{
			{At: 6, From: 0, Horizon: 4},
			{At: 10, From: 4, Horizon: 8},
			{At: 14, From: 8, Horizon: 12},
		}},
		{"snip first: a batch also clears what the one before snipped", withOpts(testOptions, func(o *Options) { o.SnipFirst = 1 }), []Batch{
			{At: 6, From: 0, Horizon: 4},
			{At: 8, From: 0, Horizon: 6},
			{At: 10, From: 4, Horizon: 8},
			{At: 14, From: 6, Horizon: 12},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := batchesOf(t, chat.OpenAI, body, tc.opts)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func withOpts(o Options, f func(*Options)) Options {
	f(&o)
	return o
}

// TestReplayParallelCalls checks that the horizon never falls between a
// call and its results: the assistant message with three calls and its
// three tool messages go stale together.
func TestReplayParallelCalls(t *testing.T) {
	out := func(id string) string {
		return `{"role":"tool","tool_call_id":"` + id + `","content":` + js(lines(id, 40)) + `}`
	}
	msgs := []string{
		`{"role":"user","content":"go"}`,
		`{"role":"assistant","content":null,"tool_calls":[` +
			`{"id":"a","type":"function","function":{"name":"cat","arguments":"{}"}},` +
			`{"id":"b","type":"function","function":{"name":"cat","arguments":"{}"}},` +
			`{"id":"c","type":"function","function":{"name":"cat","arguments":"{}"}}]}`,
		out("a"), out("b"), out("c"),
		`{"role":"assistant","content":null,"tool_calls":[{"id":"d","type":"function","function":{"name":"cat","arguments":"{}"}}]}`,
		out("d"),
	}
	body := `{"model":"m","messages":[` + strings.Join(msgs, ",") + `]}`
	got := batchesOf(t, chat.OpenAI, body, withOpts(testOptions, func(o *Options) { o.Keep = 2 }))
	// Keeping two outputs means keeping c and d; c's call is message 1,
	// so the horizon can only be 1, and nothing before it is an output.
	if len(got) != 0 {
		t.Errorf("batches %+v, want none", got)
	}
	got = batchesOf(t, chat.OpenAI, body, testOptions)
	if diff := cmp.Diff([]Batch{{At: 7, From: 0, Horizon: 5}}, got); diff != "" {
		t.Errorf("keep one (-want +got):\n%s", diff)
	}
}

// newState analyses conv and replays its history, knowing nothing of it
// beforehand.
func newState(conv *chat.Conversation, opts Options, on map[string]bool) *State {
	return newSeededState(conv, opts, on, seed{})
}
