package lang

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	scala "github.com/tree-sitter/tree-sitter-scala/bindings/go"

	"github.com/winnowhq/winnow/internal/symbol"
)

var scalaLang = &Language{
	Name:       "scala",
	Extensions: []string{".scala", ".sc"},
	grammar:    scala.Language,
	rules: rules{
		comments: []string{"comment", "block_comment"},
		// Definitions name their body in the "body" field (for a def, the
		// expression after "="); a val's block or anonymous class is a
		// body too.
		bodies:        []string{"block", "indented_block", "template_body"},
		trimSignature: "={:",
		visibility:    scalaVisibility,
	},
}

// scalaVisibility: private[this] and private are private, a qualified
// private[pkg] is visible in that package (internal), protected (with or
// without a qualifier) is protected; local definitions are private to
// their block; everything else is public, Scala's default.
func scalaVisibility(c *defContext) symbol.Visibility {
	if mod := scalaAccessModifier(c); mod != nil {
		words := strings.FieldsFunc(c.text(mod), isWordSep)
		switch {
		case len(words) == 0:
		case words[0] == "protected":
			return symbol.Protected
		case words[0] == "private" && len(words) > 1 && words[1] != "this":
			return symbol.Internal
		case words[0] == "private":
			return symbol.Private
		}
	}
	if k, ok := c.enclosing(); ok && k.IsCallable() {
		return symbol.Private
	}
	return symbol.Public
}

// scalaAccessModifier finds the access modifier of a definition; a name
// in val a, b or val (a, b) takes the modifiers of its val.
func scalaAccessModifier(c *defContext) *sitter.Node {
	decl := c.node
	if p := decl.Parent(); p != nil && (p.Kind() == "identifiers" || p.Kind() == "tuple_pattern") {
		if gp := p.Parent(); gp != nil {
			decl = gp
		}
	}
	for i := range decl.NamedChildCount() {
		mods := decl.NamedChild(i)
		if mods == nil || mods.Kind() != "modifiers" {
			continue
		}
		for j := range mods.NamedChildCount() {
			if m := mods.NamedChild(j); m != nil && m.Kind() == "access_modifier" {
				return m
			}
		}
	}
	return nil
}
