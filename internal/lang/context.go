package lang

import (
	"slices"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/winnowhq/winnow/internal/symbol"
)

// defContext is what a language's rules see of one definition.
type defContext struct {
	x     *extraction
	def   *def
	node  *sitter.Node // the definition node the query captured
	outer *sitter.Node // node, or the wrapper that belongs to it
}

func (c *defContext) name() string               { return c.def.name }
func (c *defContext) kind() symbol.Kind          { return c.def.kind }
func (c *defContext) text(n *sitter.Node) string { return c.x.text(n) }

// enclosing returns the kind of the definition that holds this one, and
// whether there is one.
func (c *defContext) enclosing() (symbol.Kind, bool) {
	if e := c.def.enclosing; e != nil && !e.scope {
		return e.kind, true
	}
	return symbol.Unknown, false
}

// modifierWords returns the words of the modifier children of the
// definition (and of its wrapper): children whose kind is one of kinds,
// searched one level deep.
func (c *defContext) modifierWords(kinds ...string) []string {
	var words []string
	for _, n := range []*sitter.Node{c.node, c.outer} {
		for i := range n.ChildCount() {
			ch := n.Child(i)
			if ch == nil || !slices.Contains(kinds, ch.Kind()) {
				continue
			}
			words = append(words, strings.FieldsFunc(c.text(ch), isWordSep)...)
		}
		if c.outer == c.node {
			break
		}
	}
	return words
}

func isWordSep(r rune) bool {
	return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
}

// accessFromWords maps the first access word found to a Visibility.
func accessFromWords(words []string) (symbol.Visibility, bool) {
	for _, w := range words {
		switch w {
		case "public":
			return symbol.Public, true
		case "private", "fileprivate":
			return symbol.Private, true
		case "protected":
			return symbol.Protected, true
		case "internal":
			return symbol.Internal, true
		}
	}
	return symbol.Public, false
}
