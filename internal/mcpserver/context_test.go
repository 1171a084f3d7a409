package mcpserver

import (
	"strings"
	"sync"
	"testing"

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
