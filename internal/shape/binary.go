package shape

import "unicode/utf8"

// isBinary reports whether text is not valid UTF-8, holds a NUL byte, or
// has more than one control character (other than tab, line feed,
// carriage return and form feed) in 32 bytes.
func isBinary(text string) bool {
	if !utf8.ValidString(text) {
		return true
	}
	controls := 0
	for i := 0; i < len(text); i += 8 {
		word := text[i:min(i+8, len(text))]
		// Look at the bytes one by one only when the word holds a byte
		// below 0x20 or a DEL (see hasControl).
		if len(word) == 8 && !hasControl(load64(word)) {
			continue
		}
		n := countControls(word)
		if n < 0 {
			return true
		}
		controls += n
	}
	return controls*32 > len(text)
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
