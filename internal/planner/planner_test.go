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
	grepOne := Call{Tool: "Grep", Args: map[string]any{"pattern": "Parse"}, Text: "/r/a.go:12:func Parse()\n"}
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
