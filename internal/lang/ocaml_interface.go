package lang

import (
	ocaml "github.com/tree-sitter/tree-sitter-ocaml/bindings/go"
)

var ocamlInterfaceLang = &Language{
	Name:       "ocaml_interface",
	Extensions: []string{".mli"},
	grammar:    ocaml.LanguageOCamlInterface,
	rules:      ocamlRules,
	queries:    []string{"ocaml", "ocaml_rest"},
}
