package shape

import (
	"math/bits"
	"unicode/utf8"

	"github.com/winnowhq/winnow/internal/swar"
)

// isBinary reports whether text is not valid UTF-8, holds a NUL byte, or
// has more than one control character (other than tab, line feed,
// carriage return and form feed) in 32 bytes.
func isBinary(text string) bool {
	if !utf8.ValidString(text) {
		return true
	}
	controls, i := 0, 0
	for ; i+8 <= len(text); i += 8 {
		x := swar.Load64(text[i:])
		if !swar.HasControl(x) {
			continue
		}
		if swar.ZeroBytes(x) != 0 {
			return true
		}
		controls += bits.OnesCount64(controlBytes(x))
	}
	n := countControls(text[i:])
	if n < 0 {
		return true
	}
	return (controls+n)*32 > len(text)
}

// controlBytes returns the word x with the high bit of each byte set that
// is a control character counted by isBinary: below 0x20 but not tab,
// line feed, form feed or carriage return, or DEL. Unlike swar.HasControl it
// is exact for every byte: no borrow crosses from one byte to the next.
func controlBytes(x uint64) uint64 {
	// (b|0x80)-0x20 keeps its high bit exactly when b >= 0x20; bytes of
	// 0x80 and above are dropped by &^x.
	below := ^((x | swar.Highs8) - swar.Ones8*0x20) &^ x & swar.Highs8
	space := equalBytes(x, '\t') | equalBytes(x, '\n') | equalBytes(x, '\f') | equalBytes(x, '\r')
	return below&^space | equalBytes(x, 0x7f)
}

// equalBytes returns the word x with the high bit set of each byte that
// is c, and no other bit.
func equalBytes(x uint64, c byte) uint64 {
	return swar.ZeroBytes(x ^ swar.Ones8*uint64(c))
}

// countControls counts the control characters in s that make text
// binary, or returns -1 for a NUL byte.
func countControls(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == 0:
			return -1
		case (c < 0x20 || c == 0x7f) && c != '\t' && c != '\n' && c != '\r' && c != '\f':
			n++
		}
	}
	return n
}
