package lang

import (
	scala "github.com/tree-sitter/tree-sitter-scala/bindings/go"
)

var scalaLang = &Language{
	Name:       "scala",
	Extensions: []string{".scala", ".sc"},
	grammar:    scala.Language,
	rules: rules{
		comments: []string{"comment"},
	},
}
