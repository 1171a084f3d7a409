package planner

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/toolvalue"
)

// randomWorld is a set of tools with random models, from which random histories are
// drawn.
type randomWorld struct {
	tools  []string
	models map[string]toolvalue.Model
	files  []string
}

func newRandomWorld(r *rand.Rand) *randomWorld {
	w := &randomWorld{models: map[string]toolvalue.Model{}}
	n := 2 + r.IntN(6)
	for i := range n {
		w.tools = append(w.tools, fmt.Sprintf("t%d", i))
	}
	if r.IntN(2) == 0 {
		w.tools = append(w.tools, "Read") // the tool whose windows and sizes the planner knows
	}
	for i := range 1 + r.IntN(12) {
		w.files = append(w.files, fmt.Sprintf("/r/d%d/f%d.go", r.IntN(3), i))
	}
	projections := []string{"arg.path", "arg.file_path", "result.paths", "const:\"x\"", "const:3", "result.items[].id", "arg.nested.deep"}
	for _, t := range w.tools {
		typical := r.IntN(4000)
		m := toolvalue.Model{
			Class:      toolvalue.Classes[r.IntN(len(toolvalue.Classes))],
			SideEffect: toolvalue.SideEffects[r.IntN(len(toolvalue.SideEffects))],
			Cost: toolvalue.Cost{
				TypicalTokens: typical,
				MaxTokens:     typical + r.IntN(20000),
				LatencyP50:    time.Duration(r.IntN(5000)) * time.Millisecond,
				Dollars:       float64(r.IntN(3)) * 0.01,
			},
		}
		if r.IntN(4) == 0 {
			v := r.IntN(2) == 0
			m.Speculate = &v
		}
		for range r.IntN(4) {
			args := map[string]string{}
			for range 1 + r.IntN(2) {
				args[[]string{"file_path", "path", "q"}[r.IntN(3)]] = projections[r.IntN(len(projections))]
			}
			m.FollowUps = append(m.FollowUps, toolvalue.FollowUp{
				Tool: w.tools[r.IntN(len(w.tools))], Probability: 0.01 + 0.99*r.Float64(), Args: args,
			})
		}
		if r.IntN(3) == 0 {
			m.Invalidates = []string{w.tools[r.IntN(len(w.tools))], "*"}[r.IntN(2):][:1]
		}
		w.models[t] = m
	}
	return w
}

func (w *randomWorld) model(tool string) toolvalue.Model {
	if m, ok := w.models[tool]; ok {
		return m
	}
	return toolvalue.Unknown
}

func (w *randomWorld) history(r *rand.Rand) []Call {
	var h []Call
	for range 1 + r.IntN(10) {
		t := w.tools[r.IntN(len(w.tools))]
		f := w.files[r.IntN(len(w.files))]
		args := map[string]any{}
		switch r.IntN(4) {
		case 0:
			args["file_path"] = f
		case 1:
			args["path"] = f[:strings.LastIndexByte(f, '/')]
		case 2:
			args["file_path"], args["offset"], args["limit"] = f, float64(1+r.IntN(300)), float64(1+r.IntN(200))
		}
		var text strings.Builder
		switch r.IntN(4) {
		case 0:
			for range r.IntN(8) {
				fmt.Fprintf(&text, "%s:%d:match\n", w.files[r.IntN(len(w.files))], 1+r.IntN(500))
			}
		case 1:
			for i := range r.IntN(80) {
				fmt.Fprintf(&text, "%6d\tline %d\n", i+1, i)
			}
		case 2:
			fmt.Fprintf(&text, `{"items":[{"id":%d},{"id":%d}]}`, r.IntN(9), r.IntN(9))
		}
		h = append(h, Call{Tool: t, Args: args, Text: text.String(), Tokens: r.IntN(3000), Error: r.IntN(8) == 0})
	}
	return h
}

// TestPlanProperties plans over random models, histories and budgets: the inlined
// predictions never exceed the budget, prefetches never exceed their limit, nothing that
// is not speculable is ever inlined or prefetched, every candidate has a decision and a
// reason, and planning again gives the same plan.
func TestPlanProperties(t *testing.T) {
	for seed := range uint64(2000) {
		r := rand.New(rand.NewPCG(seed, 12))
		w := newRandomWorld(r)
		p := &Planner{Models: w.model, Floor: []float64{0, 0.05, 0.3, 0.9}[r.IntN(4)], PerEdge: r.IntN(5), Recent: r.IntN(4)}
		h := w.history(r)
		intent := []string{"f1", "d2", "match"}[:r.IntN(4)]
		b := Budget{Tokens: r.IntN(6000), MaxPrefetch: r.IntN(4), Context: r.IntN(50000)}
		got := p.Plan(h, intent, b)
		inlined, prefetched := 0, 0
		for _, c := range got {
			m := w.model(c.Tool)
			switch c.Decision {
			case Inline:
				inlined += c.Tokens
			case Prefetch:
				prefetched++
			case Declined:
			default:
				t.Fatalf("seed %d: %s has decision %q", seed, Key(c.Tool, c.Args), c.Decision)
			}
			if c.Decision != Declined && !m.Speculable() {
				t.Fatalf("seed %d: %s is %s but its tool is not speculable (side_effect=%s, speculate=%v)",
					seed, Key(c.Tool, c.Args), c.Decision, m.SideEffect, m.Speculate)
			}
			if c.Reason == "" || c.Probability < 0 || c.Probability > 1 || c.Tokens < 1 {
				t.Fatalf("seed %d: %s: reason %q, probability %g, tokens %d", seed, Key(c.Tool, c.Args), c.Reason, c.Probability, c.Tokens)
			}
		}
		if inlined > b.Tokens {
			t.Fatalf("seed %d: %d tokens inlined over a budget of %d", seed, inlined, b.Tokens)
		}
		if prefetched > b.MaxPrefetch {
			t.Fatalf("seed %d: %d prefetches over a limit of %d", seed, prefetched, b.MaxPrefetch)
		}
		if diff := cmp.Diff(got, p.Plan(h, intent, b)); diff != "" {
			t.Fatalf("seed %d: a second plan differs (-first +second):\n%s", seed, diff)
		}
	}
}
