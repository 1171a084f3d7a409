package lang

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	sitter "github.com/tree-sitter/go-tree-sitter"
)

// nodes lists every node of tree, in order, with its field, kind and
// bytes.
func nodes(tree *sitter.Tree) []string {
	c := tree.Walk()
	defer c.Close()
	var out []string
	for {
		n := c.Node()
		out = append(out, fmt.Sprintf("%d %s:%s %d-%d error=%t missing=%t",
			c.Depth(), c.FieldName(), n.Kind(), n.StartByte(), n.EndByte(), n.IsError(), n.IsMissing()))
		if c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return out
			}
		}
	}
}

// testArena returns an arena closed with the test.
func testArena(t *testing.T) *arena {
	t.Helper()
	a := newArena()
	if a == nil {
		t.Fatal("no address space for an arena")
	}
	t.Cleanup(a.close)
	return a
}

// comprehensions is Python whose tree is some 8 MB: past the room of a
// small arena.
var comprehensions = bytes.Repeat([]byte("def f(x):\n    return [y for y in x if y]\n"), 2000)

// TestArenaTrees: a tree parsed in an arena is the tree parsed in the C
// library, node for node, in every language; one arena parses them all
// in turn, in its room and in a room too small, which spills the rest
// of the parse into the C library.
func TestArenaTrees(t *testing.T) {
	a := testArena(t)
	files, langs := goldenSources(t)
	for i, f := range files {
		l := langs[i]
		tp := sitter.NewParser()
		if err := tp.SetLanguage(l.language()); err != nil {
			t.Fatal(err)
		}
		tree := parseBytes(tp, f.Data)
		want := nodes(tree)
		tree.Close()
		tp.Close()
		for _, room := range []int{arenaRoom(len(f.Data)), 4096} {
			tree := a.parse(l.language(), parseTimeoutMicros(len(f.Data)), room, f.Data)
			if tree == nil {
				t.Fatalf("%s in %d bytes of arena: no tree", f.Name, room)
			}
			got := nodes(tree)
			a.reset(tree)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s in %d bytes of arena: nodes (-libc +arena):\n%s", f.Name, room, diff)
			}
		}
	}
}

// TestArenaSpillFreed: a tree that spilled into the C library gives its
// blocks there back at reset.
func TestArenaSpillFreed(t *testing.T) {
	if cHeapInUse() < 0 {
		t.Skip("C heap in use unknown here")
	}
	a := testArena(t)
	l, src := ByName("python"), comprehensions
	parse := func() {
		a.reset(a.parse(l.language(), parseTimeoutMicros(len(src)), 1<<16, src))
	}
	parse() // the C library's pools fill
	before := cHeapInUse()
	for range 5 {
		parse()
	}
	// A tree of src is some 8 MB; its spill leaked would show five times.
	if grew := cHeapInUse() - before; grew > 1<<20 {
		t.Errorf("C heap in use grew %d bytes over five spilled parses", grew)
	}
}

// TestArenaTimeout: a parse that gives up leaves no tree, and the arena
// parses the next file as before.
func TestArenaTimeout(t *testing.T) {
	a := testArena(t)
	l, src := ByName("python"), comprehensions
	for _, room := range []int{arenaRoom(len(src)), 1 << 16} {
		if tree := a.parse(l.language(), 1, room, src); tree != nil {
			a.reset(tree)
			t.Fatalf("in %d bytes of arena: a tree within a microsecond", room)
		}
		a.reset(nil)
		tree := a.parse(l.language(), parseTimeoutMicros(len(src)), room, src)
		if tree == nil {
			t.Fatalf("in %d bytes of arena: no tree after a parse that gave up", room)
		}
		if root := tree.RootNode(); root.HasError() || root.EndByte() != uint(len(src)) {
			t.Errorf("in %d bytes of arena: root %s", room, root.ToSexp()[:80])
		}
		a.reset(tree)
	}
}

// TestArenaMixedBlocks: with an arena current, the allocator keeps the
// C library's blocks in the C library, and moves, reuses and spills the
// arena's.
func TestArenaMixedBlocks(t *testing.T) {
	a := testArena(t)
	if bad := a.check(); bad != "" {
		t.Error(bad)
	}
}

// TestLargeSourceNoArena: a file of largeSource bytes or more is parsed
// in the C library, to the same symbols as in an arena.
func TestLargeSourceNoArena(t *testing.T) {
	l := ByName("python")
	small := []byte("import os\n\nclass A:\n    def f(self):\n        return os.path.join(self.x)\n")
	large := append(bytes.Clone(small), bytes.Repeat([]byte("\n"), largeSource)...)

	ps, pl := NewParser(), NewParser()
	defer ps.Close()
	defer pl.Close()
	want, err := ps.Parse(context.Background(), l, "a.py", small)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pl.Parse(context.Background(), l, "a.py", large)
	if err != nil {
		t.Fatal(err)
	}
	if ps.arena == nil {
		t.Error("small file: parsed with no arena")
	}
	if pl.arena != nil {
		t.Error("large file: parsed in an arena")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("symbols (-small +large):\n%s", diff)
	}
}
