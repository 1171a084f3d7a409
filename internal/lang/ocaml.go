package lang

import (
	ocaml "github.com/tree-sitter/tree-sitter-ocaml/bindings/go"
)

var ocamlLang = &Language{
	Name:       "ocaml",
	Extensions: []string{".ml"},
	grammar:    ocaml.LanguageOCaml,
	rules: rules{
		comments: []string{"comment"},
	},
}
