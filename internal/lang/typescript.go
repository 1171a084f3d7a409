package lang

import (
	typescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

var typescriptLang = &Language{
	Name:       "typescript",
	Extensions: []string{".ts", ".mts", ".cts"},
	grammar:    typescript.LanguageTypescript,
	rules: rules{
		comments: []string{"comment"},
	},
}
