package shape

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"testing"
)

// parsesAsFloat is what looksScalar asks of strconv.ParseFloat.
func parsesAsFloat(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// TestMayBeFloat holds the prefilter to strconv.ParseFloat: it may let
// through strings that ParseFloat rejects, never reject one it accepts.
func TestMayBeFloat(t *testing.T) {
	for _, s := range []string{"0", "-0.0", "+1", "1e400", "1E-7", ".5", "5.", "1_000", "0x1p-2", "0X1P+2", "inf", "-Infinity", "NaN", "1e+10", "+Inf", "INFINITY", "nan"} {
		if !mayBeFloat(s) || !parsesAsFloat(s) {
			t.Errorf("%q: mayBeFloat %v, ParseFloat accepts %v; want both", s, mayBeFloat(s), parsesAsFloat(s))
		}
	}
	for _, s := range []string{"2025-03-01", "4fb6fa", "1.2.3", "12:30", "v2", "1e", "--1", "1-2", "issue-m0042", "none", "+nan", "infinite", "Infinityx"} {
		if parsesAsFloat(s) {
			t.Errorf("%q: ParseFloat accepts it", s)
		}
	}
	const alphabet = "0123456789.+-_eExXpPiInNfFaAtTyY:/ "
	r := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		b := make([]byte, 1+r.IntN(10))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		if s := string(b); parsesAsFloat(s) && !mayBeFloat(s) {
			t.Fatalf("mayBeFloat(%q) = false, but ParseFloat accepts it", s)
		}
	}
}

// FuzzMayBeFloat checks the prefilter against strconv.ParseFloat on any
// string.
func FuzzMayBeFloat(f *testing.F) {
	for _, s := range []string{"1", "-1.5e+3", "0x1p-2", "inf", "nan", "1_0", "2025-03-01", "4fb6fa", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if parsesAsFloat(s) && !mayBeFloat(s) {
			t.Fatalf("mayBeFloat(%q) = false, but ParseFloat accepts it", s)
		}
	})
}
