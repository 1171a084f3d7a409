package lang

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	csharp "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"

	"github.com/winnowhq/winnow/internal/symbol"
)

var csharpLang = &Language{
	Name:       "csharp",
	Extensions: []string{".cs"},
	grammar:    csharp.Language,
	rules: rules{
		comments:   []string{"comment"},
		attributes: []string{"attribute_list"},
		// A field with one declarator is that declarator's definition: its
		// span and signature take in the attributes, modifiers and type.
		wrappers: []string{"variable_declaration", "field_declaration", "event_field_declaration"},
		// Declarations name their body in the "body" field; a property's
		// accessors and an expression-bodied member's arrow are bodies too.
		bodies:           []string{"accessor_list", "arrow_expression_clause", "block", "declaration_list"},
		packageQualifies: true, // only a file-scoped namespace sets the package
		trimSignature:    "{;",
		visibility:       csharpVisibility,
		bodyDoc:          csharpDoc,
	},
}

// csharpVisibility follows the C# defaults: an explicit access modifier
// wins (file-local types are private); members of interfaces and enums,
// record parameters and explicit interface implementations are public;
// other members of types, and local functions, are private; top-level
// types are internal.
func csharpVisibility(c *defContext) symbol.Visibility {
	words := csharpModifiers(c)
	for _, w := range words {
		if w == "file" {
			return symbol.Private
		}
	}
	if v, ok := accessFromWords(words); ok {
		return v
	}
	switch c.kind() {
	case symbol.Namespace, symbol.EnumMember:
		return symbol.Public
	case symbol.Property:
		if c.node.Kind() == "parameter" {
			return symbol.Public
		}
	}
	if csharpHasChild(c.node, "explicit_interface_specifier") {
		return symbol.Public
	}
	k, ok := c.enclosing()
	switch {
	case !ok || k == symbol.Namespace:
		return symbol.Internal
	case k == symbol.Interface:
		return symbol.Public
	}
	return symbol.Private
}

// csharpModifiers returns the modifier words of a declaration; a
// declarator of a field with several declarators takes the field's.
func csharpModifiers(c *defContext) []string {
	if c.node.Kind() != "variable_declarator" || c.outer != c.node {
		return c.modifierWords("modifier")
	}
	decl := c.node.Parent()
	if decl != nil {
		decl = decl.Parent()
	}
	if decl == nil {
		return nil
	}
	var words []string
	for i := range decl.NamedChildCount() {
		if m := decl.NamedChild(i); m != nil && m.Kind() == "modifier" {
			words = append(words, c.text(m))
		}
	}
	return words
}

func csharpHasChild(n *sitter.Node, kind string) bool {
	for i := range n.NamedChildCount() {
		if ch := n.NamedChild(i); ch != nil && ch.Kind() == kind {
			return true
		}
	}
	return false
}

// csharpDoc is the leading comment with the <summary> wrapper of an XML
// doc comment removed, so that the summary text is the doc's first line.
// (It reads leading comments itself because rules have no hook to clean
// a leading doc; bodyDoc runs first and wins when non-empty.)
func csharpDoc(c *defContext) string {
	doc := c.x.leadingDoc(c.outer)
	if !strings.Contains(doc, "<summary>") {
		return doc
	}
	doc = strings.NewReplacer("<summary>", "", "</summary>", "").Replace(doc)
	lines := strings.Split(strings.TrimSpace(doc), "\n")
	return strings.TrimSpace(dedent(lines))
}
