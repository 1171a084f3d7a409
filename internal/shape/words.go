package shape

import "math/bits"

// The scanners test eight bytes at a time where text is mostly plain:
// strings, indentation, the binary check. The tests use the classic bit
// tricks for "has a zero byte" and "has a byte below n" (n ≤ 0x80). Their
// masks may flag bytes after the first match wrongly (a borrow runs on
// into the next byte) but never the first: the lowest flagged byte is
// the first match, and firstByte gives its offset.

const (
	ones8   = 0x0101010101010101
	highs8  = 0x8080808080808080
	spaces8 = ones8 * ' '
)

// stringStops returns the word x with the high bit set of the first byte
// that is '"', '\\' or below 0x20, if any, and perhaps of later bytes.
func stringStops(x uint64) uint64 {
	quote, backslash := x^(ones8*'"'), x^(ones8*'\\')
	return ((x-ones8*0x20)&^x | (quote-ones8)&^quote | (backslash-ones8)&^backslash) & highs8
}

// stringStop reports whether a byte of the word x is '"', '\\' or below
// 0x20.
func stringStop(x uint64) bool { return stringStops(x) != 0 }

// nonSpaces returns the word x with the high bit set of each byte that is
// not JSON whitespace (space, tab, line feed, carriage return), exactly.
func nonSpaces(x uint64) uint64 {
	return ^(zeroBytes(x^spaces8) | zeroBytes(x^ones8*'\t') | zeroBytes(x^ones8*'\n') | zeroBytes(x^ones8*'\r')) & highs8
}

// firstByte returns the offset in its word of the first byte flagged in
// mask, which must not be zero.
func firstByte(mask uint64) int { return bits.TrailingZeros64(mask) >> 3 }

// isSpace reports whether c is JSON whitespace: space, tab, line feed or
// carriage return, the bits of spaceSet.
func isSpace(c byte) bool { return c <= ' ' && spaceSet>>c&1 != 0 }

const spaceSet = 1<<' ' | 1<<'\t' | 1<<'\n' | 1<<'\r'

// load64 reads the first eight bytes of s as a little-endian word; the
// compiler turns it into one load.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// hasControl reports whether any byte of the word x is below 0x20 or is
// 0x7f: the classic "has a byte less than n" bit trick for 0x20, and
// "has a zero byte" for x XOR 0x7f7f….
func hasControl(x uint64) bool {
	del := x ^ ones8*0x7f
	return ((x-ones8*0x20)&^x|(del-ones8)&^del)&highs8 != 0
}
