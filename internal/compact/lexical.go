package compact

import (
	"strings"
	"unicode"

	"github.com/winnowhq/winnow/internal/chat"
)

// lexicalPass removes blank lines and lines of punctuation alone
// ("---", "**", "...") from the text of stale assistant messages. Code is
// left exactly as it was: lines inside ``` or ~~~ fences and inside a
// text-form agent's <function=…>…</function> block are never touched, and
// a markdown table row ("|---|") is kept. Thinking is never touched.
type lexicalPass struct{}

func (lexicalPass) Name() string { return passLexical }

func (lexicalPass) Apply(st *State) Report {
	var r Report
	for i := 0; i < st.horizon; i++ {
		m := &st.conv.Messages[i]
		if m.Role != chat.RoleAssistant {
			continue
		}
		for k := range m.Parts {
			p := &m.Parts[k]
			if p.Type != chat.Text {
				continue
			}
			text, n := tidy(p.Text)
			if n == 0 || strings.TrimSpace(text) == "" {
				continue
			}
			before := st.textTokens(p.Text)
			p.Text = text
			r.Changed++
			r.TokensBefore += before
			r.TokensAfter += st.textTokens(text)
			r.note("messages[%d]: %d blank or punctuation lines removed", i, n)
		}
	}
	return r
}

// tidy returns text without its blank and punctuation-only lines outside
// code, and how many lines it removed.
func tidy(text string) (string, int) {
	lines := strings.Split(text, "\n")
	out := lines[:0:0]
	fence, function := "", false
	removed := 0
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
			}
		case function:
			function = !strings.Contains(l, "</function>")
		case strings.HasPrefix(t, "```"), strings.HasPrefix(t, "~~~"):
			fence = t[:3]
		case strings.HasPrefix(t, "<function="):
			function = !strings.Contains(l, "</function>")
		case droppableLine(t):
			removed++
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n"), removed
}

// droppableLine reports whether a trimmed line is blank or punctuation
// alone, and not a table row.
func droppableLine(t string) bool {
	if strings.Contains(t, "|") {
		return false
	}
	for _, c := range t {
		if unicode.IsLetter(c) || unicode.IsDigit(c) || !(unicode.IsPunct(c) || unicode.IsSymbol(c) || unicode.IsSpace(c)) {
			return false
		}
	}
	return true
}
