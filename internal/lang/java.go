package lang

import (
	java "github.com/tree-sitter/tree-sitter-java/bindings/go"

	"github.com/winnowhq/winnow/internal/symbol"
)

var javaLang = &Language{
	Name:       "java",
	Extensions: []string{".java"},
	grammar:    java.Language,
	rules: rules{
		comments: []string{"line_comment", "block_comment"},
		// A field or constant with one declarator is that declarator's
		// definition: its span and signature take in the modifiers and type.
		wrappers: []string{"field_declaration", "constant_declaration"},
		// Declarations name their body in the "body" field; these catch a
		// field initialised with a lambda or an anonymous class.
		bodies:        []string{"block", "class_body"},
		trimSignature: "{;",
		visibility:    javaVisibility,
	},
}

// javaVisibility follows the JLS: an explicit public, protected or
// private wins; members of interfaces and annotation types, enum
// constants, record components and modules are implicitly public; enum
// constructors are implicitly private; anything else is package-private.
func javaVisibility(c *defContext) symbol.Visibility {
	if v, ok := accessFromWords(javaModifiers(c)); ok {
		return v
	}
	switch c.kind() {
	case symbol.EnumMember, symbol.Property, symbol.Module:
		return symbol.Public
	case symbol.Constructor:
		if k, ok := c.enclosing(); ok && k == symbol.Enum {
			return symbol.Private
		}
	}
	if k, ok := c.enclosing(); ok && k == symbol.Interface {
		return symbol.Public
	}
	return symbol.Internal
}

// javaModifiers returns the modifier keywords of a declaration, leaving
// out annotations (whose arguments may hold any word). A declarator of
// a field with several declarators takes the field's modifiers.
func javaModifiers(c *defContext) []string {
	decl := c.node
	if decl.Kind() == "variable_declarator" {
		if p := decl.Parent(); p != nil {
			decl = p
		}
	}
	var words []string
	for i := range decl.NamedChildCount() {
		mods := decl.NamedChild(i)
		if mods == nil || mods.Kind() != "modifiers" {
			continue
		}
		for j := range mods.ChildCount() {
			if k := mods.Child(j); k != nil && !k.IsNamed() {
				words = append(words, c.text(k))
			}
		}
	}
	return words
}
