package lang

import (
	"strings"

	ocaml "github.com/tree-sitter/tree-sitter-ocaml/bindings/go"

	"github.com/winnowhq/winnow/internal/symbol"
)

var ocamlLang = &Language{
	Name:       "ocaml",
	Extensions: []string{".ml"},
	grammar:    ocaml.LanguageOCaml,
	rules:      ocamlRules,
	queries:    []string{"ocaml", "ocaml_implementation", "ocaml_rest"},
}

// ocamlRules serve implementations (.ml) and interfaces (.mli) alike:
// the two grammars share their node kinds, and the interface query is
// the implementation query less top-level let.
var ocamlRules = rules{
	comments: []string{"comment"},
	// let, type, module, class and exception keywords belong to the one
	// binding they introduce.
	wrappers: []string{
		"value_definition", "type_definition", "module_definition",
		"class_definition", "class_type_definition", "exception_definition",
	},
	// A module's signature stops at struct or sig; everything else has
	// a body field.
	bodies:        []string{"structure", "signature"},
	trimSignature: "=:",
	visibility:    ocamlVisibility,
	bodyDoc:       ocamlDoc,
}

// ocamlVisibility: what a module exports is decided by its interface,
// which is another file; here a leading underscore marks a name as
// unused outside (the compiler's own convention), method private hides
// a method, and instance variables are only visible to the class and
// its subclasses.
func ocamlVisibility(c *defContext) symbol.Visibility {
	switch c.node.Kind() {
	case "method_definition", "method_specification":
		if v, ok := accessFromWords(c.modifierWords("private")); ok {
			return v
		}
	case "instance_variable_definition", "instance_variable_specification":
		return symbol.Protected
	}
	if strings.HasPrefix(c.name(), "_") {
		return symbol.Private
	}
	return symbol.Public
}

// ocamlDoc returns the doc comment of a definition: the comments right
// above it, else a (** … *) comment right after it, where odoc also
// looks, unless that comment sits right above the next definition.
func ocamlDoc(c *defContext) string {
	if doc := c.x.leadingDoc(c.outer); doc != "" {
		return doc
	}
	next := c.outer.NextSibling()
	end := c.outer.EndPosition().Row
	if next == nil || next.Kind() != "comment" || next.StartPosition().Row > end+1 {
		return ""
	}
	text := c.text(next)
	if !strings.HasPrefix(text, "(**") || strings.HasPrefix(text, "(***") {
		return ""
	}
	after := next.NextSibling()
	if next.StartPosition().Row > end && after != nil && after.Kind() != "comment" && after.StartPosition().Row <= next.EndPosition().Row+1 {
		return "" // on its own line right above the next definition: its doc
	}
	return cleanComment(text)
}
