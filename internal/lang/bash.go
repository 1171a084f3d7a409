package lang

import (
	bash "github.com/tree-sitter/tree-sitter-bash/bindings/go"
)

var bashLang = &Language{
	Name:       "bash",
	Extensions: []string{".sh", ".bash"},
	grammar:    bash.Language,
	rules: rules{
		comments: []string{"comment"},
	},
}
