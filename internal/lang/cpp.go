package lang

import (
	"slices"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	cpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"

	"github.com/winnowhq/winnow/internal/symbol"
)

var cppLang = &Language{
	Name:       "cpp",
	Extensions: []string{".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".inl"},
	grammar:    cpp.Language,
	rules: rules{
		comments: []string{"comment"},
		// template<…> and extern "C" belong to the one declaration they
		// hold; typedef struct {…} name; to the struct it names.
		wrappers:      []string{"template_declaration", "type_definition", "linkage_specification"},
		trimSignature: "{",
		visibility:    cppVisibility,
	},
}

// cppVisibility: a class member has the access of the last access
// specifier above it, else its class's default (private in a class,
// public in a struct or union). Outside classes, static and the
// anonymous namespace give internal linkage: private to the file.
func cppVisibility(c *defContext) symbol.Visibility {
	if v, ok := cppMemberAccess(c, c.outer); ok {
		return v
	}
	if slices.Contains(c.modifierWords("storage_class_specifier"), "static") || inAnonymousNamespace(c.node) {
		return symbol.Private
	}
	return symbol.Public
}

// cppMemberAccess returns the access of n when it is declared in a class
// body (directly or inside #if blocks there), and false otherwise.
func cppMemberAccess(c *defContext, n *sitter.Node) (symbol.Visibility, bool) {
	body := n.Parent()
	for body != nil && strings.HasPrefix(body.Kind(), "preproc_") {
		body = body.Parent()
	}
	if body == nil || body.Kind() != "field_declaration_list" {
		return symbol.Public, false
	}
	access := symbol.Public
	if cls := body.Parent(); cls != nil && cls.Kind() == "class_specifier" {
		access = symbol.Private
	}
	// Scan the body in order (a cursor, not PrevSibling, which is linear
	// per call), descending into the #if block that holds n.
	at := n.StartByte()
	cur := body.Walk()
	defer cur.Close()
	for ok := cur.GotoFirstChild(); ok; {
		ch := cur.Node()
		switch {
		case ch.EndByte() <= at:
			if ch.Kind() == "access_specifier" {
				access, _ = accessFromWords([]string{strings.TrimSpace(c.text(ch))})
			}
			ok = cur.GotoNextSibling()
		case ch.StartByte() < at && strings.HasPrefix(ch.Kind(), "preproc_"):
			ok = cur.GotoFirstChild()
		default:
			return access, true
		}
	}
	return access, true
}

// maxNamespaceDepth bounds the walk up to an anonymous namespace:
// Parent costs a walk down from the root, and a malformed file can nest
// thousands deep.
const maxNamespaceDepth = 16

func inAnonymousNamespace(n *sitter.Node) bool {
	p := n.Parent()
	for range maxNamespaceDepth {
		if p == nil {
			return false
		}
		if p.Kind() == "namespace_definition" && p.ChildByFieldName("name") == nil {
			return true
		}
		p = p.Parent()
	}
	return false
}
