package lang

import (
	zig "github.com/tree-sitter-grammars/tree-sitter-zig/bindings/go"

	"github.com/winnowhq/winnow/internal/symbol"
)

var zigLang = &Language{
	Name:       "zig",
	Extensions: []string{".zig"},
	grammar:    zig.Language,
	rules: rules{
		comments: []string{"comment"},
		// const Point = struct {…} has no body field: its signature
		// stops at the container's first member.
		bodies: []string{
			"container_field", "function_declaration", "variable_declaration",
			"test_declaration", "comptime_declaration", "using_namespace_declaration",
		},
		trimSignature: "{",
		visibility:    zigVisibility,
	},
}

// zigVisibility: a declaration is private to its file unless marked pub
// (or export, which makes it a public symbol of the object file).
// Container fields and enum members have no access control.
func zigVisibility(c *defContext) symbol.Visibility {
	switch c.kind() {
	case symbol.Field, symbol.EnumMember:
		return symbol.Public
	}
	if len(c.modifierWords("pub", "export")) > 0 {
		return symbol.Public
	}
	return symbol.Private
}
