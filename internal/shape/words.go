package shape

// The scanners test eight bytes at a time where text is mostly plain:
// long strings, indentation, the binary check. The tests use the classic
// bit tricks for "has a zero byte" and "has a byte below n" (n ≤ 0x80),
// which may misreport bytes after the first match but never whether
// there is one; the callers then look at the bytes one by one.

const (
	ones8   = 0x0101010101010101
	highs8  = 0x8080808080808080
	spaces8 = ones8 * ' '
)

// stringStop reports whether a byte of the word x is '"', '\\' or below
// 0x20. It may not say which, and may be wrong about bytes after the
// first that is, never about whether there is one.
func stringStop(x uint64) bool {
	quote, backslash := x^(ones8*'"'), x^(ones8*'\\')
	return ((x-ones8*0x20)&^x|(quote-ones8)&^quote|(backslash-ones8)&^backslash)&highs8 != 0
}

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
