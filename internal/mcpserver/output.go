package mcpserver

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/winnowhq/winnow/internal/tokens"
)

const (
	// DefaultMaxOutputTokens caps each answer of winnow's tools unless
	// Options say otherwise.
	DefaultMaxOutputTokens = 8000
	// MinMaxOutputTokens is the smallest cap: below it an error message
	// and the truncation line no longer fit.
	MinMaxOutputTokens = 256

	// maxBytesPerToken bounds how much text is tokenized to find where to
	// cut: no text the tools produce averages more bytes per token, so
	// the cut lies within the first max*maxBytesPerToken bytes.
	maxBytesPerToken = 32
)

// A limiter caps texts at a number of tokens, cutting at a line boundary
// and saying what was cut.
type limiter struct {
	max      int
	counter  tokens.Counter
	estimate tokens.Counter // for the size of texts too long to count exactly
}

func newLimiter(max int, counter tokens.Counter) (*limiter, error) {
	if max == 0 {
		max = DefaultMaxOutputTokens
	}
	if max < MinMaxOutputTokens {
		return nil, fmt.Errorf("max output tokens %d: must be at least %d", max, MinMaxOutputTokens)
	}
	if counter == nil {
		c, err := tokens.Exact(tokens.O200k)
		if err != nil {
			return nil, err
		}
		counter = c
	}
	return &limiter{max: max, counter: counter, estimate: tokens.NewEstimator(tokens.O200k)}, nil
}

// cap returns text if it fits in the limit. Otherwise it returns the
// longest prefix of whole lines that fits (see fit) and a last line that
// says how much was cut and, from more, how to see the rest. The result
// never exceeds the limit.
func (l *limiter) cap(text, more string) string {
	if len(text) <= l.max { // a token covers at least one byte
		return text
	}
	// Only the start of a long text is tokenized: the cut lies in it.
	head := text[:runeStart(text, l.max*maxBytesPerToken)]
	if len(head) == len(text) && len(l.fit(text, l.max)) == len(text) {
		return text
	}
	total := max(l.estimate.Count(text), l.max+1)
	lines := strings.Count(text, "\n") + 1
	// Reserve room for the note with the largest numbers it can hold.
	room := l.max - l.counter.Count(truncationNote(l.max, lines, lines, total, more))
	for range 3 {
		kept := l.fit(head, room)
		out := kept + truncationNote(l.max, strings.Count(kept, "\n"), lines, total, more)
		over := l.counter.Count(out) - l.max
		if over <= 0 {
			return out
		}
		room -= over
	}
	return truncationNote(l.max, 0, lines, total, more)
}

// truncationNote is the line that ends a cut answer.
func truncationNote(max, shown, lines, total int, more string) string {
	return fmt.Sprintf("\n[winnow: answer cut to fit %d tokens: %d of %d lines shown, about %d tokens in all. %s]\n",
		max, shown, lines, total, more)
}

// fit returns the longest prefix of text ending at a line boundary whose
// token count is at most room, or, when that would leave more than half
// the room unused because the next line is too long, that prefix and the
// start of the next line, cut at a rune boundary.
func (l *limiter) fit(text string, room int) string {
	if room <= 0 {
		return ""
	}
	// Lines rarely share tokens, so per-line counts add up to (about) the
	// count of their concatenation: find the cut in one pass, then check.
	end, used := 0, 0
	for end < len(text) {
		next := len(text)
		if i := strings.IndexByte(text[end:], '\n'); i >= 0 {
			next = end + i + 1
		}
		c := l.counter.Count(text[end:next])
		if used+c > room {
			break
		}
		used, end = used+c, next
	}
	used = l.counter.Count(text[:end])
	for end > 0 && used > room {
		end = strings.LastIndexByte(text[:end-1], '\n') + 1
		used = l.counter.Count(text[:end])
	}
	// A line too long to fit whole would leave most of the room unused:
	// show its start instead.
	if used < room/2 && end < len(text) {
		end += len(l.cutLine(text[end:], room-used))
	}
	return text[:end]
}

// runeStart returns n, or less if n is inside a rune of s, or len(s)
// if n is past the end of s.
func runeStart(s string, n int) int {
	if n >= len(s) {
		return len(s)
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// cutLine returns a prefix of s, cut at a rune boundary, of at most room
// tokens. It guesses the length from the tokens per byte of the last
// try, so a few counts suffice even for a megabyte-long line.
func (l *limiter) cutLine(s string, room int) string {
	n := room * 4
	for range 8 {
		n = runeStart(s, n)
		c := l.counter.Count(s[:n])
		if c <= room {
			return s[:n]
		}
		n = n * room / c * 9 / 10
	}
	return ""
}
