package shape

import (
	"math/rand/v2"
	"testing"
)

// TestWordTests checks each word-at-a-time test against a byte loop:
// every byte value at every position, among fillers that are plain,
// high-bit, boundary and matching bytes.
func TestWordTests(t *testing.T) {
	tests := []struct {
		name string
		word func(uint64) bool
		byte func(byte) bool
	}{
		{"hasControl", hasControl, func(b byte) bool { return b < 0x20 || b == 0x7f }},
		{"stringStop", stringStop, func(b byte) bool { return b < 0x20 || b == '"' || b == '\\' }},
		{"spaces8", func(x uint64) bool { return x != spaces8 }, func(b byte) bool { return b != ' ' }},
	}
	fillers := []byte{'a', ' ', 0x80, 0xff, 0x20, 0x7e, 0x1f, '"', '\\', 0x7f, 0}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, fill := range fillers {
				for pos := range 8 {
					for c := range 256 {
						w := make([]byte, 8)
						for k := range w {
							w[k] = fill
						}
						w[pos] = byte(c)
						want := false
						for _, b := range w {
							want = want || tt.byte(b)
						}
						if got := tt.word(load64(string(w))); got != want {
							t.Fatalf("% x: %v, want %v", w, got, want)
						}
					}
				}
			}
		})
	}
}

// TestFirstByte checks that the masks locate the first matching byte of
// a word exactly, and that nonSpaces flags exactly the bytes that are
// not whitespace, on random words of the bytes that matter.
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
		{"controlBytes", controlBytes, func(b byte) bool {
			return (b < 0x20 || b == 0x7f) && b != '\t' && b != '\n' && b != '\r' && b != '\f'
		}, true},
	}
	r := rand.New(rand.NewPCG(11, 12))
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
