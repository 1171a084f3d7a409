package lang

import (
	"strings"

	php "github.com/tree-sitter/tree-sitter-php/bindings/go"

	"github.com/winnowhq/winnow/internal/symbol"
)

var phpLang = &Language{
	Name:       "php",
	Extensions: []string{".php", ".phtml"},
	grammar:    php.LanguagePHP,
	rules: rules{
		comments:   []string{"comment"},
		attributes: []string{"attribute_list"},
		// A declaration or statement holding one definition belongs to
		// it: "private int $n = 0;" is the span of $n.
		wrappers:      []string{"property_declaration", "const_declaration", "expression_statement"},
		bodies:        []string{"compound_statement", "declaration_list", "enum_declaration_list"},
		trimSignature: "{;",
		visibility:    phpVisibility,
	},
}

// phpVisibility reads the public, protected or private modifier of a
// member; a property or constant shares the modifier of its declaration
// list ("private $a, $b;"). Members without one, and everything outside
// a class, are public.
func phpVisibility(c *defContext) symbol.Visibility {
	n := c.node
	switch n.Kind() {
	case "property_element", "const_element":
		if p := n.Parent(); p != nil {
			n = p
		}
	}
	for i := range n.ChildCount() {
		ch := n.Child(i)
		if ch != nil && ch.Kind() == "visibility_modifier" {
			v, _ := accessFromWords(strings.Fields(strings.ToLower(c.text(ch))))
			return v
		}
	}
	return symbol.Public
}
