package telescope

import (
	"context"
	"fmt"
	"strings"

	"github.com/winnowhq/winnow/internal/symbol"
)

// trivialLines is the longest body, in lines, of a definition whose body says nothing a
// reader of its signature needs: getters, one-line wrappers, stubs.
const trivialLines = 3

// maxKeyComments bounds the comments kept from one body.
const maxKeyComments = 3

// keyComment matches the comments worth keeping from a body: the ones that warn.
var keyComment = lazy(`\b(TODO|FIXME|XXX|HACK|BUG|NOTE|SECURITY|WARNING|SAFETY|DEPRECATED|Deprecated|UNSAFE|INVARIANT)\b`)

// listed reports whether definitions of kind k get a line of their own; constants and
// variables are named in one line per file, fields and members not at all.
func listed(k symbol.Kind) bool {
	switch k {
	case symbol.Variable, symbol.Constant, symbol.Field, symbol.Property, symbol.EnumMember, symbol.Unknown:
		return false
	}
	return true
}

func callable(k symbol.Kind) bool {
	return k == symbol.Function || k == symbol.Method || k == symbol.Constructor || k == symbol.Macro
}

// signatures is code_signature: the file's lead comment, then every definition in source
// order, nested as in the source, with its line, its signature and the first paragraph of its
// doc; the key comments (TODO, FIXME, SECURITY …) of non-trivial bodies; the names of
// top-level constants and variables. No body is reproduced.
func signatures(ctx context.Context, u *Unit) (Abstract, error) {
	if u.Kind != UnitCode {
		return byUnitKind(ctx, u)
	}
	syms, err := u.Symbols(ctx)
	if err != nil {
		return Abstract{}, err
	}
	lines := u.Lines()
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s, %s, %s)\n", u.Path, u.Lang, plural(len(lines), "line", "lines"), plural(countListed(syms), "definition", "definitions"))
	lead := leadDoc(u)
	for _, l := range lead {
		fmt.Fprintf(&b, "  %s\n", l)
	}
	depth := make(map[string]int, len(syms))
	seen := make(map[int]bool) // lines of key comments already shown
	var names []string
	for _, s := range syms {
		d := 0
		if pd, ok := depth[s.Parent]; ok && s.Parent != "" {
			d = pd + 1
		}
		if _, dup := depth[s.Qual]; !dup {
			depth[s.Qual] = d
		}
		if !listed(s.Kind) {
			if s.Parent == "" && (s.Kind == symbol.Constant || s.Kind == symbol.Variable) {
				names = append(names, s.Name)
			}
			continue
		}
		writeDefinition(&b, s, d, lines, seen)
	}
	if len(names) > 0 {
		const maxNames = 16
		more := ""
		if len(names) > maxNames {
			more = fmt.Sprintf(" … +%d", len(names)-maxNames)
			names = names[:maxNames]
		}
		fmt.Fprintf(&b, "  top-level names: %s%s\n", strings.Join(names, ", "), more)
	}
	return Abstract{Text: b.String(), Headline: codeHeadline(lead, syms), Parts: codeParts(syms, lines)}, nil
}

// writeDefinition writes one definition: line number, indented signature, doc, key comments.
func writeDefinition(b *strings.Builder, s symbol.Symbol, depth int, lines []string, seen map[int]bool) {
	indent := strings.Repeat("  ", depth)
	sig := strings.TrimSpace(s.Signature)
	if sig == "" {
		sig = s.Kind.String() + " " + s.Name
	}
	sigLines := strings.Split(sig, "\n")
	fmt.Fprintf(b, "%d %s%s\n", s.Span.StartLine, indent, strings.TrimRight(sigLines[0], " \t\r"))
	for _, l := range sigLines[1:] {
		fmt.Fprintf(b, "  %s%s\n", indent, strings.TrimSpace(l))
	}
	for _, l := range firstParagraph(s.Doc, 2) {
		fmt.Fprintf(b, "  %s  %s\n", indent, clip(l, 160))
	}
	if !callable(s.Kind) || s.Span.Lines() <= trivialLines+1 {
		return
	}
	kept := 0
	for n := s.Span.StartLine + 1; n <= min(s.Span.EndLine, len(lines)) && kept < maxKeyComments; n++ {
		c, ok := commentText(lines[n-1])
		if !ok || seen[n] || !keyComment.MatchString(c) {
			continue
		}
		seen[n] = true
		kept++
		fmt.Fprintf(b, "  %s  %d: %s\n", indent, n, clip(c, 140))
	}
}

func countListed(syms []symbol.Symbol) int {
	n := 0
	for _, s := range syms {
		if listed(s.Kind) {
			n++
		}
	}
	return n
}

// codeHeadline is the lead comment's first line, else the first top-level definitions.
func codeHeadline(lead []string, syms []symbol.Symbol) string {
	if len(lead) > 0 {
		return firstSentence(strings.TrimSuffix(strings.Join(lead, " "), " …"), 140)
	}
	var names []string
	n := 0
	for _, s := range syms {
		if s.Parent != "" || !listed(s.Kind) {
			continue
		}
		n++
		if len(names) < 5 {
			names = append(names, s.Name)
		}
	}
	switch {
	case n == 0:
		return "no definitions"
	case n > len(names):
		return fmt.Sprintf("defines %s … (%d in all)", strings.Join(names, ", "), n)
	}
	return "defines " + strings.Join(names, ", ")
}

// codeParts are a code unit's L0 pieces: the preamble before the first definition, when it
// holds anything, then each definition not inside an earlier one. A definition with a parent
// that lies outside the parent's lines (a Go method, whose parent is its receiver's type) is
// a part of its own; one nested in its parent's lines (a Python method) is in the parent's.
func codeParts(syms []symbol.Symbol, lines []string) []Part {
	var parts []Part
	first := len(lines) + 1
	for _, s := range syms {
		first = min(first, s.Span.StartLine)
	}
	if first > 1 && strings.TrimSpace(strings.Join(lines[:min(first-1, len(lines))], "")) != "" {
		parts = append(parts, Part{Title: "preamble (imports, declarations)", StartLine: 1, EndLine: min(first-1, len(lines))})
	}
	end := 0
	for _, s := range syms {
		if s.Span.StartLine <= end {
			continue
		}
		title := firstLine(s.Signature)
		if title == "" {
			title = s.Kind.String() + " " + s.Name
		}
		parts = append(parts, Part{Title: clip(title, 100), StartLine: s.Span.StartLine, EndLine: s.Span.EndLine})
		end = s.Span.EndLine
	}
	return parts
}

// leadDoc is the first paragraph (up to three lines) of a file's opening docstring or
// comment block, skipping a shebang and licence headers.
func leadDoc(u *Unit) []string {
	lines := u.Lines()
	i := 0
	skip := func(l string) bool {
		return strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#!") || strings.HasPrefix(l, "# -*-") ||
			strings.HasPrefix(l, "//go:") || strings.HasPrefix(l, "// +build")
	}
	for i < len(lines) && skip(lines[i]) {
		i++
	}
	for i < len(lines) {
		t := strings.TrimSpace(lines[i])
		if q := docQuote(t); q != "" { // a Python module docstring
			return firstParagraph(quoted(lines[i:], q), 3)
		}
		var block []string
		j := i
		if strings.HasPrefix(t, "/*") { // a block comment, to its end
			for ; j < len(lines); j++ {
				l := strings.TrimSpace(lines[j])
				end := strings.Contains(l, "*/")
				l = strings.TrimPrefix(strings.TrimPrefix(l, "/**"), "/*")
				l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(strings.SplitN(l, "*/", 2)[0]), "*"))
				block = append(block, l)
				if end {
					j++
					break
				}
			}
		}
		for ; !strings.HasPrefix(t, "/*") && j < len(lines); j++ {
			c, ok := commentText(lines[j])
			if !ok {
				break
			}
			block = append(block, c)
		}
		if len(block) == 0 {
			return nil
		}
		text := strings.Join(block, "\n")
		if !licence(text) {
			return firstParagraph(text, 3)
		}
		i = j
		for i < len(lines) && skip(lines[i]) {
			i++
		}
	}
	return nil
}

// docQuote returns the triple quote a line opens a docstring with, if it does.
func docQuote(t string) string {
	t = strings.TrimLeft(t, "rRuUbB")
	for _, q := range []string{`"""`, `'''`} {
		if strings.HasPrefix(t, q) {
			return q
		}
	}
	return ""
}

// quoted returns the text of the docstring that starts lines and is closed by q.
func quoted(lines []string, q string) string {
	first := strings.TrimSpace(lines[0])
	first = first[strings.Index(first, q)+len(q):]
	if k := strings.Index(first, q); k >= 0 {
		return first[:k]
	}
	out := []string{first}
	for _, l := range lines[1:] {
		if k := strings.Index(l, q); k >= 0 {
			return strings.Join(append(out, l[:k]), "\n")
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func licence(s string) bool {
	l := strings.ToLower(s)
	return strings.Contains(l, "copyright") || strings.Contains(l, "licen") || strings.Contains(l, "spdx")
}
