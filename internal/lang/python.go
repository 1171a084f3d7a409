package lang

import (
	"strings"

	python "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/winnowhq/winnow/internal/symbol"
)

var pythonLang = &Language{
	Name:       "python",
	Extensions: []string{".py", ".pyi", ".pyw"},
	grammar:    python.Language,
	rules: rules{
		comments:      []string{"comment"},
		wrappers:      []string{"decorated_definition"},
		bodies:        []string{"block"},
		trimSignature: ":",
		visibility:    pythonVisibility,
		bodyDoc:       pythonDocstring,
		commentRuns:   '#',
	},
}

// pythonVisibility follows PEP 8: a leading underscore marks a name
// internal; dunder names (__init__) are public protocol.
func pythonVisibility(c *defContext) symbol.Visibility {
	name := c.name()
	if strings.HasPrefix(name, "_") && !(strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")) {
		return symbol.Private
	}
	return symbol.Public
}

// pythonDocstring returns the string literal that opens a function's or
// class's body.
func pythonDocstring(c *defContext) string {
	body := c.node.ChildByFieldName("body")
	if body == nil {
		return ""
	}
	first := body.NamedChild(0)
	if first == nil || first.Kind() != "expression_statement" || first.NamedChildCount() != 1 {
		return ""
	}
	str := first.NamedChild(0)
	if str == nil || str.Kind() != "string" {
		return ""
	}
	return cleanDocstring(c.text(str))
}
