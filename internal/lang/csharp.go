package lang

import (
	csharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"
)

var csharpLang = &Language{
	Name:       "csharp",
	Extensions: []string{".cs"},
	grammar:    csharp.Language,
	rules: rules{
		comments: []string{"comment"},
	},
}
