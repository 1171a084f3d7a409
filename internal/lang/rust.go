package lang

import (
	rust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
)

var rustLang = &Language{
	Name:       "rust",
	Extensions: []string{".rs"},
	grammar:    rust.Language,
	rules: rules{
		comments: []string{"comment"},
	},
}
