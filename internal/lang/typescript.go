package lang

import (
	typescript "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

var typescriptLang = &Language{
	Name:       "typescript",
	Extensions: []string{".ts", ".mts", ".cts"},
	grammar:    typescript.LanguageTypescript,
	rules:      typescriptRules,
}

// typescriptRules are shared by TypeScript and TSX, whose grammars differ
// only in JSX.
var typescriptRules = rules{
	comments: []string{"comment"},
	// A method's decorators are its siblings in the class body, between
	// its doc comment and the method.
	attributes: []string{"decorator"},
	// A declaration or statement holding one definition belongs to it,
	// so that "export declare const x: T" is one span and its doc
	// comment sits above the export.
	wrappers: []string{
		"export_statement", "ambient_declaration",
		"lexical_declaration", "variable_declaration", "expression_statement",
	},
	bodies:        []string{"statement_block", "class_body"},
	trimSignature: "{;",
	visibility:    ecmaVisibility,
}
