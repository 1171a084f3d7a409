package shape

import "testing"

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
