package mcpserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/winnowhq/winnow/internal/tokens"
)

func TestCap(t *testing.T) {
	l, err := newLimiter(MinMaxOutputTokens, nil)
	if err != nil {
		t.Fatal(err)
	}
	var lines strings.Builder
	for i := range 400 {
		fmt.Fprintf(&lines, "%4d  def function_number_%d(argument):\n", i+1, i)
	}
	for _, c := range []struct {
		name, text string
		cut        bool
	}{
		{"empty", "", false},
		{"short", "one line\n", false},
		{"exactly fits", strings.Repeat("word ", MinMaxOutputTokens-1), false},
		{"many lines", lines.String(), true},
		{"one huge line", strings.Repeat("alpha beta gamma ", 5000), true},
		{"huge line after short ones", "first\nsecond\n" + strings.Repeat("x", 200_000), true},
		{"multibyte runes", strings.Repeat("héllo wörld ünïcode ", 3000), true},
		{"beyond the counted prefix", strings.Repeat("def f(): pass\n", 100_000), true},
	} {
		out := l.cap(c.text, "Ask for less.")
		n := tokens.Count(tokens.O200k, out)
		if n > l.max {
			t.Errorf("%s: %d tokens, over the cap of %d", c.name, n, l.max)
		}
		if !c.cut {
			if out != c.text {
				t.Errorf("%s: changed although it fits:\n%q", c.name, out)
			}
			continue
		}
		kept, note, ok := strings.Cut(out, "\n[winnow: answer cut to fit 256 tokens: ")
		if !ok || !strings.HasSuffix(note, "Ask for less.]\n") {
			t.Errorf("%s: no truncation note:\n%q", c.name, out)
			continue
		}
		if !strings.HasPrefix(c.text, kept) {
			t.Errorf("%s: the kept part is not a prefix of the text: %q", c.name, kept)
		}
		if kept == "" || n < l.max/2 {
			t.Errorf("%s: kept %d bytes, %d tokens of %d: the cut wastes the room", c.name, len(kept), n, l.max)
		}
	}
}

func TestCapKeepsWholeLines(t *testing.T) {
	l, err := newLimiter(300, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range 500 {
		fmt.Fprintf(&b, "line %d of the answer\n", i)
	}
	out := l.cap(b.String(), "More.")
	kept, note, _ := strings.Cut(out, "\n[winnow:")
	if !strings.HasSuffix(kept, " of the answer\n") {
		t.Errorf("cut inside a line: %q", kept[len(kept)-40:])
	}
	shown := strings.Count(kept, "\n")
	if want := fmt.Sprintf(" %d of 501 lines shown, about ", shown); !strings.Contains(note, want) {
		t.Errorf("note %q lacks %q", note, want)
	}
}

func BenchmarkCap(b *testing.B) {
	l, err := newLimiter(DefaultMaxOutputTokens, nil)
	if err != nil {
		b.Fatal(err)
	}
	var src strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&src, "%5d    def generated_function_%d(alpha, beta, gamma)\n           doc: Compute value number %d.\n", i*5+1, i, i)
	}
	text := src.String()
	b.Run("count", func(b *testing.B) { // the peer: one exact count of the same text
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			l.counter.Count(text)
		}
	})
	b.Run("cap", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			l.cap(text, "More.")
		}
	})
}
