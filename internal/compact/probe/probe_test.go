package probe

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/compact/traj"
)

func TestPatterns(t *testing.T) {
	p := newPatterns()
	paths := p.paths("see /repo/x/y.py:12 and src/foo.go, ./a.b/c.tsx; not https://host/z.py " +
		"nor 1.2/3.4 nor a dir /workspace/python__mypy__1.6 nor foo.py alone\n" +
		"(tests/test_a.py) 'lib/m.rs' src/foo.go again; a/b.py-extra and ~/notes/todo.md.")
	want := []string{"/repo/x/y.py", "src/foo.go", "./a.b/c.tsx", "tests/test_a.py", "lib/m.rs", "~/notes/todo.md"}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	errs := p.errors(strings.Join([]string{
		"Traceback (most recent call last):",
		`  File "a.py", line 3, in <module>`,
		"AttributeError: 'NoneType' object has no attribute 'foo'",
		"E   mod.sub.CustomError",
		"        raise ValueError(\"bad\")", // code, not a report
		"FAILED tests/test_x.py::test_a - assert 1 == 2",
		"main.c:3:1: error: expected ';'",
		"panic: runtime error: index out of range",
		"Error", // too short
		"ok  all good",
		"AttributeError: 'NoneType' object has no attribute 'foo'", // again
	}, "\n"))
	wantErrs := []string{
		"Traceback (most recent call last):",
		"AttributeError: 'NoneType' object has no attribute 'foo'",
		"E   mod.sub.CustomError",
		"FAILED tests/test_x.py::test_a - assert 1 == 2",
		"main.c:3:1: error: expected ';'",
		"panic: runtime error: index out of range",
	}
	if diff := cmp.Diff(wantErrs, errs); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// conversation builds an OpenAI trajectory of one task and a list of
// (assistant text, tool output) turns; each assistant message calls a
// tool whose output follows.
func conversation(turns ...[2]string) traj.Trajectory {
	msgs := []json.RawMessage{json.RawMessage(`{"role":"user","content":"fix the bug in src/app.py"}`)}
	for i, turn := range turns {
		id := "c" + string(rune('a'+i))
		a, _ := json.Marshal(map[string]any{
			"role": "assistant", "content": turn[0],
			"tool_calls": []any{map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "bash", "arguments": `{"cmd":"x"}`}}},
		})
		o, _ := json.Marshal(map[string]any{"role": "tool", "tool_call_id": id, "content": turn[1]})
		msgs = append(msgs, a, o)
	}
	msgs = append(msgs, json.RawMessage(`{"role":"assistant","content":"done"}`))
	return traj.Trajectory{Name: "t", Dialect: traj.OpenAI, Messages: msgs}
}

func TestExtract(t *testing.T) {
	tr := conversation(
		[2]string{"find it", "src/app.py\nsrc/util/helpers.py\nsrc/unused.py"},
		[2]string{"run tests", "Traceback (most recent call last):\nKeyError: 'missing configuration key'\nFAILED tests/test_app.py::test_load"},
		[2]string{"Looking at src/util/helpers.py and the KeyError: 'missing configuration key'", "ok"},
		[2]string{"again src/util/helpers.py", "fine"},
	)
	facts, err := Extract(tr)
	if err != nil {
		t.Fatal(err)
	}
	want := []Fact{
		// src/app.py was in the task; src/unused.py is never used; the
		// traceback line and the FAILED line are not quoted later
		{Kind: KindPath, Text: "src/util/helpers.py", Message: 2, ID: "ca", Uses: []int{5, 7}},
		{Kind: KindError, Text: "KeyError: 'missing configuration key'", Message: 4, ID: "cb", Uses: []int{5}},
	}
	if diff := cmp.Diff(want, facts); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	// quoting only the message counts as using the error
	tr = conversation(
		[2]string{"run", "ValueError: the frobnicator is out of range"},
		[2]string{"so the frobnicator is out of range, fix it", "ok"},
	)
	facts, err = Extract(tr)
	if err != nil {
		t.Fatal(err)
	}
	if len(facts) != 1 || facts[0].Text != "the frobnicator is out of range" {
		t.Errorf("facts %+v, want the error's message", facts)
	}
}

// request returns the parts of a request made of msgs.
func request(t *testing.T, msgs ...json.RawMessage) traj.Parts {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"model": "m", "messages": msgs})
	p, err := traj.ParseRequest(body)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func render(raw json.RawMessage) (string, error) { return traj.Render(raw) }

func TestChecker(t *testing.T) {
	tr := conversation(
		[2]string{"find it", "src/util/helpers.py"},
		[2]string{"next", "ok"},
		[2]string{"open src/util/helpers.py", "ok"},
	)
	facts, err := Extract(tr)
	if err != nil || len(facts) != 1 || facts[0].Uses[0] != 5 {
		t.Fatalf("facts %+v, %v", facts, err)
	}
	original := tr.Messages[:5]
	replaced := func(content string) []json.RawMessage {
		msgs := append([]json.RawMessage(nil), original...)
		msgs[2], _ = json.Marshal(map[string]any{"role": "tool", "tool_call_id": "ca", "content": content})
		return msgs
	}
	tests := []struct {
		name string
		msgs []json.RawMessage
		opts *Options
		want Result
	}{
		{"unchanged", original, nil, Result{Facts: 1, Present: 1}},
		{"handle in the slot", replaced("[elided 20 bytes: winnow://restore/3f2a9c1e]"), nil, Result{Facts: 1, Recoverable: 1}},
		{"placeholder without a handle", replaced("[elided]"), nil,
			Result{Facts: 1, Lost: 1, Examples: []string{`path "src/util/helpers.py" from message 2, used at [5]`}}},
		{"custom handle", replaced("[elided; drilldown id=77]"), &Options{Handle: regexp.MustCompile(`drilldown id=\d+`)}, Result{Facts: 1, Recoverable: 1}},
		{"slot gone", append(append([]json.RawMessage{}, original[:1]...), original[3:]...), nil,
			Result{Facts: 1, Lost: 1, Examples: []string{`path "src/util/helpers.py" from message 2, used at [5]`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewChecker(traj.OpenAI, facts, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if !c.Wants(5) || c.Wants(3) {
				t.Errorf("Wants(5) %v, Wants(3) %v", c.Wants(5), c.Wants(3))
			}
			if err := c.Check(3, request(t, tt.msgs[:3]...), render); err != nil { // no fact used there
				t.Fatal(err)
			}
			if err := c.Check(5, request(t, tt.msgs...), render); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, c.Result()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}

	c, _ := NewChecker(traj.OpenAI, facts, nil)
	if r := c.Result(); r.Lost != 1 {
		t.Errorf("a use never checked: %+v, want lost", r)
	}
	if _, err := NewChecker("gemini", facts, nil); err == nil {
		t.Error("NewChecker accepted an unknown dialect")
	}
}

// TestCheckerTextForm: without tool results the slot is the message at
// the same index, as long as indices line up.
func TestCheckerTextForm(t *testing.T) {
	msgs := []json.RawMessage{
		json.RawMessage(`{"role":"user","content":"task"}`),
		json.RawMessage(`{"role":"assistant","content":"find . -name '*.py'"}`),
		json.RawMessage(`{"role":"user","content":"./pkg/mod.py"}`),
		json.RawMessage(`{"role":"assistant","content":"ls"}`),
		json.RawMessage(`{"role":"user","content":"x"}`),
		json.RawMessage(`{"role":"assistant","content":"open ./pkg/mod.py"}`),
	}
	tr := traj.Trajectory{Name: "t", Dialect: traj.Anthropic, Messages: msgs}
	facts, err := Extract(tr)
	if err != nil || len(facts) != 1 || facts[0].ID != "" || facts[0].Message != 2 {
		t.Fatalf("facts %+v, %v", facts, err)
	}
	masked := append([]json.RawMessage(nil), msgs[:5]...)
	masked[2] = json.RawMessage(`{"role":"user","content":"[see winnow://restore/abc123]"}`)
	c, _ := NewChecker(traj.Anthropic, facts, nil)
	if err := c.Check(5, request(t, masked...), render); err != nil {
		t.Fatal(err)
	}
	if r := c.Result(); r.Recoverable != 1 {
		t.Errorf("%+v, want recoverable", r)
	}
	c, _ = NewChecker(traj.Anthropic, facts, nil)
	if err := c.Check(5, request(t, append(masked[:1:1], masked[2:]...)...), render); err != nil { // one message fewer
		t.Fatal(err)
	}
	if r := c.Result(); r.Lost != 1 {
		t.Errorf("%+v, want lost when indices no longer line up", r)
	}
}

// TestRealTrajectory: on a real run, the unchanged requests keep every
// fact, and the probe finds some.
func TestRealTrajectory(t *testing.T) {
	ts, err := traj.LoadFile(filepath.Join("..", "traj", "testdata", "trajectories", "adp_swe-smith_claude_sample_raw.json"))
	if err != nil {
		t.Fatal(err)
	}
	memo := make(map[string]string) // every message recurs in every later request
	memoRender := func(raw json.RawMessage) (string, error) {
		if s, ok := memo[string(raw)]; ok {
			return s, nil
		}
		s, err := traj.Render(raw)
		memo[string(raw)] = s
		return s, err
	}
	var total Result
	for _, tr := range ts {
		facts, err := Extract(tr)
		if err != nil {
			t.Fatal(err)
		}
		c, err := NewChecker(tr.Dialect, facts, nil)
		if err != nil {
			t.Fatal(err)
		}
		for r, err := range traj.Requests(tr, nil) {
			if err != nil {
				t.Fatal(err)
			}
			p, err := traj.ParseRequest(r.Body)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Check(r.Turn, p, memoRender); err != nil {
				t.Fatal(err)
			}
		}
		total.Add(c.Result())
	}
	if total.Facts < 5 || total.Present != total.Facts || total.Recall() != 1 {
		t.Errorf("%+v: want at least 5 facts, all present", total)
	}
}

func TestResult(t *testing.T) {
	if got := (Result{}).Recall(); got != 1 {
		t.Errorf("recall of no facts = %g, want 1", got)
	}
	r := Result{Facts: 4, Present: 2, Recoverable: 1, Lost: 1}
	if got := r.Recall(); got != 0.75 {
		t.Errorf("recall = %g, want 0.75", got)
	}
}

// Wants reports whether a fact is used at turn, so that its request must
// be checked.
func (c *Checker) Wants(turn int) bool { return len(c.byTurn[turn]) > 0 }
