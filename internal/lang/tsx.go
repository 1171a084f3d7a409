package lang

import (
	typescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// tsxLang is TypeScript with JSX. Its query is TypeScript's followed by
// the JSX patterns.
var tsxLang = &Language{
	Name:       "tsx",
	Extensions: []string{".tsx"},
	grammar:    typescript.LanguageTSX,
	rules:      typescriptRules,
	queries:    []string{"typescript", "jsx"},
}
