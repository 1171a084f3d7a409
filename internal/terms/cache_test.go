package terms

import (
	"slices"
	"testing"
)

// TestCacheScansAsScan checks that a Cache yields what Scan yields, for
// texts whose words repeat and for a cache too small to keep them all.
func TestCacheScansAsScan(t *testing.T) {
	texts := []string{
		"parseHTTPHeader(headers) parse_http_header; headers = parse(headers)",
		"def __init__(self, name): self.name = name  # the Name, named",
		"Ünïcode wörds 和 漢字 mixedCase_snake42 HTTPServer2Go",
		"",
	}
	for _, max := range []int{1, 3, 1000} {
		c := NewCache(max)
		for round := range 2 {
			for _, text := range texts {
				var want, got []string
				Scan(text, func(s string) { want = append(want, s) })
				c.Scan(text, func(s string) { got = append(got, s) })
				if !slices.Equal(want, got) {
					t.Errorf("max %d, round %d, %q: cache %q, Scan %q", max, round, text, got, want)
				}
			}
		}
	}
}
