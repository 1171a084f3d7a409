package compact

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/winnowhq/winnow/internal/chat"
	"github.com/winnowhq/winnow/internal/compact/traj"
)

var trajectoryDir = filepath.Join("traj", "testdata", "trajectories")

// loadTrajectories returns the recorded trajectories, and the tool-form
// OpenAI ones again in the Anthropic dialect, so that both dialects are
// exercised in both forms (the recorded Anthropic runs are text-form).
func loadTrajectories(t testing.TB) []traj.Trajectory {
	t.Helper()
	ts, err := traj.Load(trajectoryDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []traj.Trajectory
	for _, tr := range ts {
		out = append(out, tr)
		if a, ok := toAnthropic(t, tr); ok {
			out = append(out, a)
		}
	}
	return out
}

// toAnthropic rewrites an OpenAI trajectory with tool calls as Anthropic
// messages: tool_calls become tool_use blocks, runs of tool messages one
// user message of tool_result blocks, the system message the system
// prompt. It reports false for a trajectory without tool calls.
func toAnthropic(t testing.TB, tr traj.Trajectory) (traj.Trajectory, bool) {
	t.Helper()
	if tr.Dialect != traj.OpenAI {
		return tr, false
	}
	type call struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	}
	type message struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCalls  []call          `json:"tool_calls"`
		ToolCallID string          `json:"tool_call_id"`
	}
	text := func(raw json.RawMessage) string {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		var parts []struct {
			Text string `json:"text"`
		}
		_ = json.Unmarshal(raw, &parts)
		out := ""
		for _, p := range parts {
			out += p.Text
		}
		return out
	}
	out := traj.Trajectory{Name: tr.Name + " (as anthropic)", Format: traj.FormatAnthropicMessages, Dialect: traj.Anthropic, Model: "claude-sonnet-4-5"}
	var blocks []map[string]any // the user turn being built
	var msgs []json.RawMessage
	flush := func(role string) {
		if len(blocks) > 0 {
			b, _ := json.Marshal(map[string]any{"role": role, "content": blocks})
			msgs = append(msgs, b)
			blocks = nil
		}
	}
	calls := false
	ids := map[string]int{} // SWE-agent's demonstrations reuse call ids; Anthropic's ids are unique
	for _, raw := range tr.Messages {
		var m message
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		switch m.Role {
		case "system":
			out.System += text(m.Content)
		case "tool":
			blocks = append(blocks, map[string]any{"type": "tool_result", "tool_use_id": fmt.Sprint(m.ToolCallID, "_", ids[m.ToolCallID]), "content": text(m.Content)})
		case "user":
			if s := text(m.Content); s != "" {
				blocks = append(blocks, map[string]any{"type": "text", "text": s})
			}
		case "assistant":
			flush("user")
			var content []map[string]any
			if s := text(m.Content); s != "" {
				content = append(content, map[string]any{"type": "text", "text": s})
			}
			for _, c := range m.ToolCalls {
				calls = true
				ids[c.ID]++
				var input any = map[string]any{}
				_ = json.Unmarshal([]byte(c.Function.Arguments), &input)
				if _, ok := input.(map[string]any); !ok {
					input = map[string]any{"value": input}
				}
				content = append(content, map[string]any{"type": "tool_use", "id": fmt.Sprint(c.ID, "_", ids[c.ID]), "name": c.Function.Name, "input": input})
			}
			if len(content) == 0 {
				content = append(content, map[string]any{"type": "text", "text": "…"})
			}
			b, _ := json.Marshal(map[string]any{"role": "assistant", "content": content})
			msgs = append(msgs, b)
		}
	}
	flush("user")
	out.Messages = msgs
	if err := out.Validate(); err != nil {
		t.Fatalf("%s: %v", out.Name, err)
	}
	return out, calls
}

// validateBodies checks out against orig the way the benchmark does: both
// decoded on their own, then Validate.
func validateBodies(t *testing.T, dialect string, orig, out []byte) {
	t.Helper()
	o, err := decodeBody(dialect, orig)
	if err != nil {
		t.Fatal(err)
	}
	c, err := decodeBody(dialect, out)
	if err != nil {
		t.Fatalf("the compacted body does not decode: %v", err)
	}
	if vs := Validate(chat.Dialect(dialect), o, c); len(vs) > 0 {
		t.Errorf("violations: %v", vs)
	}
}

func decodeBody(dialect string, body []byte) (*chat.Conversation, error) {
	decode, _, err := codec(dialect)
	if err != nil {
		return nil, err
	}
	return decode(body)
}

// TestSticky checks the property the package is built around, on every
// recorded trajectory in both dialects: the compacted request n+1 starts
// with the compacted messages of request n, message for message, except
// at a batch point, where the change starts no earlier than the first
// message the batch may change; and batch points are rare. It runs with
// the defaults and with options that fire a batch as often as they can,
// snip before clearing and trim to a small hard limit, to exercise every
// pass on real conversations.
func TestSticky(t *testing.T) {
	configs := []struct {
		name string
		opts Options
		rare func(points, requests int) bool
	}{
		{"defaults", Options{}, func(p, n int) bool { return p <= max(2, n/4) }},
		{"eager", Options{Keep: 1, Trigger: 1000, MinBatch: 300, Payback: -1, SnipFirst: 1, HardLimit: 6000, Sink: 2},
			func(p, n int) bool { return p <= n }},
	}
	reports := map[string]int{} // passes that changed something, over all requests
	for _, cfg := range configs {
		t.Run(cfg.name, func(t *testing.T) {
			c := New(cfg.opts)
			clear(reports)
			total, points := 0, 0
			for _, tr := range loadTrajectories(t) {
				t.Run(tr.Name, func(t *testing.T) {
					n, p := stickyRun(t, c, tr, reports)
					if !cfg.rare(p, n) {
						t.Errorf("%d batch points in %d requests; batches must be rare", p, n)
					}
					total += n
					points += p
				})
			}
			t.Logf("all: %d requests, %d batch points; requests changed by pass: %v", total, points, reports)
			if points == 0 {
				t.Error("no batch fired on any trajectory: the property was not exercised")
			}
			if cfg.name == "eager" {
				// Not args: the recorded runs hardly repeat a large argument
				// (768 bytes in all); passes_test covers it.
				for _, p := range []string{passDedup, passSnip, passClear, passLexical, passTrim} {
					if reports[p] == 0 {
						t.Errorf("pass %s changed nothing: the property was not exercised for it", p)
					}
				}
			}
		})
	}
}

// stickyRun compacts every request of tr with c, checks each against the
// one before, and returns the number of requests and of batch points.
func stickyRun(t *testing.T, c *Compactor, tr traj.Trajectory, reports map[string]int) (requests, points int) {
	var prev []string
	var prevBatches []Batch
	changed := 0
	for r, err := range traj.Requests(tr, nil) {
		if err != nil {
			t.Fatal(err)
		}
		requests++
		out, sum, err := c.Rewrite(tr.Dialect, r.Body)
		if err != nil || len(sum.Violations) > 0 {
			t.Fatalf("request %d: %v %v", requests, err, sum.Violations)
		}
		if sum.Changed {
			changed++
			validateBodies(t, tr.Dialect, r.Body, out)
		}
		for _, rep := range sum.Reports {
			if rep.Changed > 0 {
				reports[rep.Pass]++
			}
		}
		msgs := messagesOf(t, out)
		if prev != nil {
			if len(sum.Batches) < len(prevBatches) || !cmp.Equal(prevBatches, sum.Batches[:len(prevBatches)], cmpopts.EquateEmpty()) {
				t.Fatalf("request %d: the batches of request %d changed: %v, then %v", requests, requests-1, prevBatches, sum.Batches)
			}
			shared := len(prev)
			if len(sum.Batches) > len(prevBatches) {
				points++
				from := len(prev) + dropped(prevBatches, len(prev))
				for _, b := range sum.Batches[len(prevBatches):] {
					from = min(from, b.From)
				}
				shared = from - dropped(prevBatches, from) // messages are indexed as received, before trim-middle
			}
			if diff := cmp.Diff(prev[:shared], msgs[:shared]); diff != "" {
				t.Fatalf("request %d does not start with request %d's first %d compacted messages (-prev +got):\n%s", requests, requests-1, shared, diff)
			}
		}
		prev, prevBatches = msgs, sum.Batches
	}
	t.Logf("%d requests, %d compacted, %d batch points", requests, changed, points)
	return requests, points
}

// dropped returns how many of the first n messages the batches drop.
func dropped(batches []Batch, n int) int {
	d := 0
	for _, b := range batches {
		for _, sp := range b.Drop {
			d += max(0, min(sp[1], n)-sp[0])
		}
	}
	return d
}
