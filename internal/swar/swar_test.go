package swar

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
		{"HasControl", HasControl, func(b byte) bool { return b < 0x20 || b == 0x7f }},
		{"StringStops", func(x uint64) bool { return StringStops(x) != 0 }, func(b byte) bool { return b < 0x20 || b == '"' || b == '\\' }},
		{"ZeroBytes", func(x uint64) bool { return ZeroBytes(x) != 0 }, func(b byte) bool { return b == 0 }},
		{"NonSpaces", func(x uint64) bool { return NonSpaces(x) != 0 }, func(b byte) bool { return !IsSpace(b) }},
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
						if got := tt.word(Load64(string(w))); got != want {
							t.Fatalf("% x: %v, want %v", w, got, want)
						}
					}
				}
			}
		})
	}
}

// TestIsSpace checks IsSpace against the four JSON whitespace bytes.
func TestIsSpace(t *testing.T) {
	for c := range 256 {
		want := c == ' ' || c == '\t' || c == '\n' || c == '\r'
		if got := IsSpace(byte(c)); got != want {
			t.Fatalf("IsSpace(%#x) = %v, want %v", c, got, want)
		}
	}
}

// TestFirstByte checks that the masks locate the first matching byte of
// a word exactly, and that the exact masks flag exactly the matching
// bytes, on random words of the bytes that matter.
func TestFirstByte(t *testing.T) {
	const alphabet = "a \t\n\r\"\\\x00\x1f\x20\x7f\x80\xff"
	tests := []struct {
		name  string
		mask  func(uint64) uint64
		match func(byte) bool
		exact bool // every flagged byte matches, not only the first
	}{
		{"StringStops", StringStops, func(b byte) bool { return b < 0x20 || b == '"' || b == '\\' }, false},
		{"NonSpaces", NonSpaces, func(b byte) bool { return !IsSpace(b) }, true},
		{"ZeroBytes", ZeroBytes, func(b byte) bool { return b == 0 }, true},
	}
	r := rand.New(rand.NewPCG(11, 12))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 200000 {
				w := make([]byte, 8)
				for i := range w {
					w[i] = alphabet[r.IntN(len(alphabet))]
				}
				m := tt.mask(Load64(string(w)))
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
				case first >= 0 && FirstByte(m) != first:
					t.Fatalf("% x: FirstByte %d, want %d", w, FirstByte(m), first)
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

// TestScans checks SkipSpace and StringStop against byte loops at every
// start of random strings of the bytes that matter.
func TestScans(t *testing.T) {
	const alphabet = "a \t\n\r\"\\\x00\x1f\x7f\x80"
	r := rand.New(rand.NewPCG(13, 14))
	for range 20000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		s := string(b)
		for i := 0; i <= len(s); i++ {
			want := i
			for want < len(s) && IsSpace(s[want]) {
				want++
			}
			if got := SkipSpace(s, i); got != want {
				t.Fatalf("SkipSpace(%q, %d) = %d, want %d", s, i, got, want)
			}
			stop := i
			for stop < len(s) && !(s[stop] < 0x20 || s[stop] == '"' || s[stop] == '\\') {
				stop++
			}
			got := StringStop(s, i)
			if got > stop || (got < stop && got+8 <= len(s)) {
				t.Fatalf("StringStop(%q, %d) = %d, want %d or the start of the last seven bytes", s, i, got, stop)
			}
		}
	}
}
