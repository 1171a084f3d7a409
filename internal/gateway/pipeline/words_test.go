package pipeline

import (
	"math/rand/v2"
	"testing"
)

// TestFirstByte checks that the word masks locate the first matching byte
// exactly, and that nonSpaces flags exactly the bytes that are not
// whitespace, on random words of the bytes that matter.
func TestFirstByte(t *testing.T) {
	const alphabet = "a \t\n\r\"\\\x00\x1f\x20\x7f\x80\xff"
	tests := []struct {
		name  string
		mask  func(uint64) uint64
		match func(byte) bool
		exact bool // every flagged byte matches, not only the first
	}{
		{"stringStops", stringStops, func(b byte) bool { return b < 0x20 || b == '"' || b == '\\' }, false},
		{"nonSpaces", nonSpaces, func(b byte) bool { return !isSpace(b) }, true},
	}
	r := rand.New(rand.NewPCG(13, 14))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 200000 {
				w := make([]byte, 8)
				for i := range w {
					w[i] = alphabet[r.IntN(len(alphabet))]
				}
				m := tt.mask(load64(string(w)))
				first := -1
				for i, b := range w {
					if tt.match(b) {
						first = i
						break
					}
				}
				switch {
				case first < 0 && m != 0, first >= 0 && m == 0:
					t.Fatalf("% x: mask %x, first match %d", w, m, first)
				case first >= 0 && firstByte(m) != first:
					t.Fatalf("% x: firstByte %d, want %d", w, firstByte(m), first)
				}
				if tt.exact {
					for i, b := range w {
						if flagged := m>>(8*i+7)&1 == 1; flagged != tt.match(b) {
							t.Fatalf("% x: byte %d flagged %v", w, i, flagged)
						}
					}
				}
			}
		})
	}
}
