package lang

import (
	golang "github.com/tree-sitter/tree-sitter-go/bindings/go"

	"github.com/winnowhq/winnow/internal/symbol"
)

var goLang = &Language{
	Name:       "go",
	Extensions: []string{".go"},
	grammar:    golang.Language,
	rules: rules{
		comments:         []string{"comment"},
		wrappers:         []string{"type_declaration", "const_declaration", "var_declaration"},
		bodies:           []string{"block", "field_declaration_list"},
		packageQualifies: true,
		trimSignature:    "{",
		visibility:       goVisibility,
	},
}

// goVisibility: an upper-case initial exports a name; anything else is
// visible in its package only.
func goVisibility(c *defContext) symbol.Visibility { return goVisibilityOf(c.name()) }
