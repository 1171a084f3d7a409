package telescope

import (
	"path/filepath"
	"testing"
)

// BenchmarkBuild builds a telescope of this repository (code_signature, two levels): cold,
// into an empty store, and warm, by a new engine over a store that holds every node. Compare
// the two in the same run; `winnow bench telescope` reports the ratio on any tree.
func BenchmarkBuild(b *testing.B) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			e, err := New(&Options{Root: root, Store: newMemStore()})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := e.Build(b.Context(), Request{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		st := newMemStore()
		e, err := New(&Options{Root: root, Store: st})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.Build(b.Context(), Request{}); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			e, _ := New(&Options{Root: root, Store: st})
			if _, err := e.Build(b.Context(), Request{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
