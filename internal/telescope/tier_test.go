package telescope

import (
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/index"
)

// TestBuildFromQuickIndex builds a telescope over an index at the quick
// tier: the units whose definitions came from it have ids of their own,
// are marked, stored and reused like any, and the root says so; once the
// index is upgraded, a build abstracts exactly those units again.
func TestBuildFromQuickIndex(t *testing.T) {
	root := fixture(t)
	ix, err := index.Open(t.Context(), index.Options{Root: root, QuickFirst: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	st := newMemStore()
	engine := func() (*Engine, *counting) {
		e, c := newEngine(t, root, st)
		e.symbols = IndexSymbols{Index: ix}
		return e, c
	}

	e, _ := engine()
	first := build(t, e, Request{Strategy: "counted"})
	quick := first.Stats.QuickUnits
	if quick == 0 || quick >= first.Stats.Units {
		t.Fatalf("first build on the quick index: %d quick units of %d (the fixture has code and documents)", quick, first.Stats.Units)
	}
	if !strings.Contains(first.Index, "Index: quick tier for") {
		t.Errorf("the root does not say it was built from the quick index:\n%s", first.Index)
	}
	marked := 0
	for key, id := range first.KeyMap {
		if !strings.HasPrefix(key, "L1:") {
			continue
		}
		d, err := e.Drilldown(t.Context(), id)
		if err != nil {
			t.Fatalf("drilldown %s: %v", key, err)
		}
		if d.Node.QuickIndex {
			marked++
		}
	}
	if marked != quick {
		t.Errorf("%d units marked as from the quick index, want %d", marked, quick)
	}
	e, c := engine()
	if second := build(t, e, Request{Strategy: "counted"}); c.total.Load() != 0 || second.RootID != first.RootID {
		t.Errorf("second build on the quick index: %d abstracts, root %s (was %s); want all reused", c.total.Load(), second.RootID, first.RootID)
	}

	if _, err := ix.Upgrade(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	e, c = engine()
	third := build(t, e, Request{Strategy: "counted"})
	if third.Stats.QuickUnits != 0 || strings.Contains(third.Index, "quick tier") || int(c.total.Load()) != quick {
		t.Errorf("build on the full index: %d quick units, %d abstracts (want the %d quick ones again); root:\n%s",
			third.Stats.QuickUnits, c.total.Load(), quick, third.Index)
	}
}
