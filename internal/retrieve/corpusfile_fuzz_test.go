package retrieve

import (
	"encoding/binary"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/winnowhq/winnow/internal/index"
)

// FuzzDecodeCorpus feeds the section decoder what the checksum would
// have kept from it: sections (uvarint length, bytes) of a real corpus,
// mutated. Whatever it accepts must be safe to rank over, and must
// encode and decode to the same corpus.
func FuzzDecodeCorpus(f *testing.F) {
	ix := openFuzzRepo(f)
	c, err := loadCorpus(f.Context(), ix, DefaultParams)
	if err != nil {
		f.Fatal(err)
	}
	sections, err := encodeCorpus(c)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(joinSections(sections))
	f.Add(joinSections(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		sections := splitSections(data)
		if sections == nil {
			return
		}
		c, err := decodeCorpus(sections, "g", DefaultParams)
		if err != nil {
			return
		}
		for _, term := range c.defText.terms {
			scores := make([]float64, len(c.defs))
			c.defText.score(term, 1, scores)
		}
		for _, term := range c.fileText.terms {
			scores := make([]float64, len(c.files))
			c.fileText.score(term, 1, scores)
		}
		again, err := encodeCorpus(c)
		if err != nil {
			t.Fatalf("a decoded corpus does not encode: %v", err)
		}
		c2, err := decodeCorpus(aligned(again), "g", DefaultParams)
		if err != nil {
			t.Fatalf("a re-encoded corpus does not decode: %v", err)
		}
		if len(c2.defs) != len(c.defs) || len(c2.files) != len(c.files) || len(c2.defText.entries) != len(c.defText.entries) {
			t.Fatalf("round trip changed the corpus")
		}
	})
}

func openFuzzRepo(f *testing.F) *index.Index {
	dir := f.TempDir()
	ix, err := index.Open(f.Context(), index.Options{Root: "testdata/e2e/repo/skiff/cache", Dir: dir})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { ix.Close() })
	if _, err := ix.Update(f.Context(), nil); err != nil {
		f.Fatal(err)
	}
	return ix
}

func joinSections(sections [][]byte) []byte {
	var out []byte
	for _, s := range sections {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	return out
}

// splitSections reverses joinSections, copying each section to an
// 8-byte aligned buffer as the container provides them.
func splitSections(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		n, k := binary.Uvarint(data)
		if k <= 0 || n > uint64(len(data)-k) {
			return nil
		}
		out = append(out, data[k:k+int(n)])
		data = data[k+int(n):]
	}
	return aligned(out)
}

func aligned(sections [][]byte) [][]byte {
	out := make([][]byte, len(sections))
	for i, s := range sections {
		words := make([]uint64, (len(s)+7)/8)
		b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), 8*len(words))[:len(s)]
		copy(b, s)
		out[i] = b
	}
	return out
}

// FuzzDecodeDelta feeds the delta decoder the sections of a real delta
// (two files of the repository changed), mutated. Whatever it accepts
// must patch a corpus without a panic (or be refused by patchCorpus),
// and must encode and decode to the same delta.
func FuzzDecodeDelta(f *testing.F) {
	ix := openFuzzRepo(f)
	c, err := loadCorpus(f.Context(), ix, DefaultParams)
	if err != nil {
		f.Fatal(err)
	}
	snap, err := ix.Snapshot(f.Context())
	if err != nil {
		f.Fatal(err)
	}
	d := &deltaSource{gen: c.gen}
	d.keys, _ = snap.FileKeys(f.Context())
	d.symbols, _ = snap.NumSymbols(f.Context())
	changed := []int64{d.keys[0].ID, d.keys[len(d.keys)-1].ID}
	snap.ForEachBriefOf(f.Context(), changed, func(b *index.Brief) error { d.briefs = append(d.briefs, *b); return nil })
	snap.ForEachFileDocsOf(f.Context(), changed, func(fd *index.FileDocs) error { d.docs = append(d.docs, *fd); return nil })
	snap.Close()
	sections, err := encodeDelta(d)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(joinSections(sections))
	f.Add(joinSections(nil))
	old := &corpus{gen: "other/1"}
	f.Fuzz(func(t *testing.T, data []byte) {
		sections := splitSections(data)
		if sections == nil {
			return
		}
		d, err := decodeDelta(sections, c.gen)
		if err != nil {
			return
		}
		for _, base := range []*corpus{c, old} {
			if p, ok, err := patchCorpus(t.Context(), d, base); err == nil && ok {
				p.finish(DefaultParams)
			}
		}
		again, err := encodeDelta(d)
		if err != nil {
			t.Fatalf("a decoded delta does not encode: %v", err)
		}
		d2, err := decodeDelta(aligned(again), c.gen)
		if err != nil {
			t.Fatalf("a re-encoded delta does not decode: %v", err)
		}
		if diff := cmp.Diff(d, d2, cmp.AllowUnexported(deltaSource{}), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round trip changed the delta (-first +again):\n%s", diff)
		}
	})
}
