package lang

import (
	"slices"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	ruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"

	"github.com/winnowhq/winnow/internal/symbol"
)

var rubyLang = &Language{
	Name:       "ruby",
	Extensions: []string{".rb", ".rake", ".gemspec", ".ru"},
	Filenames:  []string{"Rakefile", "Gemfile", "Guardfile", "Vagrantfile"},
	grammar:    ruby.Language,
	rules: rules{
		comments: []string{"comment"},
		// private def m … end: the call and its argument list belong to
		// the method they hold, as a decorator does in Python.
		wrappers:      []string{"argument_list", "call"},
		bodies:        []string{"body_statement"},
		trimSignature: "=;",
		visibility:    rubyVisibility,
	},
}

// rubyVisibility follows Ruby's access control: a method is public
// unless a bare private or protected line opens a section above it in
// the same body, a modifier call wraps its def (private def m), or a
// later private :m, private_class_method :m or private_constant :C names
// it. Singleton methods ignore sections, as Ruby does.
func rubyVisibility(c *defContext) symbol.Visibility {
	if c.outer != c.node && c.outer.Kind() == "call" {
		if v, ok := rubyAccessWord(rubyCallName(c, c.outer), c.kind()); ok {
			return v
		}
	}
	body := c.outer.Parent()
	if body == nil {
		return symbol.Public
	}
	instance := c.node.Kind() == "method"
	v := symbol.Public
	for i := range body.NamedChildCount() {
		n := body.NamedChild(i)
		if n == nil {
			continue
		}
		switch n.Kind() {
		case "identifier":
			// A section applies to the instance methods below it.
			if instance && n.StartByte() < c.outer.StartByte() {
				if w, ok := rubyAccessWord(c.text(n), symbol.Method); ok {
					v = w
				}
			}
		case "call":
			// private :a, :b applies wherever it stands.
			w, ok := rubyAccessWord(rubyCallName(c, n), c.kind())
			if ok && n.ChildByFieldName("receiver") == nil && rubyNamesSymbol(c, n, c.name()) {
				return w
			}
		}
	}
	return v
}

// rubyAccessWord maps an access-control call to the visibility it gives
// a definition of kind k, if it applies to that kind.
func rubyAccessWord(word string, k symbol.Kind) (symbol.Visibility, bool) {
	callable := k == symbol.Method || k == symbol.Function || k == symbol.Constructor
	switch {
	case callable && (word == "private" || word == "private_class_method"):
		return symbol.Private, true
	case callable && word == "protected":
		return symbol.Protected, true
	case callable && (word == "public" || word == "public_class_method" || word == "module_function"):
		return symbol.Public, true
	case !callable && word == "private_constant":
		return symbol.Private, true
	case !callable && word == "public_constant":
		return symbol.Public, true
	}
	return symbol.Public, false
}

// rubyCallName is the method name of a call node.
func rubyCallName(c *defContext, call *sitter.Node) string {
	if m := call.ChildByFieldName("method"); m != nil {
		return c.text(m)
	}
	return ""
}

// rubyNamesSymbol reports whether a call's arguments include :name or
// "name".
func rubyNamesSymbol(c *defContext, call *sitter.Node, name string) bool {
	args := call.ChildByFieldName("arguments")
	if args == nil {
		return false
	}
	var names []string
	for i := range args.NamedChildCount() {
		a := args.NamedChild(i)
		if a == nil {
			continue
		}
		switch a.Kind() {
		case "simple_symbol":
			names = append(names, strings.TrimPrefix(c.text(a), ":"))
		case "string", "delimited_symbol":
			names = append(names, trimQuotes(strings.TrimPrefix(c.text(a), ":")))
		}
	}
	return slices.Contains(names, name)
}
