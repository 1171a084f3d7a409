package swar

import "math/bits"

const (
	Ones8  = 0x0101010101010101 // the byte 0x01 in every byte of a word
	Highs8 = 0x8080808080808080 // the high bit of every byte of a word

	spaces8 = Ones8 * ' '
)

// Load64 reads the first eight bytes of s as a little-endian word; the
// compiler turns it into one load.
func Load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// FirstByte returns the offset in its word of the first byte flagged in
// mask, which must not be zero.
func FirstByte(mask uint64) int { return bits.TrailingZeros64(mask) >> 3 }

// ZeroBytes returns the word x with the high bit set of each byte that is
// zero, and no other bit: (y&0x7f)+0x7f keeps a byte's high bit clear
// exactly when its low seven bits are zero, and cannot carry into the
// next byte.
func ZeroBytes(x uint64) uint64 {
	const lows8 = Ones8 * 0x7f
	return ^((x&lows8 + lows8) | x) & Highs8
}

// StringStops returns the word x with the high bit set of the first byte
// that is '"', '\\' or below 0x20, if any, and perhaps of later bytes.
func StringStops(x uint64) uint64 {
	quote, backslash := x^(Ones8*'"'), x^(Ones8*'\\')
	return ((x-Ones8*0x20)&^x | (quote-Ones8)&^quote | (backslash-Ones8)&^backslash) & Highs8
}

// NonSpaces returns the word x with the high bit set of each byte that is
// not JSON whitespace (space, tab, line feed, carriage return), exactly.
func NonSpaces(x uint64) uint64 {
	return ^(ZeroBytes(x^spaces8) | ZeroBytes(x^Ones8*'\t') | ZeroBytes(x^Ones8*'\n') | ZeroBytes(x^Ones8*'\r')) & Highs8
}

// HasControl reports whether any byte of the word x is below 0x20 or is
// 0x7f: the classic "has a byte less than n" bit trick for 0x20, and
// "has a zero byte" for x XOR 0x7f7f….
func HasControl(x uint64) bool {
	del := x ^ Ones8*0x7f
	return ((x-Ones8*0x20)&^x|(del-Ones8)&^del)&Highs8 != 0
}

// IsSpace reports whether c is JSON whitespace: space, tab, line feed or
// carriage return, the bits of spaceSet.
func IsSpace(c byte) bool { return c <= ' ' && spaceSet>>c&1 != 0 }

const spaceSet = 1<<' ' | 1<<'\t' | 1<<'\n' | 1<<'\r'

// SkipSpace returns the index of the first byte at or after i of s that
// is not JSON whitespace. Most tokens follow each other without any: a
// test small enough to be inlined passes over them (every whitespace byte
// is below '!').
func SkipSpace(s string, i int) int {
	if i < len(s) && s[i] <= ' ' {
		return skipSpaces(s, i)
	}
	return i
}

// skipSpaces skips a run of whitespace from i. Pretty-printed JSON has a
// line break and an indentation between tokens, whose end is found a
// word at a time.
func skipSpaces(s string, i int) int {
	if !IsSpace(s[i]) {
		return i
	}
	if i++; i < len(s) && s[i] > ' ' {
		return i // one space, as after a colon
	}
	for i+8 <= len(s) {
		if m := NonSpaces(Load64(s[i:])); m != 0 {
			return i + FirstByte(m)
		}
		i += 8
	}
	for i < len(s) && IsSpace(s[i]) {
		i++
	}
	return i
}

// StringStop returns the index of the first byte at or after i of s that
// ends a string, starts an escape or is a control character, found a
// word at a time; when no such byte is found before the last seven bytes
// of s, the index of the first of those, to be looked at one by one.
func StringStop(s string, i int) int {
	for i+8 <= len(s) {
		if m := StringStops(Load64(s[i:])); m != 0 {
			return i + FirstByte(m)
		}
		i += 8
	}
	return i
}
