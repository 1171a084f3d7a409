package tokens

import (
	"strings"
	"testing"
)

// cacheCases are texts whose chunks meet at every kind of line start.
var cacheCases = []string{
	"",
	"a",
	"\n",
	"x = 1\ny = 2\n",
	"def f():\n    return 1\n\nclass A:\n    pass\n",
	"if x {\n\treturn\n}\n// a comment\n/* block */\n",
	"a;\n//b\n/c\n\n/d",
	"line\r\nnext\r\n\r\n  indented\n\t\ttabbed\nend",
	"<definition kind=\"func\">\nfunc F() {}\n</definition>\n<definition>\n",
	"'s\n're\nIt's\nDON'T\n",
	"123456\n7890\n١٢٣\n",
	"héllo\nwörld\nПривет\n世界\n😀\n",
	"\xff\n\xfe\xc3(\n\xe2\x82\nx",
	"<|endoftext|>\n<|endoftext|>",
	"    \n\n   \n\nx\n \n",
	"a\n\n\n\n\nb",
}

// TestCacheCountsExactly: a Cache's count is the exact count, the first
// time and from the cache, on edge cases and on every file of the
// calibration corpus, whole and cut at arbitrary lines.
func TestCacheCountsExactly(t *testing.T) {
	texts := append(append([]string{}, cacheCases...), corpusPieces(t, 7, 97)...)
	for _, enc := range []Encoding{O200k, CL100k} {
		exact, err := Exact(enc)
		if err != nil {
			t.Fatal(err)
		}
		c, err := NewCache(enc, 0)
		if err != nil {
			t.Fatal(err)
		}
		for round := range 2 {
			for _, text := range texts {
				if want, got := exact.Count(text), c.Count(text); got != want {
					t.Errorf("%s, round %d: Count(%.60q…) = %d, exact %d", enc, round, text, got, want)
				}
			}
		}
	}
}

// TestCacheForgets: a full cache starts over, and counts on.
func TestCacheForgets(t *testing.T) {
	c, err := NewCache(O200k, 0)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Repeat("word ", 1000) + "\n"
	for i := range 400 {
		c.Count(string(rune('a'+i%26)) + line)
	}
	if c.bytes > c.max {
		t.Errorf("the cache holds %d bytes, more than its %d", c.bytes, c.max)
	}
}

// FuzzCacheCount: a Cache counts any text exactly, twice.
func FuzzCacheCount(f *testing.F) {
	for _, s := range cacheCases {
		f.Add(s)
	}
	exact, err := Exact(O200k)
	if err != nil {
		f.Fatal(err)
	}
	c, err := NewCache(O200k, 0)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		want := exact.Count(text)
		for range 2 {
			if got := c.Count(text); got != want {
				t.Fatalf("Count(%q) = %d, exact %d", text, got, want)
			}
		}
	})
}

// corpusPieces returns every file of the calibration corpus whole, each
// followed by pieces of it: n lines from every step-th line on.
func corpusPieces(t *testing.T, n, step int) []string {
	t.Helper()
	var texts []string
	for _, f := range loadCorpus(t) {
		texts = append(texts, f.text)
		lines := strings.SplitAfter(f.text, "\n")
		for i := 0; i+n < len(lines); i += step {
			texts = append(texts, strings.Join(lines[i:i+n], ""))
		}
	}
	return texts
}
