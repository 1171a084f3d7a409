package retrieve

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestLineFinder: lineFinder has the lines strings.Split has, by number
// from 1, asked in any order, and none past them.
func TestLineFinder(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, src := range []string{"", "\n", "a", "a\n", "\n\nb", "import os\r\nimport sys\n\ndef f():\n    import re\n"} {
		want := strings.Split(src, "\n")
		f := lineFinder{src: []byte(src)}
		for range 30 {
			n := 1 + rng.IntN(len(want)+2)
			got, ok := f.line(n)
			if wantOK := n <= len(want); ok != wantOK {
				t.Fatalf("line %d of %q: found %v, want %v", n, src, ok, wantOK)
			}
			if ok && got != want[n-1] {
				t.Fatalf("line %d of %q = %q, want %q", n, src, got, want[n-1])
			}
		}
	}
}
