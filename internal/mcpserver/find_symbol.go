package mcpserver

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/winnowhq/winnow/internal/index"
	"github.com/winnowhq/winnow/internal/symbol"
)

const toolFindSymbol = "find_symbol"

//go:embed tools/find_symbol.md
var findSymbolDoc string

// findSymbolArgs are the arguments of the find_symbol tool.
type findSymbolArgs struct {
	Name  string `json:"name" jsonschema:"a name or qualified name: parse_header, Headers.get, pkg.Func, a::b; part of a name finds names that start with it or nearly match"`
	Kind  string `json:"kind,omitempty" jsonschema:"only definitions of these kinds, comma-separated: function, method, class, struct, interface, ..."`
	Exact bool   `json:"exact,omitempty" jsonschema:"only exact matches (ignoring case), no prefix or fuzzy matches"`
	Body  bool   `json:"body,omitempty" jsonschema:"also return the source code of the best matches (up to three)"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many matches, 1 to 100; default 10"`
}

const (
	defaultFindLimit = 10
	maxFindLimit     = 100
	maxBodies        = 3   // best matches whose source body:true returns
	maxBodyLines     = 150 // lines of one body; the rest is summarised
)

func (s *Server) addFindSymbol() {
	add(s, tool[findSymbolArgs]{
		name:    toolFindSymbol,
		title:   "Find a definition by name",
		doc:     findSymbolDoc,
		example: `{"name": "Headers.get", "body": true}`,
		more:    "Ask for fewer matches with limit, narrow them with kind or exact, or leave out body.",
		run:     s.findSymbol,
	})
}

func (s *Server) findSymbol(ctx context.Context, in findSymbolArgs) (string, error) {
	name := strings.TrimSpace(in.Name)
	if name == "" || strings.HasSuffix(name, ".") || strings.HasSuffix(name, ":") {
		return "", fixable(`name %q: give a definition's name or qualified name, e.g. "parse_header" or "Headers.get"`, in.Name)
	}
	limit, err := limitArg(in.Limit, defaultFindLimit, maxFindLimit)
	if err != nil {
		return "", err
	}
	kinds, err := parseKinds(in.Kind)
	if err != nil {
		return "", err
	}
	matches, err := s.ix.Lookup(ctx, name, index.LookupOptions{Limit: limit, Kinds: kinds, Exact: in.Exact})
	if err != nil {
		return "", err
	}
	if len(matches) == 0 {
		return "", fixable("no definition matches %q%s. Try part of the name, drop exact or kind, or describe what you are looking for to the context tool", name, filterNote(in))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s for %q, best first:\n", len(matches), plural(len(matches), "definition", "definitions"), name)
	for i, m := range matches {
		writeMatch(&b, i+1, m)
	}
	if in.Body {
		for _, m := range bestMatches(matches, maxBodies) {
			b.WriteString("\n")
			b.WriteString(s.body(m.Symbol))
		}
	}
	return b.String(), nil
}

// bestMatches returns the first matches, at most n, that matched as well
// as the first: the source of an exact match, not of every name like it.
func bestMatches(ms []index.Match, n int) []index.Match {
	end := 0
	for end < len(ms) && end < n && ms[end].How == ms[0].How {
		end++
	}
	return ms[:end]
}

// writeMatch writes one match: kind, qualified name, location and how it
// matched, then its signature and the first line of its doc.
func writeMatch(b *strings.Builder, n int, m index.Match) {
	fmt.Fprintf(b, "\n%d. %s %s  %s  (%s match)\n", n, m.Kind, m.Qual, m.Location(), m.How)
	for _, line := range strings.Split(strings.TrimSpace(m.Signature), "\n") {
		if line != "" {
			fmt.Fprintf(b, "   %s\n", line)
		}
	}
	if doc := m.DocLine(); doc != "" {
		fmt.Fprintf(b, "   doc: %s\n", doc)
	}
}

// body returns the source of a definition, read from the tree, at most
// maxBodyLines lines, in a fenced block headed by its location.
func (s *Server) body(sym symbol.Symbol) string {
	src, err := s.ix.ReadSource(sym.Path)
	if err != nil {
		return fmt.Sprintf("source of %s: cannot read %s: %v\n", sym.Qual, sym.Path, err)
	}
	text, ok := spanText(src, sym.Span)
	if !ok {
		return fmt.Sprintf("source of %s: %s changed since it was indexed; call find_symbol again\n", sym.Qual, sym.Path)
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	var b strings.Builder
	fmt.Fprintf(&b, "source of %s, %s:%d-%d:\n```\n", sym.Qual, sym.Path, sym.Span.StartLine, sym.Span.EndLine)
	shown := lines[:min(len(lines), maxBodyLines)]
	b.WriteString(strings.Join(shown, "\n"))
	b.WriteString("\n```\n")
	if rest := len(lines) - len(shown); rest > 0 {
		fmt.Fprintf(&b, "(%d more lines, to line %d: outline %s to see its parts)\n", rest, sym.Span.EndLine, sym.Path)
	}
	return b.String()
}

// spanText returns the bytes of span in src, from the start of its first
// line, so that the first line keeps its indentation. It reports false if
// the span does not lie in src.
func spanText(src []byte, span symbol.Span) (string, bool) {
	start, end := span.StartByte, span.EndByte
	if start < 0 || end > len(src) || start > end {
		return "", false
	}
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	return string(src[start:end]), true
}

// parseKinds reads a comma-separated list of kind names.
func parseKinds(list string) ([]symbol.Kind, error) {
	var kinds []symbol.Kind
	for _, name := range strings.Split(list, ",") {
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		k, ok := symbol.ParseKind(name)
		if !ok || k == symbol.Unknown {
			return nil, fixable("unknown kind %q; kinds are %s", name, kindNames())
		}
		kinds = append(kinds, k)
	}
	return kinds, nil
}

func kindNames() string {
	var names []string
	for _, k := range symbol.Kinds() {
		names = append(names, k.String())
	}
	return strings.Join(names, ", ")
}

// limitArg checks a limit argument: 0 means def, else 1 to max.
func limitArg(n, def, max int) (int, error) {
	switch {
	case n == 0:
		return def, nil
	case n < 0 || n > max:
		return 0, fixable("limit %d: give a number from 1 to %d, or leave it out for %d", n, max, def)
	}
	return n, nil
}

// filterNote names the filters of a lookup that found nothing.
func filterNote(in findSymbolArgs) string {
	var f []string
	if in.Kind != "" {
		f = append(f, "kind "+in.Kind)
	}
	if in.Exact {
		f = append(f, "exact")
	}
	if len(f) == 0 {
		return ""
	}
	return " with " + strings.Join(f, " and ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
