package retrieve

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/winnowhq/winnow/internal/index"
)

// patched brings prev up to the index as it is, from memory and from
// prev's corpus file, checks that both are the corpus built from
// scratch, field by field, and that the patch was taken, not the full
// build; and so is base (of an earlier generation still) as a corpus
// file patched by a delta file (throughDelta). It returns the built
// corpus, for the next step.
func patched(t *testing.T, ix *index.Index, base, prev *corpus, step string) *corpus {
	t.Helper()
	built, err := loadCorpus(t.Context(), ix, DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := ix.Snapshot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	fromFile, err := decodeSections(mustEncode(t, prev), prev.gen)
	if err != nil {
		t.Fatal(err)
	}
	for _, base := range []*corpus{prev, fromFile} {
		got, ok, err := patchCorpus(t.Context(), snap, base)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if !ok {
			t.Fatalf("%s: the corpus was not patched", step)
		}
		got.finish(DefaultParams)
		if sameCorpusDiff(built, got) != "" {
			t.Fatalf("%s: patched corpus differs from the one built (-built +patched):\n%s", step, sameCorpusDiff(built, got))
		}
		enc1, enc2 := mustEncode(t, built), mustEncode(t, got)
		if fmt.Sprint(enc1) != fmt.Sprint(enc2) {
			t.Fatalf("%s: the patched corpus file differs from the built one", step)
		}
	}
	throughDelta(t, ix, base, built, step)
	return built
}

// throughDelta saves base as the corpus file and a delta file that
// brings it up to the index as it is, and checks that the corpus opened
// from the two, read and mapped, is built, field by field.
func throughDelta(t *testing.T, ix *index.Index, base, built *corpus, step string) {
	t.Helper()
	if err := saveCorpus(ix, base); err != nil {
		t.Fatal(err)
	}
	snap, err := ix.Snapshot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	ok, err := saveDelta(t.Context(), ix, snap)
	snap.Close()
	if err != nil || !ok {
		t.Fatalf("%s: no delta file written (%v)", step, err)
	}
	for _, mapped := range []bool{false, true} {
		got, err := openCorpus(t.Context(), ix, built.gen, DefaultParams, mapped)
		if err != nil {
			t.Fatalf("%s: open through the delta file (mapped %v): %v", step, mapped, err)
		}
		sameAsBuilt(t, built, got, fmt.Sprintf("%s (through the delta file, mapped %v)", step, mapped))
	}
}

// sameAsBuilt checks that got, whose text indexes may be patched as they
// are read (lazyText), is built: field by field once flat, and, as it
// is, in the score, idf and presence of every term of either and of a
// term of neither, to the bit.
func sameAsBuilt(t *testing.T, built, got *corpus, step string) {
	t.Helper()
	flat := *got
	flat.defText, flat.fileText = got.defText.flat(), got.fileText.flat()
	if d := sameCorpusDiff(built, &flat); d != "" {
		t.Fatalf("%s: the corpus differs from the one built (-built +got):\n%s", step, d)
	}
	for i, pair := range [][2]*bm25{{&built.defText, &got.defText}, {&built.fileText, &got.fileText}} {
		want, have := pair[0], pair[1]
		terms := append(append(slices.Clone(want.terms), have.terms...), "zz_in_no_document")
		if have.lazy != nil {
			terms = append(terms, have.lazy.terms...)
		}
		n := []int{len(built.defs), len(built.files)}[i]
		for _, term := range terms {
			if want.has(term) != have.has(term) || want.idf(term) != have.idf(term) {
				t.Fatalf("%s: term %q: has %v, idf %v; built: %v, %v", step, term, have.has(term), have.idf(term), want.has(term), want.idf(term))
			}
			ws, hs := make([]float64, n), make([]float64, n)
			want.score(term, 1.25, ws)
			have.score(term, 1.25, hs)
			if !slices.Equal(ws, hs) {
				t.Fatalf("%s: term %q scores %v, built %v", step, term, hs, ws)
			}
		}
	}
}

func mustEncode(t *testing.T, c *corpus) [][]byte {
	t.Helper()
	s, err := encodeCorpus(c)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func edit(t *testing.T, root, name, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	// The index tells a change by size and mtime: make it visible even
	// when the size is the same and the clock has not moved.
	future := time.Now().Add(time.Duration(rand.IntN(1000)+1) * time.Second)
	if err := os.Chtimes(p, future, future); err != nil {
		t.Fatal(err)
	}
}

func reindex(t *testing.T, ix *index.Index) {
	t.Helper()
	if _, err := ix.Update(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
}

// TestPatchedCorpusIsBuilt: after a file is added, modified, deleted,
// renamed, emptied of definitions or given new terms only, the corpus
// patched from the previous one (in memory or read from its file) is
// the corpus built from the index, to the last field and byte; and so
// is the first corpus file patched by a delta file of all the changes
// since.
func TestPatchedCorpusIsBuilt(t *testing.T) {
	root := writeTree(t, map[string]string{
		"pkg/alpha.py": "def alpha_one(x):\n    return beta_two(x) + 1\n\nclass Alpha:\n    def run(self):\n        return 'alpha'\n",
		"pkg/beta.py":  "def beta_two(y):\n    '''Beta doubles.'''\n    return y * 2\n",
		"pkg/gamma.py": "import os\n\nGAMMA = os.sep\n\ndef gamma_three():\n    return GAMMA\n",
		"zeta/last.py": "def zeta_last():\n    pass\n",
	})
	ix := indexed(t, root)
	c, err := loadCorpus(t.Context(), ix, DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	base := c
	steps := []struct {
		name string
		do   func()
	}{
		{"add", func() {
			edit(t, root, "pkg/delta.py", "def delta_four(q):\n    return quux_unheard_of(q)\n")
		}},
		{"add first by path", func() { edit(t, root, "aaa.py", "class First:\n    pass\n") }},
		{"modify", func() {
			edit(t, root, "pkg/beta.py", "def beta_two(y):\n    '''Beta triples now.'''\n    return y * 3\n\ndef beta_extra():\n    return brand_new_term\n")
		}},
		{"modify terms only", func() {
			edit(t, root, "pkg/beta.py", "def beta_two(y):\n    return y * other_word\n\ndef beta_extra():\n    return 0\n")
		}},
		{"delete", func() { os.Remove(filepath.Join(root, "pkg/gamma.py")) }},
		{"rename", func() {
			os.Rename(filepath.Join(root, "pkg/alpha.py"), filepath.Join(root, "pkg/omega.py"))
		}},
		{"no definitions", func() { edit(t, root, "zeta/last.py", "print('only code')\n") }},
		{"delete the last", func() { os.Remove(filepath.Join(root, "zeta/last.py")) }},
		{"several at once", func() {
			edit(t, root, "pkg/beta.py", "def beta_two(y):\n    return y\n")
			edit(t, root, "pkg/new.py", "def newer():\n    return alpha_one(1)\n")
			os.Remove(filepath.Join(root, "aaa.py"))
		}},
	}
	for _, s := range steps {
		s.do()
		reindex(t, ix)
		c = patched(t, ix, base, c, s.name)
	}
}

// TestPatchedCorpusRandomEdits: over random sequences of edits (files
// written with words and definitions drawn from a small vocabulary,
// deleted, renamed, several per update), every patched corpus is the
// built one, and so is the first corpus file patched by the delta file
// of every change since.
func TestPatchedCorpusRandomEdits(t *testing.T) {
	words := []string{"alpha", "beta", "gamma", "delta", "sum", "print", "point", "frame", "parse", "value", "x", "y"}
	r := rand.New(rand.NewPCG(13, 14))
	source := func() string {
		var s string
		for range r.IntN(4) {
			s += fmt.Sprintf("def %s_%s(%s):\n    '''%s %s.'''\n    return %s\n\n", words[r.IntN(len(words))], words[r.IntN(len(words))],
				words[r.IntN(len(words))], words[r.IntN(len(words))], words[r.IntN(len(words))], words[r.IntN(len(words))])
		}
		if r.IntN(3) == 0 {
			s += fmt.Sprintf("class %s:\n    def %s(self):\n        return %s\n", "C"+words[r.IntN(len(words))], words[r.IntN(len(words))], words[r.IntN(len(words))])
		}
		return s + words[r.IntN(len(words))] + " = 1\n"
	}
	name := func() string { return fmt.Sprintf("d%d/f%d.py", r.IntN(3), r.IntN(8)) }
	files := map[string]string{}
	for range 6 {
		files[name()] = source()
	}
	root := writeTree(t, files)
	ix := indexed(t, root)
	c, err := loadCorpus(t.Context(), ix, DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	base := c // every delta is against the first corpus file: they accumulate
	for step := range 60 {
		did := editTree(t, r, root, name, source)
		reindex(t, ix)
		gen, _ := ix.Stamp(t.Context())
		if gen == c.gen {
			continue
		}
		c = patched(t, ix, base, c, fmt.Sprintf("step %d %q", step, did))
	}
}

// sameCorpusDiff is sameCorpus's comparison, as a diff.
func sameCorpusDiff(want, got *corpus) string {
	return cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true }), cmpopts.EquateEmpty())
}
