package retrieve

import (
	"encoding/binary"
	"testing"
	"unsafe"

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
