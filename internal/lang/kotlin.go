package lang

import (
	kotlin "github.com/tree-sitter-grammars/tree-sitter-kotlin/bindings/go"
)

var kotlinLang = &Language{
	Name:       "kotlin",
	Extensions: []string{".kt", ".kts"},
	grammar:    kotlin.Language,
	rules: rules{
		comments: []string{"comment"},
	},
}
