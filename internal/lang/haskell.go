package lang

import (
	"slices"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	haskell "github.com/tree-sitter/tree-sitter-haskell/bindings/go"

	"github.com/winnowhq/winnow/internal/symbol"
)

var haskellLang = &Language{
	Name:       "haskell",
	Extensions: []string{".hs"},
	grammar:    haskell.Language,
	rules: rules{
		comments: []string{"comment", "haddock"},
		// {-# INLINE f #-} may stand between a haddock and f.
		attributes: []string{"pragma"},
		// A data type's signature shows its first constructors; a class's
		// and an equation's stop at the body.
		bodies:        []string{"class_declarations", "instance_declarations", "match"},
		trimSignature: "=|",
		visibility:    haskellVisibility,
		bodyDoc:       haskellDoc,
	},
}

// haskellVisibility follows the module's export list: without one,
// everything is exported; with one, a name is public when it is listed,
// a constructor, field or class method when its type is listed with (..)
// or with that name, and everything is public when the module re-exports
// itself. Instance methods are always visible.
func haskellVisibility(c *defContext) symbol.Visibility {
	exports := haskellExports(c.node)
	if exports == nil {
		return symbol.Public
	}
	e := c.def.enclosing
	if e != nil && e.scope {
		return symbol.Public // an instance method
	}
	owner := ""
	if e != nil {
		owner = e.name
		if c.kind() == symbol.Field && (e.kind == symbol.EnumMember || e.kind == symbol.Constructor) {
			if t := e.enclosing; t != nil {
				owner = t.name // a field: its data type exports it
			}
		}
	}
	for i := range exports.NamedChildCount() {
		ex := exports.NamedChild(i)
		if ex == nil {
			continue
		}
		if ex.Kind() == "module_export" {
			if m := ex.ChildByFieldName("module"); m != nil && c.text(m) == c.x.file.Package {
				return symbol.Public
			}
			continue
		}
		if ex.Kind() != "export" {
			continue
		}
		if haskellExportName(c, ex) == c.name() {
			return symbol.Public
		}
		if owner != "" && haskellExportName(c, ex) == owner && haskellExportsChild(c, ex, c.name()) {
			return symbol.Public
		}
	}
	return symbol.Private
}

// haskellExports returns the export list of the module holding n, or nil
// when the module has none.
func haskellExports(n *sitter.Node) *sitter.Node {
	root := n
	for p := root.Parent(); p != nil; p = p.Parent() {
		root = p
	}
	for i := range root.NamedChildCount() {
		if h := root.NamedChild(i); h != nil && h.Kind() == "header" {
			return h.ChildByFieldName("exports")
		}
	}
	return nil
}

// haskellExportName is the name an export entry exports: f, T, (<+>).
func haskellExportName(c *defContext, ex *sitter.Node) string {
	for _, field := range []string{"variable", "type", "operator"} {
		if n := ex.ChildByFieldName(field); n != nil {
			if q := n.ChildByFieldName("id"); q != nil {
				n = q // M.f
			}
			if n.Kind() == "prefix_id" && n.NamedChildCount() == 1 {
				n = n.NamedChild(0) // (<+>)
			}
			return c.text(n)
		}
	}
	return ""
}

// haskellExportsChild reports whether an export entry T(..) or T(a, b)
// exports the constructor, field or method name.
func haskellExportsChild(c *defContext, ex *sitter.Node, name string) bool {
	children := ex.ChildByFieldName("children")
	if children == nil {
		return false
	}
	var names []string
	for i := range children.NamedChildCount() {
		ch := children.NamedChild(i)
		if ch == nil {
			continue
		}
		if ch.Kind() == "all_names" {
			return true
		}
		names = append(names, c.text(ch))
	}
	return slices.Contains(names, name)
}

// haskellDoc finds the docs the generic leading-comment rule cannot:
// the haddock of the first definition of a block, which tree-sitter
// hangs at the end of the node before the block (the imports before the
// first declaration, the class head before its first method), and a
// "-- ^" haddock after a constructor or field.
func haskellDoc(c *defContext) string {
	if c.outer.PrevSibling() == nil {
		if doc := haskellFirstDoc(c); doc != "" {
			return doc
		}
	} else if doc := c.x.leadingDoc(c.outer); doc != "" {
		return doc
	}
	if c.kind().IsType() {
		return "" // a "-- ^" after a type documents its last member
	}
	return haskellTrailingDoc(c)
}

func haskellFirstDoc(c *defContext) string {
	block := c.outer.Parent()
	if block == nil {
		return ""
	}
	prev := block.PrevSibling()
	for prev != nil && !haskellIsComment(prev) && prev.NamedChildCount() > 0 {
		prev = prev.NamedChild(prev.NamedChildCount() - 1)
	}
	var parts []string
	line := c.outer.StartPosition().Row
	for n := prev; n != nil && haskellIsComment(n) && n.EndPosition().Row+1 >= line; n = n.PrevSibling() {
		if p := n.PrevSibling(); p != nil && !haskellIsComment(p) && p.EndPosition().Row == n.StartPosition().Row {
			break // a comment trailing the code before it
		}
		parts = append(parts, c.text(n))
		line = n.StartPosition().Row
	}
	slices.Reverse(parts)
	return cleanComment(strings.Join(parts, "\n"))
}

// haskellTrailingDoc returns the "-- ^" haddock that follows a
// definition on its last line or the next, with the comment lines that
// continue it. The haddock may be a sibling of an enclosing node when
// the definition ends its parent (the last constructor of a type).
func haskellTrailingDoc(c *defContext) string {
	n := c.outer
	for n.NextSibling() == nil {
		p := n.Parent()
		if p == nil || p.EndByte() != n.EndByte() {
			return ""
		}
		n = p
	}
	next := n.NextSibling()
	if next.Kind() != "haddock" || next.StartPosition().Row > c.outer.EndPosition().Row+1 {
		return ""
	}
	if !strings.HasPrefix(strings.TrimLeft(strings.TrimPrefix(c.text(next), "--"), " "), "^") {
		return ""
	}
	parts := []string{c.text(next)}
	for m := next.NextSibling(); m != nil && haskellIsComment(m) && m.StartPosition().Row == next.EndPosition().Row+1; m = m.NextSibling() {
		if strings.HasPrefix(strings.TrimLeft(strings.TrimPrefix(c.text(m), "--"), " "), "|") {
			break // the next definition's haddock
		}
		parts = append(parts, c.text(m))
		next = m
	}
	doc := cleanComment(strings.Join(parts, "\n"))
	return strings.TrimSpace(strings.TrimPrefix(doc, "^"))
}

func haskellIsComment(n *sitter.Node) bool {
	return n.Kind() == "comment" || n.Kind() == "haddock"
}
