package telescope

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// clip shortens s to at most n bytes on a rune boundary, marking the cut with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.TrimRight(s[:cut], " \t") + "…"
}

// capTokens cuts text to about limit tokens, at a line boundary, saying how much was cut;
// limit 0 means no cap. Tokens are estimated at four bytes each: the cap bounds the size of
// an abstract, it is not a budget that must be met exactly.
func capTokens(text string, limit int) string {
	if limit <= 0 || len(text) <= limit*4 {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	kept := 0
	for _, l := range lines {
		if b.Len()+len(l) > limit*4 {
			break
		}
		b.WriteString(l)
		kept++
	}
	if kept < len(lines) {
		fmt.Fprintf(&b, "… (%d more lines; drill down for the source)\n", len(lines)-kept)
	}
	return b.String()
}

// firstLine returns the first non-blank line of s, trimmed.
func firstLine(s string) string {
	for l := range strings.Lines(s) {
		if t := strings.TrimSpace(l); t != "" {
			return t
		}
	}
	return ""
}

// firstParagraph returns the first paragraph of a doc comment: its lines up to the first
// blank line, at most maxLines of them, each trimmed.
func firstParagraph(doc string, maxLines int) []string {
	var out []string
	for l := range strings.Lines(doc) {
		t := strings.TrimSpace(l)
		if t == "" {
			if len(out) > 0 {
				break
			}
			continue
		}
		if len(out) == maxLines {
			out[len(out)-1] += " …"
			break
		}
		out = append(out, t)
	}
	return out
}

// firstSentence returns the first sentence of a paragraph: up to the first ". ", "? " or
// "! " (or the end), at most n bytes.
func firstSentence(p string, n int) string {
	p = strings.Join(strings.Fields(p), " ")
	for i := 0; i+1 < len(p); i++ {
		if (p[i] == '.' || p[i] == '?' || p[i] == '!') && p[i+1] == ' ' && i > 2 {
			return clip(p[:i+1], n)
		}
	}
	return clip(p, n)
}

// commentText strips a line's comment marker and returns the comment, or ok false if the
// line is not a comment.
func commentText(line string) (string, bool) {
	t := strings.TrimSpace(line)
	for _, m := range []string{"///", "//", "#", "--", ";;", "/*", "*", "%"} {
		if strings.HasPrefix(t, m) {
			if m == "*" && strings.HasPrefix(t, "*/") {
				return "", false
			}
			return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t, m), "*/")), true
		}
	}
	return "", false
}

// plural returns n and the singular or plural noun.
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
