package shape

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/swar"
)

// TestControlBytes holds the word-at-a-time control count to
// countControls on random words of the bytes that matter.
func TestControlBytes(t *testing.T) {
	const alphabet = "\x00\x01\x08\t\n\v\f\r\x1f \x20a\x7f\x80\xff"
	r := rand.New(rand.NewPCG(9, 10))
	for range 100000 {
		b := make([]byte, 8)
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		s := string(b)
		x := swar.Load64(s)
		want := countControls(s)
		hasNUL := strings.IndexByte(s, 0) >= 0
		if (swar.ZeroBytes(x) != 0) != hasNUL {
			t.Fatalf("%q: ZeroBytes %x, NUL %v", s, swar.ZeroBytes(x), hasNUL)
		}
		if hasNUL {
			continue
		}
		if got := popcount(controlBytes(x)); got != want {
			t.Fatalf("%q: controlBytes counts %d, countControls %d", s, got, want)
		}
		if want > 0 && !swar.HasControl(x) {
			t.Fatalf("%q: HasControl misses a control byte", s)
		}
	}
}

func popcount(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}
