package intent

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCodeSpans(t *testing.T) {
	tests := []struct {
		line string
		want [][2]int
	}{
		{"no code", [][2]int{}},
		{"a `b` c", [][2]int{{2, 5}}},
		{"``a ` b`` c", [][2]int{{0, 9}}},
		{"` unclosed", [][2]int{}},
		{"`a` and `b`", [][2]int{{0, 3}, {8, 11}}},
		{"``` a ` b ``` `c`", [][2]int{{0, 13}, {14, 17}}},
		{"`` x ` y", [][2]int{}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, codeSpans(tt.line)); diff != "" {
			t.Errorf("codeSpans(%q) (-want +got):\n%s", tt.line, diff)
		}
	}
}

// words returns the words of text that may be cue words.
func words(text string) []string {
	pr := scanProse(text, nil)
	var out []string
	for i, t := range pr.toks {
		if !t.ident {
			out = append(out, pr.word(i))
		}
	}
	return out
}

func TestScanProse(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"lower-cased", "Fix The CRASH", []string{"fix", "the", "crash"}},
		{"apostrophes", "it doesn’t work, it's 'quoted'", []string{"it", "doesn't", "work", "it's", "quoted"}},
		{"hyphens split", "clean-up of built-in", []string{"clean", "up", "of", "built", "in"}},
		{"code words are not cue words", "fix test_parse in parseHeader and tests/x.py via add() or --test, see #12 @bob HTTPServer",
			[]string{"fix", "in", "and", "via", "or", "see"}},
		{"conventional commit type", "fix(parser): crash", []string{"fix", "parser", "crash"}},
		{"sentence end is not a dotted name", "Add tests. Then more.", []string{"add", "tests", "then", "more"}},
		{"fences", "a\n```go\nb\n```\nc\n~~~~\nd\n~~~~\ne", []string{"a", "c", "e"}},
		{"unclosed fence hides the rest", "a\n```\nb\nc", []string{"a"}},
		{"indented code after a blank line", "a\n\n    b\n\tc\nd\n\ne\n    f", []string{"a", "d", "e", "f"}},
		{"inline code", "a `b` c ``d ` e`` f", []string{"a", "c", "f"}},
		{"HTML comments", "a <!-- b\nc --> d <!-- e --> f", []string{"a", "d", "f"}},
		{"punctuation and non-ASCII", "naïve — “quoted” … 日本語", []string{"naïve", "quoted", "日本語"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, words(tt.text)); diff != "" {
				t.Errorf("words(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestScanProseTitle(t *testing.T) {
	pr := scanProse("<!-- template -->\n\n## Crash on start\nbody text\n", nil)
	var title []string
	for i, tok := range pr.toks {
		if tok.title {
			title = append(title, pr.word(i))
		}
	}
	if diff := cmp.Diff([]string{"crash", "on", "start"}, title); diff != "" {
		t.Errorf("title (-want +got):\n%s", diff)
	}
	if want := strings.Index("<!-- template -->\n\n## Crash on start\nbody text\n", "body"); pr.bodyStart != want {
		t.Errorf("bodyStart = %d, want %d", pr.bodyStart, want)
	}
}

// TestCueTable checks every cue compiles, and that cues are lower-case and
// unique (compileCues panics otherwise, failing every test).
func TestCueTable(t *testing.T) {
	for _, g := range cueGroups {
		for _, p := range g.phrases {
			if _, err := compileCue(p, g.kind, g.weight); err != nil {
				t.Error(err)
			}
		}
	}
	for _, bad := range []string{"", "... x", "x ...", "x ... ... y", "ab*", "Upper"} {
		if _, err := compileCue(bad, Definition, cueWeak); err == nil {
			t.Errorf("compileCue(%q) succeeded", bad)
		}
	}
}
