package lang

import (
	"bytes"
	"strings"

	javascript "github.com/tree-sitter/tree-sitter-javascript/bindings/go"

	"github.com/winnowhq/winnow/internal/symbol"
)

var javascriptLang = &Language{
	Name:       "javascript",
	Extensions: []string{".js", ".mjs", ".cjs", ".jsx"},
	grammar:    javascript.Language,
	queries:    []string{"javascript", "jsx"},
	rules: rules{
		comments: []string{"comment"},
		// A variable declaration or statement holding one definition
		// belongs to it, so that "export const f = () => …" is one
		// span and its doc comment sits above the export.
		wrappers:      []string{"export_statement", "lexical_declaration", "variable_declaration", "expression_statement"},
		bodies:        []string{"statement_block", "class_body"},
		trimSignature: "{;",
		visibility:    ecmaVisibility,
	},
}

// ecmaVisibility is the visibility rule of JavaScript and TypeScript:
// #names are private to their class; TypeScript's accessibility
// modifiers say the rest for class members, which are public by default.
// A definition local to a function body is private. At module level, an
// ES module exports what it marks export (or lists in export { … });
// everything else in it is private to the file. A script (no import or
// export statement) shares its top level with every other script, and
// ambient declarations (declare, .d.ts) describe what exists elsewhere:
// both are public.
func ecmaVisibility(c *defContext) symbol.Visibility {
	if strings.HasPrefix(c.name(), "#") {
		return symbol.Private
	}
	if v, ok := accessFromWords(c.modifierWords("accessibility_modifier")); ok {
		return v
	}
	switch c.node.Kind() {
	case "required_parameter", "optional_parameter", // constructor parameter properties
		"assignment_expression": // Type.prototype.m = …, exports.f = …
		return symbol.Public
	}
	if k, ok := c.enclosing(); ok {
		switch k {
		case symbol.Function, symbol.Method, symbol.Constructor:
			return symbol.Private
		case symbol.Namespace, symbol.Module:
			return ecmaModuleVisibility(c)
		}
		return symbol.Public
	}
	return ecmaModuleVisibility(c)
}

// ecmaModuleVisibility decides for a definition at the top level of a
// file or namespace.
func ecmaModuleVisibility(c *defContext) symbol.Visibility {
	container := c.node.Parent()
	for ; container != nil; container = container.Parent() {
		kind := container.Kind()
		if kind == "export_statement" || kind == "ambient_declaration" {
			return symbol.Public
		}
		if kind != "lexical_declaration" && kind != "variable_declaration" && kind != "expression_statement" {
			break
		}
	}
	if container == nil {
		return symbol.Public
	}
	switch container.Kind() {
	case "program":
		if isTSDeclarationFile(c.x.file.Path) {
			return symbol.Public
		}
		if module, listed := ecmaExports(c.x.src, c.name()); module && !listed {
			return symbol.Private
		}
	case "statement_block": // a namespace body, or a block
		for p := container.Parent(); p != nil; p = p.Parent() {
			if p.Kind() == "ambient_declaration" {
				return symbol.Public
			}
		}
		return symbol.Private
	}
	return symbol.Public
}

// isTSDeclarationFile reports whether path is a TypeScript declaration
// file, all of whose declarations are ambient.
func isTSDeclarationFile(path string) bool {
	for _, ext := range []string{".d.ts", ".d.mts", ".d.cts"} {
		if strings.HasSuffix(path, ext) {
			return true
		}
	}
	return false
}

// ecmaExports reports whether src is an ES module (a line starts with
// an import or export statement) and whether one of its export lists
// (export { a, b as c }, export default a, export = a) names name. It
// reads the text rather than the tree: it runs once per unexported
// top-level definition, and scanning bytes keeps that cheap in files
// with thousands of them.
func ecmaExports(src []byte, name string) (module, listed bool) {
	for _, at := range ecmaStatementsStarting(src, "import") {
		if rest := src[at+len("import"):]; len(rest) > 0 && rest[0] != '(' && rest[0] != '.' {
			module = true // not import(…) or import.meta
			break
		}
	}
	for _, at := range ecmaStatementsStarting(src, "export") {
		module = true
		if ecmaExportListNames(src[at+len("export"):], name) {
			return true, true
		}
	}
	return module, false
}

// ecmaStatementsStarting returns the offsets of keyword where it starts a
// line, as top-level statements do; an indented export belongs to a
// namespace.
func ecmaStatementsStarting(src []byte, keyword string) []int {
	var offsets []int
	for i := 0; i < len(src); {
		j := bytes.Index(src[i:], []byte(keyword))
		if j < 0 {
			break
		}
		at := i + j
		i = at + len(keyword)
		if (at == 0 || src[at-1] == '\n') && (i == len(src) || !ecmaIdentByte(src[i])) {
			offsets = append(offsets, at)
		}
	}
	return offsets
}

// ecmaExportListNames reports whether the text after an export keyword
// is a local export list naming name.
func ecmaExportListNames(rest []byte, name string) bool {
	rest = bytes.TrimLeft(rest, ecmaSpace)
	word, after := ecmaLeadingIdent(rest)
	switch word {
	case "default":
		local, _ := ecmaLeadingIdent(bytes.TrimLeft(after, ecmaSpace))
		return local == name
	case "type": // export type { T }
		rest = bytes.TrimLeft(after, ecmaSpace)
	}
	switch {
	case bytes.HasPrefix(rest, []byte("=")):
		local, _ := ecmaLeadingIdent(bytes.TrimLeft(rest[1:], ecmaSpace))
		return local == name
	case bytes.HasPrefix(rest, []byte("{")):
		end := bytes.IndexByte(rest, '}')
		if end < 0 {
			return false
		}
		if from, _ := ecmaLeadingIdent(bytes.TrimLeft(rest[end+1:], ecmaSpace)); from == "from" {
			return false // a re-export
		}
		for spec := range bytes.SplitSeq(rest[1:end], []byte(",")) {
			if local, _ := ecmaLeadingIdent(bytes.TrimLeft(spec, ecmaSpace)); local == name {
				return true
			}
		}
	}
	return false
}

const ecmaSpace = " \t\r\n"

// ecmaLeadingIdent splits the identifier that starts b from the rest.
func ecmaLeadingIdent(b []byte) (string, []byte) {
	n := 0
	for n < len(b) && ecmaIdentByte(b[n]) {
		n++
	}
	return string(b[:n]), b[n:]
}

func ecmaIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
