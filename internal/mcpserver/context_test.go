package mcpserver

import (
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/retrieve"
	"github.com/winnowhq/winnow/internal/tokens"
)

// recordingCounter counts like the estimator and remembers every text.
type recordingCounter struct {
	mu    sync.Mutex
	texts []string
}

func (c *recordingCounter) Count(s string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.texts = append(c.texts, s)
	return tokens.NewEstimator(tokens.O200k).Count(s)
}

// TestContextAnswerCountedOnce: the context tool's pack is counted as a
// whole once, when it is packed; the cap does not count it again line by
// line, since the pack is known to fit.
func TestContextAnswerCountedOnce(t *testing.T) {
	rec := &recordingCounter{}
	s := newServer(t, fixture(t), &Options{RefreshInterval: -1, Counter: rec, MaxOutputTokens: MinMaxOutputTokens})
	cs := connect(t, s)
	text, isErr := call(t, cs, toolContext, map[string]any{"task": "how does the store get an item"})
	if isErr {
		t.Fatalf("context: %s", text)
	}
	whole, prefixes := 0, 0
	for _, s := range rec.texts {
		switch {
		case s == text:
			whole++
		case s != "" && strings.HasPrefix(text, s) && strings.HasSuffix(s, "\n"):
			prefixes++
		}
	}
	if whole != 1 || prefixes != 0 {
		t.Errorf("the answer (%d bytes) was counted whole %d times and by %d line prefixes", len(text), whole, prefixes)
	}
}

// TestContextAnswerIsThePack: the context tool answers with the pack the
// engine makes for the task, as Render writes it, in each format (the
// engine's own text, which the tool sends, is checked against Render at
// budgets that make the packer drop cards in retrieve's
// TestContextTextIsItsRendering).
func TestContextAnswerIsThePack(t *testing.T) {
	s := newServer(t, fixture(t), &Options{RefreshInterval: -1})
	cs := connect(t, s)
	const task = "how does the store get an item"
	for _, budget := range []int{0, 200} {
		for _, format := range []string{"xml", "md", "json"} {
			text, isErr := call(t, cs, toolContext, map[string]any{"task": task, "format": format, "budget": budget})
			if isErr {
				t.Fatalf("context (%s, %d): %s", format, budget, text)
			}
			f, err := retrieve.ParseFormat(format)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := s.contextBudget(budget)
			pack, err := s.engine.Context(t.Context(), retrieve.Request{Task: task, Budget: b, Format: f})
			if err != nil {
				t.Fatal(err)
			}
			var want strings.Builder
			if err := pack.Render(&want, f); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.String(), text); diff != "" {
				t.Errorf("context (%s, %d): the answer is not the pack (-want +got):\n%s", format, budget, diff)
			}
		}
	}
}
