package retrieve

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/winnowhq/winnow/internal/index"
)

// writeTree writes files (slash path → text) under a new temporary directory and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// indexed returns a fresh index of root, kept outside it, updated once and closed with the
// test.
func indexed(t *testing.T, root string) *index.Index {
	t.Helper()
	ix, err := index.Open(t.Context(), index.Options{Root: root, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Update(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	return ix
}

// weighted returns an engine over a fresh index of root, ranking with DefaultParams but for
// weight w of feature f.
func weighted(t *testing.T, root string, f Feature, w float64) *Engine {
	t.Helper()
	ix := indexed(t, root)
	par := DefaultParams
	par.Weights[f] = w
	return New(ix, &Options{Params: &par})
}

// rankWith ranks task over ix with DefaultParams as set changes them.
func rankWith(t *testing.T, ix *index.Index, task string, set func(*Params)) *Ranking {
	t.Helper()
	par := DefaultParams
	set(&par)
	r, err := New(ix, &Options{Params: &par}).Rank(t.Context(), task)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// editTree makes one to three random edits of the tree at root, each a
// file of name() written with source(), deleted, or renamed to another
// name(), and says what it did.
func editTree(t *testing.T, r *rand.Rand, root string, name, source func() string) []string {
	t.Helper()
	var did []string
	for range 1 + r.IntN(3) {
		n := name()
		p := filepath.Join(root, filepath.FromSlash(n))
		switch r.IntN(4) {
		case 0:
			os.Remove(p)
			did = append(did, "delete "+n)
		case 1:
			m := name()
			os.MkdirAll(filepath.Dir(filepath.Join(root, filepath.FromSlash(m))), 0o755)
			os.Rename(p, filepath.Join(root, filepath.FromSlash(m)))
			did = append(did, "rename "+n+" "+m)
		default:
			edit(t, root, n, source())
			did = append(did, "write "+n)
		}
	}
	return did
}
