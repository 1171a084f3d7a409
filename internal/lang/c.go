package lang

import (
	"slices"

	clang "github.com/tree-sitter/tree-sitter-c/bindings/go"

	"github.com/winnowhq/winnow/internal/symbol"
)

var cLang = &Language{
	Name:       "c",
	Extensions: []string{".c"},
	grammar:    clang.Language,
	rules: rules{
		comments: []string{"comment"},
		// typedef struct {…} name; belongs to the struct it names.
		wrappers:      []string{"type_definition"},
		trimSignature: "{",
		visibility:    cVisibility,
	},
}

// cVisibility: static gives a file-scope function or variable internal
// linkage, which makes it private to its file; everything else links
// program-wide.
func cVisibility(c *defContext) symbol.Visibility {
	if slices.Contains(c.modifierWords("storage_class_specifier"), "static") {
		return symbol.Private
	}
	return symbol.Public
}
