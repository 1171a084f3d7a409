package lang

import (
	"strings"

	lua "github.com/tree-sitter-grammars/tree-sitter-lua/bindings/go"
	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/winnowhq/winnow/internal/symbol"
)

var luaLang = &Language{
	Name:       "lua",
	Extensions: []string{".lua"},
	grammar:    lua.Language,
	rules: rules{
		comments: []string{"comment"},
		// local f = function … end, M.f = function … end and
		// { f = function … end }: the assignment belongs to the function
		// (and local to the variable) it holds.
		wrappers:   []string{"expression_list", "assignment_statement", "variable_declaration", "field"},
		bodies:     []string{"block"},
		visibility: luaVisibility,
	},
}

// luaVisibility: a local is visible in its file only; globals and the
// fields of tables are public unless, by convention, their name starts
// with an underscore.
func luaVisibility(c *defContext) symbol.Visibility {
	for _, n := range []*sitter.Node{c.node, c.outer} {
		if first := n.Child(0); first != nil && first.Kind() == "local" {
			return symbol.Private
		}
	}
	if strings.HasPrefix(c.name(), "_") {
		return symbol.Private
	}
	return symbol.Public
}
