package lang

import (
	zig "github.com/tree-sitter-grammars/tree-sitter-zig/bindings/go"
)

var zigLang = &Language{
	Name:       "zig",
	Extensions: []string{".zig"},
	grammar:    zig.Language,
	rules: rules{
		comments: []string{"comment"},
	},
}
