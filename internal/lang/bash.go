package lang

import (
	"strings"

	bash "github.com/tree-sitter/tree-sitter-bash/bindings/go"

	"github.com/winnowhq/winnow/internal/symbol"
)

var bashLang = &Language{
	Name:       "bash",
	Extensions: []string{".sh", ".bash"},
	grammar:    bash.Language,
	rules: rules{
		comments: []string{"comment"},
		// export X=1, readonly X=1: the keyword belongs to the variable.
		wrappers:      []string{"declaration_command"},
		trimSignature: "{(",
		visibility:    bashVisibility,
	},
}

// bashVisibility: shell has no access control; by convention a leading
// underscore marks a function or variable as the script's own.
func bashVisibility(c *defContext) symbol.Visibility {
	if strings.HasPrefix(c.name(), "_") {
		return symbol.Private
	}
	return symbol.Public
}
