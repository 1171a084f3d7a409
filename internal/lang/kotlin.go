package lang

import (
	kotlin "github.com/tree-sitter-grammars/tree-sitter-kotlin/bindings/go"

	"github.com/winnowhq/winnow/internal/symbol"
)

var kotlinLang = &Language{
	Name:       "kotlin",
	Extensions: []string{".kt", ".kts"},
	grammar:    kotlin.Language,
	rules: rules{
		comments: []string{"line_comment", "block_comment"},
		// Top-level declarations sit in a statement node; the doc comment
		// is the statement's sibling.
		wrappers:        []string{"statement"},
		bodies:          []string{"class_body", "enum_class_body", "function_body", "block", "getter", "setter"},
		trimSignature:   "{",
		visibility:      kotlinVisibility,
		trailingNewline: true,
	},
}

// kotlinVisibility: a visibility modifier (public, internal, protected,
// private) wins; local functions and classes are private to their
// function; everything else is public, Kotlin's default.
func kotlinVisibility(c *defContext) symbol.Visibility {
	if v, ok := accessFromWords(kotlinVisibilityWords(c)); ok {
		return v
	}
	if k, ok := c.enclosing(); ok && k.IsCallable() {
		return symbol.Private
	}
	return symbol.Public
}

// kotlinVisibilityWords returns the visibility modifiers of the
// declaration itself, not those of its accessors or annotations.
func kotlinVisibilityWords(c *defContext) []string {
	var words []string
	for i := range c.node.NamedChildCount() {
		mods := c.node.NamedChild(i)
		if mods == nil || mods.Kind() != "modifiers" {
			continue
		}
		for j := range mods.NamedChildCount() {
			if m := mods.NamedChild(j); m != nil && m.Kind() == "visibility_modifier" {
				words = append(words, c.text(m))
			}
		}
	}
	return words
}
