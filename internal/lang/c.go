package lang

import (
	clang "github.com/tree-sitter/tree-sitter-c/bindings/go"
)

var cLang = &Language{
	Name:       "c",
	Extensions: []string{".c"},
	grammar:    clang.Language,
	rules: rules{
		comments: []string{"comment"},
	},
}
