package mcpserver

import (
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"github.com/winnowhq/winnow/internal/index"
)

const toolReferences = "references"

//go:embed tools/references.md
var referencesDoc string

// referencesArgs are the arguments of the references tool.
type referencesArgs struct {
	Name  string `json:"name" jsonschema:"the name whose uses to list: parse_header, or a qualified Headers.get, which is matched by its last part"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many places, 1 to 500; default 50"`
}

const (
	defaultRefsLimit = 50
	maxRefsLimit     = 500
)

func (s *Server) addReferences() {
	add(s, tool[referencesArgs]{
		name:    toolReferences,
		title:   "Find the uses of a name",
		doc:     referencesDoc,
		example: `{"name": "parse_retry_after", "limit": 20}`,
		more:    "Ask for fewer places with limit.",
		run:     s.references,
	})
}

func (s *Server) references(ctx context.Context, in referencesArgs) (string, error) {
	asked := strings.TrimSpace(strings.ReplaceAll(in.Name, "::", "."))
	name := asked[strings.LastIndexByte(asked, '.')+1:]
	if name == "" {
		return "", fixable(`name %q: give the name of a function, method, class or variable, e.g. "parse_header"`, in.Name)
	}
	limit, err := limitArg(in.Limit, defaultRefsLimit, maxRefsLimit)
	if err != nil {
		return "", err
	}
	refs, err := s.ix.References(ctx, name, limit)
	if err != nil {
		return "", err
	}
	if len(refs) == 0 {
		return s.noReferences(ctx, asked, name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Uses of %q: %d %s", name, len(refs), plural(len(refs), "place", "places"))
	if len(refs) == limit {
		fmt.Fprintf(&b, " (the limit; there may be more)")
	}
	b.WriteString(", by file; each line is where a definition (or the file's top level) first uses the name, with the kind and number of uses.")
	if name != asked {
		fmt.Fprintf(&b, " Uses are matched by name, so these are the uses of every %q, not only %s's.", name, asked)
	}
	b.WriteString("\n")
	for _, g := range groupByFile(refs) {
		fmt.Fprintf(&b, "\n%s\n", g[0].Path)
		for _, r := range g {
			scope := r.Scope
			if scope == "" {
				scope = "(top level)"
			}
			fmt.Fprintf(&b, "%5d  %-6s in %s  ×%d\n", r.Line, r.Kind, scope, r.Count)
		}
	}
	return b.String(), nil
}

// noReferences answers a name without uses: a tool error if the name is
// not defined either, else where it is defined.
func (s *Server) noReferences(ctx context.Context, asked, name string) (string, error) {
	defs, err := s.ix.Lookup(ctx, asked, index.LookupOptions{Exact: true, Limit: 5})
	if err != nil {
		return "", err
	}
	if len(defs) == 0 {
		return "", fixable("%q is neither defined nor used in the indexed files. Check the spelling with find_symbol, which also finds names from a part of them", asked)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "No uses of %q in the indexed files (uses through reflection, strings or unindexed files are not seen). It is defined at:\n", name)
	for _, d := range defs {
		fmt.Fprintf(&b, "  %s %s  %s\n", d.Kind, d.Qual, d.Location())
	}
	return b.String(), nil
}

// groupByFile groups references by file, files in the order they first
// appear (calls and type uses before plain names), lines in order.
func groupByFile(refs []index.Reference) [][]index.Reference {
	var groups [][]index.Reference
	at := make(map[string]int)
	for _, r := range refs {
		i, ok := at[r.Path]
		if !ok {
			i = len(groups)
			at[r.Path] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], r)
	}
	for _, g := range groups {
		slices.SortStableFunc(g, func(a, b index.Reference) int { return cmp.Compare(a.Line, b.Line) })
	}
	return groups
}
