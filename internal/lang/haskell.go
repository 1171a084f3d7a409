package lang

import (
	haskell "github.com/tree-sitter/tree-sitter-haskell/bindings/go"
)

var haskellLang = &Language{
	Name:       "haskell",
	Extensions: []string{".hs"},
	grammar:    haskell.Language,
	rules: rules{
		comments: []string{"comment"},
	},
}
