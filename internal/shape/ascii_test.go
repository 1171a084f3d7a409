package shape

import (
	"strings"
	"testing"
)

// TestCompactEscapesLineSeparators holds the parser's ascii mark on raw
// strings to their text: a raw U+2028 or U+2029 anywhere in a string, in
// the words the parser reads eight bytes at a time or in the bytes after
// them, is still escaped by the compact writer.
func TestCompactEscapesLineSeparators(t *testing.T) {
	for pre := 0; pre < 20; pre++ {
		for post := 0; post < 12; post++ {
			for _, sep := range []string{"\u2028", "\u2029", "é"} {
				s := strings.Repeat("a", pre) + sep + strings.Repeat("b", post)
				var tp tape
				if _, err := tp.parse(`["` + s + `",{"` + s + `":1}]`); err != nil {
					t.Fatal(err)
				}
				got := string(appendCompact(nil, &tp))
				want := string(appendQuoted(nil, s))
				if want2 := "[" + want + ",{" + want + ":1}]"; got != want2 {
					t.Fatalf("%q: compact %q, want %q", s, got, want2)
				}
				if sep != "é" && strings.Contains(got, sep) {
					t.Fatalf("%q: compact %q keeps the separator raw", s, got)
				}
			}
		}
	}
}
