package lang

import (
	typescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

var tsxLang = &Language{
	Name:       "tsx",
	Extensions: []string{".tsx"},
	grammar:    typescript.LanguageTSX,
	rules: rules{
		comments: []string{"comment"},
	},
}
