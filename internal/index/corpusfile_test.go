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
