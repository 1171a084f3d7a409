package retrieve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestContextAfterUpdate: an index update that lands between Context's ranking and its
// pack replaces the ids of the definitions it ranked (here a definition is added to the
// file, which is parsed again; in winnow mcp, the quick tier upgraded to the full one in
// the background). The pack must still hold them: Context ranks once more on the index
// as it is now, instead of answering with cards missing ("nothing in the repository
// matched").
func TestContextAfterUpdate(t *testing.T) {
	root := writeTree(t, map[string]string{
		"shapes.py": "class Shape:\n    pass\n\n\ndef make_square(side):\n    \"\"\"Build a square.\"\"\"\n    return Shape()\n",
	})
	ix := indexed(t, root)
	e := New(ix, nil)
	updates := 0
	e.afterRank = func() {
		updates++
		if updates > 1 {
			return
		}
		f := filepath.Join(root, "shapes.py")
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// A definition more: the file's definitions get new ids (an update
		// that only edits keeps them in place).
		if err := os.WriteFile(f, append([]byte("def setup():\n    pass\n\n\n"), data...), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Update(t.Context(), nil); err != nil {
			t.Fatal(err)
		}
	}
	pack, err := e.Context(t.Context(), Request{Task: "make_square builds the wrong Shape", Budget: 2000})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := pack.Render(&b, XML); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `name="make_square"`) {
		t.Errorf("the pack made across an update lacks make_square:\n%s", b.String())
	}
	if updates != 2 {
		t.Errorf("Context ranked %d times, want twice: once before the update, once after", updates)
	}
}
