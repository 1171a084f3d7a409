package lang

import (
	javascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
)

var javascriptLang = &Language{
	Name:       "javascript",
	Extensions: []string{".js", ".mjs", ".cjs", ".jsx"},
	grammar:    javascript.Language,
	rules: rules{
		comments: []string{"comment"},
	},
}
