package mcpserver

import (
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/index"
)

// TestQuickIndexNote serves an index at the quick tier: the answers of
// the tools that read the index's rows say so, the context pack says it
// in its header, and once the index is upgraded neither does.
func TestQuickIndexNote(t *testing.T) {
	dir := fixture(t)
	ix, err := index.Open(t.Context(), index.Options{Root: dir, QuickFirst: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	s, err := New(ix, &Options{RefreshInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	const note = "Note: from the quick index"
	text, isErr := call(t, cs, toolFindSymbol, map[string]any{"name": "parse_retry_after"})
	if isErr || !strings.HasPrefix(text, note) {
		t.Errorf("find_symbol on the quick index: error %v:\n%s", isErr, text)
	}
	text, _ = call(t, cs, toolContext, map[string]any{"task": "parse_retry_after returns the wrong delay"})
	if !strings.Contains(text, `index="quick"`) || strings.Contains(text, note) {
		t.Errorf("context on the quick index:\n%s", text)
	}

	if _, err := ix.Upgrade(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	text, _ = call(t, cs, toolFindSymbol, map[string]any{"name": "parse_retry_after"})
	if strings.Contains(text, note) {
		t.Errorf("find_symbol on the full index still has the note:\n%s", text)
	}
	text, _ = call(t, cs, toolContext, map[string]any{"task": "parse_retry_after returns the wrong delay"})
	if !strings.Contains(text, `index="full"`) {
		t.Errorf("context on the full index:\n%s", strings.SplitN(text, "\n", 2)[0])
	}
}
