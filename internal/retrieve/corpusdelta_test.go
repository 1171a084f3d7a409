package retrieve

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/winnowhq/winnow/internal/index"
)

// deltaTree is an indexed tree whose corpus file SaveCorpus wrote, then
// one of whose files changed: the index is a generation past the file.
func deltaTree(t *testing.T) (root string, ix *index.Index) {
	t.Helper()
	root = writeTree(t, map[string]string{
		"pkg/alpha.py": "def alpha_one(x):\n    return beta_two(x) + 1\n",
		"pkg/beta.py":  "def beta_two(y):\n    '''Beta doubles.'''\n    return y * 2\n",
		"pkg/gamma.py": "class Gamma:\n    def run(self):\n        return 'gamma'\n",
	})
	ix = indexed(t, root)
	if wrote, err := New(ix, nil).SaveCorpus(t.Context()); err != nil || !wrote {
		t.Fatalf("first SaveCorpus wrote %v, %v", wrote, err)
	}
	edit(t, root, "pkg/beta.py", "def beta_two(y):\n    '''Beta triples.'''\n    return y * 3\n\ndef beta_three():\n    return zeta_word\n")
	reindex(t, ix)
	return root, ix
}

// TestSaveCorpusWritesDelta: after a one-file update SaveCorpus leaves
// the corpus file as it was and writes a delta file, and then has
// nothing to write; a new engine opens the two (Preload) as the corpus
// built from the index.
func TestSaveCorpusWritesDelta(t *testing.T) {
	_, ix := deltaTree(t)
	before, err := os.ReadFile(ix.CorpusPath())
	if err != nil {
		t.Fatal(err)
	}
	if wrote, err := New(ix, nil).SaveCorpus(t.Context()); err != nil || !wrote {
		t.Fatalf("SaveCorpus after the update wrote %v, %v", wrote, err)
	}
	if after, err := os.ReadFile(ix.CorpusPath()); err != nil || !bytes.Equal(before, after) {
		t.Errorf("the corpus file was rewritten (%v)", err)
	}
	if _, err := os.Stat(ix.CorpusDeltaPath()); err != nil {
		t.Fatalf("no delta file: %v", err)
	}
	if wrote, err := New(ix, nil).SaveCorpus(t.Context()); err != nil || wrote {
		t.Errorf("SaveCorpus with a current delta file wrote %v, %v", wrote, err)
	}
	built, err := loadCorpus(t.Context(), ix, DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	for _, mapped := range []bool{false, true} {
		e := New(ix, &Options{MapCorpus: mapped})
		e.Preload(t.Context())
		if e.loaded == nil {
			t.Fatalf("mapped %v: Preload did not open the corpus through the delta file", mapped)
		}
		e.loaded.tier = built.tier
		if e.loaded.defText.lazy == nil {
			t.Errorf("mapped %v: the definitions' text index was copied whole, not patched as it is read", mapped)
		}
		sameAsBuilt(t, built, e.loaded, fmt.Sprintf("mapped %v", mapped))
	}
}

// TestDeltaRejected: a delta file that is damaged, truncated, or for
// another corpus file, or a damaged corpus file under a good delta, is
// refused (the corpus file is then stale, or damaged), never applied;
// the next query answers as from the index and leaves files that open.
// A damaged corpus file is written again whole, not patched by another
// delta.
func TestDeltaRejected(t *testing.T) {
	cases := []struct {
		name   string
		damage func(t *testing.T, ix *index.Index)
		want   error
		forged bool // the corpus file is well formed and wrong: no query can tell
	}{
		{"flipped byte", func(t *testing.T, ix *index.Index) { flip(t, ix.CorpusDeltaPath(), 0.6) }, index.ErrCorpusStale, false},
		{"truncated", func(t *testing.T, ix *index.Index) { truncate(t, ix.CorpusDeltaPath()) }, index.ErrCorpusStale, false},
		{"empty", func(t *testing.T, ix *index.Index) { os.WriteFile(ix.CorpusDeltaPath(), nil, 0o644) }, index.ErrCorpusStale, false},
		{"corpus file replaced", func(t *testing.T, ix *index.Index) {
			// Another corpus file of the same generation: the delta names
			// the old one by its checksum.
			c, err := decodeCorpusFile(ix)
			if err != nil {
				t.Fatal(err)
			}
			c.defs[0].Span.EndLine++
			if err := saveCorpus(ix, c); err != nil {
				t.Fatal(err)
			}
		}, index.ErrCorpusStale, true},
		{"corpus file damaged", func(t *testing.T, ix *index.Index) { flip(t, ix.CorpusPath(), 0.5) }, index.ErrCorpusDamaged, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, ix := deltaTree(t)
			if _, err := New(ix, nil).SaveCorpus(t.Context()); err != nil {
				t.Fatal(err)
			}
			gen, err := ix.Stamp(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			tc.damage(t, ix)
			for _, mapped := range []bool{false, true} {
				if _, err := openCorpus(t.Context(), ix, gen, DefaultParams, mapped); !errors.Is(err, tc.want) {
					t.Fatalf("mapped %v: openCorpus = %v, want %v", mapped, err, tc.want)
				}
			}
			if tc.forged {
				return
			}
			built, err := loadCorpus(t.Context(), ix, DefaultParams)
			if err != nil {
				t.Fatal(err)
			}
			e := New(ix, nil)
			c, err := e.corpus(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			c.tier = built.tier
			sameAsBuilt(t, built, c, "the query's corpus")
			if _, err := openCorpus(t.Context(), ix, gen, DefaultParams, false); err != nil {
				t.Errorf("the files the query left do not open: %v", err)
			}
			if tc.want == index.ErrCorpusDamaged && !ix.CorpusCurrent(index.CorpusKey{Layout: corpusLayout, Generation: gen}) {
				t.Errorf("the damaged corpus file was not written again whole")
			}
		})
	}
}

// decodeCorpusFile reads the corpus file of any generation.
func decodeCorpusFile(ix *index.Index) (*corpus, error) {
	key, sections, err := ix.ReadCorpusLayout(corpusLayout, false)
	if err != nil {
		return nil, err
	}
	return decodeSections(sections, key.Generation)
}

// flip inverts a byte of the file at the given share of its length.
func flip(t *testing.T, path string, at float64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[int(float64(len(data))*at)] ^= 0xff
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// truncate cuts the file at two thirds of its length.
func truncate(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data[:len(data)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDeltaBroughtForward: after updates of this process's own, the next
// delta is made from the last one (changesSinceDelta), without the
// corpus file's files: it has every file's key as the index does, holds
// at least the files that differ from the corpus file, and opens as the
// corpus built from the index. After an update of another process it is
// made from the corpus file again.
func TestDeltaBroughtForward(t *testing.T) {
	root, ix := deltaTree(t)
	save := func(step string) {
		t.Helper()
		if wrote, err := New(ix, nil).SaveCorpus(t.Context()); err != nil || !wrote {
			t.Fatalf("%s: SaveCorpus wrote %v, %v", step, wrote, err)
		}
		built, err := loadCorpus(t.Context(), ix, DefaultParams)
		if err != nil {
			t.Fatal(err)
		}
		e := New(ix, nil)
		e.Preload(t.Context())
		if e.loaded == nil {
			t.Fatalf("%s: Preload did not open the corpus through the delta file", step)
		}
		e.loaded.tier = built.tier
		sameAsBuilt(t, built, e.loaded, step)
	}
	// changes returns what changesSinceDelta makes of the delta file there
	// is, checked against the index and the corpus file.
	changes := func(step string) *deltaChanges {
		t.Helper()
		snap, err := ix.Snapshot(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		defer snap.Close()
		gen, err := snap.Stamp(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		got, err := changesSinceDelta(t.Context(), ix, snap, gen)
		if err != nil {
			t.Fatal(err)
		}
		if got == nil {
			return nil
		}
		exact, err := changesSinceCorpus(t.Context(), ix, snap, gen)
		if err != nil || exact == nil {
			t.Fatalf("%s: changesSinceCorpus = %v, %v", step, exact, err)
		}
		if diff := cmp.Diff(exact.keys, got.keys); diff != "" {
			t.Fatalf("%s: keys (-index +brought forward):\n%s", step, diff)
		}
		if exact.base != got.base {
			t.Fatalf("%s: base %v, want %v", step, got.base, exact.base)
		}
		for _, id := range exact.files {
			if !slices.Contains(got.files, id) {
				t.Fatalf("%s: file %d differs from the corpus file, not held (%v, want at least %v)", step, id, got.files, exact.files)
			}
		}
		return got
	}
	save("first delta")
	steps := []struct {
		name string
		do   func()
	}{
		{"modify another", func() { edit(t, root, "pkg/alpha.py", "def alpha_one(x):\n    return x\n") }},
		{"add", func() { edit(t, root, "pkg/delta.py", "def delta_four():\n    return 4\n") }},
		{"modify the same again", func() { edit(t, root, "pkg/delta.py", "def delta_four():\n    return 'four'\n") }},
		{"delete", func() { os.Remove(filepath.Join(root, "pkg/gamma.py")) }},
		{"rename", func() { os.Rename(filepath.Join(root, "pkg/beta.py"), filepath.Join(root, "pkg/bet.py")) }},
		{"skip", func() { edit(t, root, "pkg/alpha.py", "def alpha_one(x):\n    return '\x00'\n") }},
	}
	for _, s := range steps {
		s.do()
		reindex(t, ix)
		if changes(s.name) == nil {
			t.Fatalf("%s: the delta was not brought forward", s.name)
		}
		save(s.name)
	}

	// Another process's update: its changes are not known here.
	other, err := index.Open(t.Context(), index.Options{Root: root, Dir: ix.Dir()})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	edit(t, root, "pkg/late.py", "def late():\n    pass\n")
	if _, err := other.Update(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if changes("another process") != nil {
		t.Fatal("a delta was brought forward over another process's update")
	}
	save("another process")
	// This process's again, after it: known from the delta just written.
	edit(t, root, "pkg/late.py", "def late():\n    return 1\n")
	reindex(t, ix)
	if changes("own after another") == nil {
		t.Fatal("own after another: the delta was not brought forward")
	}
	save("own after another")
	// This process's update, then another's, then the delta: the log
	// holds this process's, not the other's after it.
	edit(t, root, "pkg/late.py", "def late():\n    return 2\n")
	reindex(t, ix)
	edit(t, root, "pkg/later.py", "def later():\n    pass\n")
	if _, err := other.Update(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if changes("own, then another") != nil {
		t.Fatal("a delta was brought forward over another process's update after this one's")
	}
	save("own, then another")
}
