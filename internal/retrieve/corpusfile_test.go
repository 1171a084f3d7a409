package retrieve

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/winnowhq/winnow/internal/index"
)

// openE2E indexes the eval repository into a temporary directory.
func openE2E(t *testing.T) *index.Index { return indexed(t, e2eRepo) }

// sameCorpus reports a difference between two corpora, field by field.
func sameCorpus(t *testing.T, want, got *corpus) {
	t.Helper()
	// The tier is not in the file: the engine sets it from the stamp it opens the file at.
	opts := []cmp.Option{cmp.Exporter(func(reflect.Type) bool { return true }), cmpopts.EquateEmpty(), cmpopts.IgnoreFields(corpus{}, "tier")}
	if d := cmp.Diff(want, got, opts...); d != "" {
		t.Fatalf("corpus from the file differs from the one built (-built +file):\n%s", d)
	}
}

// TestCorpusFileRoundTrip: the corpus read from the file is the corpus
// built from the index, to the last field; ranking cannot tell them
// apart.
func TestCorpusFileRoundTrip(t *testing.T) {
	ix := openE2E(t)
	built, err := loadCorpus(t.Context(), ix, DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	if err := saveCorpus(ix, built); err != nil {
		t.Fatal(err)
	}
	for _, mapped := range []bool{false, true} {
		read, err := openCorpus(t.Context(), ix, built.gen, DefaultParams, mapped)
		if err != nil {
			t.Fatalf("mapped %v: %v", mapped, err)
		}
		sameCorpus(t, built, read)
	}

	// The file does not depend on Params: other weights apply on opening.
	par := DefaultParams
	par.Fields[index.FieldBody] = 0.25
	par.FileFields[index.FieldPath] = 5
	par.K1, par.B = 1.5, 0.6
	rebuilt, err := loadCorpus(t.Context(), ix, par)
	if err != nil {
		t.Fatal(err)
	}
	reread, err := openCorpus(t.Context(), ix, built.gen, par, false)
	if err != nil {
		t.Fatal(err)
	}
	sameCorpus(t, rebuilt, reread)
}

// builtSections builds the corpus of ix and encodes it.
func builtSections(t *testing.T, ix *index.Index) (*corpus, [][]byte) {
	t.Helper()
	c, err := loadCorpus(t.Context(), ix, DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	sections, err := encodeCorpus(c)
	if err != nil {
		t.Fatal(err)
	}
	return c, sections
}

// TestCorpusFileRejected: a corpus file that is stale, truncated,
// corrupt, from another format or layout, or not a corpus file is
// ignored and rebuilt; the engine answers as it would from the index.
func TestCorpusFileRejected(t *testing.T) {
	cases := []struct {
		name  string
		spoil func(t *testing.T, ix *index.Index, file []byte) // the file as saved at the current stamp
		want  error
	}{
		{"stale generation", func(t *testing.T, ix *index.Index, file []byte) {
			c, err := loadCorpus(t.Context(), ix, DefaultParams)
			if err != nil {
				t.Fatal(err)
			}
			c.gen += "0"
			if err := saveCorpus(ix, c); err != nil {
				t.Fatal(err)
			}
		}, index.ErrCorpusStale},
		{"older layout", func(t *testing.T, ix *index.Index, file []byte) {
			c, sections := builtSections(t, ix)
			if err := ix.WriteCorpus(index.CorpusKey{Layout: "retrieve.corpus/0", Generation: c.gen}, sections); err != nil {
				t.Fatal(err)
			}
		}, index.ErrCorpusStale},
		{"older container version", func(t *testing.T, ix *index.Index, file []byte) {
			file[8]-- // the version follows the 8-byte magic
			write(t, ix, file)
		}, index.ErrCorpusStale},
		{"truncated", func(t *testing.T, ix *index.Index, file []byte) {
			write(t, ix, file[:len(file)/2])
		}, index.ErrCorpusDamaged},
		{"one byte short", func(t *testing.T, ix *index.Index, file []byte) {
			write(t, ix, file[:len(file)-1])
		}, index.ErrCorpusDamaged},
		{"flipped bit", func(t *testing.T, ix *index.Index, file []byte) {
			file[len(file)/3] ^= 0x10
			write(t, ix, file)
		}, index.ErrCorpusDamaged},
		{"empty", func(t *testing.T, ix *index.Index, file []byte) {
			write(t, ix, nil)
		}, index.ErrCorpusDamaged},
		{"not a corpus file", func(t *testing.T, ix *index.Index, file []byte) {
			write(t, ix, []byte("SQLite format 3\x00 and then some"))
		}, index.ErrCorpusDamaged},
		{"sections of another layout under this one's name", func(t *testing.T, ix *index.Index, file []byte) {
			c, sections := builtSections(t, ix)
			sections[0], sections[2] = sections[2], sections[0] // the ids and the files of definitions
			if err := ix.WriteCorpus(index.CorpusKey{Layout: corpusLayout, Generation: c.gen}, sections); err != nil {
				t.Fatal(err)
			}
		}, index.ErrCorpusDamaged},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ix := openE2E(t)
			want, err := New(ix, nil).Context(t.Context(), Request{Task: "parse the Retry-After header"})
			if err != nil {
				t.Fatal(err)
			}
			file, err := os.ReadFile(ix.CorpusPath())
			if err != nil {
				t.Fatalf("the first query did not save the corpus file: %v", err)
			}
			gen, err := ix.Stamp(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			tc.spoil(t, ix, file)
			for _, mapped := range []bool{false, true} {
				if _, err := openCorpus(t.Context(), ix, gen, DefaultParams, mapped); !errors.Is(err, tc.want) {
					t.Fatalf("openCorpus (mapped %v) = %v, want %v", mapped, err, tc.want)
				}
			}
			got, err := New(ix, &Options{MapCorpus: true}).Context(t.Context(), Request{Task: "parse the Retry-After header"})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(render(t, want), render(t, got)); d != "" {
				t.Errorf("answer from a rebuilt corpus differs (-want +got):\n%s", d)
			}
			if _, err := openCorpus(t.Context(), ix, gen, DefaultParams, false); err != nil {
				t.Errorf("the corpus file was not rebuilt: %v", err)
			}
		})
	}
}

// TestCorpusFileFollowsUpdates: an update changes the stamp, and the
// next query rebuilds the corpus and its file.
func TestCorpusFileFollowsUpdates(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(root+"/a.py", []byte("def alpha_handler():\n    return 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := index.Open(t.Context(), index.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Update(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	e := New(ix, nil)
	if err := e.Warm(t.Context()); err != nil {
		t.Fatal(err)
	}
	before, _ := ix.Stamp(t.Context())
	if err := os.WriteFile(root+"/b.py", []byte("def beta_handler():\n    return 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Update(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	after, _ := ix.Stamp(t.Context())
	if before == after {
		t.Fatalf("stamp %q did not change with the update", after)
	}
	if _, err := openCorpus(t.Context(), ix, after, DefaultParams, false); !errors.Is(err, index.ErrCorpusStale) {
		t.Fatalf("corpus file after the update: %v, want stale", err)
	}
	pack, err := New(ix, nil).Context(t.Context(), Request{Task: "beta_handler"})
	if err != nil {
		t.Fatal(err)
	}
	if cards, _ := pack.Cards(); cards == 0 {
		t.Fatal("the new definition was not found")
	}
	c, err := openCorpus(t.Context(), ix, after, DefaultParams, false)
	if err != nil {
		t.Fatalf("corpus file not rewritten: %v", err)
	}
	if c.names.get("beta_handler") == nil {
		t.Errorf("the rewritten corpus file lacks the new definition")
	}
}

// TestStampNewIndex: an index deleted and built again does not match the
// corpus file of the old one, though its generation starts over.
func TestStampNewIndex(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(root+"/a.py", []byte("def alpha():\n    pass\n"), 0o644)
	stamp := func() string {
		ix, err := index.Open(t.Context(), index.Options{Root: root})
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		if _, err := ix.Update(t.Context(), nil); err != nil {
			t.Fatal(err)
		}
		s, err := ix.Stamp(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	first := stamp()
	for _, f := range []string{"index.db", "index.db-wal", "index.db-shm"} {
		os.Remove(root + "/.winnow/" + f)
	}
	if second := stamp(); first == second {
		t.Fatalf("a new index has the stamp %q of the one it replaced", first)
	}
}

func write(t *testing.T, ix *index.Index, data []byte) {
	t.Helper()
	if err := os.WriteFile(ix.CorpusPath(), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func render(t *testing.T, p *Pack) string {
	t.Helper()
	var b strings.Builder
	if err := p.Render(&b, XML); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestPreload: Preload opens a current corpus file and the query uses
// it (it builds nothing and writes nothing); with no current file it
// builds nothing either, and the query builds the corpus as usual.
func TestPreload(t *testing.T) {
	const task = "parse the Retry-After header"
	ix := openE2E(t)
	if err := New(ix, nil).Warm(t.Context()); err != nil {
		t.Fatal(err)
	}
	e := New(ix, &Options{MapCorpus: true})
	e.Preload(t.Context())
	if e.loaded == nil {
		t.Fatal("Preload did not open a current corpus file")
	}
	os.Remove(ix.CorpusPath())
	if _, err := e.Context(t.Context(), Request{Task: task}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ix.CorpusPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the query after Preload built the corpus again (the file is back: %v)", err)
	}

	e = New(ix, &Options{MapCorpus: true})
	e.Preload(t.Context())
	if e.loaded != nil {
		t.Error("Preload opened a corpus with no file")
	}
	if _, err := os.Stat(ix.CorpusPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Preload wrote the corpus file (%v)", err)
	}
	if _, err := e.Context(t.Context(), Request{Task: task}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ix.CorpusPath()); err != nil {
		t.Errorf("the query did not build and save the corpus: %v", err)
	}
}
