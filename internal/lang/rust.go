package lang

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	rust "github.com/tree-sitter/tree-sitter-rust/bindings/go"

	"github.com/winnowhq/winnow/internal/symbol"
)

var rustLang = &Language{
	Name:       "rust",
	Extensions: []string{".rs"},
	grammar:    rust.Language,
	rules: rules{
		comments:   []string{"line_comment", "block_comment"},
		attributes: []string{"attribute_item"},
		// macro_rules! has no body field; its signature stops at the
		// first rule.
		bodies:        []string{"macro_rule"},
		trimSignature: "{",
		visibility:    rustVisibility,
	},
}

// rustVisibility follows Rust's privacy rules: an item is private to its
// module unless marked pub; pub(crate), pub(super) and pub(in path)
// reach the crate at most. Trait items, enum variants and the items of a
// trait impl are as visible as their trait or enum, and an exported
// macro_rules! (#[macro_export]) is public.
func rustVisibility(c *defContext) symbol.Visibility {
	n := c.node
	if vis := visibilityModifier(n); vis != nil {
		return rustVisibilityWord(c.text(vis))
	}
	switch n.Kind() {
	case "enum_variant":
		return symbol.Public
	case "field_declaration":
		// Fields of an enum variant are as visible as the enum.
		if p := n.Parent(); p != nil {
			if v := p.Parent(); v != nil && v.Kind() == "enum_variant" {
				return symbol.Public
			}
		}
	case "macro_definition":
		if rustMacroExported(c, n) {
			return symbol.Public
		}
		return symbol.Private
	}
	if p := n.Parent(); p != nil && p.Kind() == "declaration_list" {
		if owner := p.Parent(); owner != nil {
			switch {
			case owner.Kind() == "trait_item":
				return symbol.Public
			case owner.Kind() == "impl_item" && owner.ChildByFieldName("trait") != nil:
				return symbol.Public
			}
		}
	}
	return symbol.Private
}

func visibilityModifier(n *sitter.Node) *sitter.Node {
	for i := range n.NamedChildCount() {
		if ch := n.NamedChild(i); ch != nil && ch.Kind() == "visibility_modifier" {
			return ch
		}
	}
	return nil
}

// rustVisibilityWord maps pub, pub(crate), pub(super), pub(self) and
// pub(in path) to a Visibility.
func rustVisibilityWord(s string) symbol.Visibility {
	s = strings.Join(strings.Fields(s), "")
	switch {
	case s == "pub":
		return symbol.Public
	case s == "pub(self)":
		return symbol.Private
	case strings.HasPrefix(s, "crate"), strings.HasPrefix(s, "pub("):
		return symbol.Internal // pub(crate), pub(super), pub(in …), crate
	}
	return symbol.Public
}

// rustMacroExported reports whether #[macro_export] is among the
// attributes right above a macro_rules! definition.
func rustMacroExported(c *defContext, n *sitter.Node) bool {
	for s := n.PrevSibling(); s != nil; s = s.PrevSibling() {
		switch s.Kind() {
		case "attribute_item":
			if strings.Contains(c.text(s), "macro_export") {
				return true
			}
		case "line_comment", "block_comment":
		default:
			return false
		}
	}
	return false
}
