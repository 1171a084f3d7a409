package telescope

import (
	"context"
	"fmt"
	"strings"
)

// A section is one heading of a document and the lines up to the next heading of the same
// or a higher level.
type section struct {
	Title     string
	Level     int // 1 for a top heading
	StartLine int
	EndLine   int
	Lead      string // the first sentence of its first paragraph of prose
}

var (
	atxHeading = lazy(`^(#{1,6})\s+(.+?)\s*#*\s*$`)
	adocHead   = lazy(`^(={1,6})\s+(.+)$`)
	orgHead    = lazy(`^(\*{1,6})\s+(.+)$`)
	rstRule    = lazy(`^([=\-~^"'*+#<>:.` + "`" + `_])+$`)
	setextRule = lazy(`^(=+|-+)\s*$`)
)

// sections splits a document at its headings. Text before the first heading, if any, is a
// section titled "(preamble)"; a document without headings is one section titled by its
// path.
func sections(u *Unit) []section {
	lines := u.Lines()
	var out []section
	fence := ""
	rstLevels := map[byte]int{}
	start := func(title string, level, line int) {
		out = append(out, section{Title: strings.TrimSpace(title), Level: level, StartLine: line})
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		if f := fenceMark(t); f != "" && (fence == "" || strings.HasPrefix(t, fence)) {
			if fence == "" {
				fence = f
			} else {
				fence = ""
			}
			continue
		}
		if fence != "" || t == "" {
			continue
		}
		switch u.Lang {
		case "markdown":
			if m := atxHeading.FindStringSubmatch(l); m != nil {
				start(m[2], len(m[1]), i+1)
			} else if i+1 < len(lines) && setextRule.MatchString(lines[i+1]) && !strings.HasPrefix(t, "|") && !strings.HasPrefix(t, "-") {
				level := 1
				if lines[i+1][0] == '-' {
					level = 2
				}
				start(t, level, i+1)
				i++
			}
		case "asciidoc":
			if m := adocHead.FindStringSubmatch(l); m != nil {
				start(m[2], len(m[1]), i+1)
			}
		case "org":
			if m := orgHead.FindStringSubmatch(l); m != nil {
				start(m[2], len(m[1]), i+1)
			}
		case "rst":
			if i+1 < len(lines) && len(lines[i+1]) >= len(t) && len(t) > 0 && rstRule.MatchString(lines[i+1]) && !rstRule.MatchString(t) {
				c := lines[i+1][0]
				if _, ok := rstLevels[c]; !ok {
					rstLevels[c] = len(rstLevels) + 1
				}
				start(t, rstLevels[c], i+1)
				i++
			}
		}
	}
	if len(out) == 0 || out[0].StartLine > 1 && hasText(lines[:out[0].StartLine-1]) {
		title := "(preamble)"
		if len(out) == 0 {
			title = u.Path
		}
		out = append([]section{{Title: title, Level: 1, StartLine: 1}}, out...)
	}
	for i := range out {
		end := len(lines)
		if i+1 < len(out) {
			end = out[i+1].StartLine - 1
		}
		out[i].EndLine = min(max(end, out[i].StartLine), len(lines))
		if out[i].StartLine <= out[i].EndLine {
			out[i].Lead = leadSentence(lines[out[i].StartLine-1 : out[i].EndLine])
		}
	}
	return out
}

func fenceMark(t string) string {
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(t, f) {
			return f
		}
	}
	return ""
}

func hasText(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return true
		}
	}
	return false
}

// leadSentence is the first sentence of the first paragraph of prose in lines, skipping the
// heading itself, code, tables, markup and directives.
func leadSentence(lines []string) string {
	var para []string
	fence := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if fenceMark(t) != "" {
			fence = !fence
			continue
		}
		prose := !fence && t != "" && i > 0 && !rstRule.MatchString(t) && !strings.HasPrefix(l, "    ") &&
			!strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "|") && !strings.HasPrefix(t, "<") &&
			!strings.HasPrefix(t, "![") && !strings.HasPrefix(t, "..") && !strings.HasPrefix(t, ":") &&
			!strings.HasPrefix(t, "[!") && !strings.HasPrefix(t, "=") && !strings.HasPrefix(t, ">>>")
		if prose {
			para = append(para, strings.TrimLeft(t, "-*+> "))
			continue
		}
		if len(para) > 0 {
			break
		}
	}
	if len(para) == 0 {
		return ""
	}
	return firstSentence(strings.Join(para, " "), 200)
}

// docOutline is the narrative of a document: its headings, nested, each with the lead
// sentence of its section.
func docOutline(u *Unit) Abstract {
	secs := sections(u)
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s, %s, %s)\n", u.Path, u.Lang, plural(len(u.Lines()), "line", "lines"), plural(len(secs), "section", "sections"))
	parts := make([]Part, 0, len(secs))
	for _, s := range secs {
		indent := strings.Repeat("  ", max(s.Level-1, 0))
		fmt.Fprintf(&b, "%d %s%s\n", s.StartLine, indent, clip(s.Title, 120))
		if s.Lead != "" {
			fmt.Fprintf(&b, "  %s  %s\n", indent, s.Lead)
		}
		if s.StartLine <= s.EndLine {
			parts = append(parts, Part{Title: clip(s.Title, 100), StartLine: s.StartLine, EndLine: s.EndLine})
		}
	}
	head := secs[0].Title
	if secs[0].Lead != "" && (head == u.Path || head == "(preamble)") {
		head = secs[0].Lead
	} else if secs[0].Lead != "" {
		head += ": " + secs[0].Lead
	}
	return Abstract{Text: b.String(), Headline: clip(head, 140), Parts: parts}
}

// narrative is narrative_summary: the headings and lead sentences of documents; of code, the
// lead comment and the first doc sentence of each top-level definition; of data, its shape.
func narrative(ctx context.Context, u *Unit) (Abstract, error) {
	switch u.Kind {
	case UnitDoc:
		return docOutline(u), nil
	case UnitData:
		return dataShape(u), nil
	}
	syms, err := u.Symbols(ctx)
	if err != nil {
		return Abstract{}, err
	}
	lead := leadDoc(u)
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s, %s)\n", u.Path, u.Lang, plural(len(u.Lines()), "line", "lines"))
	for _, l := range lead {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	for _, s := range syms {
		if s.Parent != "" || !listed(s.Kind) {
			continue
		}
		line := fmt.Sprintf("%d %s %s", s.Span.StartLine, s.Kind, s.Name)
		if d := firstSentence(strings.Join(firstParagraph(s.Doc, 4), " "), 160); d != "" {
			line += ": " + d
		}
		b.WriteString(line + "\n")
	}
	return Abstract{Text: b.String(), Headline: codeHeadline(lead, syms), Parts: codeParts(syms, u.Lines())}, nil
}
