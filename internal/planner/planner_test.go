package planner

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/toolvalue"
)

func ptr[T any](v T) *T { return &v }

// testLayer models a few canonical tools the way the built-in defaults do, so that the
// planner's tests do not move when the built-ins are retuned.
var testLayer = toolvalue.Layer{
	{Pattern: "Read", Origin: "test", Spec: toolvalue.Spec{
		Class: ptr(toolvalue.Critical), SideEffect: ptr(toolvalue.ReadOnly),
		TypicalTokens: ptr(600), MaxTokens: ptr(600), LatencyP50: ptr(5 * time.Millisecond),
	}},
	{Pattern: "Grep", Origin: "test", Spec: toolvalue.Spec{
		Class: ptr(toolvalue.Critical), SideEffect: ptr(toolvalue.ReadOnly),
		TypicalTokens: ptr(250), LatencyP50: ptr(50 * time.Millisecond),
		FollowUps: []toolvalue.FollowUp{{Tool: "Read", Probability: 0.5, Args: map[string]string{"file_path": "result.paths"}}},
	}},
	{Pattern: "Glob", Origin: "test", Spec: toolvalue.Spec{
		Class: ptr(toolvalue.Supporting), SideEffect: ptr(toolvalue.ReadOnly),
		TypicalTokens: ptr(150),
		FollowUps: []toolvalue.FollowUp{
			{Tool: "Read", Probability: 0.6, Args: map[string]string{"file_path": "result.paths"}},
			{Tool: "Bash", Probability: 0.9, Args: map[string]string{"command": "const:\"ls\""}},
		},
	}},
	{Pattern: "Edit", Origin: "test", Spec: toolvalue.Spec{
		SideEffect: ptr(toolvalue.MutatesLocal), Invalidates: []string{"Read", "Grep"},
	}},
}

func testModels(tool string) toolvalue.Model {
	m, _ := toolvalue.Resolve(tool, testLayer)
	return m
}

func decisions(cands []Candidate) map[string]Decision {
	out := map[string]Decision{}
	for _, c := range cands {
		out[Key(c.Tool, c.Args)] = c.Decision
	}
	return out
}

func TestPlanDecisions(t *testing.T) {
	p := &Planner{Models: testModels}
	grepOne := Call{Tool: "Grep", Args: map[string]any{"pattern": "Parse"}, Text: "/r/a.go\n"} // files with matches
	tests := []struct {
		name    string
		history []Call
		budget  Budget
		want    map[string]Decision
		reason  map[string]string
	}{
		{
			name:    "one hit: inline",
			history: []Call{grepOne},
			budget:  DefaultBudget,
			want:    map[string]Decision{`Read {"file_path":"/r/a.go"}`: Inline},
		},
		{
			name:    "no budget: prefetch",
			history: []Call{grepOne},
			budget:  Budget{MaxPrefetch: 1},
			want:    map[string]Decision{`Read {"file_path":"/r/a.go"}`: Prefetch},
			reason:  map[string]string{`Read {"file_path":"/r/a.go"}`: "over turn budget: 600 > 0 left"},
		},
		{
			name:    "nothing allowed",
			history: []Call{grepOne},
			budget:  Budget{},
			want:    map[string]Decision{`Read {"file_path":"/r/a.go"}`: Declined},
		},
		{
			name: "already read",
			history: []Call{
				{Tool: "Read", Args: map[string]any{"file_path": "/r/a.go"}, Text: "     1\tpackage a\n"},
				grepOne,
			},
			budget: DefaultBudget,
			want:   map[string]Decision{`Read {"file_path":"/r/a.go"}`: Declined},
			reason: map[string]string{`Read {"file_path":"/r/a.go"}`: "already seen in this session"},
		},
		{
			name: "read, then edited: not seen any more",
			history: []Call{
				{Tool: "Read", Args: map[string]any{"file_path": "/r/a.go"}, Text: "     1\tpackage a\n"},
				{Tool: "Edit", Args: map[string]any{"file_path": "/r/a.go"}, Text: "ok"},
				grepOne,
			},
			budget: DefaultBudget,
			want:   map[string]Decision{`Read {"file_path":"/r/a.go"}`: Inline},
		},
		{
			name: "fan-out dilutes and a shell is never run",
			history: []Call{{Tool: "Glob", Args: map[string]any{"pattern": "*.go"},
				Text: "/r/a.go\n/r/b.go\n/r/c.go\n/r/d.go\n/r/e.go\n/r/f.go\n"}},
			budget: DefaultBudget,
			want: map[string]Decision{
				`Read {"file_path":"/r/a.go"}`: Declined,
				`Read {"file_path":"/r/b.go"}`: Declined,
				`Read {"file_path":"/r/c.go"}`: Declined,
				`Bash {"command":"ls"}`:        Declined,
			},
			reason: map[string]string{
				`Read {"file_path":"/r/a.go"}`: "below probability floor 0.25",
				`Bash {"command":"ls"}`:        "not read-only: side_effect=indeterminate",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := p.Plan(tt.history, nil, tt.budget)
			if diff := cmp.Diff(tt.want, decisions(got)); diff != "" {
				t.Errorf("decisions (-want +got):\n%s", diff)
			}
			for _, c := range got {
				if r, ok := tt.reason[Key(c.Tool, c.Args)]; ok && !strings.HasPrefix(c.Reason, r) {
					t.Errorf("%s: reason %q, want %q", Key(c.Tool, c.Args), c.Reason, r)
				}
			}
		})
	}
}

func TestIntentRanksListedFiles(t *testing.T) {
	p := &Planner{Models: testModels, PerEdge: 1}
	h := []Call{{Tool: "Glob", Args: map[string]any{"pattern": "*.py"},
		Text: "/t/arrow/api.py\n/t/arrow/factory.py\n/t/arrow/formatter.py\n/t/arrow/arrow.py\n"}}
	got := p.Plan(h, Keywords("Arrow objects lose their T separator in f-strings"), DefaultBudget)
	var reads []string
	for _, c := range got {
		if c.Tool == "Read" {
			reads = append(reads, strArg(c.Args, "file_path"))
		}
	}
	if diff := cmp.Diff([]string{"/t/arrow/arrow.py"}, reads); diff != "" {
		t.Errorf("the read intent picks (-want +got):\n%s", diff)
	}
}

// TestWindows: a search's hit with a line is read as the window around it, which is
// inlined or declined but never prefetched, and fitted to the end of a file of known
// length; a Read of a whole file that a traceback points into is read at the line.
func TestWindows(t *testing.T) {
	layer := append(toolvalue.Layer{}, testLayer...)
	layer = append(layer,
		toolvalue.Rule{Pattern: "Grep", Origin: "test", Spec: toolvalue.Spec{FollowUps: []toolvalue.FollowUp{{Tool: "Read", Probability: 0.5,
			Args: map[string]string{"file_path": "arg.path/result.hits.path", "offset": "result.hits.offset", "limit": "result.hits.limit"}}}}},
		toolvalue.Rule{Pattern: "Bash", Origin: "test", Spec: toolvalue.Spec{SideEffect: ptr(toolvalue.Indeterminate), Invalidates: []string{"Read"}}},
		toolvalue.Rule{Pattern: "Read", Origin: "test", Spec: toolvalue.Spec{MaxTokens: ptr(100000)}},
	)
	p := &Planner{Models: func(tool string) toolvalue.Model { m, _ := toolvalue.Resolve(tool, layer); return m }}
	window := func(line int) map[string]any {
		offset, limit := toolvalue.HitWindow(line)
		return map[string]any{"file_path": "/r/a.py", "offset": offset, "limit": limit}
	}
	grep := Call{Tool: "Grep", Args: map[string]any{"pattern": "f", "path": "/r/a.py"}, Text: "791:    def f(self):\n"}
	short := Call{Tool: "Read", Args: map[string]any{"file_path": "/r/a.py", "limit": 5}, Text: "[File: /r/a.py (800 lines total)]\n1:a\n2:b\n3:c\n4:d\n5:e\n"}
	trace := Call{Tool: "Bash", Args: map[string]any{"command": "python t.py"},
		Text: "Traceback (most recent call last):\n  File \"/r/t.py\", line 3, in <module>\n  File \"/r/a.py\", line 500, in f\n  File \"/r/a.py\", line 536, in g\nValueError: x\n"}
	glob := Call{Tool: "Glob", Args: map[string]any{"pattern": "a.py"}, Text: "/r/a.py\n"}
	roomy := Budget{Tokens: 100000, MaxPrefetch: 3, Context: 200000} // a long context: inlines pay
	tests := []struct {
		name    string
		history []Call
		budget  Budget
		args    map[string]any
		dec     Decision
		reason  string
	}{
		{"a hit's window, inlined", []Call{grep}, roomy, window(791), Inline, "inline pays"},
		{"a hit's window is never prefetched", []Call{grep}, Budget{Tokens: 10, MaxPrefetch: 3}, window(791), Declined,
			"approximate arguments, never prefetched: over turn budget"},
		{"a window past the end of a file of known length ends there", []Call{short, grep}, roomy,
			map[string]any{"file_path": "/r/a.py", "offset": 800 - window(791)["limit"].(int) + 1, "limit": window(791)["limit"]}, Inline, ""},
		{"a traceback's innermost frame places the read of the file", []Call{trace, glob}, roomy,
			window(536), Inline, ""},
		{"not past an edit of the file", []Call{trace, {Tool: "Edit", Args: map[string]any{"file_path": "/r/a.py"}}, glob},
			roomy, map[string]any{"file_path": "/r/a.py"}, Inline, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var reads []Candidate
			for _, c := range p.Plan(tt.history, nil, tt.budget) {
				if c.Tool == "Read" {
					reads = append(reads, c)
				}
			}
			if len(reads) != 1 {
				t.Fatalf("%d reads, want 1: %+v", len(reads), reads)
			}
			c := reads[0]
			if diff := cmp.Diff(Key("Read", tt.args), Key(c.Tool, c.Args)); diff != "" {
				t.Errorf("candidate (-want +got):\n%s", diff)
			}
			if c.Decision != tt.dec || !strings.HasPrefix(c.Reason, tt.reason) {
				t.Errorf("%s: %q, want %s: %q", c.Decision, c.Reason, tt.dec, tt.reason)
			}
			if _, ok := tt.args["limit"]; ok != c.Approximate {
				t.Errorf("approximate %v, want %v", c.Approximate, ok)
			}
		})
	}
}
