package history

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzDecode: any bytes either fail to decode with ErrFormat or decode
// to a history that encodes and decodes again to the same commits,
// paths and postings.
func FuzzDecode(f *testing.F) {
	d := &data{head: "abc", paths: []string{"a.py", "b/c.py"}, commits: []record{
		{hash: []byte{1, 2}, time: 5, nterm: 3, terms: map[string]int{"fix": 1, "sum": 2}, files: []uint32{0, 1}},
		{hash: []byte{3}, time: 4, nterm: 1, terms: map[string]int{"sum": 1}},
	}}
	f.Add(d.encode())
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := decode(b)
		if err != nil {
			return
		}
		again, err := decode(h.records().encode())
		if err != nil {
			t.Fatalf("a decoded history does not decode after encoding: %v", err)
		}
		if diff := cmp.Diff(h.records(), again.records(), cmp.AllowUnexported(data{}, record{})); diff != "" {
			t.Errorf("round trip (-first +second):\n%s", diff)
		}
	})
}
