package retrieve

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/winnowhq/winnow/internal/index"
)

// answersAsIndex checks that t answers every query ranking and packing
// make as the index does, to the row and its order: the uses in each
// definition, at the top level and in no definition, one at a time and
// all at once (in several batches, with duplicates); the uses of each
// name and of names no reference has; their counts.
func answersAsIndex(t *testing.T, ix *index.Index, tab *refTable, step string) {
	t.Helper()
	ctx := t.Context()
	type query struct {
		scopes []int64
		names  []string
	}
	var qs []query
	all := []int64{0, -7, 1 << 40}
	for _, d := range tab.c.defs {
		qs = append(qs, query{scopes: []int64{d.ID}})
		all = append(all, d.ID, d.ID)
	}
	names := append(slices.Clone(tab.names), "", "no_such_name", "Name")
	for _, n := range names {
		qs = append(qs, query{names: []string{n}})
	}
	r := rand.New(rand.NewPCG(1, 2))
	r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	many := slices.Repeat(names, 1+2*refBatch/len(names))
	r.Shuffle(len(many), func(i, j int) { many[i], many[j] = many[j], many[i] })
	qs = append(qs, query{scopes: all}, query{scopes: []int64{0}}, query{names: many})
	for _, q := range qs {
		if q.scopes != nil {
			want, err := ix.RefsFrom(ctx, q.scopes)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := tab.RefsFrom(ctx, q.scopes)
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("%s: RefsFrom(%d scopes, first %d) (-index +table):\n%s", step, len(q.scopes), q.scopes[0], diff)
			}
			continue
		}
		want, err := ix.RefsTo(ctx, q.names)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := tab.RefsTo(ctx, q.names)
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%s: RefsTo(%d names, first %q) (-index +table):\n%s", step, len(q.names), q.names[0], diff)
		}
		wantN, err := ix.RefCounts(ctx, q.names)
		if err != nil {
			t.Fatal(err)
		}
		gotN, _ := tab.RefCounts(ctx, q.names)
		if diff := cmp.Diff(wantN, gotN, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%s: RefCounts(%d names, first %q) (-index +table):\n%s", step, len(q.names), q.names[0], diff)
		}
	}
}

// TestRefTableAnswersAsIndex: the table of the eval's repository answers
// every reference query as the index does.
func TestRefTableAnswersAsIndex(t *testing.T) {
	e, _ := e2eEngine(t)
	if err := e.KeepReferences(t.Context()); err != nil {
		t.Fatal(err)
	}
	c, err := e.corpus(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	tab := e.refCache.table.Load()
	if tab == nil || e.refs(c) != tab {
		t.Fatal("KeepReferences kept no table for the current corpus")
	}
	if len(tab.file) == 0 {
		t.Fatal("the eval's repository has no references")
	}
	answersAsIndex(t, e.ix, tab, "built")
}

// TestRefTablePatched: over random sequences of edits (files written,
// deleted, renamed, several per update), the table patched from the one
// before is the table read whole, row for row, and answers as the index.
func TestRefTablePatched(t *testing.T) {
	words := []string{"alpha", "beta", "gamma", "delta", "sum", "print", "point", "frame", "parse", "value", "x", "y"}
	r := rand.New(rand.NewPCG(13, 15))
	w := func() string { return words[r.IntN(len(words))] }
	source := func() string {
		var s string
		for range r.IntN(4) {
			s += fmt.Sprintf("def %s_%s(%s):\n    return %s(%s.%s) + %s_%s()\n\n", w(), w(), w(), w(), w(), w(), w(), w())
		}
		if r.IntN(3) == 0 {
			s += fmt.Sprintf("class C%s:\n    def %s(self):\n        return self.%s(%s)\n", w(), w(), w(), w())
		}
		return s + w() + " = " + w() + "(1)\n"
	}
	name := func() string { return fmt.Sprintf("d%d/f%d.py", r.IntN(3), r.IntN(8)) }
	files := map[string]string{}
	for range 6 {
		files[name()] = source()
	}
	root := writeTree(t, files)
	e := New(indexed(t, root), nil)
	if err := e.KeepReferences(t.Context()); err != nil {
		t.Fatal(err)
	}
	patches := 0
	for step := range 40 {
		did := editTree(t, r, root, name, source)
		reindex(t, e.ix)
		label := fmt.Sprintf("step %d %q", step, did)
		old := e.refCache.table.Load()
		if err := e.KeepReferences(t.Context()); err != nil {
			t.Fatal(err)
		}
		tab := e.refCache.table.Load()
		if tab == old {
			continue // nothing the index holds changed
		}
		if tab.patched {
			patches++
		}
		whole := readRefTable(t, e.ix, tab.c)
		if diff := cmp.Diff(refRows(whole), refRows(tab)); diff != "" {
			t.Fatalf("%s: the patched table differs from the one read whole (-whole +patched):\n%s", label, diff)
		}
		answersAsIndex(t, e.ix, tab, label)
	}
	if patches == 0 {
		t.Fatal("no table was patched: every update read the references whole")
	}
}

// readRefTable reads every reference of the index into a table for c.
func readRefTable(t *testing.T, ix *index.Index, c *corpus) *refTable {
	t.Helper()
	snap, err := ix.Snapshot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	tab, err := makeRefTable(t.Context(), snap, c, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// refRows lists a table's rows, names spelled out.
func refRows(tab *refTable) []index.Edge {
	out := make([]index.Edge, len(tab.file))
	for i := range out {
		out[i] = tab.edge(int32(i))
	}
	return out
}

// TestKeptReferencesSameContext: an engine that keeps the references in
// memory ranks every eval query to the same scores, to the last bit, and
// packs the same context as one that reads them from the index.
func TestKeptReferencesSameContext(t *testing.T) {
	read, _ := e2eEngine(t)
	kept := New(read.ix, nil)
	if err := kept.KeepReferences(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, q := range loadE2EQueries(t) {
		var packs [2]string
		var scores [2][]string
		for i, e := range []*Engine{read, kept} {
			p, err := e.Context(t.Context(), Request{Task: q.text, Explain: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range p.Ranking.Defs {
				scores[i] = append(scores[i], fmt.Sprintf("%s %x", defID(d), math.Float64bits(d.Score)))
			}
			var b strings.Builder
			if err := p.Render(&b, XML); err != nil {
				t.Fatal(err)
			}
			packs[i] = b.String()
		}
		if diff := cmp.Diff(scores[0], scores[1]); diff != "" {
			t.Errorf("query %s: ranked differently (-read +kept):\n%s", q.id, diff)
		}
		if diff := cmp.Diff(packs[0], packs[1]); diff != "" {
			t.Errorf("query %s: packed differently (-read +kept):\n%s", q.id, diff)
		}
	}
	c, err := kept.corpus(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := kept.refs(c).(*refTable); !ok {
		t.Fatal("the engine did not rank with the references kept")
	}
}

// TestRefTableReadBeside: the first table, read while the corpus loads
// (readBeside), is the table read after it, row for row and group for
// group, and answers as the index; so is the first table after an empty
// one (a server started on a tree not indexed yet), and a read of
// another generation than the corpus's is not used.
func TestRefTableReadBeside(t *testing.T) {
	e, _ := e2eEngine(t)
	ctx := t.Context()
	pre := e.readBeside(ctx)
	if pre == nil {
		t.Fatal("no read beside the corpus for the first table")
	}
	c, err := e.corpus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.keepReferences(ctx, c, pre); err != nil {
		t.Fatal(err)
	}
	tab := e.refCache.table.Load()
	if tab == nil || tab != pre.t || tab.c != c {
		t.Fatal("the table kept is not the one read beside the corpus")
	}
	whole := readRefTable(t, e.ix, c)
	if diff := cmp.Diff(refRows(whole), refRows(tab)); diff != "" {
		t.Fatalf("rows (-read after +read beside):\n%s", diff)
	}
	groups := func(x *refTable) [][]int32 { return [][]int32{x.byName, x.nameAt, x.byScope, x.scopeAt} }
	if diff := cmp.Diff(groups(whole), groups(tab)); diff != "" {
		t.Fatalf("groups (-read after +read beside):\n%s", diff)
	}
	if !slices.Equal(whole.names, tab.names) {
		t.Fatal("names differ")
	}
	answersAsIndex(t, e.ix, tab, "read beside")

	if e.readBeside(ctx) != nil {
		t.Error("a read of every reference began though a table with rows is kept")
	}

	// A read of a generation the corpus is not of stays unused.
	stale := &refRead{done: make(chan struct{}), gen: "another", t: &refTable{nameIDs: map[string]int32{}}}
	close(stale.done)
	e.refCache.table.Store(nil)
	if _, err := e.keepReferences(ctx, c, stale); err != nil {
		t.Fatal(err)
	}
	if got := e.refCache.table.Load(); got == nil || got == stale.t || len(got.row) != len(whole.row) {
		t.Error("a read of another generation made the table")
	}
}

// TestRefTableAfterEmpty: an engine that kept the references of an empty
// index (winnow mcp as it starts on a tree never indexed) keeps them
// whole once the index is built, as a table read after the corpus.
func TestRefTableAfterEmpty(t *testing.T) {
	root := writeTree(t, map[string]string{
		"a.py": "def alpha(x):\n    return beta(x) + gamma\n",
		"b.py": "from a import alpha\n\ndef beta(y):\n    return alpha(y)\n",
	})
	ix, err := index.Open(t.Context(), index.Options{Root: root, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	e := New(ix, nil)
	if err := e.KeepReferences(t.Context()); err != nil {
		t.Fatal(err)
	}
	if tab := e.refCache.table.Load(); tab == nil || len(tab.row) != 0 {
		t.Fatalf("the empty index's table: %v", tab)
	}
	reindex(t, ix)
	if err := e.KeepReferences(t.Context()); err != nil {
		t.Fatal(err)
	}
	tab := e.refCache.table.Load()
	if tab == nil || len(tab.row) == 0 || tab.patched {
		t.Fatalf("after the first update: %v rows, patched %v; want them read whole", len(tab.row), tab.patched)
	}
	if diff := cmp.Diff(refRows(readRefTable(t, ix, tab.c)), refRows(tab)); diff != "" {
		t.Fatalf("rows (-read after +read beside):\n%s", diff)
	}
	answersAsIndex(t, ix, tab, "after empty")
}

// TestRefReadShared: calls that want every reference read at once share
// one read, which makes one table; the next read is a new one.
func TestRefReadShared(t *testing.T) {
	e, _ := e2eEngine(t)
	ctx := t.Context()
	r1, r2 := e.readBeside(ctx), e.readBeside(ctx)
	if r1 == nil || r1 != r2 {
		t.Fatalf("two calls at once: reads %p and %p, want one shared", r1, r2)
	}
	c, err := e.corpus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*refRead{r1, r2} {
		if _, err := e.keepReferences(ctx, c, r); err != nil {
			t.Fatal(err)
		}
	}
	if tab := e.refCache.table.Load(); tab != r1.t || !r1.used {
		t.Error("the shared read did not make the table")
	}
	if e.refCache.reading.Load() != nil {
		t.Error("the read is still in flight after it made the table")
	}
	e.refCache.table.Store(nil)
	if r3 := e.readBeside(ctx); r3 == nil || r3 == r1 {
		t.Errorf("with no table kept, a new call got read %p (the old one %p)", r3, r1)
	} else {
		r3.wait()
	}
}
