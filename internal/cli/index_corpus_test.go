package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/retrieve"
)

// TestIndexWritesCorpusFile: winnow index leaves a corpus file that is
// current, after the first build and after an edit, so the next winnow
// context opens it instead of building it from the index; a run that
// changes nothing does not write it again.
func TestIndexWritesCorpusFile(t *testing.T) {
	dir := repo(t)
	corpusFile := filepath.Join(dir, ".winnow", index.CorpusFileName)
	current := func(when string) {
		t.Helper()
		ix, err := index.Open(t.Context(), index.Options{Root: dir, Dir: filepath.Join(dir, ".winnow")})
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		wrote, err := retrieve.New(ix, nil).SaveCorpus(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if wrote {
			t.Errorf("%s: the corpus file was not current", when)
		}
	}
	if code, _, errOut := run(t, "index", dir); code != 0 {
		t.Fatalf("index: exit %d: %s", code, errOut)
	}
	current("after the first index")

	os.WriteFile(filepath.Join(dir, "shapes.py"), []byte("def make_circle(radius):\n    return radius\n"), 0o644)
	if code, _, errOut := run(t, "index", dir); code != 0 {
		t.Fatalf("index after an edit: exit %d: %s", code, errOut)
	}
	current("after an edit")

	before, err := os.Stat(corpusFile)
	if err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(t, "index", dir); code != 0 {
		t.Fatalf("index again: exit %d: %s", code, errOut)
	}
	if after, err := os.Stat(corpusFile); err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("an index run that changed nothing rewrote the corpus file (%v)", err)
	}

	t.Chdir(dir)
	code, out, errOut := run(t, "context", "make a circle of a radius")
	if code != 0 || !strings.Contains(out, "make_circle") {
		t.Errorf("context after the edit: exit %d, %s\n%s", code, errOut, out)
	}
}
