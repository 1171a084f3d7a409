package enrich

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/compact/traj"
	"github.com/winnowhq/winnow/internal/planner"
	"github.com/winnowhq/winnow/internal/toolvalue"
)

// dataDir holds the shared trajectories (MIT; see its README), checked in once for
// every package that replays them.
const dataDir = "../../compact/traj/testdata/trajectories"

func builtinPlanner() *planner.Planner {
	return &planner.Planner{Models: toolvalue.NewRegistry(toolvalue.Builtin()).Model}
}

// TestSharedTrajectories replays the shared trajectories with the built-in models and
// checks that the report adds up; it does not hold the planner to the targets.
func TestSharedTrajectories(t *testing.T) {
	ts, err := traj.Load(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(t.Context(), ts, Options{Planner: builtinPlanner(), PerTrajectory: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Trajectories != len(ts) || len(rep.Runs) != len(ts) {
		t.Fatalf("%d trajectories, %d runs reported, want %d", rep.Trajectories, len(rep.Runs), len(ts))
	}
	if rep.Calls != 288 {
		t.Errorf("%d calls, want the 288 of the shared trajectories", rep.Calls)
	}
	checkConsistent(t, "all", &rep.Counts, rep.Rates, rep.Without, rep.With)
	var sum Counts
	for _, r := range rep.Runs {
		checkConsistent(t, r.Name, &r.Counts, r.Rates, r.Without, r.With)
		sum.add(&r.Counts)
	}
	if diff := cmp.Diff(sum, rep.Counts); diff != "" {
		t.Errorf("the runs' counts do not add up to the report's (-sum +report):\n%s", diff)
	}
	again, err := Run(t.Context(), ts, Options{Planner: builtinPlanner(), PerTrajectory: true})
	if err != nil {
		t.Fatal(err)
	}
	again.ElapsedMS, again.LoadAvg, again.LoadAvgEnd = rep.ElapsedMS, rep.LoadAvg, rep.LoadAvgEnd
	if diff := cmp.Diff(rep, again); diff != "" {
		t.Errorf("a second replay differs (-first +second):\n%s", diff)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%d of %d turns only read what an earlier result names", rep.TurnsSavedCeiling, rep.Turns); rep.TurnsSavedCeiling == 0 || !strings.Contains(text.String(), want) {
		t.Errorf("the text report does not give the ceiling (%d turns):\n%s", rep.TurnsSavedCeiling, text.String())
	}
	var out bytes.Buffer
	if err := rep.WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	var keys map[string]any
	if err := json.Unmarshal(out.Bytes(), &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"prefetch_hit_rate", "decline_recall_loss", "cost_overrun_rate", "turns_saved_ratio", "turns_saved_ceiling", "turns_saved_ceiling_ratio", "net_cost_ratio", "calls_saved", "load_avg"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("--json has no %q", k)
		}
	}
}

func checkConsistent(t *testing.T, name string, c *Counts, r Rates, without, with Cost) {
	t.Helper()
	le := func(what string, a, b int) {
		if a > b {
			t.Errorf("%s: %s: %d > %d", name, what, a, b)
		}
	}
	le("inline hits <= inlined", c.InlineHits, c.Inlined)
	le("inlined <= inline decisions", c.Inlined, c.Inlines)
	le("prefetch hits <= prefetches", c.PrefetchHits, c.Prefetches)
	le("declines lost <= declines called", c.DeclinesLost, c.DeclinesCalled)
	le("declines called <= declines", c.DeclinesCalled, c.Declines)
	le("overruns <= known sizes", c.Overruns, c.Predictions)
	le("known sizes <= admitted", c.Predictions, c.Inlined+c.Prefetches)
	le("turns saved <= calls saved by inline", c.TurnsSaved, c.Saved[bucketInline])
	le("turns saved <= speculable turns", c.TurnsSaved, c.SpeculableTurns)
	le("turns saved ceiling <= speculable turns", c.TurnsSavedCeiling, c.SpeculableTurns)
	le("turns saved ceiling <= reads named", c.TurnsSavedCeiling, c.NamedReads)
	le("speculable turns <= turns", c.SpeculableTurns, c.Turns)
	le("turns <= calls", c.Turns, c.Calls)
	if n := c.Inlined + c.Prefetches + c.Declines; n != c.Candidates {
		t.Errorf("%s: %d inlined + %d prefetched + %d declined = %d, not the %d candidates", name, c.Inlined, c.Prefetches, c.Declines, n, c.Candidates)
	}
	saved := 0
	for _, n := range c.Saved {
		saved += n
	}
	le("calls saved <= calls", saved, c.Calls)
	if p := c.Calls - c.Saved[bucketInline] - c.Saved[bucketFailFast]; p != c.Plans {
		t.Errorf("%s: %d plans, want one per call the gateway saw (%d)", name, c.Plans, p)
	}
	reasons := 0
	for _, rc := range c.DeclineReasons {
		reasons += rc.Declines
	}
	if reasons != c.Declines {
		t.Errorf("%s: declines by reason add up to %d, not %d", name, reasons, c.Declines)
	}
	if with.Requests != without.Requests-c.TurnsSaved {
		t.Errorf("%s: %d requests with enrichment, want %d without less %d turns saved", name, with.Requests, without.Requests, c.TurnsSaved)
	}
	if c.TurnsSaved == 0 && c.InlinedTokens == 0 && with != without {
		t.Errorf("%s: nothing inlined or saved, but the cost changed: %+v, was %+v", name, with, without)
	}
	if without.Anthropic <= 0 || without.OpenAI <= 0 {
		t.Errorf("%s: the runs cost nothing: %+v", name, without)
	}
	if want := c.rates(without, with); r != want {
		t.Errorf("%s: rates %+v, want %+v from the counts", name, r, want)
	}
}

// agentRun builds an OpenAI trajectory from alternating assistant calls and their
// results, after a system prompt of sys words and a task.
func agentRun(t *testing.T, sys int, steps ...[2]string) traj.Trajectory {
	t.Helper()
	msgs := []map[string]any{
		{"role": "system", "content": strings.Repeat("You are a careful programmer. ", sys/5)},
		{"role": "user", "content": "Fix the parser in /r/parse.go."},
	}
	for i, s := range steps {
		id := fmt.Sprintf("call_%d", i)
		name, args, _ := strings.Cut(s[0], " ")
		msgs = append(msgs,
			map[string]any{"role": "assistant", "content": "Next step.", "tool_calls": []map[string]any{
				{"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": args}},
			}},
			map[string]any{"role": "tool", "tool_call_id": id, "content": s[1]})
	}
	msgs = append(msgs, map[string]any{"role": "assistant", "content": "Done."})
	data, err := json.Marshal(msgs)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := traj.Parse("synthetic.json", data)
	if err != nil {
		t.Fatal(err)
	}
	return ts[0]
}

func numbered(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%6d\tfunc f%d() { return }\n", i+1, i)
	}
	return b.String()
}

// certain models a search that is always followed by a read of its only hit.
var certain = toolvalue.Layer{
	{Pattern: "Grep", Origin: "test", Spec: toolvalue.Spec{
		Class: ptr(toolvalue.Critical), SideEffect: ptr(toolvalue.ReadOnly), TypicalTokens: ptr(50),
		FollowUps: []toolvalue.FollowUp{{Tool: "Read", Probability: 0.95, Args: map[string]string{"file_path": "result.paths"}}},
	}},
	{Pattern: "Read", Origin: "test", Spec: toolvalue.Spec{
		Class: ptr(toolvalue.Critical), SideEffect: ptr(toolvalue.ReadOnly), TypicalTokens: ptr(400), MaxTokens: ptr(400),
	}},
	{Pattern: "Bash", Origin: "test", Spec: toolvalue.Spec{SideEffect: ptr(toolvalue.Indeterminate)}},
}

func ptr[T any](v T) *T { return &v }

// TestInlineSavesATurn replays a run whose search is followed by a read of its hit: the
// read is inlined after the search, the agent's turn that read the file is saved, and
// on a long context the run costs less; when the agent reads something else, the inline
// is a miss and the run costs more.
func TestInlineSavesATurn(t *testing.T) {
	p := &planner.Planner{Models: func(tool string) toolvalue.Model { m, _ := toolvalue.Resolve(tool, certain); return m }}
	grep := [2]string{`execute_bash {"command":"grep -rl Parse /r"}`, "/r/parse.go\n"}
	tests := []struct {
		name      string
		next      [2]string
		saved     int
		cheaper   bool
		inlineHit int
		ceiling   int // the read of the file the search named is the one turn that could be saved
	}{
		{"hit", [2]string{`str_replace_editor {"command":"view","path":"/r/parse.go"}`, numbered(30)}, 1, true, 1, 1},
		{"miss", [2]string{`str_replace_editor {"command":"view","path":"/r/lex.go"}`, numbered(30)}, 0, false, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := agentRun(t, 6000, grep, tt.next,
				[2]string{`execute_bash {"command":"go test ./..."}`, "ok"},
				[2]string{`execute_bash {"command":"go vet ./..."}`, "ok"})
			rep, err := Run(t.Context(), []traj.Trajectory{tr}, Options{Planner: p})
			if err != nil {
				t.Fatal(err)
			}
			checkConsistent(t, tt.name, &rep.Counts, rep.Rates, rep.Without, rep.With)
			if rep.Inlined != 1 || rep.InlineHits != tt.inlineHit || rep.TurnsSaved != tt.saved {
				t.Errorf("inlined %d (%d used), %d turns saved; want 1 (%d used), %d", rep.Inlined, rep.InlineHits, rep.TurnsSaved, tt.inlineHit, tt.saved)
			}
			if rep.TurnsSavedCeiling != tt.ceiling {
				t.Errorf("ceiling %d turns, want %d", rep.TurnsSavedCeiling, tt.ceiling)
			}
			if cheaper := rep.NetCostRatio < 1; cheaper != tt.cheaper {
				t.Errorf("net cost ratio %.3f, want cheaper %v", rep.NetCostRatio, tt.cheaper)
			}
		})
	}
}

func TestRunErrors(t *testing.T) {
	tr := agentRun(t, 10, [2]string{`execute_bash {"command":"ls"}`, "a.go"})
	if _, err := Run(t.Context(), nil, Options{Planner: builtinPlanner()}); err == nil {
		t.Error("no trajectories: no error")
	}
	if _, err := Run(t.Context(), []traj.Trajectory{tr}, Options{}); err == nil {
		t.Error("no planner: no error")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := Run(ctx, []traj.Trajectory{tr}, Options{Planner: builtinPlanner()}); err == nil {
		t.Error("cancelled: no error")
	}
}

// TestInlineWindow: after a grep -n of one file the window around its hit is inlined,
// and it answers a later read of lines within it, not one outside it; an inlined whole
// file answers a window only among the lines the file's read really showed (an
// editor's abbreviated view of a large file).
func TestInlineWindow(t *testing.T) {
	layer := append(toolvalue.Layer{}, certain...)
	layer = append(layer, toolvalue.Rule{Pattern: "Grep", Origin: "test", Spec: toolvalue.Spec{FollowUps: []toolvalue.FollowUp{{
		Tool: "Read", Probability: 0.95,
		Args: map[string]string{"file_path": "arg.path/result.hits.path", "offset": "result.hits.offset", "limit": "result.hits.limit"},
	}}}})
	p := &planner.Planner{Models: func(tool string) toolvalue.Model { m, _ := toolvalue.Resolve(tool, layer); return m }}
	grepN := [2]string{`execute_bash {"command":"grep -n Parse /r/parse.go"}`, "12:func Parse() {}\n"}
	grepL := [2]string{`execute_bash {"command":"grep -rl Parse /r"}`, "/r/parse.go\n"}
	view := func(from, to int) [2]string {
		var b strings.Builder
		for i := from; i <= to; i++ {
			fmt.Fprintf(&b, "%6d\tfunc f%d() { return }\n", i, i)
		}
		return [2]string{fmt.Sprintf(`str_replace_editor {"command":"view","path":"/r/parse.go","view_range":[%d,%d]}`, from, to), b.String()}
	}
	abbreviated := "<NOTE>This file is too large to display entirely. Showing abbreviated version.</NOTE>\n" + numbered(5)
	tests := []struct {
		name  string
		steps [][2]string
		saved int
	}{
		{"a window within the hit's", [][2]string{grepN, view(12, 20)}, 1},
		{"a window past it", [][2]string{grepN, view(100, 120)}, 0},
		{"a whole file that showed the window", [][2]string{grepL, view(2, 4),
			{`str_replace_editor {"command":"view","path":"/r/parse.go"}`, numbered(30)}}, 2},
		{"a whole file abbreviated holds itself, not the window", [][2]string{grepL, view(20, 25),
			{`str_replace_editor {"command":"view","path":"/r/parse.go"}`, abbreviated}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			steps := append(tt.steps, [2]string{`execute_bash {"command":"go test ./..."}`, "ok"})
			rep, err := Run(t.Context(), []traj.Trajectory{agentRun(t, 6000, steps...)}, Options{Planner: p})
			if err != nil {
				t.Fatal(err)
			}
			checkConsistent(t, tt.name, &rep.Counts, rep.Rates, rep.Without, rep.With)
			if rep.Inlined != 1 || rep.TurnsSaved != tt.saved {
				t.Errorf("inlined %d, %d turns saved; want 1, %d", rep.Inlined, rep.TurnsSaved, tt.saved)
			}
		})
	}
}
