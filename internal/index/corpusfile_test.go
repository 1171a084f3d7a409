package index

import (
	"bytes"
	"errors"
	"os"
	"testing"
)

// FuzzDecodeCorpus: any bytes decode to sections or to an error that
// says stale or damaged, never a panic; what decodes re-encodes to the
// same bytes.
func FuzzDecodeCorpus(f *testing.F) {
	key := CorpusKey{Layout: "test/1", Generation: "abc/7"}
	f.Add(EncodeCorpus(key, [][]byte{[]byte("hello"), nil, {1, 2, 3, 4, 5, 6, 7, 8, 9}}))
	f.Add(EncodeCorpus(key, nil))
	f.Add([]byte(corpusMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		sections, err := DecodeCorpus(data, key)
		if err != nil {
			if !errors.Is(err, ErrCorpusDamaged) && !errors.Is(err, ErrCorpusStale) {
				t.Fatalf("error %v is neither damaged nor stale", err)
			}
			return
		}
		if again := EncodeCorpus(key, sections); !bytes.Equal(again, data) {
			t.Fatalf("decoded sections re-encode differently")
		}
	})
}

// TestCorpusContainer: a round trip, and each kind of damage caught.
func TestCorpusContainer(t *testing.T) {
	key := CorpusKey{Layout: "test/1", Generation: "abc/7"}
	want := [][]byte{[]byte("hello"), {}, bytes.Repeat([]byte{7}, 100)}
	file := EncodeCorpus(key, want)
	got, err := DecodeCorpus(file, key)
	if err != nil || len(got) != 3 || !bytes.Equal(got[0], want[0]) || len(got[1]) != 0 || !bytes.Equal(got[2], want[2]) {
		t.Fatalf("round trip: %q, %v", got, err)
	}
	for i := range len(file) {
		bad := bytes.Clone(file)
		bad[i] ^= 1
		if _, err := DecodeCorpus(bad, key); err == nil {
			t.Fatalf("a flipped bit at byte %d went unnoticed", i)
		}
		if _, err := DecodeCorpus(file[:i], key); !errors.Is(err, ErrCorpusDamaged) {
			t.Fatalf("truncated to %d bytes: %v, want damaged", i, err)
		}
	}
	if _, err := DecodeCorpus(file, CorpusKey{Layout: "test/1", Generation: "abc/8"}); !errors.Is(err, ErrCorpusStale) {
		t.Fatalf("another generation: %v, want stale", err)
	}
	if _, err := DecodeCorpus(file, CorpusKey{Layout: "test/2", Generation: "abc/7"}); !errors.Is(err, ErrCorpusStale) {
		t.Fatalf("another layout: %v, want stale", err)
	}
}

// TestCorpusStaleFromHeader: a file of another generation is told stale
// from its header, before its checksum is computed, so a damaged body
// does not change the verdict; and a file mapped into memory decodes as
// one read.
func TestCorpusStaleFromHeader(t *testing.T) {
	key := CorpusKey{Layout: "test/1", Generation: "abc/7"}
	file := EncodeCorpus(key, [][]byte{bytes.Repeat([]byte{7}, 4096)})
	file[len(file)/2] ^= 1
	if _, err := DecodeCorpus(file, CorpusKey{Layout: "test/1", Generation: "abc/8"}); !errors.Is(err, ErrCorpusStale) {
		t.Fatalf("another generation with a damaged body: %v, want stale", err)
	}
	if _, err := DecodeCorpus(file, key); !errors.Is(err, ErrCorpusDamaged) {
		t.Fatalf("this generation with a damaged body: %v, want damaged", err)
	}

	ix := &Index{dir: t.TempDir()}
	// One section larger than WriteCorpus's buffer, one after it.
	want := [][]byte{[]byte("hello"), bytes.Repeat([]byte{9}, 1<<21+3), []byte("after")}
	if err := ix.WriteCorpus(key, want); err != nil {
		t.Fatal(err)
	}
	for name, read := range map[string]func(CorpusKey) ([][]byte, error){"read": ix.ReadCorpus, "mapped": ix.MapCorpus} {
		got, err := read(key)
		if err != nil || len(got) != 3 || !bytes.Equal(got[0], want[0]) || !bytes.Equal(got[1], want[1]) || !bytes.Equal(got[2], want[2]) {
			t.Errorf("%s: %d sections, %v", name, len(got), err)
		}
	}
	if _, err := ix.MapCorpus(CorpusKey{Layout: "test/1", Generation: "abc/9"}); !errors.Is(err, ErrCorpusStale) {
		t.Errorf("mapped, another generation: %v, want stale", err)
	}
	os.Remove(ix.CorpusPath())
	if _, err := ix.MapCorpus(key); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("mapped, no file: %v, want not exist", err)
	}
}

// TestCorpusDelta: a delta file opens with the corpus file it names, by
// key and checksum, and with no other; any damage to it, any truncation,
// is refused; PeekCorpus reads the sections a writer asks for, as the
// whole file has them.
func TestCorpusDelta(t *testing.T) {
	ix := &Index{dir: t.TempDir()}
	baseKey := CorpusKey{Layout: "test/1", Generation: "abc/7"}
	want := [][]byte{[]byte("hello"), bytes.Repeat([]byte{9}, 5000), []byte("after"), nil}
	if err := ix.WriteCorpus(baseKey, want); err != nil {
		t.Fatal(err)
	}
	base, peeked, err := ix.PeekCorpus("test/1", []int{2, 1})
	if err != nil || base.Key != baseKey || !bytes.Equal(peeked[0], want[2]) || !bytes.Equal(peeked[1], want[1]) {
		t.Fatalf("PeekCorpus = %v, %q, %v", base, peeked, err)
	}
	if _, _, err := ix.PeekCorpus("test/2", nil); !errors.Is(err, ErrCorpusStale) {
		t.Errorf("PeekCorpus of another layout: %v, want stale", err)
	}
	if _, _, err := ix.PeekCorpus("test/1", []int{4}); !errors.Is(err, ErrCorpusDamaged) {
		t.Errorf("PeekCorpus of a section past the table: %v, want damaged", err)
	}

	key := CorpusKey{Layout: "test/1", Generation: "abc/9"}
	delta := [][]byte{[]byte("changed"), bytes.Repeat([]byte{3}, 100)}
	if err := ix.WriteCorpusDelta(key, base, delta); err != nil {
		t.Fatal(err)
	}
	for _, mapped := range []bool{false, true} {
		got, sections, d, err := ix.OpenCorpus(key, mapped)
		if err != nil || got != baseKey || len(sections) != len(want) || !bytes.Equal(sections[1], want[1]) ||
			len(d) != 2 || !bytes.Equal(d[0], delta[0]) || !bytes.Equal(d[1], delta[1]) {
			t.Fatalf("mapped %v: OpenCorpus = %v, %d sections, %q, %v", mapped, got, len(sections), d, err)
		}
		if _, _, d, err := ix.OpenCorpus(baseKey, mapped); err != nil || d != nil {
			t.Errorf("mapped %v: OpenCorpus of the corpus file's own generation = %q, %v, want no delta", mapped, d, err)
		}
	}
	if !ix.DeltaCurrent(key) || ix.DeltaCurrent(CorpusKey{Layout: "test/1", Generation: "abc/10"}) {
		t.Errorf("DeltaCurrent does not name the delta's generation alone")
	}
	for _, gen := range []string{"abc/8", "abc/10"} {
		if _, _, _, err := ix.OpenCorpus(CorpusKey{Layout: "test/1", Generation: gen}, false); !errors.Is(err, ErrCorpusStale) {
			t.Errorf("OpenCorpus at %s: %v, want stale", gen, err)
		}
	}

	file, err := os.ReadFile(ix.CorpusDeltaPath())
	if err != nil {
		t.Fatal(err)
	}
	for i := range len(file) {
		bad := bytes.Clone(file)
		bad[i] ^= 1
		for name, data := range map[string][]byte{"flipped": bad, "truncated": file[:i]} {
			if err := os.WriteFile(ix.CorpusDeltaPath(), data, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, _, _, err := ix.OpenCorpus(key, false); !errors.Is(err, ErrCorpusStale) && !errors.Is(err, ErrCorpusDamaged) {
				t.Fatalf("delta %s at byte %d: %v, want stale or damaged", name, i, err)
			}
		}
	}
	if err := os.WriteFile(ix.CorpusDeltaPath(), file, 0o644); err != nil {
		t.Fatal(err)
	}
	// The same key, other contents: the delta was made against the first.
	if err := ix.WriteCorpus(baseKey, append([][]byte{[]byte("jello")}, want[1:]...)); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := ix.OpenCorpus(key, false); !errors.Is(err, ErrCorpusStale) {
		t.Errorf("delta over another corpus file of its base's key: %v, want stale", err)
	}
	if ix.DeltaCurrent(key) {
		t.Errorf("DeltaCurrent over another corpus file")
	}
}

// FuzzPeekCorpus: PeekCorpus of any bytes returns what the file's table
// says, checked against its length, or an error; never a panic, never a
// section DecodeCorpus would not return.
func FuzzPeekCorpus(f *testing.F) {
	key := CorpusKey{Layout: "test/1", Generation: "abc/7"}
	f.Add(EncodeCorpus(key, [][]byte{[]byte("hello"), nil, {1, 2, 3, 4, 5, 6, 7, 8, 9}}))
	f.Add(EncodeCorpus(key, nil))
	f.Add([]byte(corpusMagic))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		ix := &Index{dir: dir}
		if err := os.WriteFile(ix.CorpusPath(), data, 0o644); err != nil {
			t.Fatal(err)
		}
		base, peeked, err := ix.PeekCorpus("test/1", []int{0, 2})
		if err != nil {
			return
		}
		sections, err := DecodeCorpus(data, base.Key)
		if err != nil {
			return // PeekCorpus does not check the checksum
		}
		if len(sections) < 3 || !bytes.Equal(peeked[0], sections[0]) || !bytes.Equal(peeked[1], sections[2]) {
			t.Fatalf("PeekCorpus read %q, the file holds %q", peeked, sections)
		}
	})
}
