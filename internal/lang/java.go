package lang

import (
	java "github.com/tree-sitter/tree-sitter-java/bindings/go"
)

var javaLang = &Language{
	Name:       "java",
	Extensions: []string{".java"},
	grammar:    java.Language,
	rules: rules{
		comments: []string{"comment"},
	},
}
